"""Gangs: found, rename, arbitrator overrides, and the composition rules as they stand."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Case, F, Q, Sum, When, prefetch_related_objects

from content.models import (
    House,
    HouseKind,
)
from gangs.campaign_facts import campaign_facts
from gangs.ledger import from_battle, ledger_record
from gangs.models import (
    ON_ROSTER,
    Gang,
    LedgerEntry,
)
from gangs.models import LedgerKind as Kind
from gangs.services.common import require_impartial
from rulebook import gang_rules
from rulebook.errors import RulesInputError

# --- gangs -------------------------------------------------------------------------------------


@transaction.atomic
def gang_create(*, owner, house: House, name: str, actor=None) -> Gang:
    """A new gang of ``house``'s edition whose Stash starts with the house's starting credits."""
    if not house.is_active:
        raise ValidationError(f"{house.name} is no longer on the house lists.")
    if house.kind != HouseKind.GANG_LIST:
        raise ValidationError(f"{house.name} is not a gang list: its fighters join gangs of a house.")
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
    """An arbitrator's correction of credits, Reputation or experience, recorded as an override. In a campaign
    what overrides add is bounded by its house rules (:func:`_campaign_override_bounds`)."""
    if not reason.strip():
        raise ValidationError("An override needs a reason.")
    require_impartial(gang=gang, actor=actor, what="An override")
    campaign_id = _campaign_override_bounds(gang, credits, reputation)
    parts = [f"{v:+d} {label}" for v, label in ((credits, "credits"), (reputation, "Reputation")) if v]
    if experience:
        parts.append(f"{experience:+d} XP for {fighter.name}")
    return ledger_record(
        data={"campaign": campaign_id} if campaign_id else None,
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


def _campaign_override_bounds(gang: Gang, credits: int, reputation: int) -> int | None:
    """Refuse an override that would add more credits or Reputation than the campaign the gang plays in allows
    (per gang and for all its gangs together: ``Campaign.override_*``, house rules), so no campaign becomes a
    mint (issue 26). Returns the campaign's id, or None outside one. The campaign row is locked first, so two
    overrides at once count each other."""
    playing = campaign_facts().playing_campaigns(gang)
    campaign = playing.select_for_update(of=("self",)).first()
    if campaign is None:
        return None
    given = LedgerEntry.objects.filter(kind=Kind.OVERRIDE, data__campaign=campaign.pk)
    added = Sum(Case(When(credits__gt=0, then=F("credits")), default=0))
    added_reputation = Sum(Case(When(reputation__gt=0, then=F("reputation")), default=0))
    to_gang = given.filter(gang=gang).aggregate(credits=added, reputation=added_reputation)
    to_all = given.aggregate(credits=added)["credits"] or 0
    checks = [
        (credits, to_gang["credits"] or 0, campaign.override_credits_per_gang, "credits to one gang"),
        (credits, to_all, campaign.override_credits_per_campaign, "credits to all its gangs"),
        (reputation, to_gang["reputation"] or 0, campaign.override_reputation_per_gang, "Reputation to one gang"),
    ]
    for amount, so_far, most, what in checks:
        if amount > 0 and so_far + amount > most:
            raise ValidationError(
                f"{campaign.name}'s house rules allow overrides to add at most {most} {what}; "
                f"{so_far} already added, so at most {max(0, most - so_far)} more."
            )
    return campaign.pk


# --- composition --------------------------------------------------------------------------------


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
    player may take a hire back with a refund (fighter_remove), and the founding composition rules hold. A gang
    from gangs.selectors.gang_queryset carries the answer (``fought``); a locked one is asked afresh."""
    if getattr(gang, "fought", None) is not None:
        return not gang.fought
    return not gang.ledger.filter(from_battle() | Q(data__has_key="imported")).exists()


def composition_problems(gang: Gang) -> list[str]:
    """Messages for every composition rule the gang breaks as it stands: the founding rules too (the Outcasts' two
    Champions, a Cult's two Hybrid Acolytes) until its first battle here. A hire is refused them, but a gang
    imported with no battle recorded here may bring one: it is listed with the rule, and says it came so."""
    battled = getattr(gang, "battled", None)  # from gangs.selectors.gang_queryset; a gang from elsewhere asks
    if battled is None:
        battled = gang.ledger.filter(from_battle()).exists()
    try:
        rules, roster = house_rules(gang.house), roster_types(gang)
        breaches = gang_rules.composition_breaches(rules, roster, founding=not battled)
        always = {b.rule for b in gang_rules.composition_breaches(rules, roster)}
    except RulesInputError as error:
        return [error.message]
    imported = not battled and not gang_founding(gang)  # not founded here: the ledger says imported
    came = " (so imported, with no battle recorded here)" if imported else ""
    return [f"{gang.house.name}: {b.message}{came if b.rule not in always else ''}" for b in breaches]
