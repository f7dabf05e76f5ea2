"""``{% site_url %}`` and ``{% site_static %}``: the links every page draws the same, worked out once per process.

Every page's header and navigation (base.html, core/_nav.html) draw nine links to pages that take no arguments and
six static files; ``{% url %}`` and ``{% static %}`` work each out again on every request, which together cost more
than the rest of the header (issue 28: a warm page against its login floor). Each is kept under what it depends
on: a URL under the URLconf's resolver and the script prefix (a test that swaps the URLconf, or a site served under
a prefix, gets its own), a static file's under the storage that names it (a settings change makes a new one).
"""

from __future__ import annotations

from functools import lru_cache

from django import template
from django.core.files.storage import storages
from django.templatetags.static import static
from django.urls import get_resolver, get_script_prefix, get_urlconf, reverse

register = template.Library()


@lru_cache(maxsize=256)
def _reversed(resolver, prefix: str, name: str) -> str:
    # The resolver is Django's own cached one: a URLconf change (clear_url_caches) gives a new one, so a new key.
    return reverse(name, urlconf=resolver.urlconf_name)


@lru_cache(maxsize=256)
def _static(storage, path: str) -> str:
    # The storage fixes the URL (its manifest, its base URL); a missing file raises, and nothing is kept.
    return static(path)


@register.simple_tag
def site_url(name: str) -> str:
    """``{% site_url "home" %}``: ``{% url "home" %}`` for a URL with no arguments."""
    return _reversed(get_resolver(get_urlconf()), get_script_prefix(), name)


@register.simple_tag
def site_static(path: str) -> str:
    """``{% site_static "css/base.css" %}``: ``{% static "css/base.css" %}``."""
    return _static(storages["staticfiles"], path)
