"""The classic post-battle sequence (``rulebook.classic.campaign``, public references cited there):
Serious Injuries (and the D6 for fighters still down at the end), experience, advance rolls, territory
income, update roster.
"""

from __future__ import annotations

from dataclasses import replace

from postbattle.engine.base import (
    OUT_OF_ACTION,
    SERIOUSLY_INJURED,
    Context,
    Field,
    ResultInfo,
    Step,
    StepOutcome,
    house_income,
    injure,
    roster_step,
    since,
    taken_down,
)
from rulebook.classic.campaign import experience as classic_xp
from rulebook.classic.campaign.income import MAX_TERRITORIES_WORKED, gang_profit
from rulebook.classic.campaign.serious_injury import DOWN_AT_END, SERIOUS_INJURY_RULES
from rulebook.classic.campaign.territories import work_territory
from rulebook.dice import DiceSource
from rulebook.errors import RulesInputError
from rulebook.n18.campaign.lasting_injury import CAPTURED, DEAD

# --- classic steps ---------------------------------------------------------------------------------------


def _classic_injuries(ctx: Context, fighters: dict, dice: DiceSource, choices: dict) -> StepOutcome:
    out = StepOutcome(fighters=dict(fighters))
    for fid in taken_down(ctx, SERIOUSLY_INJURED):
        mark = len(dice.rolls)
        row = DOWN_AT_END.roll(dice)
        out.line(DOWN_AT_END.title, f"{row['roll']}: {row['result']}", since(dice, mark), ctx.name(fid))
        if row["serious_injury"]:
            injure(ctx, out, out.fighters, fid, "Serious Injuries", lambda f: SERIOUS_INJURY_RULES.roll(f, dice))
    for fid in taken_down(ctx, OUT_OF_ACTION):
        injure(ctx, out, out.fighters, fid, "Serious Injuries", lambda f: SERIOUS_INJURY_RULES.roll(f, dice))
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
            survived=True,
            dice=dice,
            scenario=scenario,
            wounding_hits=int(result.awards.get("wounding_hits", 0)),
            objectives=int(result.awards.get("objectives", 0)),
            is_leader=fid == ctx.leader,
            won=ctx.result.won,
            attacker=ctx.result.side == "attacker",
            underdog_by=ctx.underdog_by,
        )
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
        out.append(
            Field(
                f"table_{fid}_{n}",
                f"{ctx.name(fid)}, advance {n}: skill table if a skill comes up",
                "select",
                every,
                initial=tables[0][0],
            )
        )
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
        out.line("Advance roll", f"{answer['roll']}: {answer['result']} → {what}", since(dice, mark), ctx.name(fid))
        out.effect(
            "advance",
            fighter=fid,
            description=what,
            stat=stat,
            skill=skill,
            table=table,
            reason=f"Advance roll {answer['roll']}: {answer['result']} ({classic_xp.ADVANCE.source})",
            dice=since(dice, mark),
        )
        out.fighters[fid] = snap
    if not out.lines:
        out.line("Advance roll", "No fighter crossed an advance threshold.")
    return out


def _classic_income(ctx: Context, fighters: dict, dice: DiceSource, choices: dict) -> StepOutcome:
    """Each fighter who was not taken down works one territory (ten at most); the Income chart turns the
    total into the profit kept. Our reading: a fighter still down at the end recuperates, like one out
    of action, whatever their D6."""
    out = StepOutcome(fighters=dict(fighters))
    workers = [
        fid
        for fid in ctx.fighters
        if fid in fighters
        and fighters[fid].status not in (DEAD, CAPTURED)
        and ctx.results.get(fid, ResultInfo("ok")).outcome not in (OUT_OF_ACTION, SERIOUSLY_INJURED)
    ]
    worked_by = list(zip(ctx.territories, workers[:MAX_TERRITORIES_WORKED], strict=False))
    income, rolled = 0, []
    for territory, worker in worked_by:
        worked = work_territory(territory.slug, dice)
        effect = f"; {worked['effect']}" if worked["effect"] else ""
        out.line(
            f"Working {territory.name}",
            f"{worked['income'] or 'no income'} = {worked['credits']} credits{effect}",
            worked["dice"],
            ctx.name(worker),
        )
        income, rolled = income + worked["credits"], rolled + worked["dice"]
    for territory in ctx.territories[len(worked_by) :]:
        out.line(f"Working {territory.name}", "nobody left to work it")
    models = sum(1 for fid in ctx.fighters if fid in fighters and fighters[fid].status != DEAD)
    profit = gang_profit(income, max(models, 1))
    notes = f" ({'; '.join(profit['notes'])})" if profit["notes"] else ""
    text = f"income {income} with {models} models (row {profit['row']}): profit {profit['profit']} credits{notes}"
    out.line("Income chart", text)
    if profit["profit"]:
        out.effect("credits", amount=profit["profit"], reason=f"Income chart: {text} ({profit['source']})", dice=rolled)
    return house_income(ctx, out)


CLASSIC_SOURCE = "rulebook.classic.campaign (S3 classic rulebook pp84-92 as scanned, Hivemind.NET, fan references)"
CLASSIC_STEPS = (
    Step(
        "serious-injuries",
        "Serious Injuries",
        "A fighter still down at the end rolls a D6 (4-6: out of action). Each fighter out of action rolls on the "
        "Serious Injuries chart (D66); Multiple Injuries rolls D6 more times, re-rolling Dead and Full Recovery.",
        SERIOUS_INJURY_RULES.table.source,
        lambda ctx, f: "D6 for each fighter down at the end; D66 (tens then units) for each out of action.",
        _classic_injuries,
    ),
    Step(
        "experience",
        "Experience",
        "Each surviving fighter earns D6 experience, plus the bonuses: wounding hits, the winning Leader, "
        "objectives, the underdog.",
        classic_xp.FAN_SITE,
        lambda ctx, f: "D6 for each surviving fighter.",
        _classic_experience,
    ),
    Step(
        "advances",
        "Advance rolls",
        "A fighter who crosses an experience threshold rolls 2D6 on the Advance table (then a D6, or a skill roll "
        "on the table chosen).",
        classic_xp.ADVANCE.source,
        lambda ctx, f: "2D6 and a D6 for each advance.",
        _classic_advances,
        _classic_advance_fields,
    ),
    Step(
        "income",
        "Territory income",
        "Each fighter who did not go out of action works one territory (ten at most); the Income chart turns the "
        "total and the number of models into the profit the gang keeps.",
        "rulebook.classic.campaign.territories and .income (S3 pp92-93)",
        lambda ctx, f: "The dice of each territory worked.",
        _classic_income,
    ),
    Step(
        "roster",
        "Update roster",
        "Dead fighters leave the roster and stay in the history; then the gang hires and buys as usual.",
        CLASSIC_SOURCE,
        lambda ctx, f: "No dice.",
        roster_step,
    ),
)
