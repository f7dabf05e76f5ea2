"""Advancement: classic advance rolls and 2018+ experience spent at the published costs."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from django.core.exceptions import ValidationError
from django.db import transaction

from content.models import (
    Edition,
    Skill,
)
from gangs.ledger import ledger_record
from gangs.models import (
    Advancement,
    Fighter,
    FighterSkill,
    StatChange,
    StatChangeSource,
)
from gangs.models import LedgerKind as Kind
from gangs.selectors import classic_advances_due
from gangs.selectors.advancement import skill_tables, specialist_type
from gangs.services.common import lock_fighter, refuse, require_on_roster, rolls_since
from gangs.stats import current_stats
from rulebook import gang_rules
from rulebook.classic.campaign import experience
from rulebook.dice import DiceSource, RandomDice
from rulebook.errors import RulesInputError
from rulebook.n18 import advancement as ganger_rules
from rulebook.roster import FighterSnapshot

# --- advancement -------------------------------------------------------------------------------


@transaction.atomic
def advancement_record(
    *,
    fighter: Fighter,
    kind: str,
    description: str,
    actor,
    reason: str,
    xp: int = 0,
    value: int = 0,
    dice=(),
    stat: str | None = None,
    delta: int = 0,
    skill: Skill | None = None,
    battle=None,
    data: dict | None = None,
) -> Advancement:
    """Write an advance the rules decided: the row, its characteristic change or skill, the XP spent."""
    advancement = Advancement.objects.create(
        fighter=fighter, kind=kind, description=description, xp_cost=xp, value=value, dice=list(dice)
    )
    if stat:
        StatChange.objects.create(
            fighter=fighter, stat=stat, delta=delta, source=StatChangeSource.ADVANCEMENT, advancement=advancement
        )
    if skill:
        FighterSkill.objects.create(fighter=fighter, skill=skill, advancement=advancement)
    ledger_record(
        gang=fighter.gang,
        fighter=fighter,
        kind=Kind.ADVANCEMENT,
        experience=-xp,
        description=f"{fighter.name}: {description}" + (f" for {xp} XP" if xp else ""),
        reason=reason,
        dice=list(dice),
        data={**(data or {}), "advancement": advancement.pk, "value": value},
        actor=actor,
        battle=battle,
    )
    return advancement


def _skill(edition: str, table: str, name: str) -> Skill:
    return Skill.objects.get(edition=edition, table__name=table, name=name)


def _known_skills(fighter: Fighter) -> list[str]:
    return [fs.skill.name for fs in fighter.skills.select_related("skill")]


@transaction.atomic
def fighter_advance_classic(
    *, fighter: Fighter, actor, dice: DiceSource, skill_table: str, any_table: str = ""
) -> Advancement:
    """An advance roll owed for a threshold passed: 2D6 on the Advance table, then the D6 it asks for.

    ``dice`` is ``RandomDice`` for the server's roll or ``ScriptedDice`` for dice rolled at the table.
    The player names the tables before the dice are rolled, so a roll is never thrown away: a skill
    comes from ``skill_table`` (one of the fighter's standard tables) or, on a 2 or 12, from
    ``any_table`` (any table; the standard choice when empty). The rules are
    ``rulebook.classic.campaign.experience``'s. The fighter is locked first, so parallel requests take
    only the rolls that are due.
    """
    lock_fighter(fighter)
    require_on_roster(fighter, "advance")
    if classic_advances_due(fighter, fighter.advancements.count()) < 1:
        nxt = next((t for t in experience.ADVANCE_THRESHOLDS if t > fighter.experience), None)
        raise ValidationError(f"{fighter.name} has no advance roll due; the next comes at {nxt} XP.")
    standard, _, _ = skill_tables(Edition.CLASSIC, fighter.fighter_type)
    if skill_table not in standard:
        raise ValidationError(f"Choose one of {fighter.fighter_type.name}'s skill tables: {', '.join(standard)}.")
    if any_table and any_table not in experience.SKILL_TABLES:
        raise ValidationError(f"{any_table} is not a skill table.")
    snapshot = FighterSnapshot(characteristics=current_stats(fighter), skills=_known_skills(fighter))
    # A table with no skill left would refuse the advance after its 2D6, and a refused roll is thrown away:
    # refuse before any die instead, so the refusal cannot be used to roll again.
    for table in dict.fromkeys((skill_table, any_table or skill_table)):
        if experience.table_full(snapshot, table):
            raise ValidationError(f"{fighter.name} already has every {table} skill; choose another table.")
    mark = len(dice.rolls)
    try:
        after, answer = experience.roll_advance(snapshot, dice)
        if answer["kind"] == "skill":
            table = (any_table or skill_table) if answer["from"] == experience.ANY_SKILL["from"] else skill_table
            _, picked = experience.roll_skill(after, table, dice)
    except RulesInputError as error:
        raise refuse(error) from None
    reason = f"Advance roll {answer['roll']}: {answer['result']} ({experience.ADVANCE.source})"
    if answer["kind"] == "characteristic":
        stat = answer["change"]["what"]
        return advancement_record(
            fighter=fighter,
            kind=Advancement.Kind.CHARACTERISTIC,
            description=f"+1 {stat}",
            actor=actor,
            reason=reason,
            dice=rolls_since(dice, mark),
            stat=stat,
            delta=1,
        )
    return advancement_record(
        fighter=fighter,
        kind=Advancement.Kind.SKILL,
        description=f"{picked['skill']} ({table})",
        actor=actor,
        reason=reason,
        dice=rolls_since(dice, mark),
        skill=_skill(Edition.CLASSIC, table, picked["skill"]),
    )


def _afford(fighter: Fighter, cost: gang_rules.AdvanceCost, what: str) -> None:
    if fighter.experience < cost.xp:
        raise ValidationError(f"{fighter.name} has {fighter.experience} XP; {what} costs {cost.xp} XP.")


def _n18_characteristic(fighter: Fighter, characteristic: str) -> dict:
    if characteristic not in fighter.base_stats:
        raise RulesInputError("characteristic", f"{fighter.name} has no {characteristic}")
    taken = fighter.stat_changes.filter(source=StatChangeSource.ADVANCEMENT, stat=characteristic).count()
    limit = ganger_rules.RAISE_LIMITS.get(characteristic)
    if limit is not None and taken >= limit:  # V2, Maximum Characteristics (as the import checks it)
        raise RulesInputError(
            "characteristic", f"{fighter.name}'s {characteristic} is already {limit} above the profile, its maximum"
        )
    category = fighter.fighter_type.category
    return {
        "cost": gang_rules.n18_characteristic_cost(characteristic, category=category, times_taken=taken),
        "kind": Advancement.Kind.CHARACTERISTIC,
        "description": f"+1 {characteristic}",
        "stat": characteristic,
        "delta": gang_rules.n18_improved(characteristic, 0),
    }


def _n18_skill(fighter: Fighter, skill: Skill | None, random_table: str | None, dice: DiceSource) -> dict:
    _, every, levels = skill_tables(Edition.N18, fighter.fighter_type)
    table = skill.table.name if skill else random_table
    if table not in levels:
        raise RulesInputError("skill", f"{fighter.fighter_type.name} has no access to the {table} skills")
    cost = gang_rules.n18_skill_cost(access=levels[table], random=skill is None, category=fighter.fighter_type.category)
    _afford(fighter, cost, f"a {table} skill")  # before any die, so a refusal cannot be used to re-roll
    mark = len(dice.rolls)
    if skill is None:
        skill = _skill(
            Edition.N18, table, gang_rules.n18_random_skill(table, every[table], _known_skills(fighter), dice)
        )
    elif fighter.skills.filter(skill=skill).exists():
        raise RulesInputError("skill", f"{fighter.name} already has {skill.name}")
    return {
        "cost": cost,
        "kind": Advancement.Kind.SKILL,
        "description": f"{skill.name} ({table})",
        "skill": skill,
        "dice": rolls_since(dice, mark),
    }


# The special rule (a fighter type's ``special_rules``) of Gangers who are never promoted to Specialist.
NEVER_PROMOTED = "Limited Learning Capacity"


def _n18_ganger(fighter: Fighter, actor, dice: DiceSource, prefer, random_table: str | None) -> Advancement:
    """A Ganger spends 6 XP on a 2D6 roll on the Gangers' table (:mod:`rulebook.n18.advancement`).
    Everything the roll may need is checked before it: the XP, the preferences and the Primary Skill Set
    a Specialist result rolls on (the Specialist's first Primary set when ``random_table`` is empty)."""
    if fighter.experience < ganger_rules.GANGER_XP:
        raise ValidationError(
            f"{fighter.name} has {fighter.experience} XP; a Ganger's Advancement roll costs {ganger_rules.GANGER_XP} XP."
        )
    # Slave Ogryns' Limited Learning Capacity: never promoted, a 2 or 12 becomes another result.
    never_promoted = NEVER_PROMOTED in fighter.fighter_type.special_rules
    specialist = None if never_promoted else specialist_type(fighter)
    if specialist is None and not never_promoted:
        raise ValidationError(f"The {fighter.gang.house.name} house list has no Specialist for a Ganger to become.")
    table, every = "", {}
    if specialist is not None:
        _, every, levels = skill_tables(Edition.N18, specialist)
        primary = [table for table, level in levels.items() if level == "primary"]
        table = random_table or next(iter(primary), "")
        if table not in primary:
            raise ValidationError(f"A Specialist rolls on a Primary Skill Set: {', '.join(primary) or 'none'}.")
        # As a classic advance: a full table would refuse the promotion after the 2D6, throwing that roll away.
        if gang_rules.n18_table_full(every[table], _known_skills(fighter)):
            raise ValidationError(f"{fighter.name} already has every {table} skill; choose another Primary Skill Set.")
    raised = Counter(fighter.stat_changes.filter(source=StatChangeSource.ADVANCEMENT).values_list("stat", flat=True))
    mark = len(dice.rolls)
    try:
        answer = ganger_rules.roll_ganger_advance(dice, raised=raised, prefer=prefer, never_promoted=never_promoted)
        if answer["kind"] == "specialist":
            skill = gang_rules.n18_random_skill(table, every[table], _known_skills(fighter), dice)
    except RulesInputError as error:
        raise refuse(error) from None
    reason = (
        f"Gangers' Advancement {answer['roll']}"
        + (" (no open characteristic: counts as 12)" if answer["counted_as_12"] else "")
        + f": {answer['result']} ({ganger_rules.SOURCE})"
    )
    common = {"fighter": fighter, "actor": actor, "reason": reason, "xp": answer["xp"], "value": answer["value"]}
    if answer["kind"] == "characteristic":
        stat = answer["characteristic"]
        return advancement_record(
            kind=Advancement.Kind.CHARACTERISTIC,
            description=f"+1 {stat}",
            stat=stat,
            delta=gang_rules.n18_improved(stat, 0),
            dice=rolls_since(dice, mark),
            **common,
        )
    before = fighter.fighter_type.name
    fighter.fighter_type = specialist
    fighter.save(update_fields=["fighter_type"])
    return advancement_record(
        kind=Advancement.Kind.SKILL,
        description=f"{before} becomes a {specialist.name}: {skill} ({table})",
        skill=_skill(Edition.N18, table, skill),
        dice=rolls_since(dice, mark),
        **common,
    )


@transaction.atomic
def fighter_advance_n18(
    *,
    fighter: Fighter,
    actor,
    characteristic: str | None = None,
    skill: Skill | None = None,
    random_table: str | None = None,
    dice: DiceSource | None = None,
    prefer: Sequence[str] = (),
) -> Advancement:
    """Spend experience on +1 to a characteristic, a chosen skill, or a random skill from a table.

    A Ganger instead spends 6 XP on the Gangers' Advancement roll (server ``RandomDice`` or the table's
    dice as ``ScriptedDice``), naming beforehand the characteristics they ``prefer`` where a row offers
    two, and the Primary Skill Set (``random_table``) a Specialist result would roll on. The fighter is
    locked first: the experience and the advances taken decide the cost.
    """
    lock_fighter(fighter)
    require_on_roster(fighter, "advance")
    if fighter.fighter_type.category == "ganger":
        if characteristic or skill:
            raise ValidationError("Gangers do not buy Advancements: they roll 2D6 on the Gangers' table for 6 XP.")
        return _n18_ganger(fighter, actor, dice or RandomDice(), prefer, random_table)
    try:
        if characteristic:
            advance = _n18_characteristic(fighter, characteristic)
        else:
            advance = _n18_skill(fighter, skill, random_table, dice or RandomDice())
    except RulesInputError as error:
        raise refuse(error) from None
    cost = advance.pop("cost")
    if fighter.experience < cost.xp:
        raise ValidationError(
            f"{fighter.name} has {fighter.experience} XP; {advance['description']} costs {cost.xp} XP."
        )
    return advancement_record(fighter=fighter, actor=actor, reason=cost.why, xp=cost.xp, value=cost.value, **advance)
