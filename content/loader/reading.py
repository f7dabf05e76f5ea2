"""Reading the content data files and refusing a malformed one, naming the file and the dotted place.

Part of :mod:`content.loader`; the file shapes it reads are described there (and in docs/content.md). A refusal
is a :class:`ContentFileError`, which rejects the whole load.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.db import models


class ContentFileError(ValueError):
    """A data file the loader refuses, with the file and the dotted place inside it."""


# Every whole number lands in an integer column (PostgreSQL ``integer``); SQLite would store more, PostgreSQL refuse.
INTEGER_RANGE = (-(2**31), 2**31 - 1)


def read_document(path: Path, edition: str) -> tuple[Path, dict]:
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise ContentFileError(f"{path.name}: not readable JSON: {error}") from error
    if not isinstance(document, dict):
        raise ContentFileError(f"{path.name}: the top level must be an object")
    if document.get("edition") != edition:
        raise ContentFileError(f"{path.name}: edition is {document.get('edition')!r} but the file is in {edition}/")
    return path, document


class Field:
    """Reads one record of a file, naming the file and dotted place in every refusal."""

    def __init__(self, path: Path, where: str, record: Any):
        self.path, self.where, self.record = path, where, record
        if not isinstance(record, dict):
            self.fail("", "must be an object")

    def fail(self, key: str, message: str):
        place = ".".join(part for part in (self.where, key) if part)
        raise ContentFileError(f"{self.path.name}: {place}: {message}" if place else f"{self.path.name}: {message}")

    def get(self, key: str, kind: type | tuple, *, required: bool = True, default: Any = None) -> Any:
        if key not in self.record or self.record[key] is None:
            if required:
                self.fail(key, "is required")
            return default
        value = self.record[key]
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            self.fail(key, f"has the wrong type ({type(value).__name__})")
        self._check_value(key, value)
        return value

    def _check_value(self, key: str, value: Any) -> None:
        """What no column stores: whole numbers beyond the integer range, NUL characters in text."""
        if isinstance(value, int) and not isinstance(value, bool) and not INTEGER_RANGE[0] <= value <= INTEGER_RANGE[1]:
            self.fail(key, f"{value} is beyond the database's integer range")
        if isinstance(value, str) and "\x00" in value:
            self.fail(key, "must not contain a NUL character")
        if isinstance(value, list):
            for item in value:
                if isinstance(item, (str, int)):
                    self._check_value(key, item)

    def code(self, key: str, *, default: Any = None) -> str:
        """A value written as text or a number (Strength ``3`` or ``"S+1"``, Damage ``"D3"``), stored as text."""
        value = self.get(key, (str, int), required=False, default=default)
        if isinstance(value, bool):
            self.fail(key, "has the wrong type (bool)")
        return "" if value is None else str(value)

    def count(self, key: str, *, required: bool = True) -> int | None:
        value = self.get(key, int, required=required)
        if value is not None and value < 0:
            self.fail(key, "must not be negative")
        return value

    def text(self, key: str, *, required: bool = False) -> str:
        return self.get(key, str, required=required, default="")

    def strings(self, key: str) -> list[str]:
        values = self.get(key, list, required=False, default=[])
        if not all(isinstance(v, str) for v in values):
            self.fail(key, "must be a list of strings")
        return values

    def identity(self) -> dict:
        slug = self.get("slug", str)
        if not slug or slug != slug.strip().lower() or " " in slug:
            self.fail("slug", f"{slug!r} is not a lower-case slug")
        return {
            "slug": slug,
            "name": self.get("name", str),
            "sources": self.strings("sources"),
            "notes": self.text("notes"),
        }

    def child(self, key: str, index: int, record: Any) -> Field:
        return Field(self.path, f"{self.where}.{key}[{index}]" if self.where else f"{key}[{index}]", record)

    def children(self, key: str, *, required: bool = False) -> list[Field]:
        return [self.child(key, i, r) for i, r in enumerate(self.get(key, list, required=required, default=[]))]


def check_lengths(model: type[models.Model], values: dict, place: Field) -> None:
    """Refuse text longer than its column here, naming the file (SQLite would store it, PostgreSQL refuse)."""
    for name, value in values.items():
        limit = getattr(model._meta.get_field(name), "max_length", None)
        if isinstance(value, str) and limit and len(value) > limit:
            place.fail(name, f"{value!r} is longer than {limit} characters")
