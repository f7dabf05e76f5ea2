"""The campaign's answers to what the gangs app asks (:mod:`gangs.campaign_facts`), registered at start-up."""

from __future__ import annotations

from django.db.models import Q, Subquery

from campaigns.models import (
    Battle,
    BattleEntry,
    BattleHire,
    BattleStatus,
    Campaign,
    CampaignArbitrator,
    CampaignGang,
)
from campaigns.permissions import can_see_campaign, visible_campaigns
from campaigns.selectors import gang_territories
from gangs.campaign_facts import CampaignFacts
from gangs.models import Fighter


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


def fought_since(gang, battle_id: int) -> bool:
    since = Battle.objects.filter(pk=battle_id).values("confirmed_at")
    confirmed = Battle.objects.filter(Q(attacker=gang) | Q(defender=gang), status=BattleStatus.CONFIRMED)
    return confirmed.filter(confirmed_at__gt=Subquery(since)).exists()


def hire_refusal(gang, battle: Battle) -> str:
    if gang.pk not in (battle.attacker_id, battle.defender_id) or not is_coming(battle):
        return "Hired Guns are hired for a coming battle the gang fights (before its report)."
    return ""


def hire_for_battle(fighter, battle: Battle) -> None:
    BattleHire.objects.create(fighter=fighter, battle=battle)


def hired_guns(battle: Battle):
    return Fighter.objects.filter(battle_hire__battle=battle)


def link_entry(entry, battle: Battle) -> None:
    BattleEntry.objects.create(entry=entry, battle=battle)


def battle_entry_ids():
    return BattleEntry.objects.values("entry_id")


def entry_battle(entry):
    return Subquery(BattleEntry.objects.filter(entry=entry).values("battle_id")[:1])


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
    fought_since=fought_since,
    hire_refusal=hire_refusal,
    hire_for_battle=hire_for_battle,
    hired_guns=hired_guns,
    link_entry=link_entry,
    battle_entry_ids=battle_entry_ids,
    entry_battle=entry_battle,
)
