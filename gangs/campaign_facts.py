"""What the gangs app asks of the campaign a gang plays in, without importing campaigns (the floor above).

Whether a gang plays in a campaign, who arbitrates it, its coming battles and the territories it holds decide
who may change the gang and what its page shows. The campaigns app answers: it registers its
:class:`CampaignFacts` here when it starts (``campaigns.apps``, ``campaigns.gang_facts``), as it registers its
house-rule checks in :mod:`gangs.campaign_checks`. ``gang`` may be an ``OuterRef`` where a queryset is returned,
so a page can ask inside the query that loads the gang. The links from gang rows up to a campaign battle (a Hired
Gun's battle, the battle a ledger entry came from) are campaigns' rows, written and read through here: gangs'
models and migrations know nothing of campaigns (issue 27).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from django.core.exceptions import ImproperlyConfigured


@dataclass(frozen=True)
class CampaignFacts:
    # The gang's memberships of campaigns it has not been removed from (rows with ``campaign_id``).
    memberships: Callable
    # (user id, gang) -> the arbitrator rows of the campaigns the gang plays in that name the user.
    arbitrations: Callable
    # (user id, campaign id) -> whether the user arbitrates that campaign.
    arbitrates_campaign: Callable
    # gang -> the campaigns it plays in (a queryset, so a service can lock the row).
    playing_campaigns: Callable
    # gang -> its campaign battles still to be reported, oldest first.
    coming_battles: Callable
    # battle -> whether it is still to be reported (a Hired Gun is hired for such a battle only).
    is_coming: Callable
    # gang -> the territories it holds in the campaign it plays in.
    gang_territories: Callable
    # (user, campaign id) -> whether the user may see that campaign.
    can_see_campaign: Callable
    # (user, campaign ids) -> those of them the user may see.
    visible_campaign_ids: Callable
    # battle ids -> {battle id: campaign id}.
    battle_campaigns: Callable
    # (gang, battle id) -> whether the gang has had a battle confirmed since that one was.
    fought_since: Callable
    # The links from gang rows to a battle are campaigns' rows (campaigns.models.BattleHire, BattleEntry), so
    # gangs writes and reads them through these.
    # (gang, battle) -> why a Hired Gun cannot be hired for that battle, or "".
    hire_refusal: Callable
    # (fighter, battle) -> records that the Hired Gun was hired for the battle.
    hire_for_battle: Callable
    # battle -> the Hired Guns hired for it (a queryset of gangs.Fighter).
    hired_guns: Callable
    # (entry, battle) -> records that the ledger entry came from the battle.
    link_entry: Callable
    # () -> the ids of the ledger entries that came from a battle (a queryset, for ``pk__in``).
    battle_entry_ids: Callable
    # entry (an ``OuterRef``) -> an expression: the id of the battle the entry came from, or NULL.
    entry_battle: Callable


_registered: list[CampaignFacts] = []


def register(facts: CampaignFacts) -> None:
    _registered[:] = [facts]


def campaign_facts() -> CampaignFacts:
    if not _registered:
        raise ImproperlyConfigured("The campaigns app registers the campaign facts gangs asks for (campaigns.apps).")
    return _registered[0]
