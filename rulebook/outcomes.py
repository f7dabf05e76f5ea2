"""What the post-battle rules decide, as typed outcomes with a stable JSON form.

Each outcome is one change the post-battle sequence will make: experience, credits, Reputation, a Lasting
Injury (its code, roll and characteristic changes), a fighter's status (capture and release included), a free
recruit, an advance. The sequence's draft stores their JSON (``{"op": ..., fields}``, the form
:func:`outcome_from_json` reads back), and applying them is one ``match`` over these types
(:mod:`postbattle.apply`): no rule's result is ever read back out of its account line.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields
from typing import ClassVar

from rulebook.errors import RulesInputError


@dataclass(frozen=True)
class Outcome:
    op: ClassVar[str] = ""

    def as_json(self) -> dict:
        return {"op": self.op, **asdict(self)}


@dataclass(frozen=True)
class ExperienceAward(Outcome):
    """Experience for a fighter (``gang`` when it is the other gang's: a Memorable Death's attacker)."""

    op: ClassVar[str] = "xp"
    fighter: str
    amount: int
    reason: str
    dice: list = field(default_factory=list)
    gang: int | None = None


@dataclass(frozen=True)
class CreditsChange(Outcome):
    op: ClassVar[str] = "credits"
    amount: int
    reason: str
    dice: list = field(default_factory=list)


@dataclass(frozen=True)
class ReputationChange(Outcome):
    op: ClassVar[str] = "reputation"
    amount: int
    reason: str
    dice: list = field(default_factory=list)


@dataclass(frozen=True)
class LastingInjury(Outcome):
    """An injury that leaves a mark: its table code and roll, each characteristic's change (stored once, as the
    fighter's stat changes), the skills it gives and its notes."""

    op: ClassVar[str] = "injury"
    fighter: str
    code: str | None
    name: str
    roll: int | None
    deltas: dict
    skills: list
    notes: list
    reason: str
    dice: list = field(default_factory=list)


@dataclass(frozen=True)
class StatusChange(Outcome):
    """A fighter's new status: ``captured`` with its captor, ``active`` for a release, ``dead``...
    ``captive`` when the fighter is another gang's captive this gang disposes of."""

    op: ClassVar[str] = "status"
    fighter: str
    status: str
    captured_by: int | None
    reason: str
    dice: list = field(default_factory=list)
    captive: bool = False


@dataclass(frozen=True)
class Recruit(Outcome):
    op: ClassVar[str] = "recruit"
    category: str
    name: str
    reason: str
    dice: list = field(default_factory=list)


@dataclass(frozen=True)
class Advance(Outcome):
    op: ClassVar[str] = "advance"
    fighter: str
    description: str
    stat: str | None
    skill: str | None
    table: str | None
    reason: str
    dice: list = field(default_factory=list)


@dataclass(frozen=True)
class TradingPostLevel(Outcome):
    """The Availability Level a Trade post-battle action rolled: Rare and Illegal items up to it until the next
    battle."""

    op: ClassVar[str] = "trade"
    level: int
    reason: str
    dice: list = field(default_factory=list)


OUTCOMES = {kind.op: kind for kind in (ExperienceAward, CreditsChange, ReputationChange, LastingInjury, StatusChange,
                                        Recruit, Advance, TradingPostLevel)}  # fmt: skip


def outcome(op: str, **values) -> Outcome:
    """The outcome ``op`` names with its fields (refused when the op or a field is unknown)."""
    kind = OUTCOMES.get(op)
    if kind is None:
        raise RulesInputError("outcome.op", f"unknown outcome {op!r}; one of {', '.join(OUTCOMES)}")
    names = {f.name for f in fields(kind)}
    unknown = set(values) - names
    if unknown:
        raise RulesInputError("outcome", f"{op} has no {', '.join(sorted(unknown))}")
    return kind(**values)


def outcome_from_json(data: dict) -> Outcome:
    values = dict(data)
    return outcome(values.pop("op"), **values)
