"""Whole numbers typed by people or read from data files, by one rule.

``str.isdigit()`` is true for characters ``int()`` refuses (``"²"``, ``"①"``) and ``int()``
itself reads other scripts' digits (``"٣"``) and underscores (``"1_000"``). Dice, ids and
table rolls are plain ASCII digits with an optional minus sign; everything else is not a number.

Numbers are bounded here, where they are read: ``int()`` refuses strings past 4,300 digits with a
``ValueError`` a form or the command line would not expect, and no count, id or roll a person types
comes near :data:`MAX_DIGITS`. A longer one is simply not a number, so the field that held it is named.
"""

from __future__ import annotations

import re

MAX_DIGITS = 100
_WHOLE = re.compile(rf"-?[0-9]{{1,{MAX_DIGITS}}}")


class TooLong(str):
    """What :func:`json_number` leaves for a JSON number too long to read: a string, so a field expecting a
    number refuses it by name, shown by its length rather than all its digits."""

    def __repr__(self) -> str:
        return f"a number of {len(self.lstrip('-'))} digits"


def whole_number(text) -> int | None:
    """``"4"`` → 4, ``" -2 "`` → -2; anything else (``"²"``, ``"4.0"``, ``"1_0"``, ``None``) → None."""
    if not isinstance(text, str):
        return None
    text = text.strip()
    return int(text) if _WHOLE.fullmatch(text) else None


def is_whole_number(text) -> bool:
    return whole_number(text) is not None


def json_number(text: str) -> int | TooLong:
    """``json.loads(..., parse_int=json_number)``: JSON's integers, bounded like typed ones."""
    number = whole_number(text)
    return TooLong(text) if number is None else number
