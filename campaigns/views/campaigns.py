"""The campaign itself: list, create, the campaign page (and its log fragment), edit, co-arbitrators (added
and removed),
joining by invitation, removing a gang, start, cycles, finish, and the territory pool."""

from __future__ import annotations

from functools import partial

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.functional import SimpleLazyObject
from django.views.decorators.http import require_GET, require_POST

from campaigns import cache as campaign_cache
from campaigns import selectors, services
from campaigns.forms import (
    ArbitratorForm,
    CampaignEditForm,
    CampaignForm,
    CycleAdvanceForm,
    FoundForForm,
    JoinDecisionForm,
    JoinForm,
    LogFilterForm,
    PairingForm,
    TerritoryAddForm,
    TerritoryAssignForm,
    WantsToPlayForm,
)
from campaigns.models import Campaign, CampaignGang, JoinRequest
from campaigns.permissions import campaign_access
from campaigns.selectors import campaign_gangs
from campaigns.views._common import (
    GET_POST,
    _arbitrator_move,
    _run,
)
from core.pagination import page_of
from core.responses import moved, refused
from gangs.models import Gang


@login_required
@require_GET
def campaign_list(request):
    return render(request, "campaigns/campaign_list.html", selectors.campaigns_for_user(request.user))


@login_required
@GET_POST
def campaign_create(request):
    form = CampaignForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        campaign = services.campaign_create(user=request.user, **form.cleaned_data)
        messages.success(request, f"{campaign.name} is ready: share the invitation link with your players.")
        return moved(request, reverse("campaigns:campaign-detail", args=[campaign.pk]))
    return render(request, "campaigns/campaign_form.html", {"form": form})


LOG_PAGE_SIZE = 100  # entries a page of the campaign log; a page's size does not grow with the campaign's age


@login_required
@require_GET
def campaign_detail(request, pk: int):
    """The campaign page: what every viewer sees comes from the cache while the campaign, its gangs and the
    content are unchanged (campaigns.cache); who the viewer is, and so which controls and forms they get, is
    decided on each request."""
    campaign = campaign_cache.page_campaign(pk)
    if campaign is None:
        raise Http404
    page = selectors.CachedCampaignPage(campaign)
    access = page.access(request.user)
    # A page asked for with no filter draws the filter's form only into a fragment that is not in the cache, and
    # reads the log's rows only then too: neither is made unless it is drawn.
    if request.GET:
        log_form = LogFilterForm(request.GET, gangs=page["gangs"])
        log_filter = log_form.cleaned_data if log_form.is_valid() else {}
    else:
        log_form, log_filter = SimpleLazyObject(lambda: LogFilterForm(gangs=page["gangs"])), {}
    gang_id, kind = log_filter.get("gang"), log_filter.get("kind") or ""
    entries = SimpleLazyObject(lambda: selectors.campaign_log_entries(campaign, gang_id=gang_id, kind=kind))
    log_key = campaign_cache.page_key(campaign, "log", gang_id or "", kind)
    # Its number read from the cache only when a fragment that is not there draws it.
    log_page = SimpleLazyObject(lambda: page_of(entries, request, LOG_PAGE_SIZE, param="log_page", cached_as=log_key))
    shared = {
        "campaign": campaign,
        "log": log_page,  # its rows read only if the log's fragment is not in the cache
        "log_form": log_form,
        "log_page": log_page,
        "log_key": log_key,
        "page_key": page.key,
        "fragment_seconds": campaign_cache.FRAGMENT_SECONDS,
    }
    if request.htmx and request.htmx.target == "campaign-log":
        return render(request, "campaigns/campaign_detail.html#log", shared)
    # The forms are drawn only into fragments with controls (cached per kind of viewer): made only when one is.
    invite_url = request.build_absolute_uri(reverse("campaigns:campaign-join", args=[campaign.invite_token]))
    joins_drawn = access.is_arbitrator and page["joins_waiting"]
    settings_panel = selectors.settings_panel(campaign, page["house_rules_history"])
    context = {
        **shared,
        "page": page,
        "cycle": page["cycle"],
        "arbitrators": page["arbitrators"],
        "access": access,
        "is_arbitrator": access.is_arbitrator,
        "viewer_key": access.viewer_key,
        "invite_url": invite_url,
        "my_gang_ids": access.gang_ids,
        "pairing_form": SimpleLazyObject(PairingForm),
        "cycle_form": SimpleLazyObject(
            lambda: CycleAdvanceForm(campaign=campaign, unreported=page["unreported"], unapplied=len(page["unapplied"]))
        ),
        "arbitrator_form": SimpleLazyObject(ArbitratorForm),
        "territory_form": SimpleLazyObject(lambda: TerritoryAddForm(edition=campaign.edition)),
        # Read only when the cached page says a request is waiting (a request made or decided moves its version).
        "join_requests": selectors.waiting_joins(campaign) if joins_drawn else [],
        **settings_panel,
        # The whole page kept as one fragment for this kind of viewer (every value it varies with, as each
        # fragment's), unless the log is filtered or paged (its links carry the request's query) or a join request
        # is drawn (from its gang's rows, which the campaign's version does not follow).
        "body_key": None
        if request.GET or joins_drawn
        else [page.key, access.viewer_key, invite_url, settings_panel["house_rules_now"].pk],
    }
    return render(request, "campaigns/campaign_detail.html", context)


@login_required
@GET_POST
def campaign_edit(request, pk: int):
    access = campaign_access(request.user, pk)
    access.require_arbitrator()
    form = CampaignEditForm(request.POST or None, instance=access.campaign)
    if request.method == "POST" and form.is_valid():
        services.campaign_update(campaign=access.campaign, **form.cleaned_data)
        return moved(request, reverse("campaigns:campaign-detail", args=[pk]))
    return render(request, "campaigns/campaign_form.html", {"form": form, "campaign": access.campaign})


@login_required
@require_POST
def arbitrator_add(request, pk: int):
    access = campaign_access(request.user, pk)
    access.require_arbitrator()
    url = reverse("campaigns:campaign-detail", args=[pk])
    form = ArbitratorForm(request.POST)
    if not form.is_valid():
        return refused(request, ValidationError(form.errors["username"]), url)
    user = form.cleaned_data["username"]
    return _run(
        request,
        url,
        lambda: services.arbitrator_add(campaign=access.campaign, user=user),
        f"{user} is now an arbitrator.",
    )


@login_required
@require_POST
def invite_renew(request, pk: int):
    return _arbitrator_move(
        request, pk, lambda c: services.invite_renew(campaign=c), "A new invitation link: the old one no longer works."
    )


@login_required
@require_POST
def arbitrator_remove(request, pk: int, user_id: int):
    access = campaign_access(request.user, pk)
    access.require_arbitrator()
    held = get_object_or_404(access.campaign.arbitrators.select_related("user"), user_id=user_id)
    url = reverse("campaigns:campaign-detail", args=[pk])
    return _run(
        request,
        url,
        lambda: services.arbitrator_remove(campaign=access.campaign, user=held.user),
        f"{held.user} is no longer an arbitrator.",
    )


@login_required
@GET_POST
def campaign_join(request, token: str):
    campaign = get_object_or_404(Campaign, invite_token=token)
    # A gang plays one campaign at a time: offer only those free to enter.
    playing = CampaignGang.objects.filter(removed_at__isnull=True).values("gang_id")
    gangs = Gang.objects.filter(owner=request.user, edition=campaign.edition).exclude(pk__in=playing).order_by("name")
    founding = request.method == "POST" and "found" in request.POST
    form = JoinForm(request.POST if request.method == "POST" and not founding else None, gangs=gangs)
    found_form = FoundForForm(request.POST if founding else None, edition=campaign.edition)
    if founding and found_form.is_valid():
        try:
            join = services.gang_found_for(campaign=campaign, owner=request.user, **found_form.cleaned_data)
        except ValidationError as err:
            found_form.add_error(None, err)
        else:
            messages.success(request, f"{join.gang.name} founded and asks to join {campaign.name}.")
            return moved(request, join.gang.get_absolute_url())
    if request.method == "POST" and not founding and form.is_valid():
        gang = form.cleaned_data["gang"]
        try:
            services.join_request(campaign=campaign, gang=gang, user=request.user)
        except ValidationError as err:
            form.add_error("gang", err)
        else:
            messages.success(
                request, f"{gang.name} asks to join {campaign.name}: it joins when an arbitrator accepts it."
            )
            return moved(request, gang.get_absolute_url())
    context = {
        "campaign": campaign,
        "form": form,
        "has_gangs": gangs.exists(),
        "found_form": found_form,
        "starting_reputation": selectors.rules_in_force(campaign).starting_reputation,
    }
    return render(request, "campaigns/campaign_join.html", context)


@login_required
@require_POST
def join_decide(request, pk: int, join_id: int, decision: str):
    """An arbitrator accepts (with the Stash it keeps) or refuses a gang asking to join."""
    access = campaign_access(request.user, pk)
    access.require_arbitrator()
    join = get_object_or_404(JoinRequest, pk=join_id, campaign=access.campaign)
    if decision not in ("accept", "refuse"):
        raise Http404("No such decision.")
    form = JoinDecisionForm(request.POST)
    url = reverse("campaigns:campaign-detail", args=[pk])
    if not form.is_valid():
        return refused(request, ValidationError([e for errors in form.errors.values() for e in errors]), url)
    data = form.cleaned_data
    if decision == "accept":
        action = partial(
            services.join_accept,
            join=join,
            actor=request.user,
            credits=data["credits"],
            reason=data["reason"],
            keep_unvouched=data["keep_unvouched"],
        )
        return _run(request, url, action, f"{join.gang.name} has joined the campaign.")
    action = partial(services.join_refuse, join=join, actor=request.user, reason=data["reason"])
    return _run(request, url, action, f"{join.gang.name} was refused.")


def _membership(access, gang_id: int) -> CampaignGang:
    return get_object_or_404(
        CampaignGang.objects.select_related("gang", "campaign"),
        campaign=access.campaign,
        gang_id=gang_id,
        removed_at__isnull=True,
    )


@login_required
@require_POST
def membership_remove(request, pk: int, gang_id: int):
    access = campaign_access(request.user, pk)
    access.require_arbitrator()
    membership = _membership(access, gang_id)
    return _run(
        request,
        reverse("campaigns:campaign-detail", args=[pk]),
        lambda: services.gang_remove(membership=membership, actor=request.user),
        f"{membership.gang.name} has left the campaign.",
    )


@login_required
@require_POST
def membership_wants_to_play(request, pk: int, gang_id: int):
    access = campaign_access(request.user, pk)
    access.require_gang(gang_id)
    membership = _membership(access, gang_id)
    wants = WantsToPlayForm(request.POST).is_valid() and "wants_to_play" in request.POST
    services.wants_to_play_set(membership=membership, wants_to_play=wants)
    messages.success(request, f"{membership.gang.name} {'wants' if wants else 'does not want'} to play this cycle.")
    return moved(request, reverse("campaigns:campaign-detail", args=[pk]))


@login_required
@require_POST
def campaign_start(request, pk: int):
    return _arbitrator_move(request, pk, lambda c: services.campaign_start(campaign=c), "The campaign has begun.")


@login_required
@require_POST
def cycle_advance(request, pk: int):
    access = campaign_access(request.user, pk)
    access.require_arbitrator()
    campaign = access.campaign
    form = CycleAdvanceForm(
        request.POST, campaign=campaign, unreported=selectors.unreported_in_cycle(campaign), unapplied=1
    )  # the service decides whether the reason is needed
    url = reverse("campaigns:campaign-detail", args=[pk])
    if not form.is_valid():
        return refused(request, ValidationError([e for errors in form.errors.values() for e in errors]), url)
    begin = partial(
        services.cycle_advance,
        campaign=campaign,
        from_cycle=form.cleaned_data["cycle"],
        reason=form.cleaned_data["reason"],
        actor=request.user,
    )
    return _run(request, url, begin, "A new cycle has begun.")


@login_required
@require_POST
def campaign_finish(request, pk: int):
    return _arbitrator_move(request, pk, lambda c: services.campaign_finish(campaign=c), "The campaign is over.")


@login_required
@require_POST
def territory_add(request, pk: int):
    access = campaign_access(request.user, pk)
    access.require_arbitrator()
    form = TerritoryAddForm(request.POST, edition=access.campaign.edition)
    url = reverse("campaigns:campaign-detail", args=[pk])
    if not form.is_valid():
        return refused(request, ValidationError("Pick a territory from the list."), url)
    territory = form.cleaned_data["territory"]
    return _run(
        request,
        url,
        lambda: services.territory_add(campaign=access.campaign, territory=territory),
        f"{territory.name} joins the campaign's territories.",
    )


@login_required
@GET_POST
def territory_assign(request, pk: int, territory_id: int):
    access = campaign_access(request.user, pk)
    access.require_arbitrator()
    held = get_object_or_404(
        access.campaign.territories.select_related("territory", "holder", "campaign"), pk=territory_id
    )
    form = TerritoryAssignForm(
        request.POST or None, gangs=campaign_gangs(access.campaign), initial={"holder": held.holder_id}
    )
    if request.method == "POST" and form.is_valid():
        try:
            services.territory_assign(held=held, actor=request.user, **form.cleaned_data)
        except ValidationError as err:
            form.add_error(None, err)
        else:
            return moved(request, reverse("campaigns:campaign-detail", args=[pk]))
    return render(request, "campaigns/territory_assign.html", {"campaign": access.campaign, "held": held, "form": form})
