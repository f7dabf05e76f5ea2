"""Whole numbers typed by people or read from data files, by one rule.

``str.isdigit()`` is true for characters ``int()`` refuses (``"²"``, ``"①"``) and ``int()``
itself reads other scripts' digits (``"٣"``) and underscores (``"1_000"``). Dice, ids and
table rolls are plain ASCII digits with an optional minus sign; everything else is not a number.
"""

from __future__ import annotations

import re

_WHOLE = re.compile(r"-?[0-9]+")


def whole_number(text) -> int | None:
    """``"4"`` → 4, ``" -2 "`` → -2; anything else (``"²"``, ``"4.0"``, ``"1_0"``, ``None``) → None."""
    if not isinstance(text, str):
        return None
    text = text.strip()
    return int(text) if _WHOLE.fullmatch(text) else None


def is_whole_number(text) -> bool:
    return whole_number(text) is not None
