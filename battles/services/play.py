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

from battles.models import (
    CONDITIONS,
    SIDE_STATE,
    STATE_FIELDS,
    BattleAction,
    BattleFighter,
    BattleSession,
    Condition,
    Side,
)
from battles.rules import Plan, edition_rules
from battles.services.state import battle_state, locked, log_action, save_state
from rulebook import editions
from rulebook.dice import DiceNeeded, DiceSource, RandomDice, ScriptedDice, WrongFace
from rulebook.errors import RulesInputError
from rulebook.n18 import trading_post
from rulebook.query import Query


def _bind(params: dict, by_id: dict) -> dict:
    """Swap fighters given by the form (or by id) for the rows loaded in this transaction."""
    bound = dict(params)
    for name in ("fighter", "target"):
        value = bound.get(name)
        if value is not None:
            bound[name] = by_id[getattr(value, "pk", value)]
    if "opponents" in bound:
        bound["opponents"] = [by_id[getattr(o, "pk", o)] for o in bound["opponents"]]
    return bound


def action_plan(*, battle: BattleSession, kind: str, params: dict, fighters: list[BattleFighter] | None = None) -> Plan:
    """The rulebook call an action makes, from the fighters as they stand (reads only)."""
    fighters = fighters if fighters is not None else list(battle.fighters.all())
    params = _bind(params, {f.pk: f for f in fighters})
    rules = edition_rules(battle.edition)
    if kind not in rules.KINDS:
        raise ValidationError(f"No {kind} action in this edition.")
    return rules.plan(kind, params, fighters, battle)


def action_odds(*, battle: BattleSession, plan: Plan) -> dict:
    """The exact odds of the planned action: the answer ``python -m rulebook odds`` gives for its query."""
    if not plan.rolls:
        return {}
    query = Query(copy.deepcopy(plan.query))
    try:
        answer = editions.action(battle.edition, plan.rule).odds(query)
        query.refuse_unknown()  # the command line would refuse it too, so the odds would not be its answer
        return answer
    except RulesInputError as exc:
        raise ValidationError(f"The rulebook cannot answer this: {exc}") from None


def charge_reach_odds(
    *, battle: BattleSession, fighter: BattleFighter, distance: int, plan: Plan | None = None
) -> dict:
    """2018+: how often a Charge, the fighter's Movement plus D3", covers ``distance`` inches to the enemy: the
    answer ``python -m rulebook odds n18 charge`` gives for the same query. The fight's odds assume it arrives.
    With the fight's ``plan``, the weapons it uses set how close the charge must come (a Versatile weapon's reach)."""
    query = Query({"M": fighter.stats.get("M", 0), "distance": distance, "reach": _reach(plan)})
    try:
        answer = editions.action(battle.edition, "charge").odds(query)
        query.refuse_unknown()
        return answer
    except RulesInputError as exc:
        raise ValidationError(f"The rulebook cannot answer this: {exc}") from None


def _reach(plan: Plan | None) -> int:
    """How far the fight's weapons reach (the shortest of them; 0 unarmed or in base contact)."""
    if plan is None or "weapon" not in plan.query:
        return 0
    reaches = []
    for field, profile in (("weapon", "profile"), ("second_weapon", "second_profile")):
        if field in plan.query:
            query = Query({"weapon": plan.query[field], "profile": plan.query.get(profile)})
            try:
                reaches.append(trading_post.reach(trading_post.read_profile(query)))
            except RulesInputError:
                return 0
    return min(reaches)


def action_next_die(*, battle: BattleSession, plan: Plan, dice: list) -> DiceNeeded | None:
    """Which die the rules read next after the dice entered so far (None once they are enough); reads only.

    The roll is worked out on the entered dice and stops where they run out, so the table is asked for one die
    at a time, in the rules' own order, each named with what it is for. A die that cannot be right (a face its
    die does not have, or more dice than the action reads) is a ``ValidationError`` naming it.
    """
    if not plan.rolls:
        return None
    source = ScriptedDice(dice)
    try:
        editions.action(battle.edition, plan.rule).roll(Query(copy.deepcopy(plan.query)), source)
    except DiceNeeded as needed:
        return needed
    except WrongFace as wrong:
        raise ValidationError(str(wrong), code="wrong_die", params={"index": wrong.index}) from None
    except RulesInputError as exc:
        raise ValidationError(str(exc)) from None
    if source.remaining:
        used = len(dice) - source.remaining
        raise ValidationError(
            f"Only {used} of the {len(dice)} dice entered are needed: die {used + 1} is one too many.",
            code="wrong_die", params={"index": used},
        )  # fmt: skip
    return None


def _dice_source(dice: list | DiceSource | None) -> DiceSource:
    if isinstance(dice, DiceSource):
        return dice
    return ScriptedDice(dice) if dice else RandomDice()


@transaction.atomic
def action_resolve(
    *, battle: BattleSession, kind: str, params: dict, actor, dice: list | DiceSource | None = None
) -> BattleAction:
    """Resolve one action: odds, the roll (on the server, or the dice entered from the table), the effects.

    ``dice``: the faces entered from the table, in order; or a dice source (seeded, for the demo); or None
    to roll on the server.
    """
    battle, fighters = locked(battle)
    before = battle_state(battle, fighters)
    plan = action_plan(battle=battle, kind=kind, params=params, fighters=fighters)
    odds = action_odds(battle=battle, plan=plan)
    source = _dice_source(dice)
    result = {}
    if plan.rolls:
        try:
            result = editions.action(battle.edition, plan.rule).roll(Query(copy.deepcopy(plan.query)), source)
        except RulesInputError as exc:
            raise ValidationError(str(exc)) from None
        if isinstance(source, ScriptedDice) and source.remaining:
            used = len(dice) - source.remaining
            raise ValidationError(f"Only {used} of the {len(dice)} dice entered were needed; check them.")
    rules = edition_rules(battle.edition)
    changes = rules.apply(plan, result, battle)
    save_state(battle, fighters, before)
    return log_action(
        battle,
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
        casualties=[f.pk for f in rules.casualties(plan)],
    )


ADJUSTABLE = {
    "classic": ("condition", "broken", "hidden", "overwatch", "engaged"),
    "n18": ("condition", "broken", "prone", "ready", "engaged"),
}
ADJUSTABLE_CONDITIONS = {"classic": (Condition.STANDING, Condition.PINNED), "n18": (Condition.ACTIVE, Condition.PINNED)}


@transaction.atomic
def fighter_adjust(*, battle: BattleSession, fighter: BattleFighter, field: str, value, actor) -> BattleAction:
    """Set one state at the table's word (hidden, on overwatch, Prone, activated...), logged and undoable."""
    battle, fighters = locked(battle)
    if field not in ADJUSTABLE[battle.edition]:
        raise ValidationError(f"{field} cannot be set by hand in this edition.")
    if field == "condition" and value not in ADJUSTABLE_CONDITIONS[battle.edition]:
        raise ValidationError("Only Pinned or back on their feet can be set by hand; the dice decide the rest.")
    if value not in (*CONDITIONS[battle.edition], True, False):
        raise ValidationError("Not a value this state can take.")
    row = next((f for f in fighters if f.pk == fighter.pk), None)
    if row is None or row.out_of_action:
        raise ValidationError("That fighter is not in play.")
    before = battle_state(battle, fighters)
    setattr(row, field, value)
    words = f"{row.name} is {_word(field, value)}"
    save_state(battle, fighters, before)
    return log_action(battle, before, actor, kind="adjust", fighter=row, summary=words, changes=[words])


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
def battle_advance(*, battle: BattleSession, actor, leave_untaken: bool = False) -> BattleAction:
    """Move on to the next phase (and the next turn or round), as the edition says.

    What the rules still require in this phase (the End phase's Recovery, Bottle and Rally tests, a classic
    recovery roll...) stops it, naming each, unless the players choose to move on without it (``leave_untaken``:
    they may have rolled at the table, or agreed to skip it); the log then says what was left. A test that
    applies only where the table says so (a Nerve test within 3") never stops it."""
    from battles.selectors import battle_prompts  # the prompts read the phase's actions, as the page does

    battle, fighters = locked(battle)
    untaken = [prompt.text for prompt in battle_prompts(battle, fighters) if not prompt.conditional]
    if untaken and not leave_untaken:
        raise ValidationError(
            f"The {battle.get_phase_display()} phase still requires: {'; '.join(untaken)}. Take them, or move on "
            "leaving them untaken."
        )
    before = battle_state(battle, fighters)
    changes = edition_rules(battle.edition).advance(battle, fighters)
    if untaken:
        changes.append(f"Left untaken: {'; '.join(untaken)}")
    save_state(battle, fighters, before)
    return log_action(battle, before, actor, kind="phase", summary=changes[0], changes=changes)


@transaction.atomic
def battle_priority_set(*, battle: BattleSession, side: str, actor) -> BattleAction:
    """2018+: the gang that won the Priority roll-off (classic: whose turn it is)."""
    battle, fighters = locked(battle)
    if side not in Side.values:
        raise ValidationError("Priority goes to one of the two gangs.")
    before = battle_state(battle, fighters)
    battle.turn_side = side
    words = f"{battle.gang(side).name} has Priority" if battle.edition == "n18" else f"{battle.gang(side).name}'s turn"
    save_state(battle, fighters, before)
    return log_action(battle, before, actor, kind="adjust", summary=words, changes=[words])


@transaction.atomic
def gang_flee(*, battle: BattleSession, side: str, actor) -> BattleAction:
    """A gang bottles out of its own accord and flees the battlefield (the campaign guide: its opponent wins)."""
    battle, fighters = locked(battle)
    if side not in Side.values:
        raise ValidationError("One of the two gangs flees.")
    if side in battle.facts.get("fled", []):
        raise ValidationError(f"{battle.gang(side).name} has fled already.")
    before = battle_state(battle, fighters)
    setattr(battle, f"bottled_{side}", True)
    battle.facts = {**battle.facts, "fled": [*battle.facts.get("fled", []), side]}
    words = f"{battle.gang(side).name} bottles out and flees the battlefield"
    save_state(battle, fighters, before)
    return log_action(battle, before, actor, kind="adjust", side=side, summary=words, changes=[words])


@transaction.atomic
def action_undo(*, battle: BattleSession, actor) -> BattleAction:
    """Undo the last action still standing: every fighter and the battle go back to the state before it."""
    battle, fighters = locked(battle)
    last = battle.actions.filter(undone=False).order_by("-number").first()
    if last is None:
        raise ValidationError("Nothing to undo.")
    state = last.state_before
    for name, value in state["battle"].items():
        setattr(battle, name, value)
    arrived = [f.pk for f in fighters if str(f.pk) not in state["fighters"]]
    if arrived:  # Reinforcements brought in by the action go back out
        BattleFighter.objects.filter(pk__in=arrived).delete()
        fighters = [f for f in fighters if f.pk not in arrived]
    for f in fighters:
        for name, value in state["fighters"].get(str(f.pk), {}).items():
            setattr(f, name, value)
    BattleFighter.objects.bulk_update(fighters, list(STATE_FIELDS[battle.edition]))
    battle.version += 1
    battle.save(update_fields=[*SIDE_STATE, "version", "updated_at"])
    last.undone = True
    last.save(update_fields=["undone"])
    return last
