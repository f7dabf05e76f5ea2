"""Rules tables read with a die: one row per range of results.

A :class:`Table` knows its dice, so it can refuse a result those dice cannot show (a D66 of
17, a 2D6 of 13), look a result up, list itself whole, and roll itself on a dice source.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from rulebook.dice import D3, D6, D66, D66_VALUES, TWO_D6, DiceSource, Dist
from rulebook.errors import RulesInputError
from rulebook.numbers import is_whole_number, whole_number
from rulebook.output import dist

POSSIBLE = {
    "D3": tuple(range(1, 4)),
    "D6": tuple(range(1, 7)),
    "2D6": tuple(range(2, 13)),
    "D66": D66_VALUES,
}


@dataclass(frozen=True)
class Row:
    low: int
    high: int
    result: str
    details: dict = field(default_factory=dict)

    def covers(self, roll: int) -> bool:
        return self.low <= roll <= self.high

    @property
    def label(self) -> str:
        return str(self.low) if self.low == self.high else f"{self.low}-{self.high}"


@dataclass(frozen=True)
class Table:
    name: str
    title: str
    dice: str
    rows: tuple[Row, ...]
    source: str

    def __post_init__(self) -> None:
        possible = POSSIBLE[self.dice]
        for value in possible:
            matches = [r for r in self.rows if r.covers(value)]
            if len(matches) != 1:
                raise ValueError(f"table {self.name}: {value} matches {len(matches)} rows")

    def check_roll(self, roll) -> int:
        if isinstance(roll, str):
            roll = self._read_entered(roll)
        if roll not in POSSIBLE[self.dice]:
            hint = " (tens die then units die, each 1-6)" if self.dice == "D66" else ""
            raise RulesInputError("roll", f"{roll} cannot be rolled on {self.dice}{hint} for the {self.title} table")
        return roll

    def _read_entered(self, text: str) -> int:
        """A result as a player types it: ``44``, or the two dice apart (``4,4`` or ``4+4``).

        Two dice apart are read as tens then units on D66 and added up on 2D6.
        """
        parts = [p for p in re.split(r"[,+\s]+", text.strip()) if p]
        if len(parts) == 2 and self.dice in ("D66", "2D6"):
            bad = [p for p in parts if p not in ("1", "2", "3", "4", "5", "6")]
            if bad:
                raise RulesInputError("roll", f"a D6 shows 1 to 6, not {bad[0]!r} (in {text!r})")
            first, second = (int(p) for p in parts)
            return 10 * first + second if self.dice == "D66" else first + second
        if len(parts) != 1 or whole_number(parts[0]) is None or parts[0].startswith("-"):
            raise RulesInputError("roll", f"{text!r} is not a whole number")
        return int(parts[0])

    def row(self, roll) -> Row:
        roll = self.check_roll(roll)
        return next(r for r in self.rows if r.covers(roll))

    def lookup(self, roll) -> dict:
        roll = self.check_roll(roll)
        row = self.row(roll)
        return {"table": self.name, "roll": roll, "rows": row.label, "result": row.result, **row.details}

    def roll(self, dice: DiceSource) -> dict:
        purpose = f"{self.title} table"
        if self.dice == "D66":
            value = dice.d66(purpose)
        elif self.dice == "2D6":
            value = sum(dice.two_d6(purpose))
        elif self.dice == "D3":
            value = dice.d3(purpose)
        else:
            value = dice.d6(purpose)
        return self.lookup(value)

    def distribution(self) -> Dist:
        """Exact chance of each result (by row name) on one roll of the table's dice."""
        faces = {"D3": D3.distribution(), "D6": D6.distribution(), "2D6": TWO_D6, "D66": D66}[self.dice]
        out: Dist = {}
        for value, p in faces.items():
            name = self.row(value).result
            out[name] = out.get(name, 0) + p
        return out

    def odds(self) -> dict:
        """The command line's odds for one roll of the table: each result's chance, and the table whole."""
        return {**dist("result", self.distribution()), "table": self.as_json()}

    def as_json(self) -> dict:
        return {
            "table": self.name,
            "title": self.title,
            "dice": self.dice,
            "source": self.source,
            "rows": [
                {"rows": r.label, "low": r.low, "high": r.high, "result": r.result, **r.details} for r in self.rows
            ],
        }


@dataclass(frozen=True)
class Chart:
    """A rules chart read by a characteristic rather than a die (to-hit by BS, wounds by Strength).

    It answers the command line like a :class:`Table`: ``lookup`` one row, ``as_json`` the whole.
    ``rows`` maps each possible value of ``key`` to that row's columns.
    """

    name: str
    title: str
    key: str
    rows: dict
    source: str

    def lookup(self, value) -> dict:
        if is_whole_number(value):
            value = whole_number(value)
        if value not in self.rows:
            low, high = min(self.rows), max(self.rows)
            raise RulesInputError("roll", f"{value!r} is not a {self.key} in the {self.title} ({low}-{high})")
        return {"table": self.name, self.key: value, **self.rows[value]}

    def as_json(self) -> dict:
        return {
            "table": self.name,
            "title": self.title,
            "key": self.key,
            "source": self.source,
            "rows": [{self.key: k, **v} for k, v in self.rows.items()],
        }
