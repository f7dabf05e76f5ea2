"""Fighters: hire, rename, status (retire, die), experience and injuries (notes: gangs.services.record)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Max

from content.models import (
    Edition,
    Equipment,
    FighterCategory,
    FighterType,
    Skill,
)
from gangs import campaign_checks
from gangs.campaign_facts import campaign_facts
from gangs.ledger import ledger_record
from gangs.models import (
    GONE,
    ON_ROSTER,
    STATS_BY_EDITION,
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
from gangs.selectors.composition import (
    gang_founding,
    hangers_on_over_cap,
    held_additions,
    house_rules,
    removal_refund,
    replacement_reason,
    roster_types,
    rule_recruit_refusal,
)
from gangs.services.common import lock_fighter, lock_gang, override_record, refuse, rolls_since
from gangs.services.equipment import purchase_buy
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


def _hire_breaches(gang: Gang, fighter_type: FighterType, hired_for) -> tuple:
    """The composition rules a hire would break: the house list's, or a gang addition's own limit and
    the Reputation cap (Hangers-on, Brutes) or the per-battle limit (Hired Guns)."""
    # Read after the gang row is locked: a prefetched list could miss a hire that just committed.
    fighters = list(Fighter.objects.filter(gang=gang).select_related("fighter_type"))
    if not fighter_type.is_addition:
        return gang_rules.hire_breaches(
            house_rules(gang.house), roster_types(gang, fighters), fighter_type.slug, founding=gang_founding(gang)
        )
    limit = gang_rules.TypeLimit(
        fighter_type.slug,
        fighter_type.name,
        fighter_type.category,
        fighter_type.min_per_gang,
        fighter_type.max_per_gang,
    )
    held = held_additions(gang, battle=hired_for, fighters=fighters)
    return gang_rules.addition_hire_breaches(limit, held, reputation=gang.reputation)


def _hired_gun_battle(gang: Gang, fighter_type: FighterType, hired_for):
    """A Hired Gun is hired for one scheduled campaign battle of the gang; nobody else is."""
    if fighter_type.category != FighterCategory.HIRED_GUN:
        if hired_for is not None:
            raise ValidationError(f"{fighter_type.name} joins the roster; only Hired Guns are hired for a battle.")
        return
    if hired_for is None:
        raise ValidationError(f"{fighter_type.name} is a Hired Gun: hire them for one of the gang's coming battles.")
    if refusal := campaign_facts().hire_refusal(gang, hired_for):
        raise ValidationError(refusal)


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
    hired_for=None,
    kit: Sequence[Equipment] = (),
    granted_by_rule: bool = False,
) -> Fighter:
    """Hire from the house list (or the gang additions) at today's price, paid from the Stash; roll the
    starting experience. ``kit``: items bought for the fighter in the same step (each as
    :func:`gangs.services.purchase_buy` would, at the fighter's list price): all of them or, when one is
    refused (not on the list, the Stash short), no hire at all. A Hanger-on or Brute comes with the kit its price includes; a Hired Gun is
    hired for the campaign battle ``hired_for`` and leaves when its report is confirmed.

    The gang row is locked first, so two hires at once cannot both pass a limit. Composition limits
    refuse the hire unless an arbitrator gives ``override_reason``. A recruit the rules give for
    nothing (the Home Settlement's) names why in ``free_reason``: no credits change hands and the
    ledger says so. ``battle`` and ``data`` go on every entry the hire writes. ``granted_by_rule``: a recruit a rule
    grants after a battle (the post-battle sequence), whose limits its ``override_reason`` lets through without an
    arbitrator (:func:`gangs.services.common.override_record`).
    """
    lock_gang(gang)  # the roster decides the composition limits: parallel hires queue and count each other
    if not fighter_type.recruitable_by(gang.house) or not fighter_type.is_active:
        raise ValidationError(f"{fighter_type.name} is not on the {gang.house.name} house list.")
    _hired_gun_battle(gang, fighter_type, hired_for)
    breaches = [b.message for b in _hire_breaches(gang, fighter_type, hired_for)]
    if fighter_type.recruited_by_rule and not free_reason:
        free_reason = replacement_reason(gang, fighter_type)
        if not free_reason:
            breaches.append(f"{fighter_type.name} is not bought: {rule_recruit_refusal(fighter_type)}")
    if breaches and not override_reason:
        raise ValidationError(f"Composition rule ({gang.house.name}): {'; '.join(breaches)}.")
    if not override_reason and not free_reason and (refusal := campaign_checks.hire_refusal(gang, fighter_type)):
        raise ValidationError(refusal)  # the gang's campaign's house rules
    price = fighter_type.cost_for(gang.house)
    order = (gang.fighters.aggregate(m=Max("order"))["m"] or 0) + 1
    fighter = Fighter.objects.create(
        gang=gang,
        fighter_type=fighter_type,
        name=name.strip(),
        cost=price,
        base_stats=_base_stats(fighter_type),
        order=order,
    )
    if hired_for is not None:
        campaign_facts().hire_for_battle(fighter, hired_for)
    if breaches:
        what = f"hired {fighter.name} despite: {'; '.join(breaches)}"
        override_record(
            gang=gang, actor=actor, what=what, reason=override_reason, fighter=fighter, by_rule=granted_by_rule
        )
    included = _included_kit(gang, fighter, fighter_type)
    paid = 0 if free_reason else price
    if free_reason:
        how = f"as a free recruit (worth {price} credits)"
    elif hired_for is not None:
        how = f"for {paid} credits, for the battle {hired_for}"
    else:
        how = f"for {paid} credits"
    list_name = "gang additions" if fighter_type.is_addition else f"{gang.house.name} house list"
    ledger_record(
        gang=gang,
        fighter=fighter,
        kind=Kind.HIRE,
        credits=-paid,
        description=f"Hired {fighter.name} ({fighter_type.name}) {how}"
        + (f", with {', '.join(included)}" if included else ""),
        reason=free_reason or f"{list_name} price" + (f" for {gang.house.name}" if price != fighter_type.cost else ""),
        data={
            **(data or {}),
            "fighter_type": fighter_type.slug,
            "price": paid,
            "free": bool(free_reason),
            **({"hired_for": hired_for.pk} if hired_for is not None else {}),
        },
        actor=actor,
        battle=battle,
    )
    _starting_experience(fighter, fighter_type, actor, dice or RandomDice(), battle=battle, data=data)
    for equipment in kit:
        purchase_buy(gang=gang, equipment=equipment, fighter=fighter, actor=actor)
    return fighter


@transaction.atomic
def fighter_copy(*, fighter: Fighter, name: str, actor, dice: DiceSource | None = None) -> Fighter:
    """Hire another fighter of ``fighter``'s type with the same kit, at today's prices, in one step (the kit a
    Hanger-on or Brute comes with is part of its hire). Refused whole as a hire and its purchases would be."""
    kit = [p.equipment for p in fighter.purchases.select_related("equipment").order_by("pk") if p.price]
    return fighter_hire(
        gang=fighter.gang, fighter_type=fighter.fighter_type, name=name, actor=actor, dice=dice, kit=kit
    )


def _included_kit(gang: Gang, fighter: Fighter, fighter_type: FighterType) -> list[str]:
    """The equipment a Hanger-on or Brute is hired holding (part of its price, so bought at 0)."""
    entries = [e for e in fighter_type.equipment_list.select_related("equipment") if e.is_included]
    Purchase.objects.bulk_create(Purchase(gang=gang, fighter=fighter, equipment=e.equipment, price=0) for e in entries)
    return [e.equipment.name for e in entries]


@transaction.atomic
def fighter_let_go(*, fighter: Fighter, actor) -> Fighter:
    """The owner lets a Hanger-on or Brute go, as the rules require when Reputation falls below the
    number held (N11); the kit that came with them goes too. Written as a status entry."""
    gang = fighter.gang
    Gang.objects.select_for_update().only("pk").get(pk=gang.pk)
    gang.refresh_from_db(fields=["reputation"])
    if fighter.fighter_type.category not in gang_rules.REPUTATION_CAPPED:
        raise ValidationError(f"{fighter.name} is not a Hanger-on or Brute; retire them instead.")
    if fighter.status not in ON_ROSTER:
        raise ValidationError(f"{fighter.name} is {fighter.get_status_display()} and no longer on the roster.")
    over = hangers_on_over_cap(gang, list(Fighter.objects.filter(gang=gang).select_related("fighter_type")))
    cap = gang_rules.hangers_on_cap(gang.reputation)
    why = (
        f"Reputation {gang.reputation} allows {cap} Hangers-on and Brutes ({gang_rules.GANG_ADDITIONS_SOURCE})"
        if over
        else "Let go by the gang's player"
    )
    fighter.purchases.all().delete()
    return fighter_status_set(
        fighter=fighter, status=FighterStatus.RETIRED, actor=actor, reason=why, data={"let_go": True}
    )


@transaction.atomic
def fighter_remove(*, fighter: Fighter, actor) -> Fighter:
    """Take back a hire before the gang's first battle: what was paid for the fighter and the kit they hold returns
    to the Stash, the kit is gone, and the fighter leaves every list (status Removed). Our ruling, as a club
    founds gangs on paper: until the first battle nothing has happened to them, so a mistaken hire costs nothing.
    After it, a fighter leaves by retiring, and the credits stay spent."""
    lock_gang(fighter.gang)
    lock_fighter(fighter)
    refund = removal_refund(fighter)
    if refund is None:
        if fighter.status not in ON_ROSTER or fighter.is_hired_gun:
            raise ValidationError(f"{fighter.name} is not on the roster to remove.")
        raise ValidationError(
            f"{fighter.gang.name} has fought its first battle (or was imported): a fighter leaves by retiring now, "
            "and what was paid stays spent."
        )
    kit = [p.equipment.name for p in fighter.purchases.select_related("equipment")]
    fighter.purchases.all().delete()
    ledger_record(
        gang=fighter.gang,
        fighter=fighter,
        kind=Kind.CREDITS,
        credits=refund,
        actor=actor,
        description=f"Removed {fighter.name} before the gang's first battle: {refund} credits back"
        + (f" (with {', '.join(kit)})" if kit else ""),
        reason="Founding: a hire taken back before the first battle is refunded",
        data={"removed": True},
    )
    return fighter_status_set(
        fighter=fighter, status=FighterStatus.REMOVED, actor=actor, reason="Taken back at founding"
    )


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


def _kit_leaves(fighter: Fighter, status: str) -> tuple[str, list]:
    """What happens to a leaving fighter's equipment, and the items it concerns.

    Retired, and Dead in the 2018+ rules: it goes to the Stash. Dead in classic: it is lost with
    the fighter (S3 p84, Serious Injuries 11-16).
    """
    items = [
        {"purchase": p.pk, "equipment": p.equipment.slug, "price": p.price}
        for p in fighter.purchases.select_related("equipment")
    ]
    if status not in GONE or not items:
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
    lock_fighter(fighter)
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


@transaction.atomic
def fighter_retire(*, fighter: Fighter, actor) -> Fighter:
    lock_fighter(fighter)
    if fighter.status in GONE:
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
    (a fighter keeps one copy of a skill) and status. ``battle`` and ``data`` go on its entries.

    Each characteristic change is stored once, as a ``StatChange`` row of the injury: the injury's ``effects``
    keep only its notes and the entry names the injury, so nothing else can disagree with the stat line."""
    deltas = {stat: delta for stat, delta in (stat_deltas or {}).items() if delta}
    effects = {"notes": notes} if notes else {}
    injury = Injury.objects.create(fighter=fighter, code=code, name=name, roll=roll, effects=effects)
    StatChange.objects.bulk_create(
        StatChange(fighter=fighter, stat=stat, delta=delta, source=StatChangeSource.INJURY, injury=injury)
        for stat, delta in deltas.items()
    )
    known = set(fighter.skills.values_list("skill_id", flat=True))
    FighterSkill.objects.bulk_create(
        FighterSkill(fighter=fighter, skill=skill, injury=injury)
        for skill in {s.pk: s for s in skills}.values()
        if skill.pk not in known
    )
    ledger_record(
        gang=fighter.gang,
        fighter=fighter,
        kind=Kind.INJURY,
        description=f"{fighter.name}: {name}" + (f" ({roll})" if roll else ""),
        reason=reason,
        dice=dice,
        data={**(data or {}), "injury": injury.pk, "code": code},
        actor=actor,
        battle=battle,
    )
    if status and status != fighter.status:
        fighter_status_set(fighter=fighter, status=status, actor=actor, reason=name, battle=battle, data=data)
    return injury
