"""Refusals a campaign adds to a gang's purchases and hires (its house rules: items its Trading Post does not
sell, Hangers-on and Brutes before the first battle).

The gangs app sits below the campaigns app and never imports it; the campaigns app registers its checks here
when it starts (``campaigns.apps``), and the services ask :func:`purchase_refusal` and :func:`hire_refusal`. A
check returns the reason in plain words, or "" to allow. The buy lists leave out what the campaign bans: the
campaigns app gives, through :func:`banned_items`, an expression of the banned items' slugs that the list's own
query reads (no query of its own).
"""

from __future__ import annotations

from collections.abc import Callable

_PURCHASE: list[Callable] = []
_HIRE: list[Callable] = []
_BANNED: list[Callable] = []


def on_purchase(check: Callable) -> None:
    if check not in _PURCHASE:
        _PURCHASE.append(check)


def on_hire(check: Callable) -> None:
    if check not in _HIRE:
        _HIRE.append(check)


def on_banned_items(expression: Callable) -> None:
    if expression not in _BANNED:
        _BANNED.append(expression)


def banned_items(gang):
    """An expression (for an annotation) whose value is the list of slugs of the items the gang's campaign bans
    from its Trading Post (None or empty: none), or None if nothing registered one."""
    return _BANNED[0](gang) if _BANNED else None


def purchase_refusal(gang, equipment) -> str:
    return next((reason for check in _PURCHASE if (reason := check(gang, equipment))), "")


def hire_refusal(gang, fighter_type) -> str:
    return next((reason for check in _HIRE if (reason := check(gang, fighter_type))), "")
