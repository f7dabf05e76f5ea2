"""Every write of the battle assistant: start a battle, resolve an action, adjust a fighter, move the turn on,
undo, and end the battle into a report.

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
from django.utils import timezone

from battles.models import (
    CONDITIONS,
    PHASES,
    SIDE_STATE,
    STATE_FIELDS,
    BattleAction,
    BattleFighter,
    BattleSession,
    BattleStatus,
    Condition,
    Role,
    Side,
)
from battles.roster import fighter_prefetch, snapshot
from battles.rules import Plan, edition_rules
from gangs.models import AVAILABLE_FOR_BATTLE, Fighter, Gang
from rulebook import editions
from rulebook.dice import DiceSource, RandomDice, ScriptedDice
from rulebook.errors import RulesInputError
from rulebook.query import Query

# --- starting a battle ------------------------------------------------------------------------


def _available(gang: Gang) -> list[Fighter]:
    return list(
        gang.fighters.filter(status__in=AVAILABLE_FOR_BATTLE)
        .select_related("fighter_type", "gang")
        .prefetch_related(*fighter_prefetch())
    )


def _scenario_crew(scenario_slug: str, role: str, edition: str):
    """The campaign guide's crew rule for this side, or None for a free choice."""
    if edition != "n18" or not scenario_slug:
        return None
    from rulebook.n18.campaign.scenarios import SCENARIOS

    scenario = SCENARIOS.get(scenario_slug)
    if scenario is None or not scenario.crews:
        return None
    return scenario.crew(role or "attacker")


def crew_pick(*, gang: Gang, chosen: list[int], scenario: str, role: str, dice: DiceSource) -> dict:
    """Pick a side's crew: the player's choice, or the scenario's crew rule with random picks rolled.

    With a crew rule the number the player may choose is rolled first; the player's picks are kept in the
    order given up to that number, then the random picks are rolled among the rest (every die recorded).
    """
    fighters = _available(gang)
    by_id = {f.pk: f for f in fighters}
    unknown = [pk for pk in chosen if pk not in by_id]
    if unknown:
        raise ValidationError(f"Not an available fighter of {gang.name}: {unknown}")
    rule = _scenario_crew(scenario, role, gang.edition)
    if rule is None:
        picked = chosen or list(by_id)
        return {"method": "custom", "label": "Chosen by the player", "fighters": picked, "dice": []}
    from rulebook.n18.campaign.scenarios import roll_crew_size, select_crew
    from rulebook.roster import FighterSnapshot

    mark = len(dice.rolls)
    size = roll_crew_size(rule, dice)
    if not chosen and rule.method == "custom":
        chosen = list(by_id)  # nobody ticked: the roster's first fighters, as many as the rule allows
    snapshots = [FighterSnapshot(characteristics={}, id=str(f.pk)) for f in fighters]
    picked = select_crew(rule, snapshots, dice, chosen=[str(pk) for pk in chosen[: size[0]]], size=size)
    return {
        "method": rule.method,
        "label": rule.label,
        "may_choose": picked["may_choose"],
        "random_count": picked["random_count"],
        "chosen": [int(pk) for pk in picked["chosen"]],
        "random": [int(pk) for pk in picked["random"]],
        "fighters": [int(pk) for pk in picked["fighters"]],
        "dice": [r.as_json() for r in dice.rolls[mark:]],
    }


@transaction.atomic
def battle_start(
    *,
    gang_a: Gang,
    gang_b: Gang,
    started_by,
    chosen_a: list[int] | None = None,
    chosen_b: list[int] | None = None,
    scenario: str = "",
    scenario_name: str = "",
    role_a: str = "",
    campaign_battle=None,
    crews: dict | None = None,
    dice: DiceSource | None = None,
) -> BattleSession:
    """Start a battle between two saved gangs of one edition, with each side's crew.

    ``crews`` (``{"a": {"fighters": [ids], ...}, "b": ...}``) are crews picked already, by a campaign
    battle; otherwise each side's crew is picked here (:func:`crew_pick`).
    """
    if gang_a.pk == gang_b.pk:
        raise ValidationError("Pick two different gangs.")
    if gang_a.edition != gang_b.edition:
        raise ValidationError("Both gangs must play the same edition.")
    dice = dice or RandomDice()
    role_b = {Role.ATTACKER: Role.DEFENDER, Role.DEFENDER: Role.ATTACKER}.get(role_a, "")
    crews = crews or {
        Side.A: crew_pick(gang=gang_a, chosen=chosen_a or [], scenario=scenario, role=role_a, dice=dice),
        Side.B: crew_pick(gang=gang_b, chosen=chosen_b or [], scenario=scenario, role=role_b, dice=dice),
    }
    for side, gang in ((Side.A, gang_a), (Side.B, gang_b)):
        if not crews[side]["fighters"]:
            raise ValidationError(f"{gang.name} has no fighter available for battle.")
    battle = BattleSession.objects.create(
        edition=gang_a.edition,
        campaign_battle=campaign_battle,
        scenario=scenario,
        scenario_name=scenario_name,
        gang_a=gang_a,
        gang_b=gang_b,
        player_a=gang_a.owner,
        player_b=gang_b.owner,
        role_a=role_a,
        role_b=role_b,
        starting_crew_a=len(crews[Side.A]["fighters"]),
        starting_crew_b=len(crews[Side.B]["fighters"]),
        crews=crews,
        phase=PHASES[gang_a.edition][0],
        created_by=started_by,
    )
    rules = edition_rules(battle.edition)
    rows = []
    for side, gang in ((Side.A, gang_a), (Side.B, gang_b)):
        by_id = {f.pk: f for f in _available(gang)}
        missing = [pk for pk in crews[side]["fighters"] if pk not in by_id]
        if missing:
            raise ValidationError(f"{gang.name}: fighters {missing} are not available for battle.")
        for order, pk in enumerate(crews[side]["fighters"]):
            profile = snapshot(by_id[pk])
            rows.append(
                BattleFighter(
                    battle=battle,
                    side=side,
                    fighter=by_id[pk],
                    name=by_id[pk].name,
                    order=order,
                    profile=profile,
                    **rules.fresh_state(profile),
                )
            )
    BattleFighter.objects.bulk_create(rows)
    return battle


def battle_start_from_campaign(*, campaign_battle, started_by, dice: DiceSource | None = None) -> BattleSession:
    """Start the battle a campaign paired: attacker as the first gang, its scenario and the crews it picked."""
    if not campaign_battle.scenario:
        raise ValidationError("Roll the scenario for this campaign battle first.")
    picked = campaign_battle.crews or {}
    roles = (Role.ATTACKER, Role.DEFENDER)
    crews = None
    if all(picked.get(role, {}).get("fighters") for role in roles):
        crews = {
            side: {**picked[role], "fighters": [int(pk) for pk in picked[role]["fighters"]]}
            for side, role in zip((Side.A, Side.B), roles, strict=True)
        }
    return battle_start(
        gang_a=campaign_battle.attacker,
        gang_b=campaign_battle.defender,
        started_by=started_by,
        scenario=campaign_battle.scenario,
        scenario_name=campaign_battle.scenario_name,
        role_a=Role.ATTACKER if campaign_battle.has_roles else "",
        campaign_battle=campaign_battle,
        crews=crews,
        dice=dice,
    )


# --- the state, for undo -------------------------------------------------------------------------


def battle_state(battle: BattleSession, fighters: list[BattleFighter]) -> dict:
    """The whole battle's state as JSON: what undo puts back."""
    fields = STATE_FIELDS[battle.edition]
    return {
        "battle": {name: copy.deepcopy(getattr(battle, name)) for name in SIDE_STATE},
        "fighters": {str(f.pk): {name: copy.deepcopy(getattr(f, name)) for name in fields} for f in fighters},
    }


def _save(battle: BattleSession, fighters: list[BattleFighter], before: dict) -> None:
    fields = list(STATE_FIELDS[battle.edition])
    now = battle_state(battle, fighters)["fighters"]
    changed = [f for f in fighters if now[str(f.pk)] != before["fighters"].get(str(f.pk))]
    if changed:
        BattleFighter.objects.bulk_update(changed, fields)
    battle.version += 1
    battle.save(update_fields=[*SIDE_STATE, "version", "updated_at"])


def _locked(battle: BattleSession) -> tuple[BattleSession, list[BattleFighter]]:
    battle = BattleSession.objects.select_for_update().select_related("gang_a", "gang_b").get(pk=battle.pk)
    if battle.is_over:
        raise ValidationError("This battle has ended.")
    return battle, list(battle.fighters.all())


def _log(battle: BattleSession, before: dict, actor, **fields) -> BattleAction:
    number = (battle.actions.aggregate(n=Max("number"))["n"] or 0) + 1
    state = before["battle"]
    return BattleAction.objects.create(
        battle=battle,
        number=number,
        actor=actor,
        round=state["round"],
        turn_side=state["turn_side"],
        phase=state["phase"],
        state_before=before,
        **fields,
    )


# --- actions ----------------------------------------------------------------------------------------


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
    try:
        return editions.action(battle.edition, plan.rule).odds(Query(copy.deepcopy(plan.query)))
    except RulesInputError as exc:
        raise ValidationError(f"The rulebook cannot answer this: {exc}") from None


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
    battle, fighters = _locked(battle)
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
    _save(battle, fighters, before)
    return _log(
        battle,
        before,
        actor,
        kind=plan.kind,
        rule=plan.rule,
        fighter=plan.fighter,
        target=plan.target,
        summary=plan.summary[:300],
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
    battle, fighters = _locked(battle)
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
    _save(battle, fighters, before)
    return _log(battle, before, actor, kind="adjust", fighter=row, summary=words, changes=[words])


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
def battle_advance(*, battle: BattleSession, actor) -> BattleAction:
    """Move on to the next phase (and the next turn or round), as the edition says."""
    battle, fighters = _locked(battle)
    before = battle_state(battle, fighters)
    changes = edition_rules(battle.edition).advance(battle, fighters)
    _save(battle, fighters, before)
    return _log(battle, before, actor, kind="phase", summary=changes[0], changes=changes)


@transaction.atomic
def battle_priority_set(*, battle: BattleSession, side: str, actor) -> BattleAction:
    """2018+: the gang that won the Priority roll-off (classic: whose turn it is)."""
    battle, fighters = _locked(battle)
    if side not in Side.values:
        raise ValidationError("Priority goes to one of the two gangs.")
    before = battle_state(battle, fighters)
    battle.turn_side = side
    words = f"{battle.gang(side).name} has Priority" if battle.edition == "n18" else f"{battle.gang(side).name}'s turn"
    _save(battle, fighters, before)
    return _log(battle, before, actor, kind="adjust", summary=words, changes=[words])


@transaction.atomic
def action_undo(*, battle: BattleSession, actor) -> BattleAction:
    """Undo the last action still standing: every fighter and the battle go back to the state before it."""
    battle, fighters = _locked(battle)
    last = battle.actions.filter(undone=False).order_by("-number").first()
    if last is None:
        raise ValidationError("Nothing to undo.")
    state = last.state_before
    for name, value in state["battle"].items():
        setattr(battle, name, value)
    for f in fighters:
        for name, value in state["fighters"].get(str(f.pk), {}).items():
            setattr(f, name, value)
    BattleFighter.objects.bulk_update(fighters, list(STATE_FIELDS[battle.edition]))
    battle.version += 1
    battle.save(update_fields=[*SIDE_STATE, "version", "updated_at"])
    last.undone = True
    last.save(update_fields=["undone"])
    return last


# --- the end: the battle report -------------------------------------------------------------------

END_OUTCOMES = {
    Condition.OUT_OF_ACTION: "out_of_action",
    Condition.SERIOUSLY_INJURED: "seriously_injured",
    Condition.DOWN: "down",
}


def battle_report(battle: BattleSession, fighters: list[BattleFighter], actions: list[BattleAction]) -> dict:
    """What the campaign's post-battle sequence needs: each fighter's end, by whom, bottle-outs, facts."""
    by_pk = {f.pk: f for f in fighters}
    awards: dict[int, dict] = {f.pk: {} for f in fighters}

    def award(fighter_pk, name):
        if fighter_pk in awards:
            awards[fighter_pk][name] = awards[fighter_pk].get(name, 0) + 1

    for f in fighters:
        if f.out_of_action and f.taken_out_by_id:
            award(f.taken_out_by_id, "out_of_action")
            if f.profile.get("category") in ("leader", "champion"):
                award(f.taken_out_by_id, "leader_or_champion_out_of_action")
    for action in actions:
        if action.undone or action.fighter_id is None:
            continue
        if action.rule == "test" and action.query.get("kind") == "rally" and action.result.get("passed"):
            award(action.fighter_id, "rallies")
    for record in battle.facts.get("relics_defiled", {}).values():
        award(record["fighter"], "relic_defiled")
    for name in ("caches_destroyed", "caches_recovered"):
        for record in battle.facts.get(name, []):
            award(record["fighter"], name)

    def end(f: BattleFighter) -> dict:
        by = by_pk.get(f.taken_out_by_id or f.seriously_injured_by_id)
        return {
            "fighter": f.fighter_id,
            "name": f.name,
            "side": f.side,
            "outcome": END_OUTCOMES.get(f.condition, "ok"),
            "by": by.fighter_id if by else None,
            "by_name": by.name if by else "",
            "flesh_wounds": f.flesh_wounds,
            "awards": awards[f.pk],
        }

    return {
        "edition": battle.edition,
        "scenario": battle.scenario,
        "rounds": battle.round,
        "sides": {
            side: {
                "gang": battle.gang(side).pk,
                "name": battle.gang(side).name,
                "role": battle.role(side),
                "bottled_out": battle.bottled(side),
                "starting_crew": battle.starting_crew(side),
            }
            for side in (Side.A, Side.B)
        },
        "fighters": [end(f) for f in fighters],
        "facts": battle.facts,
        "actions": sum(not a.undone for a in actions),
    }


@transaction.atomic
def battle_end(*, battle: BattleSession, actor, winner: str = "", notes: str = "") -> BattleSession:
    """End the battle: write the report (and hand it to the campaign's post-battle sequence, if any)."""
    battle, fighters = _locked(battle)
    if winner not in ("", Side.A, Side.B):
        raise ValidationError("The winner is one of the two gangs, or nobody (a draw).")
    report = battle_report(battle, fighters, list(battle.actions.all()))
    report.update(winner=winner or None, draw=not winner, notes=notes)
    before = battle_state(battle, fighters)
    battle.report = report
    battle.status = BattleStatus.ENDED
    battle.ended_at = timezone.now()
    battle.version += 1
    battle.save(update_fields=["report", "status", "ended_at", "version", "updated_at"])
    changes = ["Battle report written"]
    if battle.campaign_battle_id:
        _campaign_report_submit(battle, report, actor)
        changes.append("Report sent to the campaign for confirmation")
    _log(battle, before, actor, kind="end", summary="The battle ends", changes=changes)
    return battle


# The campaign's post-battle sequence reads "seriously_injured" as the classic fighter down at the end.
CAMPAIGN_OUTCOMES = {"ok": "ok", "down": "seriously_injured", "seriously_injured": "seriously_injured",
                     "out_of_action": "out_of_action"}  # fmt: skip


def campaign_facts(battle: BattleSession) -> dict:
    """The scenario facts in the campaign's words (roles rather than sides)."""
    role = {Side.A: battle.role_a or "attacker", Side.B: battle.role_b or "defender"}
    facts = battle.facts
    out = {"caskets_opened": len(facts.get("caskets", [])), "caskets": facts.get("caskets", [])}
    for name in ("caches_destroyed", "caches_recovered"):
        if facts.get(name):
            out[name] = len(facts[name])
    if battle.scenario == "border-dispute" or facts.get("relics_defiled"):
        defiled = facts.get("relics_defiled", {})
        out["relic_defiled"] = {role[side]: side in defiled for side in (Side.A, Side.B)}
    return out


def _campaign_report_submit(battle: BattleSession, report: dict, actor) -> None:
    from campaigns.services import battle_report_submit

    campaign_battle = battle.campaign_battle
    winner = {Side.A: battle.gang_a, Side.B: battle.gang_b}.get(report["winner"] or "")
    results = [
        {
            "fighter": f["fighter"],
            "outcome": CAMPAIGN_OUTCOMES[f["outcome"]],
            "caused_by": f["by"] if f["outcome"] != "ok" else None,
            "awards": f["awards"],
        }
        for f in report["fighters"]
        if f["fighter"] is not None
    ]
    bottled = {
        battle.role(side) or default: battle.bottled(side) for side, default in (("a", "attacker"), ("b", "defender"))
    }
    battle_report_submit(
        battle=campaign_battle,
        actor=actor,
        winner=winner,
        is_draw=winner is None,
        attacker_bottled=bottled.get("attacker", False),
        defender_bottled=bottled.get("defender", False),
        fighter_results=results,
        scenario_facts=campaign_facts(battle),
        notes=report.get("notes", ""),
    )
