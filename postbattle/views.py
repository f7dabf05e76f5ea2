"""Pages of the post-battle sequence: one page per gang and battle that walks through the steps.

Each change view gets the battle and gang through :mod:`postbattle.permissions`, checks who may act,
validates a form and calls a service. An htmx request gets the sequence panel back
(``sequence.html#panel``); a plain POST is redirected to the page. An invalid step form, or dice the
step refuses, re-renders the panel with its errors and status 200.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.functional import SimpleLazyObject
from django.views.decorators.http import require_GET, require_POST

from campaigns.cache import FRAGMENT_SECONDS
from campaigns.selectors import house_rules_due
from core.pagination import page_of
from gangs.permissions import gang_for_view
from postbattle import engine, selectors, services
from postbattle.forms import RevertForm, SetAsideForm, StepForm
from postbattle.permissions import sequence_access


def _page_url(battle, gang) -> str:
    return reverse("postbattle:sequence-detail", args=[battle.pk, gang.pk])


def _panel(request, access, battle, gang, form: StepForm | None = None):
    sequence = selectors.live_sequence(battle, gang)
    steps = engine.steps_for(battle.campaign.edition)
    current = None
    if sequence is not None and sequence.is_draft and sequence.step < len(steps):
        step = steps[sequence.step]
        context, _ = selectors.battle_context(battle, gang)
        fighters = selectors.fighters_before(sequence, sequence.step)
        fields = step.fields(context, fighters)
        current = {
            "index": sequence.step,
            "step": step,
            "dice": step.dice(context, fighters),
            "kept": selectors.kept_dice(sequence, step.slug),
            "form": form or StepForm(fields=fields, initial={"step": sequence.step}),
        }
    done = [(i, s, sequence.draft["steps"][s.slug]) for i, s in enumerate(steps) if sequence and i < sequence.step]
    can_run = access.can_act_for(gang.pk)
    template = "postbattle/sequence.html#panel" if request.htmx else "postbattle/sequence.html"
    return render(
        request,
        template,
        {
            "battle": battle,
            "gang": gang,
            "sequence": sequence,
            "steps": steps,
            "done": done,
            "current": current,
            "can_run": can_run,
            "is_arbitrator": access.is_arbitrator,
            "page_url": _page_url(battle, gang),
            "can_apply": bool(can_run and sequence and sequence.is_draft and sequence.step >= len(steps)),
            "previous": selectors.gang_sequences(gang).filter(battle=battle, state="reverted"),
            "history": (sequence.draft.get("history", []) if sequence else []),
            "set_aside_form": SetAsideForm(),
            "house_rules_due": house_rules_due(battle, gang) if sequence and sequence.is_draft and not current else [],
            "revert_form": RevertForm(),
        },
    )


def _after(request, access, battle, gang, message: str):
    messages.success(request, message)
    return _panel(request, access, battle, gang) if request.htmx else redirect(_page_url(battle, gang))


def _refused(request, access, battle, gang, error: ValidationError):
    messages.error(request, " ".join(error.messages))
    return _panel(request, access, battle, gang) if request.htmx else redirect(_page_url(battle, gang))


def _live(battle, gang):
    sequence = selectors.live_sequence(battle, gang)
    if sequence is None:
        raise Http404
    return sequence


BATTLE_LIST_PAGE_SIZE = 50  # battles a page of the post-battle list; it does not grow with the player's age


@login_required
@require_GET
def battle_list(request):
    """The post-battle list, one page of it drawn from the cache while its campaigns' versions stand
    (:func:`postbattle.selectors.battle_list_key`): the page's rows are read only when its fragment is not there."""
    key = selectors.battle_list_key(request.user)
    page = page_of(selectors.battles_for_user(request.user), request, BATTLE_LIST_PAGE_SIZE, cached_as=key)
    template = "postbattle/battle_list.html#battles" if request.htmx else "postbattle/battle_list.html"
    context = {
        "rows": SimpleLazyObject(lambda: selectors.battle_rows(page)),
        "page": page,
        "list_key": key,
        "fragment_seconds": FRAGMENT_SECONDS,
    }
    return render(request, template, context)


@login_required
@require_GET
def sequence_detail(request, battle_pk: int, gang_pk: int):
    access, battle, gang = sequence_access(request.user, battle_pk, gang_pk)
    return _panel(request, access, battle, gang)


@login_required
@require_POST
def sequence_start(request, battle_pk: int, gang_pk: int):
    access, battle, gang = sequence_access(request.user, battle_pk, gang_pk)
    access.require_gang(gang.pk)
    try:
        services.sequence_start(battle=battle, gang=gang, actor=request.user)
    except ValidationError as error:
        return _refused(request, access, battle, gang, error)
    return _after(request, access, battle, gang, "Post-battle sequence started.")


@login_required
@require_POST
def sequence_step(request, battle_pk: int, gang_pk: int):
    access, battle, gang = sequence_access(request.user, battle_pk, gang_pk)
    access.require_gang(gang.pk)
    sequence = _live(battle, gang)
    steps = engine.steps_for(sequence.edition)
    if not sequence.is_draft or sequence.step >= len(steps):
        return _refused(request, access, battle, gang, ValidationError("There is no step left to roll."))
    context, _ = selectors.battle_context(battle, gang)
    fields = steps[sequence.step].fields(context, selectors.fighters_before(sequence, sequence.step))
    form = StepForm(request.POST, fields=fields)
    if form.is_valid():
        try:
            services.sequence_step_submit(
                sequence=sequence,
                dice=form.dice_source(),
                entered=form.entered,
                choices=form.choices(),
                actor=request.user,
                step=form.cleaned_data["step"],
            )
            return _after(request, access, battle, gang, f"{steps[sequence.step].title}: done.")
        except ValidationError as error:
            form.add_error(None, error)
    return _panel(request, access, battle, gang, form=form)


def _change(request, battle_pk: int, gang_pk: int, change, done: str, *, arbitrator: bool = False):
    """A POST that changes the gang's live sequence: the player's (or only an arbitrator's), refused or done."""
    access, battle, gang = sequence_access(request.user, battle_pk, gang_pk)
    if arbitrator:
        access.require_arbitrator()
    else:
        access.require_gang(gang.pk)
    try:
        change(_live(battle, gang))
    except ValidationError as error:
        return _refused(request, access, battle, gang, error)
    return _after(request, access, battle, gang, done)


@login_required
@require_POST
def sequence_back(request, battle_pk: int, gang_pk: int, step: int):
    return _change(
        request,
        battle_pk,
        gang_pk,
        lambda sequence: services.sequence_step_back(sequence=sequence, to=step, actor=request.user),
        "Back to an earlier step: choose again; the dice already rolled for it stay.",
    )


@login_required
@require_POST
def sequence_set_aside(request, battle_pk: int, gang_pk: int, step: int):
    form = SetAsideForm(request.POST)
    reason = form.cleaned_data["reason"] if form.is_valid() else ""
    return _change(
        request,
        battle_pk,
        gang_pk,
        lambda sequence: services.sequence_dice_set_aside(
            sequence=sequence, step=step, reason=reason, actor=request.user
        ),
        "The step's dice are set aside (kept in the history): roll it anew.",
        arbitrator=True,
    )


@login_required
@require_POST
def sequence_apply(request, battle_pk: int, gang_pk: int):
    return _change(
        request,
        battle_pk,
        gang_pk,
        lambda sequence: services.sequence_apply(sequence=sequence, actor=request.user),
        "Applied to the roster. Hire and buy as usual from the gang page.",
    )


@login_required
@require_POST
def sequence_revert(request, battle_pk: int, gang_pk: int):
    form = RevertForm(request.POST)
    reason = form.cleaned_data["reason"] if form.is_valid() else ""
    return _change(
        request,
        battle_pk,
        gang_pk,
        lambda sequence: services.sequence_revert(sequence=sequence, actor=request.user, reason=reason),
        "Reverted: every entry reversed and the roster restored.",
        arbitrator=True,
    )


@login_required
@require_POST
def sequence_rerun(request, battle_pk: int, gang_pk: int):
    access, battle, gang = sequence_access(request.user, battle_pk, gang_pk)
    access.require_gang(gang.pk)
    last = selectors.gang_sequences(gang).filter(battle=battle, state="reverted").first()
    if last is None:
        raise Http404
    try:
        services.sequence_rerun(sequence=last, actor=request.user, same_dice=request.POST.get("same_dice") == "1")
    except ValidationError as error:
        return _refused(request, access, battle, gang, error)
    return _after(request, access, battle, gang, "A new run of the sequence is ready.")


@login_required
@require_GET
def gang_history(request, gang_pk: int):
    """Each battle's sequence as a readable account: the dice, the rule, the effect."""
    gang = gang_for_view(request.user, gang_pk)
    sequences = selectors.gang_sequences(gang, request.user)
    steps = {edition: {s.slug: s for s in found} for edition, found in engine.STEPS.items()}
    accounts = [
        (sequence, [(steps[sequence.edition][slug], record) for slug, record in sequence.draft["steps"].items()])
        for sequence in sequences
    ]
    return render(request, "postbattle/history.html", {"gang": gang, "accounts": accounts})
