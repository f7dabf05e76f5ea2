"""The composition rules as a gang stands: the house list's limits, what the roster holds, whether the gang is
still being founded (and what taking a fighter back would refund), who joins free by a rule, and every rule it
breaks (``rulebook.gang_rules``). Reads: the hire and the import check them, and the gang page lists what they
find."""

from __future__ import annotations

from collections.abc import Iterable

from django.db.models import Q, prefetch_related_objects

from content.models import ADDITION_CATEGORIES, FighterType, House
from gangs.campaign_facts import campaign_facts
from gangs.ledger import from_battle
from gangs.models import GONE, ON_ROSTER, Fighter, Gang
from rulebook import gang_rules
from rulebook.errors import RulesInputError


def house_types(house: House) -> list:
    """The house list's fighter types, fetched once per house object (a no-op when already prefetched): the
    roster's problems and the hire form both read them, and a page whose fragments are cached reads neither."""
    prefetch_related_objects([house], "fighter_types")
    return list(house.fighter_types.all())


def house_rules(house: House) -> gang_rules.HouseRules:
    types = tuple(
        gang_rules.TypeLimit(t.slug, t.name, t.category, t.min_per_gang, t.max_per_gang) for t in house_types(house)
    )
    return gang_rules.HouseRules(
        name=house.name,
        types=types,
        min_fighters=house.min_fighters,
        share_rules=tuple(house.composition_rules),
        sources=tuple(house.sources),
    )


def roster_types(gang: Gang, fighters=None) -> list[str]:
    """Fighter type slugs of the house-list fighters on the roster (not Dead or Retired).

    Hangers-on, Brutes and Hired Guns are left out: they count toward no other fighter's limit (N11).
    """
    fighters = gang.fighters.all() if fighters is None else fighters
    return [f.fighter_type.slug for f in fighters if f.status in ON_ROSTER and not f.fighter_type.is_addition]


def held_additions(gang: Gang, *, battle=None, fighters=None) -> list[gang_rules.TypeLimit]:
    """The Hangers-on and Brutes on the roster, or with ``battle`` the Hired Guns hired for it.

    ``fighters`` defaults to ``gang.fighters.all()`` (prefetched by the gang page); a service that has
    locked the gang passes a fresh read."""
    held = []
    hired = set(campaign_facts().hired_guns(battle).values_list("pk", flat=True)) if battle is not None else set()
    for fighter in gang.fighters.all() if fighters is None else fighters:
        t = fighter.fighter_type
        if fighter.status not in ON_ROSTER or not t.is_addition:
            continue
        if (t.category == gang_rules.HIRED_GUN) != (battle is not None):
            continue
        if battle is not None and fighter.pk not in hired:
            continue
        held.append(gang_rules.TypeLimit(t.slug, t.name, t.category, t.min_per_gang, t.max_per_gang))
    return held


def hangers_on_over_cap(gang: Gang, fighters=None) -> int:
    """How many Hangers-on and Brutes the gang must let go because its Reputation fell (0 when within)."""
    return gang_rules.hangers_on_excess(gang.reputation, len(held_additions(gang, fighters=fighters)))


def gang_founding(gang: Gang) -> bool:
    """Whether the gang is still being founded: no battle and no import in its ledger. Until its first battle a
    player may take a hire back with a refund (fighter_remove), and the founding composition rules hold. One
    query (a page whose gang query asked it already passes the answer on: gangs.selectors.RosterPage.founding)."""
    return not gang.ledger.filter(from_battle() | Q(data__has_key="imported")).exists()


def composition_problems(gang: Gang, *, founding: bool | None = None, battled: bool | None = None) -> list[str]:
    """Messages for every composition rule the gang breaks as it stands: the founding rules too (the Outcasts' two
    Champions, a Cult's two Hybrid Acolytes) until its first battle here. A hire is refused them, but a gang
    imported with no battle recorded here may bring one: it is listed with the rule, and says it came so.
    ``founding`` (:func:`gang_founding`) and ``battled`` (a battle recorded here) are asked of the ledger unless
    the caller read them with the gang (gangs.selectors.roster.gang_roster)."""
    if battled is None:
        battled = gang.ledger.filter(from_battle()).exists()
    try:
        rules, roster = house_rules(gang.house), roster_types(gang)
        breaches = gang_rules.composition_breaches(rules, roster, founding=not battled)
        always = {b.rule for b in gang_rules.composition_breaches(rules, roster)}
    except RulesInputError as error:
        return [error.message]
    # Not founded here: the ledger says imported.
    imported = not battled and not (gang_founding(gang) if founding is None else founding)
    came = " (so imported, with no battle recorded here)" if imported else ""
    return [f"{gang.house.name}: {b.message}{came if b.rule not in always else ''}" for b in breaches]


def removal_refund(
    fighter: Fighter,
    *,
    gang: Gang | None = None,
    kit: Iterable[int] | None = None,
    founding: bool | None = None,
) -> int | None:
    """What removing ``fighter`` gives back (what the hire cost and the kit they hold), or None when they cannot
    be removed: the gang has fought (or came by an import), or the fighter is off the roster or a Hired Gun.
    ``founding`` (:func:`gang_founding`, when the page read it with the gang), ``gang`` and ``kit`` (the prices
    the page has loaded) save queries; the service reads them afresh under its lock."""
    if fighter.status not in ON_ROSTER or fighter.is_hired_gun:
        return None
    if not (gang_founding(gang or fighter.gang) if founding is None else founding):
        return None
    # A fighter some rule gives for nothing (a Palanite Rookie) was hired for 0; any other at its cost.
    paid = 0 if fighter.fighter_type.recruited_by_rule else fighter.cost
    return paid + sum(fighter.purchases.values_list("price", flat=True) if kit is None else kit)


def rule_recruit_refusal(fighter_type: FighterType) -> str:
    """Why a fighter who joins by a rule (a Palanite Rookie) cannot be hired while the rule does not allow one."""
    return (
        f"one joins free by {fighter_type.recruited_by_rule}, for each fighter of the gang who is Dead or Retired "
        "and not yet replaced"
    )


def replacement_reason(gang: Gang, fighter_type: FighterType) -> str:
    """The free-recruit reason when a fighter gained by a rule may join now, else "".

    Palanite Enforcers' Fresh from the Academy (Book of Judgement p32, necrovox copy): Rookies are never bought;
    one joins free for each Enforcer who died or retired. We count gone fighters (not themselves such recruits)
    against recruits of this kind already taken, so each loss is replaced once.
    """
    by_rule = gang.fighters.exclude(fighter_type__recruited_by_rule="")
    # Hangers-on let go and Hired Guns gone home are Retired too, but no Enforcer left the ranks.
    gone = (
        gang.fighters.filter(status__in=GONE)
        .filter(fighter_type__recruited_by_rule="")
        .exclude(fighter_type__category__in=ADDITION_CATEGORIES)
        .count()
    )
    if gone > by_rule.count():
        return f"{fighter_type.recruited_by_rule}: replaces a Dead or Retired fighter"
    return ""
