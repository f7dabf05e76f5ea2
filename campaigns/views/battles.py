"""A battle's pages: scenario roll or choice, crews, the report, confirmation, cancelling."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from campaigns import selectors, services
from campaigns.forms import (
    CancelForm,
    CrewForm,
    DiceForm,
    ReportForm,
    RolesForm,
    ScenarioChoiceForm,
    ScenarioRollForm,
)
from campaigns.models import Side
from campaigns.permissions import battle_access, battle_player_or_arbitrator
from campaigns.rules import classic_choices
from campaigns.views._common import (
    GET_POST,
    _battle_url,
    _dice,
    _run,
)
from core.responses import moved, refused
from gangs.models import Gang


@login_required
@require_GET
def battle_detail(request, pk: int, battle_id: int):
    access, battle = battle_access(request.user, pk, battle_id)
    battle = selectors.battle_detail(battle)
    can_act = access.is_arbitrator or bool({battle.attacker_id, battle.defender_id} & access.gang_ids)
    context = {
        "campaign": access.campaign,
        "battle": battle,
        "can_act": can_act,
        "is_arbitrator": access.is_arbitrator,
        # A Rescue Mission's scenario is fixed (never rolled): it is set once, with no dice, and never rolled again.
        "scenario_fixed": battle.is_rescue,
        "can_roll_scenario": not battle.scenario or (access.is_arbitrator and not battle.is_rescue),
        "can_confirm": can_act and (access.is_arbitrator or battle.reported_by_id != request.user.pk),
        "post_battle_gangs": [g for g in (battle.attacker, battle.defender) if access.can_act_for(g.pk)],
        "crew_sides": _crew_sides(access, battle),
        "dice_form": ScenarioRollForm(),
        "cancel_form": CancelForm(),
        "facts": selectors.facts_display(battle),
        "roles_pending": selectors.roles_pending(battle),
        "roles_form": RolesForm(),
        "can_choose_roles": selectors.roles_pending(battle)
        and access.can_act_for(battle.scenario_roll["roll_off"]["winner"]),
        "choice_form": ScenarioChoiceForm(
            choices=classic_choices(), gangs=Gang.objects.filter(pk__in=[battle.attacker_id, battle.defender_id])
        ),
    }
    return render(request, "campaigns/battle_detail.html", context)


def _crew_sides(access, battle) -> list[dict]:
    """Each side's crew as stored, with its fighters' names, and whether the viewer may pick it."""
    fighters = [f for gang in (battle.attacker, battle.defender) for f in gang.fighters.all()]
    names = {str(f.pk): f.name for f in fighters}
    sides = []
    for side in Side.values:
        # The assistant's picks are in the record too (battles.services.start), when the campaign's were not made first.
        crew = battle.crews.get(side) or {}
        picked = [str(pk) for pk in crew.get("fighters", [])]
        # A battle reported by hand with no crew picked: the report's fighters who took part are the crew.
        reported = [] if picked else [r.fighter.name for r in battle.fighter_results.all() if r.side == side]
        # Hired for this battle: they join the crew after the picks (and are listed before them).
        hired = [
            f.name
            for f in fighters
            if f.gang_id == battle.gang_of(side).pk
            and f.hired_for_id == battle.pk
            and str(f.pk) not in picked
            and f.status == "active"
        ]
        sides.append(
            {
                "side": side,
                "gang": battle.gang_of(side),
                "crew": crew,
                "hired_guns": hired,
                "names": [names.get(i, "?") for i in picked] or reported,
                "from_report": bool(reported),
                "can_pick": access.can_act_for(battle.gang_of(side).pk),
            }
        )
    return sides


@login_required
@require_POST
def battle_cancel(request, pk: int, battle_id: int):
    access, battle = battle_access(request.user, pk, battle_id)
    access.require_arbitrator()
    form = CancelForm(request.POST)
    try:
        services.battle_cancel(
            battle=battle, actor=request.user, reason=form.cleaned_data["reason"] if form.is_valid() else ""
        )
    except ValidationError as err:
        return refused(request, err, _battle_url(battle))
    messages.success(request, f"The battle {battle} is cancelled.")
    return moved(request, reverse("campaigns:campaign-detail", args=[pk]))


@login_required
@require_POST
def battle_scenario_roll(request, pk: int, battle_id: int):
    access, battle = battle_access(request.user, pk, battle_id)
    battle_player_or_arbitrator(access, battle)
    if battle.has_scenario and not access.is_arbitrator:
        return refused(
            request, ValidationError("The scenario has been rolled; an arbitrator may roll again."), _battle_url(battle)
        )
    form = ScenarioRollForm(request.POST)
    if not form.is_valid():
        return refused(
            request, ValidationError([e for errors in form.errors.values() for e in errors]), _battle_url(battle)
        )
    dice, entered = _dice(form)
    return _run(
        request,
        _battle_url(battle),
        lambda: services.battle_scenario_roll(
            battle=battle, dice=dice, entered=entered, actor=request.user, reason=form.cleaned_data["reason"]
        ),
        "The scenario is rolled.",
    )


@login_required
@require_POST
def battle_roles_choose(request, pk: int, battle_id: int):
    access, battle = battle_access(request.user, pk, battle_id)
    winner = (battle.scenario_roll.get("roll_off") or {}).get("winner")
    if winner not in (battle.attacker_id, battle.defender_id):
        raise Http404
    access.require_gang(winner)  # the roll-off winner's player chooses (or an arbitrator)
    form = RolesForm(request.POST)
    if not form.is_valid():
        return refused(request, ValidationError("Choose to attack or to defend."), _battle_url(battle))
    chooser = battle.attacker if winner == battle.attacker_id else battle.defender
    return _run(
        request,
        _battle_url(battle),
        lambda: services.battle_roles_choose(
            battle=battle, chooser=chooser, attack=form.cleaned_data["role"] == "attack"
        ),
        "Attacker and defender chosen.",
    )


@login_required
@require_POST
def battle_scenario_choose(request, pk: int, battle_id: int):
    access, battle = battle_access(request.user, pk, battle_id)
    battle_player_or_arbitrator(access, battle)
    form = ScenarioChoiceForm(
        request.POST,
        choices=classic_choices(),
        gangs=Gang.objects.filter(pk__in=[battle.attacker_id, battle.defender_id]),
    )
    if not form.is_valid():
        return refused(request, ValidationError("Pick a scenario and the gang that chose it."), _battle_url(battle))
    access.require_gang(form.cleaned_data["chooser"].pk)  # a player chooses for their own gang
    return _run(
        request,
        _battle_url(battle),
        lambda: services.battle_scenario_choose(battle=battle, **form.cleaned_data),
        "Scenario chosen.",
    )


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
        return refused(request, ValidationError(form.errors["dice"]), _battle_url(battle))
    dice, _ = _dice(form)
    url = reverse("campaigns:battle-crew", args=[pk, battle_id, side])
    return _run(
        request, url, lambda: services.battle_crew_size_roll(battle=battle, side=side, dice=dice), "Crew size rolled."
    )


@login_required
@GET_POST
def battle_crew(request, pk: int, battle_id: int, side: str):
    access, battle = battle_access(request.user, pk, battle_id)
    _side(access, battle, side)
    fighters = selectors.crew_candidates(battle.gang_of(side))
    form = CrewForm(request.POST or None, fighters=fighters)
    if request.method == "POST" and form.is_valid():
        dice, _ = _dice(form)
        try:
            services.battle_crew_select(battle=battle, side=side, chosen=form.cleaned_data["chosen"], dice=dice)
        except ValidationError as err:
            form.add_error(None, err)
        else:
            return moved(request, _battle_url(battle))
    context = {
        "campaign": access.campaign,
        "battle": battle,
        "side": side,
        "gang": battle.gang_of(side),
        "form": form,
        "hired_guns": selectors.hired_guns_of(battle, battle.gang_of(side)),
        **selectors.crew_page(battle, side, fighters),
    }
    return render(request, "campaigns/battle_crew.html", context)


@login_required
@GET_POST
def battle_report(request, pk: int, battle_id: int):
    access, battle = battle_access(request.user, pk, battle_id)
    battle_player_or_arbitrator(access, battle)
    battle = selectors.battle_detail(battle)
    form = ReportForm(
        request.POST or None,
        battle=battle,
        attacker_fighters=battle.attacker.fighters.all(),
        defender_fighters=battle.defender.fighters.all(),
        captives=selectors.rescue_captives(battle),
        initial=selectors.report_initial(battle),
    )
    if request.method == "POST" and form.is_valid():
        try:
            services.battle_report_submit(battle=battle, actor=request.user, **form.report())
        except ValidationError as err:
            form.add_error(None, err)
        else:
            messages.success(request, "Report saved: the opponent or an arbitrator confirms it.")
            return moved(request, _battle_url(battle))
    return render(
        request, "campaigns/battle_report.html", {"campaign": access.campaign, "battle": battle, "form": form}
    )


@login_required
@require_POST
def battle_confirm(request, pk: int, battle_id: int):
    access, battle = battle_access(request.user, pk, battle_id)
    battle_player_or_arbitrator(access, battle)
    return _run(
        request,
        _battle_url(battle),
        lambda: services.battle_report_confirm(battle=battle, actor=request.user, is_arbitrator=access.is_arbitrator),
        "Report confirmed: the post-battle sequence can begin.",
    )
