"""``{% once_token %}``: the one-time token a battle form carries (a hidden ``once`` field), fresh for each form
rendered, so a second tap on the same button is recognised by the service (``battles.selectors.action_made``)
and gets the first answer. Drawn into a cached fragment (``{% tokencache %}``), it is a placeholder that each request
fills with a fresh token (core.fragments)."""

from django import template
from django.utils.html import format_html

from battles.forms import new_token
from core.fragments import DRAWING_FOR_CACHE, ONE_TIME_PLACEHOLDER

register = template.Library()


@register.simple_tag(takes_context=True)
def once_token(context, value: str = ""):
    fresh = ONE_TIME_PLACEHOLDER if context.get(DRAWING_FOR_CACHE) else new_token()
    return format_html('<input type="hidden" name="once" value="{}">', value or fresh)
