"""Battle pages: the list, starting a battle, the assistant, each action, the follow view, the report.

Anyone logged in may watch a battle (read-only); the two players, and the arbitrators of a campaign
battle, act. Every change view gets the battle through :func:`_battle_for_acting` (403 for a watcher,
404 for a battle that does not exist), validates a form, calls a service and moves the user on
(``HttpResponseClientRedirect`` for htmx). Invalid forms re-render with status 200.
"""

from __future__ import annotations

import hashlib
import json
from functools import partial
from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.functional import SimpleLazyObject
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import reswap, retarget

from battles import display, forms, fragments, selectors, services
from battles.models import BattleFighter, BattleSession, Condition
from battles.rules import edition_rules
from campaigns.models import Side
from core.pagination import page_of
from core.responses import add_refusal, moved
from gangs.cache import FRAGMENT_SECONDS
from rulebook.numbers import whole_number


def _battle_for_viewing(user, pk: int, read=selectors.battle_get) -> BattleSession:
    """The battle, or 404 for one that does not exist or that ``user`` may not see (selectors.can_view); ``read``:
    how it is read (the page's own read, ``selectors.battle_page_get``, for the page)."""
    try:
        session = read(pk)
    except BattleSession.DoesNotExist:
        raise Http404("No such battle.") from None
    if not selectors.can_view(user, session):
        raise Http404("No such battle.")
    return session


def _battle_for_acting(user, pk: int) -> BattleSession:
    session = _battle_for_viewing(user, pk)
    if not selectors.can_act(user, session):
        raise PermissionDenied("Only the two players (and a campaign's arbitrators) act in this battle.")
    return session


def _detail_url(session) -> str:
    return reverse("battles:battle-detail", args=[session.pk])


ENDED_PAGE_SIZE = 20  # ended battles a page of the battles list: it does not grow with the player's age


@login_required
@require_GET
def battle_list(request):
    battles = selectors.battles_for_user(request.user)
    battles["ended"] = page_of(battles["ended"], request, ENDED_PAGE_SIZE, param="ended_page")
    template = "battles/battle_list.html#ended" if request.htmx else "battles/battle_list.html"
    return render(request, template, {"battles": battles})


@login_required
@require_http_methods(["GET", "POST"])
def battle_start(request):
    form = forms.BattleStartForm(request.POST or None, user=request.user)
    if request.method == "POST" and request.POST.get("step") == "start" and form.is_valid() and form.has_crews:
        data = form.cleaned_data
        try:
            session = services.battle_start(
                gang_a=data["gang_a"],
                gang_b=data["gang_b"],
                started_by=request.user,
                chosen_a=[f.pk for f in data["crew_a"]],
                chosen_b=[f.pk for f in data["crew_b"]],
                scenario=data["scenario"],
                role_a=data["role_a"],
            )
        except ValidationError as error:
            add_refusal(form, error)
        else:
            return moved(request, _detail_url(session), "The battle begins.")
    return render(request, "battles/battle_start.html", {"form": form})


@login_required
@require_http_methods(["GET", "POST"])
def battle_start_campaign(request, battle_id: int):
    """Start the assistant for a campaign battle: one of its two players or an arbitrator. Whoever may not see
    the campaign gets a 404, as if the battle did not exist (README, "Who sees what"); a player of the campaign
    who is not in this battle gets a 403."""
    from campaigns.models import Battle
    from campaigns.permissions import can_see_campaign

    campaign_battle = Battle.objects.select_related("attacker", "defender", "campaign").filter(pk=battle_id).first()
    if campaign_battle is None:
        raise Http404("No such campaign battle.")
    players = (campaign_battle.attacker.owner_id, campaign_battle.defender.owner_id)
    if request.user.pk not in players and not campaign_battle.campaign.arbitrators.filter(user=request.user).exists():
        if not can_see_campaign(request.user, campaign_battle.campaign_id):
            raise Http404("No such campaign battle.")
        raise PermissionDenied("Only the two players or an arbitrator start this battle.")
    error = ""
    if request.method == "POST":
        try:
            session = services.battle_start_from_campaign(campaign_battle=campaign_battle, started_by=request.user)
        except ValidationError as refusal:
            error = " ".join(refusal.messages)
        else:
            return moved(request, _detail_url(session), "The battle begins.")
    context = {"campaign_battle": campaign_battle, "error": error}
    return render(request, "battles/battle_start_campaign.html", context)


def _page_context(request, session, *, follow: bool = False) -> dict:
    """The assistant's page (or the follow view's): who may act is decided on each request; what that kind of
    viewer sees of this state of the battle is drawn once and kept in the cache under the battle's version (which
    every action, undo, reinforcement and the end move, battles.services.state) and its gangs' (their names): the
    page's two fragments ({% tokencache %}, with each request's tokens put in), and the data they are drawn from,
    read (each value lazily) only when a fragment is not in the cache."""
    can_act = not follow and selectors.can_act(request.user, session)
    key = _page_key(session, session.version, can_act=can_act, follow=follow)

    def read() -> dict:
        context = cache.get(key)
        if context is None:
            context = _drawn(session, can_act=can_act, follow=follow)
            cache.set(key, context, FRAGMENT_SECONDS)
        return context

    drawn = SimpleLazyObject(read)
    # Each value looked up in ``drawn`` only when drawn: taking ``drawn.__getitem__`` itself would read it (and
    # unpickle the whole drawing) on every request, the cached fragments' hits too.
    lazy = {name: SimpleLazyObject(partial(_drawn_value, drawn, name)) for name in DRAWN}
    return {
        **lazy,
        "drawn": drawn,
        "can_act": can_act,
        "follow": follow,
        "session": session,
        "page_key": key,
        "fragment_seconds": FRAGMENT_SECONDS,
    }


def _drawn_value(drawn, name: str):
    return drawn[name]


def _page_key(session, version: int, *, can_act: bool, follow: bool) -> str:
    versions = (version, session.gang_a.version, session.gang_b.version)
    return f"battle-page:{session.pk}:{':'.join(map(str, versions))}:{int(can_act)}:{int(follow)}"


# What the page's fragments are drawn from besides the battle (:func:`_drawn`).
DRAWN = ("next_row", "to_act", "group", "sides", "prompts", "prompt_lines", "required", "log", "kinds")


def _drawn(session, *, can_act: bool, follow: bool) -> dict:
    fighters = selectors.battle_fighters(session)
    adjustable = services.ADJUSTABLE[session.edition] if can_act and not session.is_over else ()
    acting_pk = session.pk if can_act and not session.is_over else None
    down = {f.side for f in fighters if f.condition == Condition.SERIOUSLY_INJURED}
    prompts = [_prompt_link(session, p) for p in selectors.battle_prompts(session, fighters)] if can_act else []
    rules = edition_rules(session.edition)
    to_act = None if session.is_over else rules.activation_side(session, fighters)
    activating = session.facts.get("acting") if session.edition == "n18" else None
    group = rules.group_in_progress(session, fighters) if session.edition == "n18" else []
    leaders = rules.group_leaders(session, fighters, to_act) if session.edition == "n18" and acting_pk else set()
    # A Group Activation under way: its fighters come next, one after another.
    first_up = activating or (group[0].pk if group else None)
    next_pk = display.next_to_act(fighters, session.edition, to_act, first_up)
    sides = [
        {
            "key": side,
            "gang": session.gang(side),
            "bottled": session.bottled(side),
            "fled": side in session.facts.get("fled", []),
            "rows": display.fighter_rows(
                [f for f in fighters if f.side == side],
                adjustable,
                session.edition,
                acting_pk,
                enemy_down=bool(down - {side}),
                acting_pk=activating,
                next_pk=next_pk,
                group_leaders=leaders,
            ),
        }
        for side in Side.values
    ]
    # The next fighter who may act comes first on the page, above both gangs (the players' page only).
    next_row = None
    if can_act and next_pk is not None:
        for side in sides:
            found = next((row for row in side["rows"] if row["is_next"]), None)
            if found is not None:
                side["rows"] = [row for row in side["rows"] if row is not found]
                next_row = {**found, "gang": side["gang"]}
    return {
        "next_row": next_row,
        "to_act": session.gang(to_act) if to_act else None,
        "group": [f.name for f in group],
        "sides": sides,
        "prompts": prompts,
        "prompt_lines": _prompt_lines(prompts),
        # What Next phase waits for (battles.services.battle_advance); a conditional test never holds it.
        "required": [p for p in prompts if not p["conditional"]],
        "log": selectors.battle_log(session),
        "can_act": can_act,
        "follow": follow,
        "kinds": edition_rules(session.edition).KINDS,
    }


FRIENDS_TESTS = ("nerve", "leadership")  # the tests a casualty's friends take where the table says so


def _prompt_lines(prompts: list[dict]) -> list[dict]:
    """One line for each test the rules require, and one for each casualty's friends' tests (which apply only
    where the table says so): ``{"text", "why", "links": [(words, url)], "conditional"}``."""
    lines, groups = [], {}
    for prompt in prompts:
        if prompt["test"] not in FRIENDS_TESTS:
            lines.append({**prompt, "links": [(prompt["text"], prompt["url"])]})
            continue
        who, _, what = prompt["text"].partition(": ")
        line = groups.get(what)
        if line is None:
            line = groups[what] = {**prompt, "text": what, "links": []}
            lines.append(line)
        line["links"].append((who, prompt["url"]))
    return lines


def _prompt_link(session, prompt) -> dict:
    if prompt.kind == "reinforce":
        url = reverse("battles:battle-reinforce", args=[session.pk])
    else:
        url = reverse("battles:battle-act", args=[session.pk, prompt.kind])
    return {
        "text": prompt.text,
        "why": prompt.why,
        "url": f"{url}?{urlencode(prompt.params)}",
        "conditional": prompt.conditional,
        "test": prompt.params.get("test", ""),
        "in_panel": prompt.kind != "reinforce",  # an action's form opens in the page's panel; Reinforcements' page not
    }


@login_required
@require_GET
def battle_detail(request, pk: int):
    """The assistant for the players; a read-only page that follows the battle for everyone else."""
    session = _battle_for_viewing(request.user, pk, selectors.battle_page_get)
    if request.htmx and request.GET.get("v") == str(session.version):
        return HttpResponse(status=204)  # nothing changed since the last poll: keep the page as it is
    template = "battles/battle_detail.html#state" if request.htmx else "battles/battle_detail.html"
    return render(request, template, _page_context(request, session))


@login_required
@require_GET
def battle_follow(request, pk: int):
    """The read-only follow view (a phone on the table, an opponent, watchers), polled with htmx."""
    session = _battle_for_viewing(request.user, pk, selectors.battle_page_get)
    if request.htmx and request.GET.get("v") == str(session.version):
        return HttpResponse(status=204)
    context = _page_context(request, session, follow=True)
    template = "battles/battle_detail.html#state" if request.htmx else "battles/battle_detail.html"
    return render(request, template, context)


CHOICE_PARAM = {"test": "test", "scenario": "action"}  # actions that start from a menu of choices


def _choice(kind: str, request) -> str | None:
    name = CHOICE_PARAM.get(kind)
    return (request.GET.get(name) or request.POST.get(name)) if name else None


def _action_form(session, kind: str, request, fighters, data=None):
    initial = {
        k: v
        for k, v in request.GET.items()
        if k in ("fighter", "side", "target", "step", "charging", "shooter", "also_under", "chem")
    }
    acting = whole_number(initial.get("fighter"))
    if kind in ("shoot", "fight") and acting is not None and "target" not in initial and "also_under" not in initial:
        fighter = next((f for f in fighters if f.pk == acting), None)
        target = selectors.last_target(session, fighter, fighters) if fighter else None
        if target:
            initial["target"] = target
    options = {"session": session, "fighters": fighters, "initial": initial}
    if kind == "test":
        return forms.TestForm(data, test=_choice(kind, request), **options)
    if kind == "scenario":
        return forms.ScenarioForm(data, action=_choice(kind, request), **options)
    return forms.ACTION_FORMS[kind](data, **options)


def _menu(session, kind: str) -> list:
    rules = edition_rules(session.edition)
    return list((rules.TESTS if kind == "test" else rules.scenario_actions(session)).items())


def _menu_links(session, kind: str) -> list[tuple[str, str]]:
    """(words, link) for each choice of the menu."""
    url = reverse("battles:battle-act", args=[session.pk, kind])
    return [(words, f"{url}?{urlencode({CHOICE_PARAM[kind]: key})}") for key, words in _menu(session, kind)]


def _seen(plan) -> str:
    """A fingerprint of the situation whose odds the player saw; the roll must be for that same situation."""
    return hashlib.sha256(json.dumps(plan.query, sort_keys=True, default=str).encode()).hexdigest()[:16]


def _act(request, session, kind: str, form, fighters, context: dict, op: str):
    """Show the odds of the described action as soon as it is complete; roll it once its odds have been seen
    for this very situation. A wrong die keeps the odds and the choices, names the die and asks for it again."""
    charge_from = form.charge_from() if hasattr(form, "charge_from") else None
    try:
        plan = selectors.action_plan(session=session, kind=kind, params=form.params(), fighters=fighters)
        odds = selectors.action_odds(session=session, plan=plan)
        if charge_from is not None and session.edition == "n18":
            reach = selectors.charge_reach_odds(session=session, fighter=plan.fighter, distance=charge_from, plan=plan)
            context["charge_odds"] = display.odds_rows(reach)
    except ValidationError as error:
        add_refusal(form, error)
        return None
    context.update(plan=plan, odds=display.odds_rows(odds, [f.name for f in plan.others]), seen=_seen(plan))
    dice = form.cleaned_data.get("dice") or []
    if plan.rolls:
        context["dice_order"] = display.dice_order(session.edition, plan, odds)
        dice = _table_dice(session, plan, form, dice, context)
        if dice is None:
            return None
    if op == "roll" and (request.POST.get("seen") == context["seen"] or not plan.rolls):
        try:
            action = services.action_resolve(
                session=session,
                kind=kind,
                params=form.params(),
                actor=request.user,
                dice=dice or None,
                token=forms.posted_token(request.POST),
            )
        except ValidationError as error:
            add_refusal(form, error)
            return None
        return _rolled(request, session, action)
    return None


def _made_before(request, session):
    """This very form was posted before (a double tap, a retry): its first answer, nothing done twice; else None."""
    made = selectors.action_made(session, forms.posted_token(request.POST))
    if made is None:
        return None
    return _rolled(request, session, made)


def _rolled(request, session, action):
    """The answer to a roll made (or made before). From the session page's panel (htmx, with the version the page
    shows): the parts that changed, swapped in place as a button's answer is (:func:`_back_to_battle`), the panel
    emptied, and the page at its top, where a reload landed: the result's message, the turn and the next fighter.
    Else the session page, as from the action's own page."""
    done = "; ".join(action.changes) or action.summary
    if not request.htmx or whole_number(request.POST.get("shown", "")) is None:
        return moved(request, _detail_url(session), done)
    response = _back_to_battle(request, session, done)
    response.write(render_to_string("battles/_act_panel.html", {"oob": True}, request=request))
    if "HX-Retarget" not in response:  # the parts come out of band: the form's own target is left alone
        reswap(response, "none show:window:top")
    return response


def _table_dice(session, plan, form, dice: list, context: dict) -> list | None:
    """The dice entered so far and the next one the rules read; None after a wrong die, which is named and
    taken off (with those after it) so the page asks for it again."""
    try:
        needed = selectors.action_next_die(session=session, plan=plan, dice=dice)
    except ValidationError as error:
        context["dice_error"] = " ".join(error.messages)
        if error.code != "wrong_die":
            return None
        dice = dice[: error.params["index"]]
        form.data["dice"] = " ".join(str(d) for d in dice)
        needed = selectors.action_next_die(session=session, plan=plan, dice=dice)
        context.update(entered=display.entered_dice(dice), next_die=display.next_die(session.edition, needed))
        return None
    context.update(entered=display.entered_dice(dice), next_die=display.next_die(session.edition, needed))
    return dice


def _dice_data(post) -> tuple:
    """The posted data with a die button's face added to the dice entered (or the last one taken back), and
    what the player asked for: ``roll``, ``odds``, or ``""`` for a choice just made (odds once complete)."""
    data = post.copy()
    dice = (data.get("dice") or "").split()
    if data.get("add_die"):
        dice.append(data["add_die"])
    elif data.get("op") == "undo-die" and dice:
        dice.pop()
    data["dice"] = " ".join(dice)
    return data, data.get("op") if data.get("op") in ("roll", "odds") else ""


@login_required
@require_http_methods(["GET", "POST"])
def battle_act(request, pk: int, kind: str):
    """One action: its choices as buttons, its exact odds as soon as they are complete, then the roll (here,
    or the dice rolled at the table entered one at a time). Its own page, or its part in the session page's panel
    (htmx aimed at ``#act-panel``), whose roll is answered in place (:func:`_rolled`)."""
    session = _battle_for_acting(request.user, pk)
    rules = edition_rules(session.edition)
    if kind not in rules.KINDS or session.is_over:
        raise Http404("No such action here.")
    choice = _choice(kind, request)
    labels = {**rules.TESTS, **getattr(rules, "SCENARIO_ACTIONS", {})}
    # Opened in the session page's panel (htmx): the action's part of its page, its choices leading on in the panel.
    in_panel = bool(request.htmx) and request.htmx.target == "act-panel"
    context = {"session": session, "kind": kind, "label": labels.get(choice, rules.KINDS[kind]), "in_panel": in_panel}
    page = "battles/battle_act.html#act-panel" if in_panel else "battles/battle_act.html"
    if kind in CHOICE_PARAM and not choice:
        return render(request, page, {**context, "menu": _menu_links(session, kind)})
    if choice and choice not in dict(_menu(session, kind)):
        raise Http404("No such test or scenario action here.")
    if request.method == "POST" and (made := _made_before(request, session)):
        return made
    fighters = selectors.battle_fighters(session)
    for fighter in fighters:
        fighter.session = session  # the forms name each fighter's gang without a query per fighter
    data, op = _dice_data(request.POST) if request.method == "POST" else (None, "")
    form = _action_form(session, kind, request, fighters, data)
    if data is None and request.GET.get("fighter"):
        # From a fighter's card: what is already chosen (his only weapon, his last target) may be enough.
        data = {name: form[name].value() for name in form.fields if form[name].value() not in (None, "")}
        form = _action_form(session, kind, request, fighters, data)
    context["rolls"] = "dice" in form.fields
    # The form's one-time token: kept through every choice and the odds, so the roll is made once however often
    # it is posted (a double tap, a retry on a bad connection).
    context["once"] = forms.posted_token(request.POST) or forms.new_token()
    if data is not None and form.is_valid():
        acted = _act(request, session, kind, form, fighters, context, op)
        if acted:
            return acted
    elif data is not None and not op:
        context["quiet"] = True  # a choice on the way: no errors for what is not chosen yet
    if op == "roll" and (made := _made_before(request, session)):
        # A roll not made here, because its twin (a double tap) made it meanwhile and so moved the situation
        # (new odds, a target gone): the twin's answer, not this form again.
        return made
    # The form's own posts (a choice, the odds, an invalid roll) swap its result part, in the panel or its page.
    template = "battles/battle_act.html#action-form" if request.htmx and not in_panel else page
    return render(request, template, {**context, "form": form})


@login_required
@require_POST
def fighter_set(request, pk: int, fighter_pk: int):
    session = _battle_for_acting(request.user, pk)
    fighter = BattleFighter.objects.filter(session=session, pk=fighter_pk).first()
    form = forms.FighterSetForm(request.POST)
    if fighter is None or not form.is_valid():
        raise Http404("No such fighter or state.")
    token = forms.posted_token(request.POST)
    return _simple_change(
        request, pk, services.fighter_adjust, session_row=session, fighter=fighter, token=token, **form.cleaned_data
    )


@login_required
@require_POST
def fighter_move(request, pk: int, fighter_pk: int):
    """2018+: the fighter's Move action, from his card."""
    session = _battle_for_acting(request.user, pk)
    fighter = BattleFighter.objects.filter(session=session, pk=fighter_pk).first()
    if fighter is None:
        raise Http404("No such fighter.")
    token = forms.posted_token(request.POST)
    return _simple_change(request, pk, services.fighter_move, session_row=session, fighter=fighter, token=token)


@login_required
@require_http_methods(["GET", "POST"])
def fighter_group(request, pk: int, fighter_pk: int):
    """2018+: a Leader or Champion's Group Activation, from his card: the friends who activate with him."""
    session = _battle_for_acting(request.user, pk)
    fighters = selectors.battle_fighters(session)
    leader = next((f for f in fighters if f.pk == fighter_pk), None)
    if leader is None or session.edition != "n18" or session.is_over:
        raise Http404("No such fighter here.")
    form = forms.GroupForm(request.POST or None, leader=leader, fighters=fighters)
    if request.method == "POST" and form.is_valid():
        try:
            members, token = form.cleaned_data["members"], forms.posted_token(request.POST)
            action = services.group_activate(
                session=session, leader=leader, members=members, actor=request.user, token=token
            )
        except ValidationError as error:
            add_refusal(form, error)
        else:
            return moved(request, _detail_url(session), action.summary)
    return render(request, "battles/battle_group.html", {"session": session, "leader": leader, "form": form})


def _simple_change(request, pk: int, service, done: str = "", session_row=None, **options):
    """A button's POST: the service's refusal shown as a message, back to the battle either way."""
    session = session_row or _battle_for_acting(request.user, pk)
    try:
        service(session=session, actor=request.user, **options)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
        return _back_to_battle(request, session)
    return _back_to_battle(request, session, done)


def _back_to_battle(request, session, done: str = ""):
    """After a button on the battle page: with htmx, the parts of the page that changed since the version it shows
    (its ``shown`` field), swapped in place out of band, the scroll left where it is (core.middleware adds the
    messages); the whole state part when that version's drawing is no longer in the cache. Else the page itself."""
    shown = whole_number(request.POST.get("shown", ""))
    if not request.htmx or shown is None:
        return moved(request, _detail_url(session), done)
    if done:
        messages.success(request, done)
    session = selectors.battle_page_get(session.pk)
    context = _page_context(request, session)
    was = cache.get(_page_key(session, shown, can_act=context["can_act"], follow=False))
    if was is None:
        response = render(request, "battles/battle_detail.html#state", context)
        return reswap(retarget(response, "#battle-state"), "outerHTML")
    changes = fragments.page_changes(was, context["drawn"])
    return render(request, "battles/_changes.html", {**context, "changes": changes})


@login_required
@require_POST
def battle_advance(request, pk: int):
    leave = request.POST.get("leave_untaken") == "1"
    token = forms.posted_token(request.POST)
    reason = request.POST.get("reason", "") if leave else ""
    return _simple_change(request, pk, services.battle_advance, leave_untaken=leave, reason=reason, token=token)


@login_required
@require_POST
def battle_priority(request, pk: int):
    side, token = request.POST.get("side", ""), forms.posted_token(request.POST)
    return _simple_change(request, pk, services.battle_priority_set, side=side, token=token)


@login_required
@require_http_methods(["GET", "POST"])
def battle_reinforce(request, pk: int):
    """Reinforcements arrive: picked at random among the gang's fighters not yet in the battle."""
    session = _battle_for_acting(request.user, pk)
    form = forms.ReinforceForm(request.POST or None, session=session, initial={"side": request.GET.get("side")})
    if request.method == "POST" and form.is_valid():
        try:
            action = services.battle_reinforce(session=session, actor=request.user, **form.cleaned_data)
        except ValidationError as error:
            add_refusal(form, error)
        else:
            return moved(request, _detail_url(session), action.summary)
    return render(request, "battles/battle_reinforce.html", {"session": session, "form": form})


@login_required
@require_POST
def gang_flee(request, pk: int):
    return _simple_change(request, pk, services.gang_flee, side=request.POST.get("side", ""))


@login_required
@require_POST
def action_undo(request, pk: int):
    return _simple_change(request, pk, services.action_undo, "The last action was undone.")


@login_required
@require_http_methods(["GET", "POST"])
def battle_end(request, pk: int):
    session = _battle_for_acting(request.user, pk)
    if session.is_over:
        return redirect("battles:battle-report", pk=session.pk)
    proposed, why = selectors.proposed_winner(session, list(session.fighters.all()))
    initial = {"winner": proposed} if proposed is not None else {}
    form = forms.BattleEndForm(request.POST or None, session=session, initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            services.battle_end(session=session, actor=request.user, **form.cleaned_data)
        except ValidationError as error:
            add_refusal(form, error)
        else:
            url = reverse("battles:battle-report", args=[session.pk])
            return moved(request, url, "The battle is over: its report is written.")
    names = {Side.ATTACKER: session.gang_a.name, Side.DEFENDER: session.gang_b.name, "": "nobody: a draw"}
    proposal = f"By the scenario's facts the winner is {names[proposed]}: {why}." if proposed is not None else ""
    return render(request, "battles/battle_end.html", {"session": session, "form": form, "proposal": proposal})


@login_required
@require_GET
def battle_report(request, pk: int):
    session = _battle_for_viewing(request.user, pk)
    context = {
        "session": session,
        "report": session.report,
        "rows": display.report_rows(session.report),
        "facts": display.fact_lines(session.facts, {side: session.gang(side).name for side in Side.values}),
        "log": selectors.battle_log(session, limit=None),
        "can_act": selectors.can_act(request.user, session),
    }
    return render(request, "battles/battle_report.html", context)
