"""What every post-battle step shares: the battle's facts as a :class:`Context`, what a step returns
(:class:`StepOutcome`: account lines, effects, fighters after it), the choices it asks for
(:class:`Field`), and how an injury table's changes become account lines and effects.

A step takes the Context (read by :mod:`postbattle.selectors`), the fighters as they stand after the
earlier steps (``{id: FighterSnapshot}``), a dice source (the server's or the table's,
:class:`rulebook.dice.ScriptedDice`) and the player's choices, calls the rulebook and returns data;
:mod:`postbattle.apply` writes the effects at the end. The rules are the rulebook's.

Our reading where the report is silent: a fighter taken down by a named enemy fighter was taken down
by an Attack action (Memorable Death's extra XP for the attacker).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from rulebook.dice import DiceSource
from rulebook.n18.campaign import battle_rewards
from rulebook.n18.campaign.lasting_injury import CAPTURED, DEAD, characteristic_change_text
from rulebook.outcomes import CHARACTERISTICS, injury_outcomes, outcome
from rulebook.roster import Change, FighterSnapshot, InjuryOutcome

OUT_OF_ACTION = "out_of_action"
SERIOUSLY_INJURED = "seriously_injured"


@dataclass(frozen=True)
class FighterInfo:
    id: str
    name: str
    category: str = "ganger"
    hierarchy: bool = False
    value: int = 0
    skill_tables: tuple[str, ...] = ()
    xp: int = 0  # experience before the sequence (classic advance thresholds count from here)
    fighter_type: str = ""
    kit: tuple[str, ...] = ()  # the slugs of what they carry (Exotic Furs' +1 to a Trade roll)


@dataclass(frozen=True)
class ResultInfo:
    """One of the gang's fighters in the battle report."""

    outcome: str
    caused_by: str | None = None
    caused_by_name: str = ""
    caused_by_gang: int | None = None
    captured: bool = False
    awards: Mapping[str, int] = field(default_factory=dict)
    killed: bool = False
    webbed: bool = False  # 2018+: Webbed when taken Out of Action (the Webbed D6 replaces the Lasting Injury)


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
    # Each of the gang's fighters' award counts: what the report recorded for them (rallies, a relic, caches)
    # and the standard experience the record gives (battle_rewards.standard_awards).
    awards: Mapping[str, Mapping[str, int]] = field(default_factory=dict)
    # The loot caskets this gang's fighters opened (the battle record's ``Casket``s): their contents are its own.
    caskets: tuple = ()
    # What the territories' boons read (postbattle.engine.territories): the gang's house, whether it is Outlaw,
    # its Dome Runners, and how many fighters of either side the record says were killed in the battle.
    house: str = ""
    outlaw: bool = False
    dome_runners: int = 0
    killed_in_battle: int = 0
    # The campaign's house rule that pays income in place of the rules' (campaigns.services.house_rules), in words;
    # "" when the rules' income stands.
    income_rule: str = ""
    # The chems each fighter took before the battle (the dose entries the battle's start wrote in the ledger),
    # by fighter id: {slug: name}. Their after-battle side effects are rolled in the first step.
    chems_taken: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    # The doses of each chem the gang holds now, its fighters' and the Stash's, by slug: Stinger Mould may be used
    # after a Lasting Injury roll.
    chems_held: Mapping[str, int] = field(default_factory=dict)

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
        """Add the typed outcome ``op`` (rulebook.outcomes), kept in the draft as its JSON form."""
        self.effects.append(outcome(op, **values).as_json())


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


def house_income(ctx: Context, out: StepOutcome) -> StepOutcome:
    """The income step's credits left to the campaign's house rule that replaces the rules' income
    (``ctx.income_rule``; it pays when the sequence is applied). The territories' dice and what else they give
    (Reputation, a recruit, a fighter struck) stand: the rule replaces credits only."""
    replaced = [e for e in out.effects if e["op"] == "credits"]
    if ctx.income_rule and replaced:
        out.effects = [e for e in out.effects if e["op"] != "credits"]
        total = sum(e["amount"] for e in replaced)
        out.line("House rule", f"{ctx.income_rule}, in place of the {total} credits of the rules' income above")
    return out


def since(dice: DiceSource, mark: int) -> list[dict]:
    return [r.as_json() for r in dice.rolls[mark:]]


def taken_down(ctx: Context, outcome: str) -> list[str]:
    return [fid for fid, r in ctx.results.items() if r.outcome == outcome and fid in ctx.fighters]


# --- injuries as effects -------------------------------------------------------------------------------


def injury_effects(ctx: Context, out: StepOutcome, fighter_id: str, injury: InjuryOutcome, rule: str) -> None:
    """An injury table's resolution in the draft: its typed outcomes (:func:`rulebook.outcomes.injury_outcomes`,
    the same the fighter's own record writes), the attacker's experience, and an account line for each change."""
    out.effects += [
        effect.as_json() for effect in injury_outcomes(fighter_id, injury, rule=rule, captured_by=ctx.opponent_id)
    ]
    name = ctx.name(fighter_id)
    for change in injury.changes:
        if change.what == "result":
            out.line(rule, change.why, change.dice, name)
        elif change.what in CHARACTERISTICS:
            text = f"{change.what} {change.before} → {change.after}"
            if ctx.edition == "n18":
                text = characteristic_change_text(change.what, change.before, change.after)
            out.line(rule, text, (), name)
        elif change.what == "skills":
            out.line(rule, f"gains {', '.join(s for s in change.after if s not in change.before)}", (), name)
        elif change.what == "xp":
            out.line(rule, f"+{change.after - change.before} XP ({change.why})", change.dice, name)
        elif change.what == "status":
            _status_line(ctx, out, fighter_id, change, rule)
        elif change.what == "attacker_xp":
            _attacker_xp(ctx, out, fighter_id, change, rule)
        elif change.what != "injuries":
            text = f"{change.what.replace('_', ' ')}: {change.after}" if change.what != "note" else str(change.after)
            out.line(rule, text, change.dice, name)


def _status_line(ctx: Context, out: StepOutcome, fighter_id: str, change: Change, rule: str) -> None:
    held = f" (held by {ctx.opponent_name})" if change.after == CAPTURED else ""
    text = f"{change.before.replace('_', ' ')} → {change.after.replace('_', ' ')}{held}"
    out.line(rule, text, change.dice, ctx.name(fighter_id))


def _attacker_xp(ctx: Context, out: StepOutcome, fighter_id: str, change: Change, rule: str) -> None:
    result = ctx.results.get(fighter_id)
    if result is None or result.caused_by is None:
        return
    out.effect(
        "xp",
        fighter=result.caused_by,
        gang=result.caused_by_gang,
        amount=change.after,
        reason=f"{rule}: {change.why}",
        dice=[],
    )
    out.line(
        rule,
        f"{result.caused_by_name} ({ctx.opponent_name}) gains {change.after} XP: {change.why}",
        (),
        ctx.name(fighter_id),
    )


def recruit_name(ctx: Context, out: StepOutcome, typed: str | None, recruit: str) -> str:
    """The name a free recruit joins under: the player's, or else the first of "Juve 1", "Juve 2"... that no fighter
    of the gang (nor a recruit of this step) has, never a "New Juve" for the player to find and rename."""
    typed = (typed or "").strip()
    if typed:
        return typed[:80]
    taken = {info.name for info in ctx.fighters.values()} | {e.get("name") for e in out.effects if e["op"] == "recruit"}
    number = 1
    while f"{recruit} {number}" in taken:
        number += 1
    return f"{recruit} {number}"


def injure(ctx, out, fighters, fighter_id, rule, roll: Callable[[FighterSnapshot], InjuryOutcome]) -> None:
    injury = roll(fighters[fighter_id])
    injury_effects(ctx, out, fighter_id, injury, rule)
    fighters[fighter_id] = injury.fighter


def by_attack(ctx: Context, fighter_id: str) -> bool:
    return ctx.results[fighter_id].caused_by is not None


def roster_step(ctx: Context, fighters: dict, dice: DiceSource, choices: dict) -> StepOutcome:
    out = StepOutcome(fighters=dict(fighters))
    for fid, snap in fighters.items():
        if fid in ctx.fighters and snap.status in (DEAD, "retired"):
            out.line("Update Roster", f"{ctx.name(fid)} leaves the active roster ({snap.status}); kept in the history.")
    out.line("Update Roster", "Then hire and buy as usual from the gang's page.")
    return out


def snapshot_from_json(data: dict) -> FighterSnapshot:
    return FighterSnapshot(
        characteristics=data["characteristics"],
        skills=tuple(data["skills"]),
        injuries=tuple(data["injuries"]),
        xp=data["xp"],
        status=data["status"],
        id=data.get("id"),
    )
