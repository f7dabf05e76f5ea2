"""Gangs: found, rename, arbitrator overrides, and the composition rules as they stand."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Case, F, Sum, When

from content.models import (
    House,
    HouseKind,
)
from gangs.campaign_facts import campaign_facts
from gangs.ledger import ledger_record
from gangs.models import (
    Gang,
    LedgerEntry,
)
from gangs.models import LedgerKind as Kind
from gangs.services.common import require_impartial

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
