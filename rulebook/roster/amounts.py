"""Amounts written as dice, and random picks made with ordinary dice.

Rewards and penalties in both editions' campaign rules are written as dice ("D6x10", "3D6x10", "D3+3",
"-D3"): :func:`roll_amount` rolls one, :func:`amount_distribution` gives its exact odds and
:func:`amount_dice` how many dice it takes. :func:`pick_index` picks one of several things (a random
fighter, skill or territory) with D6s, as the rulebooks tell players to when nothing better is given.
"""

from __future__ import annotations

import re

from rulebook.dice import D3, D6, DiceSource, Dist, certain, map_dist, sum_of
from rulebook.errors import RulesInputError

_AMOUNT = re.compile(r"^(-?)(?:(\d*)D([36])|(\d+))(?:\+(\d+))?(?:x(\d+))?$")


def _parse_amount(expr: str) -> tuple[int, int, int, int, int]:
    """``"3D6x10"`` → (count 3, die 6, fixed 0, plus 0, times 10); a leading ``-`` makes ``times`` negative."""
    match = _AMOUNT.match(expr.replace(" ", "").replace("×", "x"))
    if not match:
        raise RulesInputError("amount", f"{expr!r} is not a dice amount such as D6x10, D3+3 or -1")
    sign, count, sides, fixed, plus, times = match.groups()
    times = int(times or 1) * (-1 if sign else 1)
    if sides:
        return int(count or 1), int(sides), 0, int(plus or 0), times
    return 0, 6, int(fixed), int(plus or 0), times


def roll_amount(expr: str, dice: DiceSource, purpose: str) -> int:
    """Roll an amount such as ``"D6x10"``, ``"3D6x10"``, ``"D3+3"``, ``"-D3"`` or ``"8"``."""
    count, sides, fixed, plus, times = _parse_amount(expr)
    die = D3 if sides == 3 else D6
    total = fixed + sum(dice.roll(die, f"{purpose} ({expr})") for _ in range(count))
    return (total + plus) * times


def amount_dice(expr: str) -> int:
    """How many dice an amount rolls (``"4D6x10"`` → 4)."""
    return _parse_amount(expr)[0]


def amount_distribution(expr: str) -> Dist:
    count, sides, fixed, plus, times = _parse_amount(expr)
    base = sum_of(D3 if sides == 3 else D6, count) if count else certain(fixed)
    return map_dist(base, lambda total: (total + plus) * times)


def pick_index(count: int, dice: DiceSource, purpose: str) -> int:
    """Pick one of ``count`` things uniformly with D6s, every die shown.

    Roll as many D6 as needed to cover ``count`` (one die up to 6, two read as a D66 up to 36 ...),
    read them as one number, split its range into ``count`` equal bands and re-roll a result that
    falls past the last whole band. With 4 things one D6 is read 1-4, re-rolling 5 and 6; with 3
    things 1-2 is the first, 3-4 the second, 5-6 the third. One thing needs no die.
    """
    if count < 1:
        raise RulesInputError("fighters", "there is nothing to pick from")
    if count == 1:
        return 0
    digits, span = 1, 6
    while span < count:
        digits, span = digits + 1, span * 6
    band = span // count
    while True:
        value = 0
        for digit in range(digits):
            label = f" (die {digit + 1} of {digits})" if digits > 1 else ""
            value = value * 6 + dice.d6(f"{purpose}{label}") - 1
        if value < band * count:
            return value // band
