"""What each edition offers the command line and the web apps: actions and tables.

An edition package (``rulebook.classic``, ``rulebook.n18``) exposes ``ACTIONS`` and ``TABLES``.
An :class:`Action` answers ``odds`` (exact probabilities) and ``roll`` (one resolution on a
dice source, every step reported) for one JSON query.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass

from rulebook.dice import DiceSource
from rulebook.errors import RulesInputError
from rulebook.query import Query
from rulebook.tables import Table

EDITIONS = {
    "classic": "the 1995 rulebook",
    "n18": "the 2018+ rules",
}


@dataclass(frozen=True)
class Action:
    name: str
    summary: str
    odds: Callable[[Query], dict]
    roll: Callable[[Query, DiceSource], dict]


def edition_module(edition: str):
    if edition not in EDITIONS:
        raise RulesInputError("edition", f"unknown edition {edition!r}; use one of {', '.join(EDITIONS)}")
    return importlib.import_module(f"rulebook.{edition}")


def actions(edition: str) -> dict[str, Action]:
    return edition_module(edition).ACTIONS


def tables(edition: str) -> dict[str, Table]:
    return edition_module(edition).TABLES


def action(edition: str, name: str) -> Action:
    known = actions(edition)
    if name not in known:
        raise RulesInputError("action", f"unknown {edition} action {name!r}; use one of {', '.join(sorted(known))}")
    return known[name]


def table(edition: str, name: str) -> Table:
    known = tables(edition)
    if name not in known:
        raise RulesInputError("table", f"unknown {edition} table {name!r}; use one of {', '.join(sorted(known))}")
    return known[name]
