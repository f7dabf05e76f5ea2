"""Who may see and change a campaign.

Arbitrators (the creator and co-arbitrators) run matchmaking and may change anything in the
campaign. Players (owners of the campaign's active gangs) see it and act for their own gangs only.
Anyone else gets a 404, as if the campaign did not exist; a player asking for an arbitrator's
action gets a 403.

That rule (:func:`visible_campaigns`) covers everything the campaign holds, wherever it is shown:
its battles, their reports and logs (the battle assistant's too), its post-battle sequences, and
the campaign's name and territories on a member gang's page (README.md, "Who sees what").
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from django.core.exceptions import PermissionDenied
from django.db.models import Exists, OuterRef, Q, QuerySet
from django.http import Http404
from django.shortcuts import get_object_or_404

from campaigns.models import Battle, Campaign, CampaignArbitrator, CampaignGang


@dataclass(frozen=True)
class Access:
    campaign: Campaign
    is_arbitrator: bool
    gang_ids: frozenset[int]  # the viewer's own active gangs in this campaign

    def can_act_for(self, gang_id: int) -> bool:
        return self.is_arbitrator or gang_id in self.gang_ids

    @property
    def viewer_key(self) -> str:
        """Who the viewer is, as far as a page's controls go: an arbitrator (who acts for every gang) or the player
        of these gangs. Viewers with the same key see the same controls, so a fragment drawn with controls in it is
        cached under it (campaigns' page, core.templatetags.fragments), never under a key another kind shares."""
        if self.is_arbitrator:
            return "arbitrator"
        return "player:" + ",".join(str(pk) for pk in sorted(self.gang_ids))

    def require_arbitrator(self) -> None:
        if not self.is_arbitrator:
            raise PermissionDenied("Only the campaign's arbitrators may do that.")

    def require_gang(self, gang_id: int) -> None:
        if not self.can_act_for(gang_id):
            raise PermissionDenied("You may act only for your own gang.")

    def for_battle(self, battle: Battle) -> Access:
        """Separation of duties: an arbitrator whose gang fights ``battle`` is only a player in it (he neither
        re-rolls, confirms his own report, cancels, nor sets aside or reverts either side's post-battle
        sequence); another arbitrator decides. The services refuse it too (``require_impartial_battle``)."""
        if self.is_arbitrator and {battle.attacker_id, battle.defender_id} & self.gang_ids:
            return replace(self, is_arbitrator=False)
        return self


def visible_campaigns(user) -> QuerySet[Campaign]:
    """The campaigns ``user`` may see: those they arbitrate, and those one of their gangs is in (not removed)."""
    if not user.is_authenticated:
        return Campaign.objects.none()
    arbitrated = Q(arbitrators__user=user)
    playing = Q(pk__in=CampaignGang.objects.filter(gang__owner=user, removed_at__isnull=True).values("campaign_id"))
    return Campaign.objects.filter(arbitrated | playing).distinct()


def can_see_campaign(user, campaign_id: int | None) -> bool:
    return campaign_id is not None and visible_campaigns(user).filter(pk=campaign_id).exists()


def is_arbitrator(user, campaign: Campaign) -> bool:
    return user.is_authenticated and campaign.arbitrators.filter(user=user).exists()


def campaign_access(user, campaign_id: int, campaigns: QuerySet[Campaign] | None = None) -> Access:
    """The campaign (from ``campaigns``, when a page needs it annotated) and what ``user`` may do in it; 404 for a
    stranger. Two queries: the campaign with whether the user arbitrates it, and the user's gangs in it."""
    if not user.is_authenticated:
        raise Http404
    arbitrates = Exists(CampaignArbitrator.objects.filter(campaign=OuterRef("pk"), user=user))
    campaigns = campaigns if campaigns is not None else Campaign.objects.all()
    campaign = get_object_or_404(campaigns.annotate(viewer_arbitrates=arbitrates), pk=campaign_id)
    return _access(campaign, campaign.viewer_arbitrates, _own_gang_ids(user, campaign))


def access_in(user, campaign: Campaign) -> Access:
    """:func:`campaign_access` to a campaign already read (two queries); 404 for a stranger."""
    if not user.is_authenticated:
        raise Http404
    return _access(campaign, is_arbitrator(user, campaign), _own_gang_ids(user, campaign))


def access_from(user, campaign: Campaign, arbitrator_ids, owners: dict[int, int]) -> Access:
    """:func:`campaign_access` without a query, from what a page read earlier holds: its arbitrators' user ids and
    each active gang's owner (``owners``, by gang id). Only for values kept under a key that moves with each of them
    (a cached campaign page's head, campaigns.cache): an arbitrator added or removed, a gang joining or leaving
    and a gang changing hands each move it. 404 for a stranger."""
    if not user.is_authenticated:
        raise Http404
    gang_ids = {gang_id for gang_id, owner_id in owners.items() if owner_id == user.pk}
    return _access(campaign, user.pk in arbitrator_ids, gang_ids)


def _own_gang_ids(user, campaign: Campaign):
    return campaign.memberships.filter(gang__owner=user, removed_at__isnull=True).values_list("gang_id", flat=True)


def _access(campaign: Campaign, arbitrator: bool, gang_ids) -> Access:
    gang_ids = frozenset(gang_ids)
    if not arbitrator and not gang_ids:
        raise Http404
    return Access(campaign, arbitrator, gang_ids)


def battle_access(user, campaign_id: int, battle_id: int) -> tuple[Access, Battle]:
    access = campaign_access(user, campaign_id)
    battle = get_object_or_404(
        Battle.objects.select_related("attacker__owner", "defender__owner", "cycle", "stakes__territory"),
        pk=battle_id,
        campaign=access.campaign,
    )
    return access.for_battle(battle), battle


def battle_player_or_arbitrator(access: Access, battle: Battle) -> None:
    """The two gangs' players and the arbitrators may act on a battle; other players may only watch."""
    if not (access.is_arbitrator or {battle.attacker_id, battle.defender_id} & access.gang_ids):
        raise PermissionDenied("Only the two players and the arbitrators may do that.")
