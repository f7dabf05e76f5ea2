"""Campaign pages. Each view: permission helper, form, service, then render or redirect.

Strangers get a 404 (see :mod:`campaigns.permissions`); players asking for an arbitrator's action,
or acting for another player's gang, get a 403. A refused move (a ``ValidationError`` from a
service) comes back as a message on the page, or as form errors.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import HttpResponseClientRedirect

from campaigns import charts, selectors, services
from campaigns.forms import (
    ArbitratorForm,
    CampaignEditForm,
    CampaignForm,
    ChallengeForm,
    CrewForm,
    DiceForm,
    GangChoiceForm,
    JoinForm,
    LogFilterForm,
    PairForm,
    ReportForm,
    ScenarioChoiceForm,
    TerritoryAddForm,
    TerritoryAssignForm,
    WantsToPlayForm,
)
from campaigns.models import Campaign, CampaignGang, Side
from campaigns.permissions import battle_access, battle_player_or_arbitrator, campaign_access
from campaigns.rules import classic_choices
from gangs.models import Gang
from rulebook.dice import RandomDice, ScriptedDice

GET_POST = require_http_methods(["GET", "POST"])


def _done(request, url: str):
    return HttpResponseClientRedirect(url) if request.htmx else redirect(url)


def _refused(request, err: ValidationError, url: str):
    for message in err.messages:
        messages.error(request, message)
    return _done(request, url)


def _dice(form: DiceForm):
    """Server dice, or the dice the players entered; the second value says which."""
    entered = form.cleaned_data.get("dice")
    return (ScriptedDice(entered), True) if entered else (RandomDice(), False)


def _campaign_gangs(campaign: Campaign):
    return Gang.objects.filter(memberships__campaign=campaign, memberships__removed_at__isnull=True).order_by("name")


def _run(request, url: str, action, success: str):
    """Call ``action()``; a refusal becomes an error message. Either way, back to ``url``."""
    try:
        action()
    except ValidationError as err:
        return _refused(request, err, url)
    messages.success(request, success)
    return _done(request, url)


# --- campaigns --------------------------------------------------------------------------------------


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
        return _done(request, reverse("campaigns:campaign-detail", args=[campaign.pk]))
    return render(request, "campaigns/campaign_form.html", {"form": form})


@login_required
@require_GET
def campaign_detail(request, pk: int):
    access = campaign_access(request.user, pk)
    campaign = access.campaign
    gangs = _campaign_gangs(campaign)
    log_form = LogFilterForm(request.GET or None, gangs=gangs)
    log_filter = log_form.cleaned_data if log_form.is_valid() else {}
    log = selectors.campaign_log(campaign, gang_id=log_filter.get("gang"), kind=log_filter.get("kind") or "")
    if request.htmx and request.htmx.target == "campaign-log":
        return render(request, "campaigns/campaign_detail.html#log", {"log": log, "log_form": log_form,
                                                                     "campaign": campaign})  # fmt: skip
    page = selectors.campaign_page(campaign)
    context = {**page, "campaign": campaign, "access": access, "log": log, "log_form": log_form,
               "is_arbitrator": access.is_arbitrator,
               "invite_url": request.build_absolute_uri(reverse("campaigns:campaign-join", args=[campaign.invite_token])),
               "rating_chart": charts.standing_chart(page["snapshots"], "rating"),
               "reputation_chart": charts.standing_chart(page["snapshots"], "reputation"),
               "my_gang_ids": access.gang_ids, "dice_form": DiceForm(),
               "arbitrator_form": ArbitratorForm(), "territory_form": TerritoryAddForm(edition=campaign.edition)}  # fmt: skip
    return render(request, "campaigns/campaign_detail.html", context)


@login_required
@GET_POST
def campaign_edit(request, pk: int):
    access = campaign_access(request.user, pk)
    access.require_arbitrator()
    form = CampaignEditForm(request.POST or None, instance=access.campaign)
    if request.method == "POST" and form.is_valid():
        services.campaign_update(campaign=access.campaign, **form.cleaned_data)
        return _done(request, reverse("campaigns:campaign-detail", args=[pk]))
    return render(request, "campaigns/campaign_form.html", {"form": form, "campaign": access.campaign})


@login_required
@require_POST
def arbitrator_add(request, pk: int):
    access = campaign_access(request.user, pk)
    access.require_arbitrator()
    url = reverse("campaigns:campaign-detail", args=[pk])
    form = ArbitratorForm(request.POST)
    if not form.is_valid():
        return _refused(request, ValidationError(form.errors["username"]), url)
    user = form.cleaned_data["username"]
    return _run(request, url, lambda: services.arbitrator_add(campaign=access.campaign, user=user),
                f"{user} is now an arbitrator.")  # fmt: skip


@login_required
@GET_POST
def campaign_join(request, token: str):
    campaign = get_object_or_404(Campaign, invite_token=token)
    gangs = Gang.objects.filter(owner=request.user, edition=campaign.edition).order_by("name")
    form = JoinForm(request.POST or None, gangs=gangs)
    if request.method == "POST" and form.is_valid():
        try:
            services.campaign_join(campaign=campaign, gang=form.cleaned_data["gang"], user=request.user)
        except ValidationError as err:
            form.add_error("gang", err)
        else:
            messages.success(request, f"{form.cleaned_data['gang'].name} has joined {campaign.name}.")
            return _done(request, reverse("campaigns:campaign-detail", args=[campaign.pk]))
    return render(
        request, "campaigns/campaign_join.html", {"campaign": campaign, "form": form, "has_gangs": gangs.exists()}
    )


def _membership(access, gang_id: int) -> CampaignGang:
    return get_object_or_404(CampaignGang.objects.select_related("gang", "campaign"), campaign=access.campaign,
                             gang_id=gang_id, removed_at__isnull=True)  # fmt: skip


@login_required
@require_POST
def membership_remove(request, pk: int, gang_id: int):
    access = campaign_access(request.user, pk)
    access.require_arbitrator()
    membership = _membership(access, gang_id)
    return _run(request, reverse("campaigns:campaign-detail", args=[pk]),
                lambda: services.gang_remove(membership=membership, actor=request.user),
                f"{membership.gang.name} has left the campaign.")  # fmt: skip


@login_required
@require_POST
def membership_wants_to_play(request, pk: int, gang_id: int):
    access = campaign_access(request.user, pk)
    access.require_gang(gang_id)
    membership = _membership(access, gang_id)
    wants = WantsToPlayForm(request.POST).is_valid() and "wants_to_play" in request.POST
    services.wants_to_play_set(membership=membership, wants_to_play=wants)
    messages.success(request, f"{membership.gang.name} {'wants' if wants else 'does not want'} to play this cycle.")
    return _done(request, reverse("campaigns:campaign-detail", args=[pk]))


def _arbitrator_move(request, pk: int, action, success: str):
    access = campaign_access(request.user, pk)
    access.require_arbitrator()
    return _run(request, reverse("campaigns:campaign-detail", args=[pk]), lambda: action(access.campaign), success)


@login_required
@require_POST
def campaign_start(request, pk: int):
    return _arbitrator_move(request, pk, lambda c: services.campaign_start(campaign=c), "The campaign has begun.")


@login_required
@require_POST
def cycle_advance(request, pk: int):
    return _arbitrator_move(request, pk, lambda c: services.cycle_advance(campaign=c), "A new cycle has begun.")


@login_required
@require_POST
def campaign_finish(request, pk: int):
    return _arbitrator_move(request, pk, lambda c: services.campaign_finish(campaign=c), "The campaign is over.")


@login_required
@require_POST
def cycle_pair(request, pk: int):
    access = campaign_access(request.user, pk)
    access.require_arbitrator()
    url = reverse("campaigns:campaign-detail", args=[pk])
    form = DiceForm(request.POST)
    if not form.is_valid():
        return _refused(request, ValidationError(form.errors["dice"]), url)
    dice, _ = _dice(form)
    return _run(request, url, lambda: services.cycle_pair(campaign=access.campaign, dice=dice), "Cycle 1 is paired.")


@login_required
@GET_POST
def battle_arrange(request, pk: int):
    access = campaign_access(request.user, pk)
    access.require_arbitrator()
    campaign = access.campaign
    form = PairForm(request.POST or None, gangs=_campaign_gangs(campaign),
                    territories=campaign.territories.filter(is_home_settlement=False).select_related("territory"))  # fmt: skip
    if request.method == "POST" and form.is_valid():
        try:
            services.battle_arrange(campaign=campaign, **form.cleaned_data)
        except ValidationError as err:
            form.add_error(None, err)
        else:
            return _done(request, reverse("campaigns:campaign-detail", args=[pk]))
    return render(request, "campaigns/battle_arrange.html", {"campaign": campaign, "form": form})


@login_required
@GET_POST
def challenge_issue(request, pk: int):
    access = campaign_access(request.user, pk)
    campaign = access.campaign
    gangs = _campaign_gangs(campaign)
    challengers = gangs if access.is_arbitrator else gangs.filter(pk__in=access.gang_ids)
    form = ChallengeForm(request.POST or None, challengers=challengers, gangs=gangs,
                         territories=campaign.territories.filter(is_home_settlement=False).select_related("territory"))  # fmt: skip
    if request.method == "POST" and form.is_valid():
        try:
            services.challenge_issue(campaign=campaign, **form.cleaned_data)
        except ValidationError as err:
            form.add_error(None, err)
        else:
            messages.success(request, "Challenge issued. Roll the scenario when you meet.")
            return _done(request, reverse("campaigns:campaign-detail", args=[pk]))
    return render(request, "campaigns/challenge_form.html", {"campaign": campaign, "form": form})


@login_required
@require_POST
def challenge_pass(request, pk: int):
    access = campaign_access(request.user, pk)
    form = GangChoiceForm(request.POST, gangs=_campaign_gangs(access.campaign))
    if not form.is_valid():
        raise Http404
    gang = form.cleaned_data["gang"]
    access.require_gang(gang.pk)
    return _run(request, reverse("campaigns:campaign-detail", args=[pk]),
                lambda: services.challenge_pass(campaign=access.campaign, gang=gang),
                f"{gang.name} issues no challenge this cycle.")  # fmt: skip


# --- territories -------------------------------------------------------------------------------------


@login_required
@require_POST
def territory_add(request, pk: int):
    access = campaign_access(request.user, pk)
    access.require_arbitrator()
    form = TerritoryAddForm(request.POST, edition=access.campaign.edition)
    url = reverse("campaigns:campaign-detail", args=[pk])
    if not form.is_valid():
        return _refused(request, ValidationError("Pick a territory from the list."), url)
    territory = form.cleaned_data["territory"]
    return _run(request, url, lambda: services.territory_add(campaign=access.campaign, territory=territory),
                f"{territory.name} joins the campaign's territories.")  # fmt: skip


@login_required
@GET_POST
def territory_assign(request, pk: int, territory_id: int):
    access = campaign_access(request.user, pk)
    access.require_arbitrator()
    held = get_object_or_404(access.campaign.territories.select_related("territory", "holder", "campaign"),
                             pk=territory_id)  # fmt: skip
    form = TerritoryAssignForm(request.POST or None, gangs=_campaign_gangs(access.campaign),
                               initial={"holder": held.holder_id})  # fmt: skip
    if request.method == "POST" and form.is_valid():
        try:
            services.territory_assign(held=held, actor=request.user, **form.cleaned_data)
        except ValidationError as err:
            form.add_error(None, err)
        else:
            return _done(request, reverse("campaigns:campaign-detail", args=[pk]))
    return render(request, "campaigns/territory_assign.html", {"campaign": access.campaign, "held": held, "form": form})


# --- battles -----------------------------------------------------------------------------------------


def _battle_url(battle) -> str:
    return reverse("campaigns:battle-detail", args=[battle.campaign_id, battle.pk])


@login_required
@require_GET
def battle_detail(request, pk: int, battle_id: int):
    access, battle = battle_access(request.user, pk, battle_id)
    battle = selectors.battle_detail(battle)
    can_act = access.is_arbitrator or bool({battle.attacker_id, battle.defender_id} & access.gang_ids)
    context = {
        "campaign": access.campaign, "battle": battle, "can_act": can_act, "is_arbitrator": access.is_arbitrator,
        "can_confirm": can_act and (access.is_arbitrator or battle.reported_by_id != request.user.pk),
        "post_battle_gangs": [g for g in (battle.attacker, battle.defender) if access.can_act_for(g.pk)],
        "crew_sides": _crew_sides(access, battle), "dice_form": DiceForm(), "facts": selectors.facts_display(battle),
        "choice_form": ScenarioChoiceForm(choices=classic_choices(), gangs=Gang.objects.filter(
            pk__in=[battle.attacker_id, battle.defender_id])),
    }  # fmt: skip
    return render(request, "campaigns/battle_detail.html", context)


def _crew_sides(access, battle) -> list[dict]:
    """Each side's crew as stored, with its fighters' names, and whether the viewer may pick it."""
    names = {str(f.pk): f.name for gang in (battle.attacker, battle.defender) for f in gang.fighters.all()}
    sides = []
    for side in Side.values:
        crew = battle.crews.get(side, {})
        sides.append({"side": side, "gang": battle.gang_of(side), "crew": crew,
                      "names": [names.get(i, "?") for i in crew.get("fighters", [])],
                      "can_pick": access.can_act_for(battle.gang_of(side).pk)})  # fmt: skip
    return sides


@login_required
@require_POST
def battle_cancel(request, pk: int, battle_id: int):
    access, battle = battle_access(request.user, pk, battle_id)
    access.require_arbitrator()
    try:
        services.battle_cancel(battle=battle)
    except ValidationError as err:
        return _refused(request, err, _battle_url(battle))
    messages.success(request, f"The battle {battle} is cancelled.")
    return _done(request, reverse("campaigns:campaign-detail", args=[pk]))


@login_required
@require_POST
def battle_scenario_roll(request, pk: int, battle_id: int):
    access, battle = battle_access(request.user, pk, battle_id)
    battle_player_or_arbitrator(access, battle)
    if battle.has_scenario and not access.is_arbitrator:
        return _refused(request, ValidationError("The scenario has been rolled; an arbitrator may roll again."),
                        _battle_url(battle))  # fmt: skip
    form = DiceForm(request.POST)
    if not form.is_valid():
        return _refused(request, ValidationError(form.errors["dice"]), _battle_url(battle))
    dice, entered = _dice(form)
    return _run(request, _battle_url(battle),
                lambda: services.battle_scenario_roll(battle=battle, dice=dice, entered=entered),
                "The scenario is rolled.")  # fmt: skip


@login_required
@require_POST
def battle_scenario_choose(request, pk: int, battle_id: int):
    access, battle = battle_access(request.user, pk, battle_id)
    battle_player_or_arbitrator(access, battle)
    form = ScenarioChoiceForm(request.POST, choices=classic_choices(),
                              gangs=Gang.objects.filter(pk__in=[battle.attacker_id, battle.defender_id]))  # fmt: skip
    if not form.is_valid():
        return _refused(request, ValidationError("Pick a scenario and the gang that chose it."), _battle_url(battle))
    access.require_gang(form.cleaned_data["chooser"].pk)  # a player chooses for their own gang
    return _run(request, _battle_url(battle),
                lambda: services.battle_scenario_choose(battle=battle, **form.cleaned_data), "Scenario chosen.")  # fmt: skip


def _side(access, battle, side: str):
    # Crews exist once a 2018+ scenario is rolled; classic gangs field everyone.
    if side not in Side.values or not battle.has_scenario or not access.campaign.has_cycles:
        raise Http404
    access.require_gang(battle.gang_of(side).pk)


@login_required
@require_POST
def battle_crew_size(request, pk: int, battle_id: int, side: str):
    access, battle = battle_access(request.user, pk, battle_id)
    _side(access, battle, side)
    form = DiceForm(request.POST)
    if not form.is_valid():
        return _refused(request, ValidationError(form.errors["dice"]), _battle_url(battle))
    dice, _ = _dice(form)
    url = reverse("campaigns:battle-crew", args=[pk, battle_id, side])
    return _run(request, url, lambda: services.battle_crew_size_roll(battle=battle, side=side, dice=dice),
                "Crew size rolled.")  # fmt: skip


@login_required
@GET_POST
def battle_crew(request, pk: int, battle_id: int, side: str):
    access, battle = battle_access(request.user, pk, battle_id)
    _side(access, battle, side)
    fighters = services.crew_candidates(battle.gang_of(side))
    form = CrewForm(request.POST or None, fighters=fighters)
    if request.method == "POST" and form.is_valid():
        dice, _ = _dice(form)
        try:
            services.battle_crew_select(battle=battle, side=side, chosen=form.cleaned_data["chosen"], dice=dice)
        except ValidationError as err:
            form.add_error(None, err)
        else:
            return _done(request, _battle_url(battle))
    context = {"campaign": access.campaign, "battle": battle, "side": side, "gang": battle.gang_of(side),
               "form": form, **selectors.crew_page(battle, side, fighters)}  # fmt: skip
    return render(request, "campaigns/battle_crew.html", context)


@login_required
@GET_POST
def battle_report(request, pk: int, battle_id: int):
    access, battle = battle_access(request.user, pk, battle_id)
    battle_player_or_arbitrator(access, battle)
    battle = selectors.battle_detail(battle)
    form = ReportForm(request.POST or None, battle=battle, attacker_fighters=battle.attacker.fighters.all(),
                      defender_fighters=battle.defender.fighters.all(), initial=selectors.report_initial(battle))  # fmt: skip
    if request.method == "POST" and form.is_valid():
        try:
            services.battle_report_submit(battle=battle, actor=request.user, **form.report())
        except ValidationError as err:
            form.add_error(None, err)
        else:
            messages.success(request, "Report saved: the opponent or an arbitrator confirms it.")
            return _done(request, _battle_url(battle))
    return render(
        request, "campaigns/battle_report.html", {"campaign": access.campaign, "battle": battle, "form": form}
    )


@login_required
@require_POST
def battle_confirm(request, pk: int, battle_id: int):
    access, battle = battle_access(request.user, pk, battle_id)
    battle_player_or_arbitrator(access, battle)
    return _run(request, _battle_url(battle),
                lambda: services.battle_report_confirm(battle=battle, actor=request.user,
                                                       is_arbitrator=access.is_arbitrator),
                "Report confirmed: the post-battle sequence can begin.")  # fmt: skip
