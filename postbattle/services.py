"""Every change to a post-battle sequence: start, submit a step, go back, apply, revert, run again.

A sequence is a draft until :func:`sequence_apply`: each step's dice (rolled by the server or entered
from the table), choices and results are saved on the sequence and nothing touches the roster. The
apply writes everything in one transaction, exactly once: the sequence row is locked
(``select_for_update``) and its state checked, and the :class:`~postbattle.models.Application` row
(unique per sequence) is written first, so a double submit, a second tab or concurrent requests apply
it once. Permissions are the views' job; a refusal a user can hit is a ``ValidationError``.
"""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils import timezone

from campaigns.models import Battle, BattleStatus
from campaigns.services import campaign_log_record, require_impartial_battle, standing_snapshot_take
from campaigns.services.house_rules import post_battle_credits
from gangs.models import Gang
from notifications.models import EventKind
from notifications.services import notify
from postbattle import engine
from postbattle.apply import effects_apply, effects_revert
from postbattle.models import Application, Sequence, SequenceState
from postbattle.selectors import battle_context, fighters_before, kept_dice, live_sequence
from rulebook.dice import DiceSource, ReplayDice, ScriptedDice
from rulebook.errors import RulesInputError


def _refuse(error: RulesInputError) -> ValidationError:
    # The field is the step form's (``target_14``) or the rulebook's name for the input: not words for a player.
    # The message says what is wrong in the game's words, naming the fighter or territory.
    return ValidationError(error.message)


def _locked(sequence: Sequence) -> Sequence:
    return (
        Sequence.objects.select_for_update(of=("self",))
        .select_related("battle__campaign", "gang__house")
        .get(pk=sequence.pk)
    )


@transaction.atomic
def sequence_start(*, battle: Battle, gang: Gang, actor) -> Sequence:
    """The gang's draft sequence for a confirmed battle (the one already started, if any)."""
    if battle.status != BattleStatus.CONFIRMED:
        raise ValidationError("The post-battle sequence starts once the battle report is confirmed.")
    if gang.pk not in (battle.attacker_id, battle.defender_id):
        raise ValidationError(f"{gang.name} did not fight this battle.")
    existing = live_sequence(battle, gang)
    if existing is not None:
        return existing
    _, start = battle_context(battle, gang)
    run = (Sequence.objects.filter(battle=battle, gang=gang).aggregate(m=Max("run"))["m"] or 0) + 1
    try:
        with transaction.atomic():
            return Sequence.objects.create(
                battle=battle,
                gang=gang,
                edition=battle.campaign.edition,
                run=run,
                started_by=actor,
                draft={"start": {fid: s.as_json() for fid, s in start.items()}, "steps": {}},
            )
    except IntegrityError:
        # Another request started it at the same moment: use theirs.
        return live_sequence(battle, gang)


def _require_draft(sequence: Sequence) -> None:
    if sequence.state != SequenceState.DRAFT:
        raise ValidationError(f"This sequence has been {sequence.get_state_display().lower()}; nothing more to roll.")


@transaction.atomic
def sequence_step_submit(
    *,
    sequence: Sequence,
    dice: DiceSource,
    entered: bool = False,
    choices: dict | None = None,
    actor=None,
    step: int | None = None,
) -> Sequence:
    """Roll (or read the entered dice for) the current step with the player's choices and save the result
    in the draft. Entered dice must all be used: a die left over means the table rolled something else.
    ``step`` is the step the player's form was for: a form from a second tab, for a step already rolled,
    is refused rather than read as the next step."""
    sequence = _locked(sequence)
    _require_draft(sequence)
    steps = engine.steps_for(sequence.edition)
    if sequence.step >= len(steps):
        raise ValidationError("Every step is done: apply the sequence.")
    if step is not None and step != sequence.step:
        raise ValidationError("That step has been rolled already (in another tab?): here is where the sequence is.")
    current, choices = steps[sequence.step], dict(choices or {})
    context, _ = battle_context(sequence.battle, sequence.gang)
    # Every die final: the dice this step already rolled (before going back) answer their purposes again;
    # only a purpose never rolled for takes a new die from the server or the table.
    replay = ReplayDice(sequence.draft.get("kept", {}).get(current.slug, []), dice)
    try:
        outcome = current.run(context, fighters_before(sequence, sequence.step), replay, choices)
    except RulesInputError as error:
        raise _refuse(error) from None
    if entered and isinstance(dice, ScriptedDice) and dice.remaining:
        kept = f" (the {replay.replayed} already rolled for it were used again)" if replay.replayed else ""
        raise ValidationError(f"{dice.remaining} dice left over: this step needed {len(dice.rolls)} new dice{kept}.")
    for row in replay.fresh:
        row["entered"] = entered
    inputs = {
        "dice": [r.value for r in replay.rolls],
        "entered": entered,
        "choices": choices,
        "replayed": replay.replayed,
    }
    record = {
        "inputs": inputs,
        "lines": outcome.lines,
        "effects": outcome.effects,
        "fighters": {fid: s.as_json() for fid, s in outcome.fighters.items()},
    }
    kept = {**sequence.draft.get("kept", {}), current.slug: replay.kept()}
    sequence.draft = {**sequence.draft, "steps": {**sequence.draft["steps"], current.slug: record}, "kept": kept}
    sequence.step += 1
    sequence.save(update_fields=["draft", "step", "updated_at"])
    return sequence


def _history(sequence: Sequence, actor, event: str, **values) -> list[dict]:
    by = getattr(actor, "username", "") or ""
    return [*sequence.draft.get("history", []), {"at": timezone.now().isoformat(), "by": by, "event": event, **values}]


@transaction.atomic
def sequence_step_back(*, sequence: Sequence, to: int, actor=None) -> Sequence:
    """Go back to step ``to`` (to make other choices): it and the steps after it are done again, with the
    dice already rolled for them (see :func:`sequence_dice_set_aside` for the arbitrator's exception)."""
    sequence = _locked(sequence)
    _require_draft(sequence)
    steps = engine.steps_for(sequence.edition)
    if not 0 <= to < sequence.step:
        raise ValidationError("That step has not been done yet.")
    done = {s.slug: sequence.draft["steps"][s.slug] for s in steps[:to]}
    history = _history(sequence, actor, "back", step=steps[to].slug, title=steps[to].title)
    sequence.draft = {**sequence.draft, "steps": done, "history": history}
    sequence.step = to
    sequence.save(update_fields=["draft", "step", "updated_at"])
    return sequence


@transaction.atomic
def sequence_dice_set_aside(*, sequence: Sequence, step: int, reason: str, actor) -> Sequence:
    """An arbitrator sets aside the dice recorded for step ``step`` (a die misread at the table, a server
    roll for the wrong fighter ...): the sequence goes back to that step, which is rolled anew, and the
    discarded dice stay in the sequence's history with the reason. Permissions are the view's."""
    sequence = _locked(sequence)
    _require_draft(sequence)
    require_impartial_battle(sequence.battle, actor, "Setting aside post-battle dice")
    steps = engine.steps_for(sequence.edition)
    reason = (reason or "").strip()
    if not reason:
        raise ValidationError("Give the reason the dice are set aside: it stays in the sequence's history.")
    if not 0 <= step < len(steps) or not kept_dice(sequence, steps[step].slug):
        raise ValidationError("No dice are recorded for that step.")
    slug = steps[step].slug
    history = _history(
        sequence,
        actor,
        "set aside",
        step=slug,
        title=steps[step].title,
        dice=kept_dice(sequence, slug),
        reason=reason[:300],
    )
    kept = {k: v for k, v in sequence.draft["kept"].items() if k != slug}
    done = {s.slug: sequence.draft["steps"][s.slug] for s in steps[: min(step, sequence.step)]}
    sequence.draft = {**sequence.draft, "steps": done, "kept": kept, "history": history}
    sequence.step = min(step, sequence.step)
    sequence.save(update_fields=["draft", "step", "updated_at"])
    return sequence


@transaction.atomic
def sequence_apply(*, sequence: Sequence, actor) -> Application:
    """Apply everything the sequence decided, in one transaction, exactly once."""
    sequence = _locked(sequence)
    if sequence.state != SequenceState.DRAFT:
        raise ValidationError("This post-battle sequence has already been applied.")
    steps = engine.steps_for(sequence.edition)
    if sequence.step < len(steps):
        raise ValidationError(f"Finish the steps first: {steps[sequence.step].title} is next.")
    try:
        with transaction.atomic():
            application = Application.objects.create(sequence=sequence, applied_by=actor)
    except IntegrityError:
        raise ValidationError("This post-battle sequence has already been applied.") from None
    application.undo = effects_apply(sequence, step_slugs=[s.slug for s in steps], actor=actor)
    post_battle_credits(sequence=sequence, actor=actor)  # the campaign's house rules (reverted with the rest)
    application.save(update_fields=["undo"])
    sequence.state = SequenceState.APPLIED
    sequence.save(update_fields=["state", "updated_at"])
    standing_snapshot_take(
        campaign=sequence.battle.campaign,
        gang=sequence.gang,
        reason=f"After {sequence.battle.scenario_name}: {sequence.battle}",
    )
    notify(EventKind.SEQUENCE_APPLIED, sequence)
    return application


@transaction.atomic
def sequence_revert(*, sequence: Sequence, actor, reason: str) -> Sequence:
    """An arbitrator undoes an applied sequence, saying why: every entry reversed, the roster restored, and the
    revert with its reason an entry of the campaign log. The gang can then run the battle's sequence again
    (:func:`sequence_rerun`)."""
    sequence = _locked(sequence)
    if sequence.state != SequenceState.APPLIED:
        raise ValidationError("Only an applied sequence can be reverted.")
    require_impartial_battle(sequence.battle, actor, "Reverting a post-battle sequence")
    reason = (reason or "").strip()
    if not reason:
        raise ValidationError("Give the reason the sequence is reverted: it stays in the campaign log.")
    application = Application.objects.select_for_update().get(sequence=sequence)
    effects_revert(sequence, application.undo, actor=actor)
    application.reverted_by, application.reverted_at = actor, timezone.now()
    application.save(update_fields=["reverted_by", "reverted_at"])
    sequence.state = SequenceState.REVERTED
    sequence.draft = {**sequence.draft, "history": _history(sequence, actor, "reverted", reason=reason[:300])}
    sequence.save(update_fields=["state", "draft", "updated_at"])
    campaign_log_record(
        gangs=(sequence.gang,),
        event="reverted",
        actor=actor,
        battle=sequence.battle,
        reason=reason[:300],
        description=f"Post-battle sequence reverted (run {sequence.run}): "
        f"{sequence.battle.scenario_name}, {sequence.battle}",
    )
    standing_snapshot_take(
        campaign=sequence.battle.campaign,
        gang=sequence.gang,
        reason=f"Post-battle sequence reverted: {sequence.battle}",
    )
    return sequence


@transaction.atomic
def sequence_rerun(*, sequence: Sequence, actor, same_dice: bool = False) -> Sequence:
    """A new draft after a revert; with ``same_dice`` every step is replayed with the dice and choices
    of the reverted run (then the player or arbitrator may go back to a step and change it)."""
    sequence = _locked(sequence)  # two reruns at once: the second waits, then finds the first's draft
    if sequence.state != SequenceState.REVERTED:
        raise ValidationError("Revert the sequence before running it again.")
    fresh = sequence_start(battle=sequence.battle, gang=sequence.gang, actor=actor)
    if not fresh.draft.get("kept") and sequence.draft.get("kept"):
        # The reverted run's dice stay final in the new run too: a revert is not a way to roll again.
        fresh.draft = {**fresh.draft, "kept": sequence.draft["kept"]}
        fresh.save(update_fields=["draft", "updated_at"])
    if same_dice:
        for index, step in enumerate(engine.steps_for(sequence.edition)):
            inputs = sequence.draft["steps"][step.slug]["inputs"]
            # The kept dice answer every purpose again; a run from before dice were kept replays its faces.
            faces = [] if kept_dice(fresh, step.slug) else inputs["dice"]
            fresh = sequence_step_submit(
                sequence=fresh,
                dice=ScriptedDice(faces),
                entered=inputs["entered"],
                choices=inputs["choices"],
                actor=actor,
                step=index,
            )
    return fresh
