"""``{% tokencache %}``: Django's ``{% cache %}`` for a fragment that holds forms.

A fragment with a form in it differs from one request to the next only by its CSRF token (a fresh mask of the
same secret each time). The fragment is rendered once with a placeholder where each token goes, kept in the cache
like ``{% cache %}`` keeps it, and the request's own token is put in on the way out: the per-viewer controls, the
URLs they reverse and the forms' widgets are drawn once per key, never per request.

What a fragment may show a viewer is still decided by the view: every value that changes what the fragment holds
for this viewer (the version of the data, whether they arbitrate, which gangs are theirs) must be among the
fragment's ``vary_on`` values, as with ``{% cache %}``, so no key is shared by viewers who see different things.
"""

from __future__ import annotations

from django import template
from django.templatetags.cache import CacheNode
from django.utils.safestring import mark_safe

register = template.Library()

# Where a token goes: letters only, so the tag that draws the hidden input leaves it as it is (no escaping).
TOKEN_PLACEHOLDER = "csrftokenplaceholderxq"


class TokenCacheNode(CacheNode):
    def render(self, context):
        token = context.get("csrf_token")
        with context.push(csrf_token=TOKEN_PLACEHOLDER):
            html = super().render(context)
        return mark_safe(html.replace(TOKEN_PLACEHOLDER, str(token) if token else ""))


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
