"""``{% once_token %}``: the one-time token a battle form carries (a hidden ``once`` field), fresh for each form
rendered, so a second tap on the same button is recognised by the service (``battles.services.state.repeated``)
and gets the first answer."""

from django import template
from django.utils.html import format_html

from battles.forms import new_token

register = template.Library()


@register.simple_tag
def once_token(value: str = ""):
    return format_html('<input type="hidden" name="once" value="{}">', value or new_token())
