"""Playing: resolve an action through the rulebook, set a state by hand, move the turn on, undo.

An action is resolved in three steps (load, compute, save): the edition's :mod:`battles.rules` module turns
the fighters into the rulebook query, ``rulebook.editions.action(edition, rule)`` answers ``odds`` and
``roll`` for that very query (the same functions ``python -m rulebook`` calls), and the answer is written
onto the fighters. Each action is logged with the whole battle's state before it, so undo is exact.
"""

from __future__ import annotations

import copy

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Max

from battles.models import (
    CONDITIONS,
    SESSION_STATE,
    BattleAction,
    BattleFighter,
    BattleSession,
    Condition,
)
from battles.rules import Plan, edition_rules
from battles.rules.n18 import effects as n18_effects
from battles.selectors import action_made, action_odds, action_plan, battle_prompts
from battles.services.state import battle_state, locked, log_action, save_state, write_changed
from campaigns.models import Side
from content.models import Edition
from rulebook import editions
from rulebook.dice import DiceSource, RandomDice, ReplayDice, ScriptedDice
from rulebook.errors import RulesInputError
from rulebook.query import Query


def _dice_source(dice: list | DiceSource | None, session: BattleSession, plan: Plan) -> DiceSource:
    if isinstance(dice, DiceSource):
        return dice
    if dice:
        return ScriptedDice(dice)
    # Every die final: the same action undone and taken again answers its purposes with the dice it rolled.
    return ReplayDice(_undone_dice(session, plan), RandomDice())


def _undone_dice(session: BattleSession, plan: Plan) -> list[dict]:
    """The dice of the latest undone action like ``plan`` (same kind, rule, fighters and query) not taken again
    since: an undone Booby Trapped casket opened again is Booby Trapped again."""
    same = session.actions.filter(
        kind=plan.kind, rule=plan.rule, fighter=plan.fighter, target=plan.target, query=plan.query
    )
    standing = same.filter(undone=False).aggregate(n=Max("number"))["n"] or 0
    undone = same.filter(undone=True, number__gt=standing).order_by("-number").first()
    return list(undone.dice) if undone is not None else []


@transaction.atomic
def action_resolve(
    *, session: BattleSession, kind: str, params: dict, actor, dice: list | DiceSource | None = None, token: str = ""
) -> BattleAction:
    """Resolve one action: odds, the roll (on the server, or the dice entered from the table), the effects.

    ``dice``: the faces entered from the table, in order; or a dice source (seeded, for the demo); or None
    to roll on the server. ``token``: the form's one-time token; the action it made already is returned as it is.
    """
    session, fighters = locked(session)
    if first := action_made(session, token):
        return first  # the same form again (a second tap): its first answer, nothing done twice
    before = battle_state(session, fighters)
    plan = action_plan(session=session, kind=kind, params=params, fighters=fighters)
    odds = action_odds(session=session, plan=plan)
    source = _dice_source(dice, session, plan)
    result = {}
    if plan.rolls:
        try:
            result = editions.action(session.edition, plan.rule).roll(Query(copy.deepcopy(plan.query)), source)
        except RulesInputError as exc:
            raise ValidationError(str(exc)) from None
        if isinstance(source, ScriptedDice) and source.remaining:
            used = len(dice) - source.remaining
            raise ValidationError(f"Only {used} of the {len(dice)} dice entered were needed; check them.")
    rules = edition_rules(session.edition)
    changes = rules.apply(plan, result, session)
    save_state(session, fighters, before)
    return log_action(
        session,
        before,
        actor,
        kind=plan.kind,
        rule=plan.rule,
        fighter=plan.fighter,
        target=plan.target,
        summary=plan.summary,
        query=plan.query,
        odds=odds,
        dice=source.log(),
        dice_entered=isinstance(dice, list) and bool(dice),
        result=result,
        changes=changes,
        side=plan.side or "",
        casualties=[f.pk for f in rules.casualties(plan) if _worse(f, before)],
        token=token,
    )


def _worse(fighter: BattleFighter, before: dict) -> bool:
    """Whether the action changed the fighter's condition (a fresh casualty), rather than leaving one who was
    Seriously Injured or down as he was (a failed Recovery): only a fresh casualty makes his friends test."""
    was = before["fighters"].get(str(fighter.pk), {}).get("condition")
    return was != fighter.condition


ADJUSTABLE = {
    "classic": ("condition", "broken", "hidden", "overwatch", "engaged"),
    "n18": ("condition", "broken", "prone", "ready", "engaged"),
}
ADJUSTABLE_CONDITIONS = {"classic": (Condition.STANDING, Condition.PINNED), "n18": (Condition.ACTIVE, Condition.PINNED)}


@transaction.atomic
def fighter_adjust(
    *, session: BattleSession, fighter: BattleFighter, field: str, value, actor, token: str = ""
) -> BattleAction:
    """Set one state at the table's word (hidden, on overwatch, Prone, activated...), logged and undoable."""
    session, fighters = locked(session)
    if first := action_made(session, token):
        return first  # the same form again (a second tap): its first answer, nothing done twice
    if field not in ADJUSTABLE[session.edition]:
        raise ValidationError(f"{field} cannot be set by hand in this edition.")
    if field == "condition" and value not in ADJUSTABLE_CONDITIONS[session.edition]:
        raise ValidationError("Only Pinned or back on their feet can be set by hand; the dice decide the rest.")
    if value not in (*CONDITIONS[session.edition], True, False):
        raise ValidationError("Not a value this state can take.")
    row = next((f for f in fighters if f.pk == fighter.pk), None)
    if row is None or row.out_of_action:
        raise ValidationError("That fighter is not in play.")
    before = battle_state(session, fighters)
    setattr(row, field, value)
    words = f"{row.name} is {_word(field, value)}"
    if session.edition == Edition.N18:
        words = _n18_stance(row, field, value) or words
        if field == "ready" and not value:
            n18_effects.sees_again(session, row)  # Done: his activation is spent, Blind or not
    save_state(session, fighters, before)
    return log_action(session, before, actor, kind="adjust", fighter=row, summary=words, changes=[words], token=token)


def _n18_stance(fighter: BattleFighter, field: str, value) -> str | None:
    """2018+: Pinned goes with Prone and Active with Standing (Fighter States), so setting one sets the other:
    a Pinned fighter who stands up is no longer Pinned (Stand Up), one who goes Prone is Pinned. Words when so."""
    if field == "prone" and not value and fighter.condition == Condition.PINNED:
        fighter.condition = Condition.ACTIVE
        return f"{fighter.name} stands up (no longer Pinned)"
    if field == "prone" and value and fighter.condition == Condition.ACTIVE:
        fighter.condition = Condition.PINNED
        return f"{fighter.name} is Prone and Pinned"
    if field == "condition":
        fighter.prone = value == Condition.PINNED
    return None


@transaction.atomic
def fighter_move(*, session: BattleSession, fighter: BattleFighter, actor, token: str = "") -> BattleAction:
    """2018+: a fighter takes the Move (Simple) action: his activation has begun (he stays first on the page
    until it ends), logged. The distance and terrain are the table's; an Agility test or a fall is its own test."""
    from battles.rules.n18 import ACTING

    session, fighters = locked(session)
    if first := action_made(session, token):
        return first
    if session.edition != Edition.N18:
        raise ValidationError("Moving is a phase of its own in the classic turn, not an action.")
    row = next((f for f in fighters if f.pk == fighter.pk), None)
    if row is None or row.out_of_action:
        raise ValidationError("That fighter is not in play.")
    if row.condition != Condition.ACTIVE:
        raise ValidationError(f"{row.name} is {row.get_condition_display()}: stand up first, or take a test.")
    before = battle_state(session, fighters)
    session.facts = {**session.facts, ACTING: row.pk}
    n18_effects.sees_again(session, row)
    words = f"{row.name} moves"
    save_state(session, fighters, before)
    return log_action(session, before, actor, kind="move", fighter=row, summary=words, changes=[words], token=token)


STATE_WORDS = {
    "broken": ("Broken", "no longer Broken"),
    "hidden": ("Hidden", "no longer Hidden"),
    "overwatch": ("on Overwatch", "off Overwatch"),
    "engaged": ("Engaged", "no longer Engaged"),
    "prone": ("Prone", "Standing"),
    "ready": ("Ready", "Activated"),
}


def _word(field: str, value) -> str:
    if field == "condition":
        return Condition(value).label
    return STATE_WORDS[field][0 if value else 1]


@transaction.atomic
def battle_advance(
    *, session: BattleSession, actor, leave_untaken: bool = False, reason: str = "", token: str = ""
) -> BattleAction:
    """Move on to the next phase (and the next turn or round), as the edition says.

    What the rules still require in this phase (the End phase's Recovery, Bottle and Rally tests, a classic
    recovery roll...) stops it, naming each, unless the players choose to move on without it (``leave_untaken``:
    they may have rolled at the table, or agreed to skip it); the log then says what was left, and ``reason``, the
    players' why. A test that
    applies only where the table says so (a Nerve test within 3") never stops it."""
    session, fighters = locked(session)
    if first := action_made(session, token):
        return first  # the same form again (a second tap): its first answer, nothing done twice
    # The prompts read the phase's actions, as the page does.
    untaken = [prompt.text for prompt in battle_prompts(session, fighters) if not prompt.conditional]
    if untaken and not leave_untaken:
        raise ValidationError(
            f"The {session.get_phase_display()} phase still requires: {'; '.join(untaken)}. Take them, or move on "
            "leaving them untaken."
        )
    before = battle_state(session, fighters)
    changes = edition_rules(session.edition).advance(session, fighters)
    if untaken:
        why = " ".join(reason.split())[:200]
        changes.append(f"Left untaken: {'; '.join(untaken)}" + (f" (why: {why})" if why else ""))
    save_state(session, fighters, before)
    return log_action(session, before, actor, kind="phase", summary=changes[0], changes=changes, token=token)


@transaction.atomic
def battle_priority_set(*, session: BattleSession, side: str, actor, token: str = "") -> BattleAction:
    """2018+: the gang that won the Priority roll-off (classic: whose turn it is)."""
    session, fighters = locked(session)
    if first := action_made(session, token):
        return first  # the same form again (a second tap): its first answer, nothing done twice
    if side not in Side.values:
        raise ValidationError("Priority goes to one of the two gangs.")
    before = battle_state(session, fighters)
    session.turn_side = side
    words = (
        f"{session.gang(side).name} has Priority" if session.edition == "n18" else f"{session.gang(side).name}'s turn"
    )
    save_state(session, fighters, before)
    return log_action(session, before, actor, kind="adjust", summary=words, changes=[words], token=token)


@transaction.atomic
def gang_flee(*, session: BattleSession, side: str, actor) -> BattleAction:
    """A gang bottles out of its own accord and flees the battlefield (the campaign guide: its opponent wins)."""
    session, fighters = locked(session)
    if side not in Side.values:
        raise ValidationError("One of the two gangs flees.")
    if side in session.facts.get("fled", []):
        raise ValidationError(f"{session.gang(side).name} has fled already.")
    before = battle_state(session, fighters)
    session.bottle_out(side)
    session.facts = {**session.facts, "fled": [*session.facts.get("fled", []), side]}
    words = f"{session.gang(side).name} bottles out and flees the battlefield"
    save_state(session, fighters, before)
    return log_action(session, before, actor, kind="adjust", side=side, summary=words, changes=[words])


@transaction.atomic
def action_undo(*, session: BattleSession, actor) -> BattleAction:
    """Undo the last action still standing: every fighter and the battle go back to the state before it."""
    session, fighters = locked(session)
    last = session.actions.filter(undone=False).order_by("-number").first()
    if last is None:
        raise ValidationError("Nothing to undo.")
    state = last.state_before
    for name, value in state["battle"].items():
        setattr(session, name, value)
    arrived = [f.pk for f in fighters if str(f.pk) not in state["fighters"]]
    if arrived:  # Reinforcements brought in by the action go back out
        BattleFighter.objects.filter(pk__in=arrived).delete()
        fighters = [f for f in fighters if f.pk not in arrived]
    now = battle_state(session, fighters)["fighters"]
    for f in fighters:
        for name, value in state["fighters"].get(str(f.pk), {}).items():
            setattr(f, name, value)
    write_changed(session, fighters, now)
    session.version += 1
    session.save(update_fields=[*SESSION_STATE, "version", "updated_at"])
    last.undone = True
    last.save(update_fields=["undone"])
    return last
