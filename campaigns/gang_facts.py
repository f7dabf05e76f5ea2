"""The campaign's answers to what the gangs app asks (:mod:`gangs.campaign_facts`), registered at start-up."""

from __future__ import annotations

from django.db.models import Q

from campaigns.models import Battle, BattleStatus, Campaign, CampaignArbitrator, CampaignGang
from campaigns.permissions import can_see_campaign, visible_campaigns
from campaigns.selectors import gang_territories
from gangs.campaign_facts import CampaignFacts


def memberships(gang):
    return CampaignGang.objects.filter(gang=gang, removed_at__isnull=True)


def arbitrations(user_id, gang):
    return CampaignArbitrator.objects.filter(
        user=user_id, campaign__memberships__gang=gang, campaign__memberships__removed_at__isnull=True
    )


def arbitrates_campaign(user_id, campaign_id) -> bool:
    return CampaignArbitrator.objects.filter(user=user_id, campaign_id=campaign_id).exists()


def playing_campaigns(gang):
    return Campaign.objects.filter(memberships__gang=gang, memberships__removed_at__isnull=True)


def coming_battles(gang) -> list[Battle]:
    return list(
        Battle.objects.filter(Q(attacker=gang) | Q(defender=gang), status=BattleStatus.SCHEDULED)
        .select_related("attacker", "defender")
        .order_by("created_at", "pk")
    )


def is_coming(battle: Battle) -> bool:
    return battle.status == BattleStatus.SCHEDULED


def visible_campaign_ids(user, campaign_ids) -> set[int]:
    return set(visible_campaigns(user).filter(pk__in=campaign_ids).values_list("pk", flat=True))


def battle_campaigns(battle_ids) -> dict[int, int]:
    return dict(Battle.objects.filter(pk__in=battle_ids).values_list("pk", "campaign_id"))


FACTS = CampaignFacts(
    memberships=memberships,
    arbitrations=arbitrations,
    arbitrates_campaign=arbitrates_campaign,
    playing_campaigns=playing_campaigns,
    coming_battles=coming_battles,
    is_coming=is_coming,
    gang_territories=gang_territories,
    can_see_campaign=can_see_campaign,
    visible_campaign_ids=visible_campaign_ids,
    battle_campaigns=battle_campaigns,
)
