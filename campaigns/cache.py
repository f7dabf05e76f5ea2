"""The campaign page's data, cached: read once per *version* of the campaign, of its gangs and of the content, and
served from Django's cache until one of them moves (the roster's discipline, gangs.cache).

- Every row of the campaign the page is drawn from (the campaign, its arbitrators, memberships, join requests,
  cycles and who passed in them, territories, battles, standing snapshots and house rules) moves the campaign's
  ``version`` when it is saved or deleted, in the same transaction (a ``post_save``/``post_delete`` receiver
  issuing an ``F()`` update): whatever wrote the change (a service, the post-battle sequence, the admin).
- What the page shows of its gangs (rating, Reputation, names, the campaign log's ledger entries) is each gang's
  roster version (gangs.cache): the key carries the sum of the versions of every gang that plays or played in the
  campaign, read in the same query as the campaign (:func:`page_campaign`). Versions only grow, so the sum moves
  whenever one of them does, and a gang joining or leaving moves the campaign's own version.
- A key holds only what every viewer sees: who may do what (arbitrator, player of a gang), the forms and their
  CSRF tokens are decided and drawn for each request (campaigns.views.campaigns.campaign_detail).
- A list drawn from several campaigns (the post-battle list) is keyed by :func:`list_key`: the id and versions of
  every campaign it may draw from, so a campaign entering or leaving the list's reach moves the key as well.
"""

from __future__ import annotations

import hashlib

from django.db.models import F, OuterRef, Subquery, Sum
from django.db.models.signals import m2m_changed

from content.versioning import content_version_subquery
from core.caching import on_row_change
from core.queries import Precompiled
from gangs.cache import FRAGMENT_SECONDS

__all__ = [
    "FRAGMENT_SECONDS",
    "bump_campaign",
    "connect",
    "follow_battle",
    "list_key",
    "list_versions",
    "page_campaign",
    "page_key",
]


def bump_campaign(campaign_id: int | None) -> None:
    from campaigns.models import Campaign

    if campaign_id is not None:
        Campaign.objects.filter(pk=campaign_id).update(version=F("version") + 1)


def bump_battles_campaign(battle_id: int | None) -> None:
    from campaigns.models import Battle, Campaign

    if battle_id is not None:
        campaign = Battle.objects.filter(pk=battle_id).values("campaign_id")[:1]
        Campaign.objects.filter(pk=Subquery(campaign)).update(version=F("version") + 1)


def _gangs_version() -> Subquery:
    """The sum of the versions of every gang that plays or played in the campaign (``OuterRef("pk")``)."""
    from campaigns.models import CampaignGang

    gangs = (
        CampaignGang.objects.filter(campaign=OuterRef("pk"))
        .values("campaign")
        .annotate(total=Sum("gang__version"))
        .values("total")
    )
    return Subquery(gangs)


def page_campaign(pk: int):
    """Campaign ``pk`` annotated with what :func:`page_key` needs besides its own version, or None: one query,
    compiled once (core.queries: resolving its two subqueries costs more than a warm page's whole query)."""
    found = _PAGE_CAMPAIGN.objects(pk)
    return found[0] if found else None


def _page_campaign(pk: int):
    from campaigns.models import Campaign

    annotated = Campaign.objects.annotate(gangs_version=_gangs_version(), content_version=content_version_subquery())
    return annotated.filter(pk=pk).order_by()


_PAGE_CAMPAIGN = Precompiled(_page_campaign)


#: Moved whenever what the page's keys hold changes shape, so a cache filled before a deploy is never read as the
#: new shape (2: the page's head says whether a join request waits, and holds its gangs as (id, name) pairs; 3: and
#: each gang's owner, which decides who may see the page).
PAGE_LAYOUT = 3


def page_key(campaign, *parts) -> str:
    """The cache key of the campaign page's data for ``campaign`` (from :func:`page_campaign`)."""
    values = (campaign.pk, campaign.version, campaign.gangs_version or 0, campaign.content_version or 0, *parts)
    return f"campaign-page{PAGE_LAYOUT}:" + ":".join(str(value) for value in values)


def list_versions(campaigns):
    """The id, version and gangs' versions of each of ``campaigns`` (a queryset), for :func:`list_key`."""
    return (
        campaigns.annotate(gangs_version=_gangs_version()).order_by("pk").values_list("pk", "version", "gangs_version")
    )


def list_key(name: str, versions, *parts) -> str:
    """The cache key of a list drawn from the campaigns whose :func:`list_versions` are ``versions`` (every campaign
    the list may show rows of; one query). A campaign that comes into the list's reach or leaves it changes the ids;
    any change to one of them moves its versions."""
    digest = hashlib.blake2b(repr((parts, list(versions))).encode(), digest_size=16).hexdigest()
    return f"{name}:{digest}"


# --- receivers ----------------------------------------------------------------------------------


def follow(model, campaign_field: str | None) -> None:
    """Move the version of the campaign ``model``'s ``campaign_field`` names (``None``: the campaign's own row)
    whenever a row is saved or deleted."""
    on_row_change(model, campaign_field, bump_campaign, f"campaign-version-{model._meta.label}")


def follow_battle(model, battle_field: str) -> None:
    """Move the version of the campaign of the battle ``model``'s ``battle_field`` names whenever a row is saved or
    deleted: for rows an app above keeps about a campaign's battles (the post-battle sequences, postbattle.apps)."""
    on_row_change(model, battle_field, bump_battles_campaign, f"campaign-version-{model._meta.label}")


def _passed(sender, instance, action, reverse, pk_set, **kwargs):
    # Who passed on challenging in a cycle: the challenge queue (Cycle.passed, a many-to-many of gangs), written
    # from the cycle's side or the gang's (then ``pk_set`` names the cycles; a clear from the gang's side, which
    # nothing does, would name none).
    if action not in ("post_add", "post_remove", "post_clear"):
        return
    if not reverse:
        bump_campaign(instance.campaign_id)
    elif pk_set:
        from campaigns.models import Campaign

        Campaign.objects.filter(cycles__in=pk_set).update(version=F("version") + 1)


def connect() -> None:
    """Called once from the campaigns app's ``ready()``."""
    from django.apps import apps

    follow(apps.get_model("campaigns", "Campaign"), None)
    for name in (
        "CampaignArbitrator",
        "CampaignGang",
        "JoinRequest",
        "Cycle",
        "CampaignTerritory",
        "Battle",
        "StandingSnapshot",
        "HouseRules",
    ):
        follow(apps.get_model("campaigns", name), "campaign")
    cycle = apps.get_model("campaigns", "Cycle")
    m2m_changed.connect(_passed, sender=cycle.passed.through, dispatch_uid="campaign-version-cycle-passed")
