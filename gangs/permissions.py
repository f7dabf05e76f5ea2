"""Who may see and change a gang.

Anyone logged in may view a gang (read-only). Changes belong to the owner and to an arbitrator of
a campaign the gang is in; everyone else gets 403 on a change and 404 for a gang that does not
exist. Views decide with these helpers, never templates. What the gang's campaign holds (its name,
territories, battles) follows the campaign's rule instead (campaigns.permissions.visible_campaigns).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.core.exceptions import PermissionDenied
from django.db.models import Exists, OuterRef, QuerySet
from django.http import Http404

from gangs.campaign_facts import campaign_facts
from gangs.models import Gang


def is_gang_arbitrator(user, gang: Gang) -> bool:
    """True when ``user`` arbitrates a campaign ``gang`` is in (and has not been removed from), for someone
    else's gang: an arbitrator who owns the gang is its player there, and another arbitrator decides for it."""
    return gang.owner_id != user.pk and campaign_facts().arbitrations(user.pk, gang).exists()


def arbitrates_campaign(user, campaign_id: int) -> bool:
    """True when ``user`` is an arbitrator of the campaign ``campaign_id``."""
    return user.is_authenticated and campaign_facts().arbitrates_campaign(user.pk, campaign_id)


def can_edit_gang(user, gang: Gang) -> bool:
    if not user.is_authenticated:
        return False
    return gang.owner_id == user.pk or gang_access(user, gang).is_arbitrator


@dataclass(frozen=True)
class GangAccess:
    """What a viewer may do, worked out once per request (an arbitrator may also override rules)."""

    can_edit: bool
    is_arbitrator: bool


def gang_access(user, gang: Gang) -> GangAccess:
    """``user``'s :class:`GangAccess` to ``gang`` (one query for someone else's gang; :func:`viewed_gang` reads it
    with the gang instead)."""
    return access_as(user, gang, is_arbitrator=user.is_authenticated and is_gang_arbitrator(user, gang))


def access_as(user, gang: Gang, *, is_arbitrator: bool) -> GangAccess:
    """The :class:`GangAccess` of ``user``, given whether they arbitrate ``gang``'s campaign (for someone else's
    gang: :func:`is_gang_arbitrator`)."""
    return GangAccess(
        can_edit=is_arbitrator or (user.is_authenticated and gang.owner_id == user.pk), is_arbitrator=is_arbitrator
    )


def gang_for_view(user, pk: int, queryset: QuerySet | None = None) -> Gang:
    """The gang for any logged-in user; 404 when it does not exist or nobody is logged in."""
    if not user.is_authenticated:
        raise Http404
    queryset = queryset if queryset is not None else Gang.objects.select_related("house", "owner")
    try:
        return queryset.get(pk=pk)
    except Gang.DoesNotExist:
        raise Http404 from None


def gang_for_edit(user, pk: int, queryset: QuerySet | None = None) -> Gang:
    """The gang when ``user`` may change it; 403 for a logged-in user who may only look."""
    gang = gang_for_view(user, pk, queryset)
    require_edit(user, gang)
    return gang


EDIT_REFUSAL = "Only the gang's owner or an arbitrator of its campaign may change it."


def require_edit(user, gang: Gang) -> None:
    """403 for a logged-in user who may only look at ``gang``."""
    if not can_edit_gang(user, gang):
        raise PermissionDenied(EDIT_REFUSAL)


def require_access(access: GangAccess) -> None:
    """403 unless ``access`` (read with the gang: :class:`ViewedGang`, :class:`gangs.selectors.RosterPage`) lets
    the viewer change the gang."""
    if not access.can_edit:
        raise PermissionDenied(EDIT_REFUSAL)


def in_campaign(gang: Gang) -> bool:
    """Whether ``gang`` plays in a campaign now (one query; :func:`viewed_gang` reads it with the gang instead)."""
    return campaign_facts().memberships(gang).exists()


@dataclass(frozen=True)
class ViewedGang:
    """A gang as one viewer acts on it (:func:`viewed_gang`): the gang, what the viewer may do, and whether it
    plays in a campaign (which decides who keeps its record, and whether it has a captor to name or a Trading
    Post to visit)."""

    gang: Gang
    access: GangAccess
    in_campaign: bool


def viewed_gang(user, pk: int, queryset: QuerySet | None = None, *, edit: bool = False) -> ViewedGang:
    """Gang ``pk`` for ``user`` as :func:`gang_for_view` (or :func:`gang_for_edit` with ``edit``) gives it, with
    its :class:`ViewedGang` facts read in the same query, so the fighter pages decide who may do what without a
    query of their own."""
    membership = campaign_facts().memberships(OuterRef("pk"))
    # Never for one's own gang (is_gang_arbitrator).
    arbitrates = campaign_facts().arbitrations(user.pk, OuterRef("pk")).exclude(user=OuterRef("owner"))
    queryset = queryset if queryset is not None else Gang.objects.select_related("house", "owner")
    queryset = queryset.annotate(in_campaign_now=Exists(membership), viewer_is_arbitrator=Exists(arbitrates))
    gang = gang_for_view(user, pk, queryset)
    viewed = ViewedGang(gang, access_as(user, gang, is_arbitrator=gang.viewer_is_arbitrator), gang.in_campaign_now)
    if edit:
        require_access(viewed.access)
    return viewed


def record_keeper(viewed: ViewedGang) -> tuple[bool, str]:
    """Who writes a fighter's record between battles (experience, kills, injuries, status), and why not.

    Outside a campaign the owner keeps it, as a player playing at home would. Inside one the record is
    the campaign's: it changes through the post-battle sequence or by the campaign's arbitrator, never by
    the owner alone (the owner asks the arbitrator, who records it with the reason). Notes stay the owner's.
    """
    gang, access = viewed.gang, viewed.access
    if access.is_arbitrator:
        return True, ""
    if not access.can_edit:
        return False, "Only the gang's owner, or an arbitrator of its campaign, keeps this record."
    if viewed.in_campaign:
        return False, (
            f"{gang.name} plays in a campaign: its experience, kills, injuries and statuses are recorded by the "
            "post-battle sequence or by the campaign's arbitrator. Ask your arbitrator to record it."
        )
    return True, ""
