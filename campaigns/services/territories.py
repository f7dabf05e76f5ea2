"""The campaign's territory pool: adding territories and handing them over (Home Settlements stay put)."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction

from campaigns.models import (
    Campaign,
    CampaignTerritory,
)
from campaigns.services._common import (
    _member,
    _territory_move,
)
from content.models import Territory
from gangs.models import Gang


@transaction.atomic
def territory_add(*, campaign: Campaign, territory: Territory) -> CampaignTerritory:
    if territory.edition != campaign.edition:
        raise ValidationError("That territory belongs to another edition.")
    if territory.is_home_settlement:
        raise ValidationError("Home Settlements are given to each gang when it joins.")
    return CampaignTerritory.objects.create(campaign=campaign, territory=territory)


@transaction.atomic
def territory_assign(*, held: CampaignTerritory, holder: Gang | None, actor, reason: str = "") -> CampaignTerritory:
    """An arbitrator hands a territory to a gang, or back to the pool. Home Settlements stay put."""
    held = (
        CampaignTerritory.objects.select_for_update(of=("self",))
        .select_related("campaign", "territory", "holder")
        .get(pk=held.pk)
    )
    if held.is_home_settlement:
        raise ValidationError("A Home Settlement cannot be lost.")
    for gang in (held.holder, holder):
        if gang is not None and actor is not None and gang.owner_id == actor.pk:
            raise ValidationError(f"{gang.name} is your own gang: another arbitrator hands its territories over.")
    if holder is not None:
        _member(held.campaign, holder)
    if held.holder_id == (holder.pk if holder else None):
        raise ValidationError("That gang already holds it." if holder else "It is already unclaimed.")
    _territory_move(held, holder, actor, reason=reason or "Arbitrator's decision")
    return held
