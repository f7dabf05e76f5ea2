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
from rulebook.n18.campaign.lasting_injury import CAPTURED, CRITICAL_INJURY
from rulebook.roster import InjuryOutcome

# Every characteristic of either edition's stat line (classic has no Cl, Wil or Int).
CHARACTERISTICS = ("M", "WS", "BS", "S", "T", "W", "I", "A", "Ld", "Cl", "Wil", "Int")


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
    """A free recruit: the house list's first fighter of ``category``, or the fighter type named ``fighter_type``
    (a Hanger-on a rule gives, from the gang additions)."""

    op: ClassVar[str] = "recruit"
    category: str
    name: str
    reason: str
    dice: list = field(default_factory=list)
    fighter_type: str = ""


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
class ChemUsed(Outcome):
    """A dose of a chem used in the sequence (Stinger Mould on a Lasting Injury): the fighter's own, else one from the
    Stash, used up."""

    op: ClassVar[str] = "chem"
    fighter: str
    chem: str
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


def injury_outcomes(
    fighter: str, injury: InjuryOutcome, *, rule: str, captured_by: int | None = None, how: str = ""
) -> list[Outcome]:
    """An injury table's resolution as typed outcomes: a :class:`LastingInjury` for each result that leaves a mark
    (recorded on the roster, changes a characteristic or gives a skill), the experience it gives, and one
    :class:`StatusChange` to the status it leaves (held by ``captured_by`` when Captured).

    The one reading of :class:`rulebook.roster.InjuryOutcome` the post-battle sequence and the fighter's own record
    share; ``how`` ends each reason (how the result was got, when it was not rolled in the sequence).
    """
    suffix = f" ({how})" if how else ""
    found: list[Outcome] = []
    group: dict | None = None
    statuses = [change for change in injury.changes if change.what == "status"]

    def close() -> None:
        if group and (group.pop("marks") or group["deltas"] or group["skills"]):
            found.append(LastingInjury(fighter=fighter, **group))

    for change in injury.changes:
        if change.what == "result":
            close()
            group = {
                "code": change.code,
                "name": change.after,
                "roll": change.roll,
                "deltas": {},
                "skills": [],
                "notes": [],
                "reason": f"{rule}: {change.why}{suffix}",
                "dice": list(change.dice),
                "marks": False,
            }
        elif change.what in CHARACTERISTICS:
            group["deltas"][change.what] = group["deltas"].get(change.what, 0) + change.after - change.before
        elif change.what == "injuries":
            group["marks"] = True
        elif change.what == "skills":
            group["skills"] += [s for s in change.after if s not in change.before]
        elif change.what == "xp":
            found.append(
                ExperienceAward(
                    fighter=fighter,
                    amount=change.after - change.before,
                    reason=f"{rule}: {change.why}",
                    dice=list(change.dice),
                )
            )
        elif change.what not in ("status", "attacker_xp") and group is not None:
            group["notes"].append(
                str(change.after) if change.what == "note" else f"{change.what.replace('_', ' ')}: {change.after}"
            )
    close()
    final = injury.fighter.status
    # One status with the final status: the Doc's result settles a Critical Injury before the Lasting Injury it
    # rolls, so the changes are not in the order they land.
    if statuses and final != statuses[0].before and final != CRITICAL_INJURY:
        reason = "; ".join(dict.fromkeys(c.why for c in statuses))
        found.append(
            StatusChange(
                fighter=fighter,
                status=final,
                captured_by=captured_by if final == CAPTURED else None,
                reason=f"{rule}: {reason}{suffix}",
                dice=[d for c in statuses for d in c.dice],
            )
        )
    return found


OUTCOMES = {
    kind.op: kind
    for kind in (
        ExperienceAward,
        CreditsChange,
        ReputationChange,
        LastingInjury,
        StatusChange,
        Recruit,
        Advance,
        ChemUsed,
        TradingPostLevel,
    )
}


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
