"""The steps of each edition's post-battle sequence, computed over fighter snapshots (no writes).

A step takes the battle's facts (:class:`Context`, read by :mod:`postbattle.selectors`), the
fighters as they stand after the earlier steps (``{id: FighterSnapshot}``), a dice source (the
server's or the table's, :class:`rulebook.dice.ScriptedDice`) and the player's choices; it calls the
rulebook and returns what it decided as data (:class:`StepOutcome`): readable account lines,
effects for :mod:`postbattle.apply` to write at the end, and the fighters after it. The rules are
the rulebook's; this module only picks who rolls what, in the order the sequence gives.

- 2018+ (the club campaign guide's Post-Battle Sequence, ``rulebook.n18.campaign``): Prone and
  Seriously Injured test, Lasting Injuries, scenario rewards and the standard experience, income
  and the Home Settlement, post-battle actions (Medical Escort and the others), update roster.
- Classic (``rulebook.classic.campaign``, public references cited there): Serious Injuries (and the
  D6 for fighters still down at the end), experience, advance rolls, territory income, update roster.

Our reading where the report is silent: a fighter taken down by a named enemy fighter was taken down
by an Attack action (Memorable Death's extra XP for the attacker).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace

from rulebook.classic.campaign import experience as classic_xp
from rulebook.classic.campaign.serious_injury import DOWN_AT_END, SERIOUS_INJURY_RULES
from rulebook.classic.campaign.territories import work_territory
from rulebook.dice import DiceSource
from rulebook.errors import RulesInputError
from rulebook.n18.campaign import battle_rewards
from rulebook.n18.campaign.lasting_injury import CAPTURED, CRITICAL_INJURY, DEAD, LASTING_INJURY_RULES
from rulebook.n18.campaign.post_battle import (
    GUIDE,
    HOME_SETTLEMENT,
    MEDICAL_ESCORT,
    POST_BATTLE_INJURY,
    apply_medical_escort,
    post_battle_action_eligibility,
    post_battle_injury_test,
    roll_home_settlement,
    untreated_critical_injury,
)
from rulebook.n18.campaign.scenarios import Reward, roll_reward
from rulebook.roster import Change, FighterSnapshot, InjuryOutcome, roll_amount

OUT_OF_ACTION = "out_of_action"
SERIOUSLY_INJURED = "seriously_injured"
CHARACTERISTICS = ("M", "WS", "BS", "S", "T", "W", "I", "A", "Ld", "Cl", "Wil", "Int")


@dataclass(frozen=True)
class FighterInfo:
    id: str
    name: str
    category: str = "ganger"
    hierarchy: bool = False
    value: int = 0
    skill_tables: tuple[str, ...] = ()
    xp: int = 0  # experience before the sequence (classic advance thresholds count from here)


@dataclass(frozen=True)
class ResultInfo:
    """One of the gang's fighters in the battle report."""

    outcome: str
    caused_by: str | None = None
    caused_by_name: str = ""
    caused_by_gang: int | None = None
    captured: bool = False
    awards: Mapping[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class TerritoryInfo:
    name: str
    income: str
    is_home_settlement: bool = False
    slug: str = ""


@dataclass(frozen=True)
class Context:
    edition: str
    scenario: str
    scenario_name: str
    gang_id: int
    gang_name: str
    opponent_id: int
    opponent_name: str
    result: battle_rewards.GangResult
    fighters: Mapping[str, FighterInfo]
    results: Mapping[str, ResultInfo]
    territories: tuple[TerritoryInfo, ...] = ()
    captives: Mapping[str, FighterInfo] = field(default_factory=dict)
    leader: str | None = None
    underdog_by: int = 0

    def name(self, fighter_id: str) -> str:
        info = self.fighters.get(fighter_id) or self.captives.get(fighter_id)
        return info.name if info else f"fighter {fighter_id}"


@dataclass
class StepOutcome:
    lines: list[dict] = field(default_factory=list)
    effects: list[dict] = field(default_factory=list)
    fighters: dict[str, FighterSnapshot] = field(default_factory=dict)

    def line(self, rule: str, text: str, dice=(), fighter: str = "") -> None:
        self.lines.append({"rule": rule, "fighter": fighter, "text": text, "dice": list(dice)})

    def effect(self, op: str, **values) -> None:
        self.effects.append({"op": op, **values})


@dataclass(frozen=True)
class Field:
    """A choice the player makes in a step (rendered as a form field)."""

    name: str
    label: str
    kind: str  # "select", "checkbox", "text", "number"
    options: tuple[tuple[str, str], ...] = ()
    initial: object = None


@dataclass(frozen=True)
class Step:
    slug: str
    title: str
    rule: str
    source: str
    dice: Callable[[Context, dict], str]
    run: Callable[[Context, dict, DiceSource, dict], StepOutcome]
    fields: Callable[[Context, dict], list[Field]] = lambda ctx, fighters: []


def _since(dice: DiceSource, mark: int) -> list[dict]:
    return [r.as_json() for r in dice.rolls[mark:]]


def _taken_down(ctx: Context, outcome: str) -> list[str]:
    return [fid for fid, r in ctx.results.items() if r.outcome == outcome and fid in ctx.fighters]


# --- injuries as effects -------------------------------------------------------------------------------

_ROLL = re.compile(r"\((\d+)\)")


def injury_effects(ctx: Context, out: StepOutcome, fighter_id: str, injury: InjuryOutcome, rule: str) -> None:
    """Turn an injury table's changes into account lines and effects: each result with its dice, an
    injury record (characteristics, skills, notes) when it leaves a mark, experience, status, and the
    attacker's experience."""
    name = ctx.name(fighter_id)
    group: dict | None = None
    statuses: list[Change] = []

    def close() -> None:
        if group and (group["deltas"] or group["code"] or group["skills"]):
            out.effect("injury", fighter=fighter_id, **group)

    for change in injury.changes:
        if change.what == "result":
            close()
            found = _ROLL.search(change.why)
            group = {"code": None, "name": change.after, "roll": int(found.group(1)) if found else None,
                     "deltas": {}, "skills": [], "notes": [], "reason": f"{rule}: {change.why}", "dice": list(change.dice)}  # fmt: skip
            out.line(rule, f"{change.why}", change.dice, name)
        elif change.what in CHARACTERISTICS:
            group["deltas"][change.what] = group["deltas"].get(change.what, 0) + change.after - change.before
            out.line(rule, f"{change.what} {change.before} → {change.after}", (), name)
        elif change.what == "injuries":
            group["code"] = change.after[-1]
        elif change.what == "skills":
            gained = [s for s in change.after if s not in change.before]
            group["skills"] += gained
            out.line(rule, f"gains {', '.join(gained)}", (), name)
        elif change.what == "xp":
            amount = change.after - change.before
            out.effect("xp", fighter=fighter_id, amount=amount, reason=change.why, dice=list(change.dice))
            out.line(rule, f"+{amount} XP ({change.why})", change.dice, name)
        elif change.what == "status":
            statuses.append(change)
            _status_line(ctx, out, fighter_id, change, rule)
        elif change.what == "attacker_xp":
            _attacker_xp(ctx, out, fighter_id, change, rule)
        else:
            text = f"{change.what.replace('_', ' ')}: {change.after}" if change.what != "note" else str(change.after)
            if group is not None:
                group["notes"].append(text)
            out.line(rule, text, change.dice, name)
    close()
    final = injury.fighter.status
    # One status effect with the final status: the Doc's result settles a Critical Injury before the
    # Lasting Injury it rolls, so the changes are not in the order they land.
    if statuses and final != statuses[0].before and final != CRITICAL_INJURY:
        reason = "; ".join(dict.fromkeys(c.why for c in statuses))
        out.effect("status", fighter=fighter_id, status=final, captured_by=ctx.opponent_id if final == CAPTURED else None,
                   reason=f"{rule}: {reason}", dice=[d for c in statuses for d in c.dice])  # fmt: skip


def _status_line(ctx: Context, out: StepOutcome, fighter_id: str, change: Change, rule: str) -> None:
    held = f" (held by {ctx.opponent_name})" if change.after == CAPTURED else ""
    text = f"{change.before.replace('_', ' ')} → {change.after.replace('_', ' ')}{held}"
    out.line(rule, text, change.dice, ctx.name(fighter_id))


def _attacker_xp(ctx: Context, out: StepOutcome, fighter_id: str, change: Change, rule: str) -> None:
    result = ctx.results.get(fighter_id)
    if result is None or result.caused_by is None:
        return
    out.effect("xp", fighter=result.caused_by, gang=result.caused_by_gang, amount=change.after,
               reason=f"{rule}: {change.why}", dice=[])  # fmt: skip
    out.line(rule, f"{result.caused_by_name} ({ctx.opponent_name}) gains {change.after} XP: {change.why}", (),
             ctx.name(fighter_id))  # fmt: skip


def _injure(ctx, out, fighters, fighter_id, rule, roll: Callable[[FighterSnapshot], InjuryOutcome]) -> None:
    injury = roll(fighters[fighter_id])
    injury_effects(ctx, out, fighter_id, injury, rule)
    fighters[fighter_id] = injury.fighter


def _by_attack(ctx: Context, fighter_id: str) -> bool:
    return ctx.results[fighter_id].caused_by is not None


# --- 2018+ steps -------------------------------------------------------------------------------------------


def _n18_injury_tests(ctx: Context, fighters: dict, dice: DiceSource, choices: dict) -> StepOutcome:
    out = StepOutcome(fighters=dict(fighters))
    rule = "Prone & Seriously Injured"
    for fid in _taken_down(ctx, SERIOUSLY_INJURED):
        mark = len(dice.rolls)
        test, injury = post_battle_injury_test(out.fighters[fid], dice, caused_by_attack_action=_by_attack(ctx, fid))
        out.line(rule, f"injury test {test['roll']}: {test['result']}", _since(dice, mark)[:1], ctx.name(fid))
        injury_effects(ctx, out, fid, injury, "Lasting Injury")
        out.fighters[fid] = injury.fighter
    if not out.lines:
        out.line(rule, "No fighter ended the battle Prone or Seriously Injured.")
    return out


def _n18_lasting_injuries(ctx: Context, fighters: dict, dice: DiceSource, choices: dict) -> StepOutcome:
    out = StepOutcome(fighters=dict(fighters))
    for fid in _taken_down(ctx, OUT_OF_ACTION):
        by_attack = _by_attack(ctx, fid)
        _injure(ctx, out, out.fighters, fid, "Lasting Injury",
                lambda f, by_attack=by_attack: LASTING_INJURY_RULES.roll(f, dice, caused_by_attack_action=by_attack))  # fmt: skip
    if not out.lines:
        out.line("Lasting Injury", "No fighter went Out of Action.")
    return out


def _reward_text(reward: Reward, rolled: dict) -> str:
    per = f" x{rolled['times']} ({reward.per})" if reward.per else ""
    cond = f" if {reward.condition}" if reward.condition else ""
    return f"{reward.kind} for {reward.recipient}{cond}: {reward.amount}{per} = {rolled['total']:+d}"


def _n18_rewards(ctx: Context, fighters: dict, dice: DiceSource, choices: dict) -> StepOutcome:
    out = StepOutcome(fighters=dict(fighters))
    awards = {fid: r.awards for fid, r in ctx.results.items() if fid in ctx.fighters}
    for due in battle_rewards.rewards_due(ctx.scenario, ctx.result, awards, leader=ctx.leader):
        rolled = roll_reward(due.reward, dice, times=due.times)
        text, rule = _reward_text(due.reward, rolled), f"{ctx.scenario_name} rewards"
        out.line(rule, text, rolled["dice"], ctx.name(due.fighter) if due.fighter else "")
        if not rolled["total"]:
            continue
        if due.reward.kind == "experience":
            out.effect("xp", fighter=due.fighter, amount=rolled["total"], reason=f"{text} ({due.source})",
                       dice=rolled["dice"])  # fmt: skip
            snap = out.fighters.get(due.fighter)
            if snap is not None:
                out.fighters[due.fighter] = replace(snap, xp=snap.xp + rolled["total"])
        else:
            out.effect(due.reward.kind, amount=rolled["total"], reason=f"{text} ({due.source})", dice=rolled["dice"])
    if not out.lines:
        out.line(f"{ctx.scenario_name} rewards", "Nothing is owed to this gang.")
    return out


def _territory_income(territory: TerritoryInfo, dice: DiceSource) -> int | None:
    try:
        return roll_amount(territory.income, dice, f"{territory.name} income")
    except RulesInputError:
        return None  # an income the rules leave to the arbitrator (e.g. "2D6x10 to 6D6x10")


def _n18_income(ctx: Context, fighters: dict, dice: DiceSource, choices: dict) -> StepOutcome:
    out = StepOutcome(fighters=dict(fighters))
    for territory in ctx.territories:
        mark = len(dice.rolls)
        if territory.is_home_settlement:
            home = roll_home_settlement(dice, recruit=bool(choices.get("recruit")))
            credits = home["income"]
            out.line("Home Settlement", f"income {HOME_SETTLEMENT['income']} = {credits} credits; +1 Reputation "
                     "while held (counted since the gang joined the campaign)", _since(dice, mark)[:1])  # fmt: skip
            if home["recruit"]:
                recruit = home["recruit"]
                out.line("Home Settlement: Recruit", f"two D6 read {recruit['roll']}: {recruit['result']}",
                         _since(dice, mark)[1:])  # fmt: skip
                if recruit["recruit"]:
                    name = (choices.get("recruit_name") or "").strip() or f"New {recruit['recruit']}"
                    out.effect("recruit", category=recruit["recruit"].lower(), name=name,
                               reason=f"Home Settlement recruit ({recruit['roll']})", dice=_since(dice, mark)[1:])  # fmt: skip
        else:
            credits = _territory_income(territory, dice) if territory.income else 0
            text = (f"income {territory.income} = {credits} credits" if credits is not None
                    else f"income {territory.income}: the arbitrator decides it")  # fmt: skip
            out.line(f"Collect Income: {territory.name}", text if territory.income else "no income", _since(dice, mark))
        if credits:
            out.effect("credits", amount=credits, reason=f"Collect Income: {territory.name}",
                       dice=_since(dice, mark)[:1] if territory.is_home_settlement else _since(dice, mark))  # fmt: skip
    if not ctx.territories:
        out.line("Collect Income", "The gang holds no territory.")
    return out


def _n18_income_fields(ctx: Context, fighters: dict) -> list[Field]:
    if not any(t.is_home_settlement for t in ctx.territories):
        return []
    return [
        Field("recruit", "Roll two D6 for a free recruit (Home Settlement)", "checkbox", initial=True),
        Field("recruit_name", "Name for a recruit, if one comes", "text", initial=""),
    ]


def may_act(ctx: Context, fighters: dict) -> list[str]:
    """Fighters who may take a post-battle action (Gang Hierarchy, not in Recovery or Captured)."""
    return [
        fid
        for fid, info in ctx.fighters.items()
        if fid in fighters and post_battle_action_eligibility(fighters[fid], gang_hierarchy=info.hierarchy)["may_act"]
    ]


def _patients(fighters: dict) -> list[str]:
    return [fid for fid, snap in fighters.items() if snap.status == CRITICAL_INJURY]


def _n18_action_fields(ctx: Context, fighters: dict) -> list[Field]:
    """One action per fighter who may act; the first ones default to escorting each patient to the Doc."""
    actions = tuple((a, a) for a in battle_rewards.ACTION_EFFECTS)
    patients = _patients(fighters)
    targets = [("", "—")]
    targets += [(f"patient:{fid}", f"Doc for {ctx.name(fid)}") for fid in patients]
    targets += [(f"captive:{fid}", f"Captive {ctx.name(fid)}") for fid in ctx.captives]
    out = []
    for n, fid in enumerate(may_act(ctx, fighters)):
        name, escort = ctx.name(fid), n < len(patients)
        out += [
            Field(f"action_{fid}", f"{name}: action", "select", actions, "Medical Escort" if escort else "Trade"),
            Field(
                f"target_{fid}",
                f"{name}: for whom",
                "select",
                tuple(targets),
                f"patient:{patients[n]}" if escort else "",
            ),  # fmt: skip
            Field(f"credits_{fid}", f"{name}: bounty credits (Claim Bounties)", "number", initial=0),
        ]
    return out


def _n18_actions(ctx: Context, fighters: dict, dice: DiceSource, choices: dict) -> StepOutcome:
    out = StepOutcome(fighters=dict(fighters))
    treated, disposed = set(), set()
    for fid in may_act(ctx, fighters):
        action = choices.get(f"action_{fid}") or "Trade"
        kind, _, target = (choices.get(f"target_{fid}") or "").partition(":")
        name, rule = ctx.name(fid), f"Post-battle action: {action}"
        effect = battle_rewards.ACTION_EFFECTS.get(action)
        if effect is None:
            raise RulesInputError(f"action_{fid}", f"unknown post-battle action {action!r}")
        if effect["needs"] == "patient":
            if kind != "patient" or target not in _patients(out.fighters) or target in treated:
                raise RulesInputError(f"target_{fid}", f"{name}: choose a fighter with a Critical Injury to escort")
            treated.add(target)
            mark = len(dice.rolls)
            face = dice.d6(f"Medical Escort for {ctx.name(target)}")
            row = MEDICAL_ESCORT.lookup(face)
            out.line(rule, f"{name} escorts {ctx.name(target)} to the Doc: {face} {row['result']}", _since(dice, mark),
                     name)  # fmt: skip
            treated_by_doc = apply_medical_escort(out.fighters[target], face, dice)
            # The rulebook lists the Doc's settling of the Critical Injury first; the account tells it last.
            changes = (*treated_by_doc.changes[1:], treated_by_doc.changes[0])
            injury_effects(ctx, out, target, replace(treated_by_doc, changes=changes), "Medical Escort")
            out.fighters[target] = treated_by_doc.fighter
        elif effect["needs"] == "captive":
            if kind != "captive" or target not in ctx.captives or target in disposed:
                raise RulesInputError(f"target_{fid}", f"{name}: choose a captive the gang holds")
            disposed.add(target)
            captive = ctx.captives[target]
            out.line(rule, f"{name}: {effect['effect']} — {captive.name}", (), name)
            out.effect("status", fighter=target, status=DEAD, captured_by=None, reason=f"{rule} ({battle_rewards.ACTION_SOURCE})", dice=[])  # fmt: skip
            if action == "Sell to Guilders":
                price = battle_rewards.captive_sale_price(captive.value)
                out.effect("credits", amount=price, reason=f"{rule}: {captive.name} (half of {captive.value})", dice=[])
        elif effect["needs"] == "credits":
            amount = int(choices.get(f"credits_{fid}") or 0)
            if amount < 0:
                raise RulesInputError(f"credits_{fid}", "a bounty is not negative")
            out.line(rule, f"{name} claims {amount} credits of bounties", (), name)
            if amount:
                out.effect("credits", amount=amount, reason=f"{rule} ({battle_rewards.ACTION_SOURCE})", dice=[])
        else:
            out.line(rule, f"{name} {effect['effect']}", (), name)
    for fid in _patients(out.fighters):
        _injure(ctx, out, out.fighters, fid, "Critical Injury", untreated_critical_injury)
    if not out.lines:
        out.line("Post Battle Actions", "No fighter may take a post-battle action.")
    return out


def _n18_roster(ctx: Context, fighters: dict, dice: DiceSource, choices: dict) -> StepOutcome:
    out = StepOutcome(fighters=dict(fighters))
    for fid, snap in fighters.items():
        if fid in ctx.fighters and snap.status in (DEAD, "retired"):
            out.line("Update Roster", f"{ctx.name(fid)} leaves the active roster ({snap.status}); kept in the history.")
    out.line("Update Roster", "Then hire and buy as usual from the gang's page.")
    return out


def _count_dice(ctx: Context, outcome: str, text: str) -> str:
    count = len(_taken_down(ctx, outcome))
    return f"{text} for each of {count} fighter(s)" if count else "No dice."


N18_STEPS = (
    Step("injury-tests", "Prone & Seriously Injured",
         "A fighter who ended the battle Prone and Seriously Injured tests: on a 3+ they survive; on 1-2 they roll on "
         "the Lasting Injury table.", POST_BATTLE_INJURY.source,
         lambda ctx, f: _count_dice(ctx, SERIOUSLY_INJURED, "D6 (then D66 and any further dice on a 1-2)"),
         _n18_injury_tests),
    Step("lasting-injuries", "Lasting Injuries",
         "Each fighter taken Out of Action rolls on the Lasting Injury table (D66: tens die, then units die); every "
         "result is applied to the roster. Multiple Injuries rolls D3 more times, re-rolling Captured, Multiple "
         "Injuries, Memorable Death, Critical Injury and Out Cold.", LASTING_INJURY_RULES.table.source,
         lambda ctx, f: _count_dice(ctx, OUT_OF_ACTION, "D66 (tens then units) and any further dice"),
         _n18_lasting_injuries),
    Step("rewards", "Scenario rewards and experience",
         "The scenario's credits, experience and Reputation, each with its dice, and the standard experience "
         "recorded in the report.", battle_rewards.STANDARD_SOURCE,
         lambda ctx, f: "The dice each reward names (D3, D6x10 ...), in the order listed.", _n18_rewards),
    Step("income", "Collect Income and Home Settlement",
         "Each Territory's income; the Home Settlement gives D6x10 credits and +1 Reputation while held, and two D6 "
         "for a free recruit: a 6 on either die a Juve, a 6 on both a Ganger.", HOME_SETTLEMENT["sources"][0],
         lambda ctx, f: "The dice of each territory's income, then two D6 for the recruit.", _n18_income,
         _n18_income_fields),
    Step("actions", "Post-battle actions",
         "Each fighter with Gang Hierarchy who is not in Recovery or Captured takes one action. A Critical Injury "
         "not taken to the Doc by a Medical Escort dies.", battle_rewards.ACTION_SOURCE,
         lambda ctx, f: "D6 for each Medical Escort (and a Lasting Injury roll on 2-5).", _n18_actions,
         _n18_action_fields),
    Step("roster", "Update roster", "Dead fighters leave the active roster and stay in the history; then the gang "
         "hires and buys as usual.", f"{GUIDE}, Update Roster", lambda ctx, f: "No dice.", _n18_roster),
)  # fmt: skip


# --- classic steps ---------------------------------------------------------------------------------------


def _classic_injuries(ctx: Context, fighters: dict, dice: DiceSource, choices: dict) -> StepOutcome:
    out = StepOutcome(fighters=dict(fighters))
    for fid in _taken_down(ctx, SERIOUSLY_INJURED):
        mark = len(dice.rolls)
        row = DOWN_AT_END.roll(dice)
        out.line(DOWN_AT_END.title, f"{row['roll']}: {row['result']}", _since(dice, mark), ctx.name(fid))
        if row["serious_injury"]:
            _injure(ctx, out, out.fighters, fid, "Serious Injuries", lambda f: SERIOUS_INJURY_RULES.roll(f, dice))
    for fid in _taken_down(ctx, OUT_OF_ACTION):
        _injure(ctx, out, out.fighters, fid, "Serious Injuries", lambda f: SERIOUS_INJURY_RULES.roll(f, dice))
    if not out.lines:
        out.line("Serious Injuries", "No fighter went out of action.")
    return out


def _classic_experience(ctx: Context, fighters: dict, dice: DiceSource, choices: dict) -> StepOutcome:
    out = StepOutcome(fighters=dict(fighters))
    scenario = ctx.scenario if ctx.scenario in classic_xp.SCENARIO_EXPERIENCE else "gang-fight"
    for fid, result in ctx.results.items():
        snap = out.fighters.get(fid)
        if snap is None or snap.status == DEAD:
            continue
        earned = classic_xp.battle_experience(
            survived=True, dice=dice, scenario=scenario, wounding_hits=int(result.awards.get("wounding_hits", 0)),
            objectives=int(result.awards.get("objectives", 0)), is_leader=fid == ctx.leader, won=ctx.result.won,
            attacker=ctx.result.side == "attacker", underdog_by=ctx.underdog_by,
        )  # fmt: skip
        lines = "; ".join(f"{line['for']} {line['xp']:+d}" for line in earned["lines"])
        out.line("Experience", f"{lines} = {earned['total']} XP", earned["dice"], ctx.name(fid))
        out.effect("xp", fighter=fid, amount=earned["total"], reason=f"Experience: {lines}", dice=earned["dice"])
        out.fighters[fid] = replace(snap, xp=snap.xp + earned["total"])
    return out


def advances_due(ctx: Context, fighters: dict) -> list[tuple[str, int]]:
    """(fighter, number) for each advance roll owed by thresholds crossed in this sequence."""
    due = []
    for fid, snap in fighters.items():
        if fid in ctx.fighters and snap.status != DEAD:
            before = ctx.fighters[fid].xp
            for n in range(classic_xp.advances_gained(before, max(snap.xp, before))):
                due.append((fid, n + 1))
    return due


def _classic_advance_fields(ctx: Context, fighters: dict) -> list[Field]:
    out = []
    every = tuple((t, t) for t in classic_xp.SKILL_TABLES)
    for fid, n in advances_due(ctx, fighters):
        tables = tuple((t, t) for t in ctx.fighters[fid].skill_tables) or every
        out.append(Field(f"table_{fid}_{n}", f"{ctx.name(fid)}, advance {n}: skill table if a skill comes up",
                         "select", every, initial=tables[0][0]))  # fmt: skip
    return out


def _classic_advances(ctx: Context, fighters: dict, dice: DiceSource, choices: dict) -> StepOutcome:
    out = StepOutcome(fighters=dict(fighters))
    for fid, n in advances_due(ctx, fighters):
        mark = len(dice.rolls)
        snap, answer = classic_xp.roll_advance(out.fighters[fid], dice)
        skill, table = None, None
        if answer["kind"] == "skill":
            table = choices.get(f"table_{fid}_{n}") or (ctx.fighters[fid].skill_tables or ("Combat",))[0]
            allowed = (
                classic_xp.SKILL_TABLES
                if answer["from"] == classic_xp.ANY_SKILL["from"]
                else ctx.fighters[fid].skill_tables
            )
            if table not in allowed:
                raise RulesInputError(f"table_{fid}_{n}", f"{answer['result']}: choose one of {', '.join(allowed)}")
            snap, picked = classic_xp.roll_skill(snap, table, dice)
            skill = picked["skill"]
        stat = answer.get("change", {}).get("what")
        what = f"+1 {stat}" if stat else f"{skill} ({table})"
        out.line("Advance roll", f"{answer['roll']}: {answer['result']} → {what}", _since(dice, mark), ctx.name(fid))
        out.effect("advance", fighter=fid, description=what, stat=stat, skill=skill, table=table,
                   reason=f"Advance roll {answer['roll']}: {answer['result']} ({classic_xp.ADVANCE.source})",
                   dice=_since(dice, mark))  # fmt: skip
        out.fighters[fid] = snap
    if not out.lines:
        out.line("Advance roll", "No fighter crossed an advance threshold.")
    return out


def _classic_income(ctx: Context, fighters: dict, dice: DiceSource, choices: dict) -> StepOutcome:
    out = StepOutcome(fighters=dict(fighters))
    workers = [fid for fid in ctx.fighters if fid in fighters and fighters[fid].status not in (DEAD, CAPTURED)
               and ctx.results.get(fid, ResultInfo("ok")).outcome != OUT_OF_ACTION]  # fmt: skip
    for territory, worker in zip(ctx.territories, workers, strict=False):
        worked = work_territory(territory.slug, dice)
        effect = f"; {worked['effect']}" if worked["effect"] else ""
        out.line(f"Working {territory.name}", f"{worked['income'] or 'no income'} = {worked['credits']} credits{effect}",
                 worked["dice"], ctx.name(worker))  # fmt: skip
        if worked["credits"]:
            out.effect("credits", amount=worked["credits"], reason=f"{territory.name} worked by {ctx.name(worker)}",
                       dice=worked["dice"])  # fmt: skip
    for territory in ctx.territories[len(workers) :]:
        out.line(f"Working {territory.name}", "nobody left to work it")
    if not ctx.territories:
        out.line("Territory income", "The gang holds no territory.")
    return out


CLASSIC_SOURCE = "rulebook.classic.campaign (S3 classic rulebook pp84-92 as scanned, Hivemind.NET, fan references)"
CLASSIC_STEPS = (
    Step("serious-injuries", "Serious Injuries",
         "A fighter still down at the end rolls a D6 (4-6: out of action). Each fighter out of action rolls on the "
         "Serious Injuries chart (D66); Multiple Injuries rolls D6 more times, re-rolling Dead and Full Recovery.",
         SERIOUS_INJURY_RULES.table.source,
         lambda ctx, f: "D6 for each fighter down at the end; D66 (tens then units) for each out of action.",
         _classic_injuries),
    Step("experience", "Experience",
         "Each surviving fighter earns D6 experience, plus the bonuses: wounding hits, the winning Leader, "
         "objectives, the underdog.", classic_xp.FAN_SITE,
         lambda ctx, f: "D6 for each surviving fighter.", _classic_experience),
    Step("advances", "Advance rolls",
         "A fighter who crosses an experience threshold rolls 2D6 on the Advance table (then a D6, or a skill roll "
         "on the table chosen).", classic_xp.ADVANCE.source,
         lambda ctx, f: "2D6 and a D6 for each advance.", _classic_advances, _classic_advance_fields),
    Step("income", "Territory income",
         "Each fighter who did not go out of action may work one territory for its income.",
         "rulebook.classic.campaign.territories (S3 p92)",
         lambda ctx, f: "The dice of each territory worked.", _classic_income),
    Step("roster", "Update roster", "Dead fighters leave the roster and stay in the history; then the gang hires and "
         "buys as usual.", CLASSIC_SOURCE, lambda ctx, f: "No dice.", _n18_roster),
)  # fmt: skip

STEPS = {"n18": N18_STEPS, "classic": CLASSIC_STEPS}


def steps_for(edition: str) -> tuple[Step, ...]:
    return STEPS[edition]


def snapshot_json(snap: FighterSnapshot) -> dict:
    return snap.as_json()


def snapshot_from_json(data: dict) -> FighterSnapshot:
    return FighterSnapshot(
        characteristics=data["characteristics"], skills=tuple(data["skills"]), injuries=tuple(data["injuries"]),
        xp=data["xp"], status=data["status"], id=data.get("id"),
    )  # fmt: skip
