"""Every change to a gang: create, hire, buy, sell, move, retire, rename, advance, override.

Each service loads rows, asks ``rulebook.gang_rules`` (or ``rulebook.roster``) what the rules say,
saves the result and writes ledger entries through :func:`gangs.ledger.ledger_record`, which is
the only writer of the Stash, Reputation and experience. Refusals a player can hit are
``ValidationError`` with a message naming the rule. An arbitrator's override is its own ledger
entry of kind ``override``, written before the change it allows.
"""

from __future__ import annotations

from collections.abc import Mapping

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Max

from content.models import (
    Edition,
    Equipment,
    EquipmentKind,
    FighterType,
    FighterTypeEquipment,
    House,
    Skill,
    SkillAccess,
    SkillTable,
)
from gangs.ledger import ledger_record
from gangs.models import (
    ON_ROSTER,
    STATS_BY_EDITION,
    Advancement,
    Fighter,
    FighterSkill,
    FighterStatus,
    Gang,
    Injury,
    LedgerEntry,
    Purchase,
    StatChange,
    StatChangeSource,
)
from gangs.models import LedgerKind as Kind
from gangs.stats import current_stats
from rulebook import gang_rules
from rulebook.classic.campaign import experience
from rulebook.dice import DiceSource, RandomDice
from rulebook.errors import RulesInputError
from rulebook.roster import FighterSnapshot, roll_amount

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
CLASSIC_SALE_SOURCE = "S3 p99 Trading Post: equipment sells back for half its price"
N18_SALE_SOURCE = "Necromunda 2018 rulebook, Trading Post: an item sells for its value less D6x10 credits, minimum 5"


def _refuse(error: RulesInputError) -> ValidationError:
    return ValidationError(error.message)


def _rolls_since(dice: DiceSource, mark: int) -> list[dict]:
    return [r.as_json() for r in dice.rolls[mark:]]


def _require_on_roster(fighter: Fighter, what: str) -> None:
    if fighter.status not in ON_ROSTER:
        raise ValidationError(f"{fighter.name} is {fighter.get_status_display()} and cannot {what}.")


def _override(*, gang: Gang, actor, what: str, reason: str, fighter: Fighter | None = None) -> LedgerEntry:
    return ledger_record(
        gang=gang,
        kind=Kind.OVERRIDE,
        fighter=fighter,
        description=f"Arbitrator override: {what}",
        reason=reason,
        actor=actor,
    )


# --- gangs -------------------------------------------------------------------------------------


@transaction.atomic
def gang_create(*, owner, house: House, name: str, actor=None) -> Gang:
    """A new gang of ``house``'s edition whose Stash starts with the house's starting credits."""
    if not house.is_active:
        raise ValidationError(f"{house.name} is no longer on the house lists.")
    gang = Gang.objects.create(owner=owner, edition=house.edition, house=house, name=name.strip())
    ledger_record(
        gang=gang,
        kind=Kind.CREDITS,
        credits=house.starting_credits,
        description=f"Starting credits: {house.starting_credits}",
        reason=f"{house.name} starting credits ({', '.join(house.sources) or 'house list'})",
        actor=actor or owner,
    )
    return gang


@transaction.atomic
def gang_rename(*, gang: Gang, name: str, actor) -> Gang:
    old, gang.name = gang.name, name.strip()
    gang.save(update_fields=["name", "updated_at"])
    ledger_record(gang=gang, kind=Kind.OTHER, description=f"Renamed from {old} to {gang.name}", actor=actor)
    return gang


@transaction.atomic
def gang_override(
    *, gang: Gang, actor, reason: str, credits: int = 0, reputation: int = 0, fighter=None, experience: int = 0
) -> LedgerEntry:
    """An arbitrator's correction of credits, Reputation or experience, recorded as an override."""
    if not reason.strip():
        raise ValidationError("An override needs a reason.")
    parts = [f"{v:+d} {label}" for v, label in ((credits, "credits"), (reputation, "Reputation")) if v]
    if experience:
        parts.append(f"{experience:+d} XP for {fighter.name}")
    return ledger_record(
        gang=gang,
        kind=Kind.OVERRIDE,
        fighter=fighter,
        credits=credits,
        reputation=reputation,
        experience=experience,
        description=f"Arbitrator override: {', '.join(parts) or 'no change'}",
        reason=reason,
        actor=actor,
    )


# --- composition --------------------------------------------------------------------------------


def house_rules(house: House) -> gang_rules.HouseRules:
    types = tuple(
        gang_rules.TypeLimit(t.slug, t.name, t.category, t.min_per_gang, t.max_per_gang)
        for t in house.fighter_types.all()
    )
    return gang_rules.HouseRules(
        name=house.name,
        types=types,
        min_fighters=house.min_fighters,
        share_rules=tuple(house.composition_rules),
        sources=tuple(house.sources),
    )


def roster_types(gang: Gang) -> list[str]:
    """Fighter type slugs of the fighters on the roster (not Dead or Retired)."""
    return [f.fighter_type.slug for f in gang.fighters.all() if f.status in ON_ROSTER]


def composition_problems(gang: Gang) -> list[str]:
    """Messages for every composition rule the gang breaks as it stands."""
    try:
        breaches = gang_rules.composition_breaches(house_rules(gang.house), roster_types(gang))
    except RulesInputError as error:
        return [error.message]
    return [f"{gang.house.name}: {b.message}" for b in breaches]


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
) -> Fighter:
    """Hire from the house list at today's price, paid from the Stash; roll the starting experience.

    Composition limits refuse the hire unless an arbitrator gives ``override_reason``.
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
        _override(gang=gang, actor=actor, what=what, reason=override_reason, fighter=fighter)
    ledger_record(
        gang=gang,
        fighter=fighter,
        kind=Kind.HIRE,
        credits=-fighter_type.cost,
        description=f"Hired {fighter.name} ({fighter_type.name}) for {fighter_type.cost} credits",
        reason=f"{gang.house.name} house list price",
        data={"fighter_type": fighter_type.slug, "price": fighter_type.cost},
        actor=actor,
    )
    _starting_experience(fighter, fighter_type, actor, dice or RandomDice())
    return fighter


def _starting_experience(fighter: Fighter, fighter_type: FighterType, actor, dice: DiceSource) -> None:
    expr = fighter_type.starting_xp.strip()
    if not expr or expr == "0":
        return
    mark = len(dice.rolls)
    try:
        xp = gang_rules.roll_starting_experience(expr, dice, f"starting experience of {fighter.name}")
    except RulesInputError as error:
        raise _refuse(error) from None
    if not xp:
        return
    rolls = _rolls_since(dice, mark)
    ledger_record(
        gang=fighter.gang,
        fighter=fighter,
        kind=Kind.EXPERIENCE,
        experience=xp,
        description=f"{fighter.name} starts with {xp} XP",
        reason=f"{fighter_type.name} starting experience {expr} ({', '.join(fighter_type.sources) or 'house list'})",
        dice=rolls,
        actor=actor,
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
def fighter_status_set(*, fighter: Fighter, status: str, actor, reason: str = "", dice: list | None = None) -> Fighter:
    """Set Active, Recovery, Convalescence, Captured, Dead or Retired (see :func:`_kit_leaves` for the kit)."""
    if status not in FighterStatus.values:
        raise ValidationError(f"{status!r} is not a fighter status.")
    old = fighter.get_status_display()
    fighter.status = status
    if status != FighterStatus.CAPTURED:
        fighter.captured_by = None
    fighter.save(update_fields=["status", "captured_by"])
    kit, items = _kit_leaves(fighter, status)
    ledger_record(
        gang=fighter.gang,
        fighter=fighter,
        kind=Kind.STATUS,
        description=f"{fighter.name}: {old} → {fighter.get_status_display()}{kit}",
        reason=reason,
        dice=dice,
        data={"status": status, "equipment": items},
        actor=actor,
    )
    return fighter


def fighter_retire(*, fighter: Fighter, actor) -> Fighter:
    if fighter.status in (FighterStatus.DEAD, FighterStatus.RETIRED):
        raise ValidationError(f"{fighter.name} is already {fighter.get_status_display()}.")
    return fighter_status_set(
        fighter=fighter, status=FighterStatus.RETIRED, actor=actor, reason="Retired by the gang's player"
    )


@transaction.atomic
def experience_award(*, fighter: Fighter, amount: int, actor, reason: str, dice: list | None = None) -> LedgerEntry:
    return ledger_record(
        gang=fighter.gang,
        fighter=fighter,
        kind=Kind.EXPERIENCE,
        experience=amount,
        description=f"{fighter.name} {amount:+d} XP",
        reason=reason,
        dice=dice,
        actor=actor,
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
) -> Injury:
    """A Lasting (2018+) or Serious (classic) Injury with its characteristic changes and status."""
    injury = Injury.objects.create(fighter=fighter, code=code, name=name, roll=roll, effects=dict(stat_deltas or {}))
    for stat, delta in (stat_deltas or {}).items():
        StatChange.objects.create(
            fighter=fighter, stat=stat, delta=delta, source=StatChangeSource.INJURY, injury=injury
        )
    ledger_record(
        gang=fighter.gang,
        fighter=fighter,
        kind=Kind.INJURY,
        description=f"{fighter.name}: {name}" + (f" ({roll})" if roll else ""),
        reason=reason,
        dice=dice,
        data={"injury": injury.pk, "code": code, "stat_deltas": dict(stat_deltas or {})},
        actor=actor,
    )
    if status and status != fighter.status:
        fighter_status_set(fighter=fighter, status=status, actor=actor, reason=name)
    return injury


# --- equipment ---------------------------------------------------------------------------------


def trading_post_allows(edition: str, equipment: Equipment) -> bool:
    """Items anyone may buy outside a fighter's list at list price.

    Classic: armour and wargear that are not rare (S3 p99). 2018+: Common items (N1 Trading Post);
    Rare and Illegal items wait for a campaign's post-battle Trading Post roll.
    """
    if equipment.cost is None:
        return False
    if edition == Edition.CLASSIC:
        return equipment.kind != EquipmentKind.WEAPON and not equipment.rarity
    return equipment.rarity.lower() == "common"


def price_now(gang: Gang, equipment: Equipment, fighter: Fighter | None) -> tuple[int, str] | None:
    """The price of the moment and where it comes from, or None when this buyer cannot buy it."""
    if equipment.edition != gang.edition or not equipment.is_active:
        return None
    if fighter is not None:
        entry = FighterTypeEquipment.objects.filter(fighter_type=fighter.fighter_type_id, equipment=equipment).first()
        if entry:
            return entry.cost, f"{fighter.fighter_type.name} equipment list"
    elif (
        equipment.cost is not None
        and FighterTypeEquipment.objects.filter(fighter_type__house=gang.house_id, equipment=equipment).exists()
    ):
        return equipment.cost, f"{gang.house.name} equipment lists"
    if trading_post_allows(gang.edition, equipment):
        return equipment.cost, "Trading Post"
    return None


def buyable_equipment(gang: Gang, fighter: Fighter | None) -> list[tuple[Equipment, int, str]]:
    """Everything this fighter (or the Stash) can buy now, with price and where from."""
    lists = {}
    if fighter is not None:
        entries = FighterTypeEquipment.objects.filter(fighter_type=fighter.fighter_type_id).select_related("equipment")
        lists = {e.equipment_id: (e.equipment, e.cost, f"{fighter.fighter_type.name} list") for e in entries}
    else:
        entries = Equipment.objects.active().filter(
            edition=gang.edition, cost__isnull=False, fighter_type_lists__fighter_type__house=gang.house_id
        )
        lists = {e.pk: (e, e.cost, "house lists") for e in entries.distinct()}
    for item in Equipment.objects.active().filter(edition=gang.edition, cost__isnull=False).exclude(pk__in=lists):
        if trading_post_allows(gang.edition, item):
            lists[item.pk] = (item, item.cost, "Trading Post")
    return sorted((v for v in lists.values() if v[0].is_active), key=lambda v: (v[0].category, v[0].name))


@transaction.atomic
def purchase_buy(
    *, gang: Gang, equipment: Equipment, actor, fighter: Fighter | None = None, override_reason: str = ""
) -> Purchase:
    """Buy for a fighter (from their list or the Trading Post) or for the Stash, at today's price."""
    if fighter is not None and fighter.gang_id != gang.pk:
        raise ValidationError(f"{fighter.name} is not in {gang.name}.")
    if fighter is not None:
        _require_on_roster(fighter, "take equipment")
    quote = price_now(gang, equipment, fighter)
    who = fighter.name if fighter else "the Stash"
    if quote is None:
        if not override_reason or equipment.cost is None:
            raise ValidationError(
                f"{equipment.name} is not on {who}'s equipment list and the Trading Post does not sell it now."
            )
        _override(gang=gang, actor=actor, what=f"{equipment.name} for {who}", reason=override_reason, fighter=fighter)
        quote = (equipment.cost, "list price, by override")
    price, where = quote
    purchase = Purchase.objects.create(gang=gang, fighter=fighter, equipment=equipment, price=price)
    ledger_record(
        gang=gang,
        fighter=fighter,
        kind=Kind.PURCHASE,
        credits=-price,
        description=f"Bought {equipment.name} for {who}: {price} credits",
        reason=where,
        data={"purchase": purchase.pk, "equipment": equipment.slug, "price": price},
        actor=actor,
    )
    return purchase


def sale_value(gang: Gang, purchase: Purchase, dice: DiceSource) -> tuple[int, str, list]:
    """What the Trading Post pays for an item, the rule, and the dice it took."""
    if gang.edition == Edition.CLASSIC:
        return purchase.price // 2, CLASSIC_SALE_SOURCE, []
    mark = len(dice.rolls)
    less = roll_amount("D6x10", dice, f"selling {purchase.equipment.name}")
    return max(5, purchase.price - less), N18_SALE_SOURCE, _rolls_since(dice, mark)


@transaction.atomic
def purchase_sell(*, purchase: Purchase, actor, dice: DiceSource | None = None) -> LedgerEntry:
    gang = purchase.gang
    amount, rule, rolls = sale_value(gang, purchase, dice or RandomDice())
    entry = ledger_record(
        gang=gang,
        fighter=purchase.fighter,
        kind=Kind.SALE,
        credits=amount,
        description=f"Sold {purchase.equipment.name} (paid {purchase.price}) for {amount} credits",
        reason=rule,
        dice=rolls,
        data={"equipment": purchase.equipment.slug, "price": purchase.price},
        actor=actor,
    )
    purchase.delete()
    return entry


@transaction.atomic
def purchase_discard(*, purchase: Purchase, actor) -> LedgerEntry:
    entry = ledger_record(
        gang=purchase.gang,
        fighter=purchase.fighter,
        kind=Kind.EQUIPMENT,
        description=f"Discarded {purchase.equipment.name} (paid {purchase.price})",
        data={"equipment": purchase.equipment.slug, "price": purchase.price},
        actor=actor,
    )
    purchase.delete()
    return entry


@transaction.atomic
def purchase_move(*, purchase: Purchase, fighter: Fighter | None, actor) -> Purchase:
    """Hand an item to another fighter of the gang (who must be allowed to carry it) or put it in the Stash."""
    gang = purchase.gang
    if fighter is not None:
        if fighter.gang_id != gang.pk:
            raise ValidationError(f"{fighter.name} is not in {gang.name}.")
        _require_on_roster(fighter, "take equipment")
        if price_now(gang, purchase.equipment, fighter) is None:
            raise ValidationError(f"{purchase.equipment.name} is not on {fighter.name}'s equipment list.")
    source = purchase.fighter.name if purchase.fighter else "the Stash"
    target = fighter.name if fighter else "the Stash"
    purchase.fighter = fighter
    purchase.save(update_fields=["fighter"])
    ledger_record(
        gang=gang,
        fighter=fighter,
        kind=Kind.EQUIPMENT,
        description=f"Moved {purchase.equipment.name} from {source} to {target}",
        data={"purchase": purchase.pk, "equipment": purchase.equipment.slug},
        actor=actor,
    )
    return purchase


# --- advancement -------------------------------------------------------------------------------


def skill_tables(edition: str, fighter_type: FighterType) -> tuple[dict, dict, dict]:
    """(standard tables, all tables, access level by table) as {table name: [skill names in order]}."""
    tables = SkillTable.objects.filter(edition=edition, is_active=True).prefetch_related("skills")
    access = {a.table_id: a.level for a in SkillAccess.objects.filter(fighter_type=fighter_type)}
    every = {t.name: [s.name for s in t.skills.all() if s.is_active] for t in tables}
    standard = {t.name: every[t.name] for t in tables if t.pk in access}
    levels = {t.name: access[t.pk] for t in tables if t.pk in access}
    return standard, every, levels


def classic_advances_due(fighter: Fighter, taken: int) -> int:
    """Advance rolls earned by thresholds passed since hiring, less the ``taken`` advances."""
    top = max(fighter.experience, fighter.starting_experience)
    return max(0, experience.advances_gained(fighter.starting_experience, top) - taken)


def _save_advance(
    fighter: Fighter, *, kind: str, description: str, actor, reason: str, xp: int = 0, value: int = 0, dice=(),
    stat: str | None = None, delta: int = 0, skill: Skill | None = None,
) -> Advancement:  # fmt: skip
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
        data={"advancement": advancement.pk, "value": value},
        actor=actor,
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
    ``rulebook.classic.campaign.experience``'s.
    """
    _require_on_roster(fighter, "advance")
    if classic_advances_due(fighter, fighter.advancements.count()) < 1:
        nxt = next((t for t in experience.ADVANCE_THRESHOLDS if t > fighter.experience), None)
        raise ValidationError(f"{fighter.name} has no advance roll due; the next comes at {nxt} XP.")
    standard, _, _ = skill_tables(Edition.CLASSIC, fighter.fighter_type)
    if skill_table not in standard:
        raise ValidationError(f"Choose one of {fighter.fighter_type.name}'s skill tables: {', '.join(standard)}.")
    if any_table and any_table not in experience.SKILL_TABLES:
        raise ValidationError(f"{any_table} is not a skill table.")
    mark = len(dice.rolls)
    snapshot = FighterSnapshot(characteristics=current_stats(fighter), skills=_known_skills(fighter))
    try:
        after, answer = experience.roll_advance(snapshot, dice)
        if answer["kind"] == "skill":
            table = (any_table or skill_table) if answer["from"] == experience.ANY_SKILL["from"] else skill_table
            _, picked = experience.roll_skill(after, table, dice)
    except RulesInputError as error:
        raise _refuse(error) from None
    reason = f"Advance roll {answer['roll']}: {answer['result']} ({experience.ADVANCE.source})"
    if answer["kind"] == "characteristic":
        stat = answer["change"]["what"]
        return _save_advance(
            fighter, kind=Advancement.Kind.CHARACTERISTIC, description=f"+1 {stat}", actor=actor, reason=reason,
            dice=_rolls_since(dice, mark), stat=stat, delta=1,
        )  # fmt: skip
    return _save_advance(
        fighter, kind=Advancement.Kind.SKILL, description=f"{picked['skill']} ({table})", actor=actor,
        reason=reason, dice=_rolls_since(dice, mark), skill=_skill(Edition.CLASSIC, table, picked["skill"]),
    )  # fmt: skip


def _afford(fighter: Fighter, cost: gang_rules.AdvanceCost, what: str) -> None:
    if fighter.experience < cost.xp:
        raise ValidationError(f"{fighter.name} has {fighter.experience} XP; {what} costs {cost.xp} XP.")


def _n18_characteristic(fighter: Fighter, characteristic: str) -> dict:
    if characteristic not in fighter.base_stats:
        raise RulesInputError("characteristic", f"{fighter.name} has no {characteristic}")
    taken = fighter.stat_changes.filter(source=StatChangeSource.ADVANCEMENT, stat=characteristic).count()
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
        "dice": _rolls_since(dice, mark),
    }


@transaction.atomic
def fighter_advance_n18(
    *,
    fighter: Fighter,
    actor,
    characteristic: str | None = None,
    skill: Skill | None = None,
    random_table: str | None = None,
    dice: DiceSource | None = None,
) -> Advancement:
    """Spend experience on +1 to a characteristic, a chosen skill, or a random skill from a table."""
    _require_on_roster(fighter, "advance")
    try:
        if characteristic:
            advance = _n18_characteristic(fighter, characteristic)
        else:
            advance = _n18_skill(fighter, skill, random_table, dice or RandomDice())
    except RulesInputError as error:
        raise _refuse(error) from None
    cost = advance.pop("cost")
    if fighter.experience < cost.xp:
        raise ValidationError(
            f"{fighter.name} has {fighter.experience} XP; {advance['description']} costs {cost.xp} XP."
        )
    return _save_advance(fighter, actor=actor, reason=cost.why, xp=cost.xp, value=cost.value, **advance)
