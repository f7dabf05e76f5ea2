"""Filters that print profile numbers the way the books do."""

from django import template
from django.utils.safestring import mark_safe

register = template.Library()


@register.filter
def signed(value) -> str:
    """+1, -2, or a dash for none or zero (to-hit, Accuracy, save modifier, AP)."""
    if value in (None, "", 0):
        return "–"
    return f"{int(value):+d}"


@register.filter
def inches(value) -> str:
    """8 → 8" (a number of inches needs no escaping)."""
    return "–" if value in (None, "") else mark_safe(f'{int(value)}"')


@register.filter
def or_dash(value) -> str:
    return "–" if value in (None, "") else str(value)


@register.filter
def share(fraction: str) -> str:
    """A composition share in words: "1/2" → "half"."""
    return {"1/2": "half", "1/3": "a third", "1/4": "a quarter"}.get(fraction, fraction)
