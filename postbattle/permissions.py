"""Who may see and run a gang's post-battle sequence.

The campaign's players and arbitrators may look at it; the gang's owner runs their own gang's
sequence; arbitrators may run any and are the only ones who revert, except in a battle their own gang
fought, where they are only its player (``Access.for_battle``). A stranger to the campaign
gets a 404 (as if the battle did not exist), a player acting for someone else's gang a 403.
"""

from __future__ import annotations

from django.http import Http404
from django.shortcuts import get_object_or_404

from campaigns.models import Battle
from campaigns.permissions import Access, campaign_access
from gangs.models import Gang


def sequence_access(user, battle_pk: int, gang_pk: int) -> tuple[Access, Battle, Gang]:
    battle = get_object_or_404(
        Battle.objects.select_related(
            "campaign", "attacker__owner", "defender__owner", "attacker__house", "defender__house"
        ),
        pk=battle_pk,
    )
    access = campaign_access(user, battle.campaign_id)
    if gang_pk not in (battle.attacker_id, battle.defender_id):
        raise Http404
    return access.for_battle(battle), battle, battle.attacker if gang_pk == battle.attacker_id else battle.defender
