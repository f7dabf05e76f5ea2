"""Fighters: hire, rename, notes, status (retire, die), experience and injuries."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Max

from content.models import (
    Edition,
    FighterType,
    Skill,
)
from gangs.ledger import ledger_record
from gangs.models import (
    STATS_BY_EDITION,
    Fighter,
    FighterSkill,
    FighterStatus,
    Gang,
    Injury,
    LedgerEntry,
    StatChange,
    StatChangeSource,
)
from gangs.models import LedgerKind as Kind
from gangs.services.common import override_record, refuse, rolls_since
from gangs.services.gangs import house_rules, roster_types
from rulebook import gang_rules
from rulebook.dice import DiceSource, RandomDice
from rulebook.errors import RulesInputError

# FighterType columns in roster order, by characteristic code.
TYPE_STAT_FIELDS = {
    "M": "movement",
    "WS": "weapon_skill",
    "BS": "ballistic_skill",
    "S": "strength",
    "T": "toughness",
    "W": "wounds",
    "I": "initiative",
    "A": "attacks",
    "Ld": "leadership",
    "Cl": "cool",
    "Wil": "willpower",
    "Int": "intelligence",
}

# --- fighters ----------------------------------------------------------------------------------


def _base_stats(fighter_type: FighterType) -> dict[str, int]:
    return {code: getattr(fighter_type, TYPE_STAT_FIELDS[code]) for code in STATS_BY_EDITION[fighter_type.edition]}


@transaction.atomic
def fighter_hire(
    *,
    gang: Gang,
    fighter_type: FighterType,
    name: str,
    actor,
    dice: DiceSource | None = None,
    override_reason: str = "",
    free_reason: str = "",
    battle=None,
    data: dict | None = None,
) -> Fighter:
    """Hire from the house list at today's price, paid from the Stash; roll the starting experience.

    Composition limits refuse the hire unless an arbitrator gives ``override_reason``. A recruit the
    rules give for nothing (the Home Settlement's) names why in ``free_reason``: no credits change
    hands and the ledger says so. ``battle`` and ``data`` go on every entry the hire writes.
    """
    if fighter_type.house_id != gang.house_id or not fighter_type.is_active:
        raise ValidationError(f"{fighter_type.name} is not on the {gang.house.name} house list.")
    breaches = gang_rules.hire_breaches(house_rules(gang.house), roster_types(gang), fighter_type.slug)
    if breaches and not override_reason:
        rules = "; ".join(b.message for b in breaches)
        raise ValidationError(f"Composition rule ({gang.house.name}): {rules}.")
    order = (gang.fighters.aggregate(m=Max("order"))["m"] or 0) + 1
    fighter = Fighter.objects.create(
        gang=gang,
        fighter_type=fighter_type,
        name=name.strip(),
        cost=fighter_type.cost,
        base_stats=_base_stats(fighter_type),
        order=order,
    )
    if breaches:
        what = f"hired {fighter.name} despite: {'; '.join(b.message for b in breaches)}"
        override_record(gang=gang, actor=actor, what=what, reason=override_reason, fighter=fighter)
    price = 0 if free_reason else fighter_type.cost
    ledger_record(
        gang=gang,
        fighter=fighter,
        kind=Kind.HIRE,
        credits=-price,
        description=f"Hired {fighter.name} ({fighter_type.name}) "
        + (f"as a free recruit (worth {fighter_type.cost} credits)" if free_reason else f"for {price} credits"),
        reason=free_reason or f"{gang.house.name} house list price",
        data={**(data or {}), "fighter_type": fighter_type.slug, "price": price, "free": bool(free_reason)},
        actor=actor,
        battle=battle,
    )
    _starting_experience(fighter, fighter_type, actor, dice or RandomDice(), battle=battle, data=data)
    return fighter


def _starting_experience(
    fighter: Fighter, fighter_type: FighterType, actor, dice: DiceSource, *, battle=None, data: dict | None = None
) -> None:
    expr = fighter_type.starting_xp.strip()
    if not expr or expr == "0":
        return
    mark = len(dice.rolls)
    try:
        xp = gang_rules.roll_starting_experience(expr, dice, f"starting experience of {fighter.name}")
    except RulesInputError as error:
        raise refuse(error) from None
    if not xp:
        return
    rolls = rolls_since(dice, mark)
    ledger_record(
        gang=fighter.gang,
        fighter=fighter,
        kind=Kind.EXPERIENCE,
        experience=xp,
        description=f"{fighter.name} starts with {xp} XP",
        reason=f"{fighter_type.name} starting experience {expr} ({', '.join(fighter_type.sources) or 'house list'})",
        dice=rolls,
        actor=actor,
        battle=battle,
        data=data,
    )
    fighter.starting_experience = xp
    fighter.save(update_fields=["starting_experience"])


@transaction.atomic
def fighter_rename(*, fighter: Fighter, name: str, actor) -> Fighter:
    old, fighter.name = fighter.name, name.strip()
    fighter.save(update_fields=["name"])
    ledger_record(
        gang=fighter.gang, fighter=fighter, kind=Kind.OTHER, description=f"{old} renamed {fighter.name}", actor=actor
    )
    return fighter


@transaction.atomic
def fighter_notes_set(*, fighter: Fighter, notes: str, actor) -> Fighter:
    fighter.notes = notes.strip()
    fighter.save(update_fields=["notes"])
    return fighter


def _kit_leaves(fighter: Fighter, status: str) -> tuple[str, list]:
    """What happens to a leaving fighter's equipment, and the items it concerns.

    Retired, and Dead in the 2018+ rules: it goes to the Stash. Dead in classic: it is lost with
    the fighter (S3 p84, Serious Injuries 11-16).
    """
    items = [
        {"purchase": p.pk, "equipment": p.equipment.slug, "price": p.price}
        for p in fighter.purchases.select_related("equipment")
    ]
    if status not in (FighterStatus.DEAD, FighterStatus.RETIRED) or not items:
        return "", []
    if status == FighterStatus.DEAD and fighter.gang.edition == Edition.CLASSIC:
        fighter.purchases.all().delete()
        return f"; {len(items)} items lost with them", items
    fighter.purchases.update(fighter=None)
    return f"; {len(items)} items to the Stash", items


@transaction.atomic
def fighter_status_set(
    *,
    fighter: Fighter,
    status: str,
    actor,
    reason: str = "",
    dice: list | None = None,
    captured_by_id: int | None = None,
    battle=None,
    data: dict | None = None,
) -> Fighter:
    """Set Active, Recovery, Convalescence, Captured (by the gang ``captured_by_id``), Dead or Retired
    (see :func:`_kit_leaves` for the kit). The entry's data lists the kit that left the fighter."""
    if status not in FighterStatus.values:
        raise ValidationError(f"{status!r} is not a fighter status.")
    old = fighter.get_status_display()
    fighter.status = status
    fighter.captured_by_id = captured_by_id if status == FighterStatus.CAPTURED else None
    fighter.save(update_fields=["status", "captured_by"])
    kit, items = _kit_leaves(fighter, status)
    ledger_record(
        gang=fighter.gang,
        fighter=fighter,
        kind=Kind.STATUS,
        description=f"{fighter.name}: {old} → {fighter.get_status_display()}{kit}",
        reason=reason,
        dice=dice,
        data={**(data or {}), "status": status, "captured_by": fighter.captured_by_id, "equipment": items},
        actor=actor,
        battle=battle,
    )
    return fighter


def fighter_retire(*, fighter: Fighter, actor) -> Fighter:
    if fighter.status in (FighterStatus.DEAD, FighterStatus.RETIRED):
        raise ValidationError(f"{fighter.name} is already {fighter.get_status_display()}.")
    return fighter_status_set(
        fighter=fighter, status=FighterStatus.RETIRED, actor=actor, reason="Retired by the gang's player"
    )


@transaction.atomic
def experience_award(
    *,
    fighter: Fighter,
    amount: int,
    actor,
    reason: str,
    dice: list | None = None,
    battle=None,
    data: dict | None = None,
) -> LedgerEntry:
    return ledger_record(
        gang=fighter.gang,
        fighter=fighter,
        kind=Kind.EXPERIENCE,
        experience=amount,
        description=f"{fighter.name} {amount:+d} XP",
        reason=reason,
        dice=dice,
        actor=actor,
        battle=battle,
        data=data,
    )


@transaction.atomic
def injury_record(
    *,
    fighter: Fighter,
    code: str,
    name: str,
    actor,
    reason: str,
    roll: int | None = None,
    stat_deltas: Mapping[str, int] | None = None,
    status: str | None = None,
    dice: list | None = None,
    notes: str = "",
    skills: Iterable[Skill] = (),
    battle=None,
    data: dict | None = None,
) -> Injury:
    """A Lasting (2018+) or Serious (classic) Injury with its characteristic changes, the skills it gives
    (a fighter keeps one copy of a skill) and status. ``battle`` and ``data`` go on its entries."""
    deltas = {stat: delta for stat, delta in (stat_deltas or {}).items() if delta}
    effects = {**deltas, **({"notes": notes} if notes else {})}
    injury = Injury.objects.create(fighter=fighter, code=code, name=name, roll=roll, effects=effects)
    StatChange.objects.bulk_create(
        StatChange(fighter=fighter, stat=stat, delta=delta, source=StatChangeSource.INJURY, injury=injury)
        for stat, delta in deltas.items()
    )
    known = set(fighter.skills.values_list("skill_id", flat=True))
    FighterSkill.objects.bulk_create(
        FighterSkill(fighter=fighter, skill=skill, injury=injury) for skill in {s.pk: s for s in skills}.values()
        if skill.pk not in known
    )  # fmt: skip
    ledger_record(
        gang=fighter.gang,
        fighter=fighter,
        kind=Kind.INJURY,
        description=f"{fighter.name}: {name}" + (f" ({roll})" if roll else ""),
        reason=reason,
        dice=dice,
        data={**(data or {}), "injury": injury.pk, "code": code, "stat_deltas": deltas},
        actor=actor,
        battle=battle,
    )
    if status and status != fighter.status:
        fighter_status_set(fighter=fighter, status=status, actor=actor, reason=name, battle=battle, data=data)
    return injury
