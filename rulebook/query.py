"""Reading a JSON query with messages that name the field a person got wrong.

Every value a rule needs is read through :class:`Query`, which knows the dotted path of
the field it reads, so an out-of-range Strength says ``weapon.strength`` rather than
failing somewhere inside the arithmetic.
"""

from __future__ import annotations

import json
from collections.abc import Iterable

from rulebook.errors import RulesInputError
from rulebook.numbers import is_whole_number, json_number

_MISSING = object()


def load_query(text: str) -> Query:
    if not text.strip():
        raise RulesInputError("query", "expected a JSON object on standard input")
    try:
        data = json.loads(text, parse_int=json_number)
    except json.JSONDecodeError as exc:
        raise RulesInputError("query", f"not valid JSON ({exc.msg} at line {exc.lineno})") from None
    if not isinstance(data, dict):
        raise RulesInputError("query", "expected a JSON object")
    return Query(data)


class Query:
    def __init__(self, data: dict, path: str = "") -> None:
        self.data = data
        self.path = path
        # Which fields a rule looked at, and the nested queries it opened, so that a field nobody
        # reads (a misspelt modifier) is refused instead of silently changing nothing.
        self._read: set[str] = set()
        self._children: list[Query] = []

    def accept(self, *names: str) -> None:
        """Fields this query may carry that the rule does not need in this case (a target's WS when it
        does not strike back): known, so not refused."""
        self._read.update(names)

    def unknown_fields(self) -> list[str]:
        """Dotted paths of the fields no rule read, in this query and every nested one it opened."""
        found = [self.field(name) for name in self.data if name not in self._read]
        for child in self._children:
            found.extend(child.unknown_fields())
        return found

    def refuse_unknown(self) -> None:
        """Raise for the first field no rule read (the contract: exit 2 naming the field)."""
        unknown = self.unknown_fields()
        if unknown:
            more = f" (also {', '.join(unknown[1:])})" if len(unknown) > 1 else ""
            raise RulesInputError(unknown[0], f"is not a field this action knows{more}")

    def _child(self, data: dict, path: str) -> Query:
        child = Query(data, path)
        self._children.append(child)
        return child

    def field(self, name: str) -> str:
        return f"{self.path}.{name}" if self.path else name

    def has(self, name: str) -> bool:
        self._read.add(name)
        return name in self.data and self.data[name] is not None

    def raw(self, name: str, default=_MISSING):
        self._read.add(name)
        if name not in self.data:
            if default is _MISSING:
                raise RulesInputError(self.field(name), "is required")
            return default
        return self.data[name]

    def int(self, name: str, low: int | None = None, high: int | None = None, default=_MISSING) -> int:
        value = self.raw(name, default)
        if value is default and default is not _MISSING:
            return value
        if isinstance(value, bool) or not isinstance(value, int):
            if isinstance(value, float) and value.is_integer() or isinstance(value, str) and is_whole_number(value):
                value = int(value)
            else:
                raise RulesInputError(self.field(name), f"must be a whole number, not {value!r}")
        return self._within(name, value, low, high)

    def number(self, name: str, low: float | None = None, high: float | None = None, default=_MISSING) -> float:
        value = self.raw(name, default)
        if value is default and default is not _MISSING:
            return value
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise RulesInputError(self.field(name), f"must be a number, not {value!r}")
        return self._within(name, value, low, high)

    def _within(self, name: str, value, low, high):
        if low is not None and value < low:
            raise RulesInputError(self.field(name), f"must be at least {low}, not {value}")
        if high is not None and value > high:
            raise RulesInputError(self.field(name), f"must be at most {high}, not {value}")
        return value

    def bool(self, name: str, default: bool = False) -> bool:
        value = self.raw(name, default)
        if not isinstance(value, bool):
            raise RulesInputError(self.field(name), f"must be true or false, not {value!r}")
        return value

    def str(self, name: str, default=_MISSING) -> str:
        value = self.raw(name, default)
        if value is default and default is not _MISSING:
            return value
        if not isinstance(value, str) or not value.strip():
            raise RulesInputError(self.field(name), f"must be a non-empty string, not {value!r}")
        return value.strip()

    def choice(self, name: str, options: Iterable[str], default=_MISSING) -> str:
        options = list(options)
        value = self.raw(name, default)
        if value not in options:
            raise RulesInputError(self.field(name), f"must be one of {', '.join(map(str, options))}; got {value!r}")
        return value

    def choices(self, name: str, options: Iterable[str]) -> list[str]:
        """A list whose every item is one of ``options`` (missing means empty)."""
        options = list(options)
        value = self.raw(name, [])
        if not isinstance(value, list):
            raise RulesInputError(self.field(name), "must be a list")
        for item in value:
            if item not in options:
                raise RulesInputError(self.field(name), f"unknown value {item!r}; allowed: {', '.join(options)}")
        return value

    def sub(self, name: str, default=_MISSING) -> Query:
        value = self.raw(name, default)
        if value is default and default is not _MISSING:
            return self._child({} if value is None else value, self.field(name))
        if not isinstance(value, dict):
            raise RulesInputError(self.field(name), "must be a JSON object")
        return self._child(value, self.field(name))

    def items(self, name: str) -> list[Query]:
        """A list of objects, each read as a nested query (``attackers[1].WS``)."""
        value = self.raw(name)
        if not isinstance(value, list) or not value:
            raise RulesInputError(self.field(name), "must be a non-empty list of objects")
        out = []
        for i, item in enumerate(value):
            if not isinstance(item, dict):
                raise RulesInputError(f"{self.field(name)}[{i}]", "must be a JSON object")
            out.append(self._child(item, f"{self.field(name)}[{i}]"))
        return out
