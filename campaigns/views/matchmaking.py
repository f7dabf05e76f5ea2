"""Matchmaking: Cycle 1 random pairing, pairs the arbitrator arranges, challenges and passing."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_POST

from campaigns import selectors, services
from campaigns.forms import (
    ChallengeForm,
    GangChoiceForm,
    PairForm,
    PairingForm,
)
from campaigns.permissions import campaign_access
from campaigns.selectors import campaign_gangs
from campaigns.views._common import (
    GET_POST,
    _dice,
    _run,
)
from core.responses import moved, refused


@login_required
@require_POST
def cycle_pair(request, pk: int):
    access = campaign_access(request.user, pk)
    access.require_arbitrator()
    url = reverse("campaigns:campaign-detail", args=[pk])
    form = PairingForm(request.POST)
    if not form.is_valid():
        return refused(request, ValidationError([e for errors in form.errors.values() for e in errors]), url)
    dice, _ = _dice(form)
    return _run(
        request,
        url,
        lambda: services.cycle_pair(
            campaign=access.campaign, dice=dice, actor=request.user, reason=form.cleaned_data["reason"]
        ),
        "Cycle 1 is paired. The dice and how they paired the gangs are in the campaign log.",
    )


@login_required
@GET_POST
def battle_arrange(request, pk: int):
    access = campaign_access(request.user, pk)
    access.require_arbitrator()
    campaign = access.campaign
    form = PairForm(
        request.POST or None,
        gangs=campaign_gangs(campaign),
        territories=campaign.territories.filter(is_home_settlement=False).select_related("territory"),
    )
    if request.method == "POST" and form.is_valid():
        try:
            services.battle_arrange(campaign=campaign, **form.cleaned_data)
        except ValidationError as err:
            form.add_error(None, err)
        else:
            return moved(request, reverse("campaigns:campaign-detail", args=[pk]))
    return render(request, "campaigns/battle_arrange.html", {"campaign": campaign, "form": form})


@login_required
@GET_POST
def challenge_issue(request, pk: int):
    access = campaign_access(request.user, pk)
    campaign = access.campaign
    gangs = campaign_gangs(campaign)
    queue = selectors.challenge_queue(campaign, selectors.standings(campaign), selectors.current_cycle(campaign))
    next_gang = queue[0].gang if queue and access.can_act_for(queue[0].gang.pk) else None
    # A player is offered only his own gangs as the challenger; the arbitrator challenges for any.
    challengers = gangs if access.is_arbitrator else gangs.filter(pk__in=access.gang_ids)
    form = ChallengeForm(
        request.POST or None,
        challengers=challengers,
        gangs=gangs,
        initial={"challenger": next_gang},
        territories=campaign.territories.filter(is_home_settlement=False).select_related("territory"),
    )
    if request.method == "POST" and form.is_valid():
        access.require_gang(form.cleaned_data["challenger"].pk)  # players challenge for their own gangs
        try:
            services.challenge_issue(campaign=campaign, actor=request.user, **form.cleaned_data)
        except ValidationError as err:
            form.add_error(None, err)
        else:
            messages.success(request, "Challenge issued. Roll the scenario when you meet.")
            return moved(request, reverse("campaigns:campaign-detail", args=[pk]))
    context = {"campaign": campaign, "form": form, "next_gang": queue[0].gang if queue else None}
    return render(request, "campaigns/challenge_form.html", context)


@login_required
@require_POST
def challenge_pass(request, pk: int):
    access = campaign_access(request.user, pk)
    form = GangChoiceForm(request.POST, gangs=campaign_gangs(access.campaign))
    if not form.is_valid():
        raise Http404
    gang = form.cleaned_data["gang"]
    access.require_gang(gang.pk)
    return _run(
        request,
        reverse("campaigns:campaign-detail", args=[pk]),
        lambda: services.challenge_pass(campaign=access.campaign, gang=gang, actor=request.user),
        f"{gang.name} issues no challenge this cycle.",
    )
