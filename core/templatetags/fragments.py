"""``{% tokencache %}``: Django's ``{% cache %}`` for a fragment that holds forms (core.fragments).

The fragment is drawn once with placeholders for its tokens and kept like ``{% cache %}`` keeps it; each request
puts its own CSRF token and fresh one-time tokens in on the way out, so the per-viewer controls, the URLs they
reverse and the forms' widgets are drawn once per key, never per request.

What a fragment may show a viewer is still decided by the view: every value that changes what the fragment holds
for this viewer (the version of the data, whether they arbitrate or may act, which gangs are theirs) must be among
its ``vary_on`` values, as with ``{% cache %}``, so no key is shared by viewers who see different things.
"""

from __future__ import annotations

from django import template
from django.templatetags.cache import CacheNode
from django.utils.safestring import mark_safe

from core.fragments import CSRF_PLACEHOLDER, DRAWING_FOR_CACHE, fill

register = template.Library()


class TokenCacheNode(CacheNode):
    def render(self, context):
        if context.get(DRAWING_FOR_CACHE):
            # Drawn into a fragment that is itself being kept: the placeholders stay for the outer one to fill, or
            # the outer one would keep this request's tokens.
            return super().render(context)
        token = context.get("csrf_token")
        with context.push({"csrf_token": CSRF_PLACEHOLDER, DRAWING_FOR_CACHE: True}):
            html = super().render(context)
        return mark_safe(fill(html, str(token) if token else ""))


@register.tag("tokencache")
def do_tokencache(parser, token):
    """``{% tokencache seconds name vary_on... %}...{% endtokencache %}``: the arguments of ``{% cache %}``."""
    nodelist = parser.parse(("endtokencache",))
    parser.delete_first_token()
    bits = token.split_contents()
    if len(bits) < 3:
        raise template.TemplateSyntaxError(f"'{bits[0]}' needs the seconds and a fragment name.")
    vary_on = [parser.compile_filter(bit) for bit in bits[3:]]
    return TokenCacheNode(nodelist, parser.compile_filter(bits[1]), bits[2], vary_on, None)
