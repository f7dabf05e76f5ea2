"""Classic experience: what a battle earns, when advances come, the advance roll and the skill tables.

Sources (numbers are facts; the wording here is ours):

- S3 classic rulebook (Living Rulebook text) p85, as scanned at
  https://www.yumpu.com/en/document/view/15156036/necromunda-rulebook-games-workshop/85: a fighter
  earns D6 experience for surviving a battle, even if hurt or captured; scenarios add their own.
- S2 gregwoodio/Hivemind.NET ``Hivemind/Services/Implementation/ExperienceService.cs``: +5 per
  wounding hit; +10 for the winning Leader in Gang Fight, Scavengers and Ambush (Rescue Mission: the
  defender's Leader); +1 per loot counter (Scavengers); +5 per objective (The Raid, Rescue Mission);
  +10 to each fighter of the winners of Hit and Run; the advance thresholds; the underdog bonus.
- The fan site http://203.ip-92-222-88.eu/webxp/necromunda/experience.html: the same thresholds and
  underdog table, the advance roll (2D6 with its D6 sub-rolls) and titles; S3 p87 for the advance roll.
- Skill tables and house skill access: the content files ``rulebook/data/classic/skills.json`` and
  ``houses.json`` (S1 BSData/necromunda, S3 pp87-88, S2). A skill the fighter already has is rolled again.

Our reading: the underdog bonus goes to the fighters of the gang with the lower rating only.
"""

from __future__ import annotations

import json
from bisect import bisect_right
from dataclasses import replace
from importlib import resources

from rulebook.dice import D6, TWO_D6, DiceSource, Dist, certain, chain, map_dist
from rulebook.errors import RulesInputError
from rulebook.roster import Change, FighterSnapshot
from rulebook.tables import Row, Table

HIVEMIND = "S2 gregwoodio/Hivemind.NET ExperienceService.cs"
FAN_SITE = "http://203.ip-92-222-88.eu/webxp/necromunda/experience.html"

# An advance on reaching each of these totals; none after 401.
ADVANCE_THRESHOLDS = (6, 11, 16, 21, 31, 41, 51, 61, 81, 101, 121, 141, 161, 181, 201, 241, 281, 321, 361, 401)


def advances_gained(old_xp: int, new_xp: int) -> int:
    """How many advance rolls a fighter makes going from ``old_xp`` to ``new_xp`` experience."""
    if old_xp < 0 or new_xp < old_xp:
        raise RulesInputError("xp", f"experience goes from {old_xp} to {new_xp}: it never falls below 0 or drops")
    return bisect_right(ADVANCE_THRESHOLDS, new_xp) - bisect_right(ADVANCE_THRESHOLDS, old_xp)


# --- the advance roll ---------------------------------------------------------------------------


def _either(low: str, high: str) -> dict:
    return {"kind": "characteristic", "sub_roll": {"1-3": low, "4-6": high}}


ANY_SKILL = {"kind": "skill", "from": "any skill table"}
GANG_SKILL = {"kind": "skill", "from": "one of the gang's standard skill tables for the fighter"}

ADVANCE = Table(
    name="advance",
    title="Advance roll",
    dice="2D6",
    rows=(
        Row(2, 2, "New skill from any table", ANY_SKILL),
        Row(3, 4, "New skill from a standard table", GANG_SKILL),
        Row(5, 5, "+1 Strength or Attacks (D6)", _either("S", "A")),
        Row(6, 6, "+1 Weapon Skill or Ballistic Skill (D6)", _either("WS", "BS")),
        Row(7, 7, "+1 Initiative or Leadership (D6)", _either("I", "Ld")),
        Row(8, 8, "+1 Weapon Skill or Ballistic Skill (D6)", _either("WS", "BS")),
        Row(9, 9, "+1 Wounds or Toughness (D6)", _either("W", "T")),
        Row(10, 11, "New skill from a standard table", GANG_SKILL),
        Row(12, 12, "New skill from any table", ANY_SKILL),
    ),
    source=f"S3 p87; {FAN_SITE}; {HIVEMIND}",
)


def _sub_roll_pick(bands: dict, face: int) -> str:
    return bands["1-3"] if face <= 3 else bands["4-6"]


def advance_distribution() -> Dist:
    """Exact chance of each final advance: ``"+1 WS"`` ... or the skill row's result."""

    def outcome(total: int) -> Dist:
        row = ADVANCE.row(total)
        if row.details["kind"] == "skill":
            return certain(row.result)
        return map_dist(D6.distribution(), lambda face: f"+1 {_sub_roll_pick(row.details['sub_roll'], face)}")

    return chain(TWO_D6, outcome)


def roll_advance(fighter: FighterSnapshot, dice: DiceSource) -> tuple[FighterSnapshot, dict]:
    """One advance roll: 2D6, then the D6 sub-roll for a characteristic (applied to ``fighter``) or the
    kind of skill table (the player picks the table; :func:`roll_skill` then rolls the skill)."""
    mark = len(dice.rolls)
    total = sum(dice.two_d6("Advance roll"))
    row = ADVANCE.lookup(total)
    answer = {**row}
    if row["kind"] == "characteristic":
        face = dice.d6(f"Advance roll {total}: 1-3 {row['sub_roll']['1-3']}, 4-6 {row['sub_roll']['4-6']}")
        name = _sub_roll_pick(row["sub_roll"], face)
        before = fighter.characteristic(name)
        fighter = fighter.with_characteristic(name, before + 1)
        answer["change"] = Change(name, before, before + 1, f"advance roll {total}", ()).as_json()
    answer["dice"] = [r.as_json() for r in dice.rolls[mark:]]
    return fighter, answer


# --- skills --------------------------------------------------------------------------------------------


def _data(name: str) -> dict:
    return json.loads(resources.files("rulebook").joinpath(f"data/classic/{name}.json").read_text(encoding="utf-8"))


# Skill tables (in their order) and house skill access come from the content files, which cite S1/S3/S2.
SKILL_TABLES = {t["name"]: tuple(s["name"] for s in t["skills"]) for t in _data("skills")["skill_tables"]}
_TABLE_NAMES = {t.lower(): t for t in SKILL_TABLES}
HOUSE_SKILLS = {
    house["name"]: {
        kind.capitalize(): tuple(_TABLE_NAMES[t] for t in tables) for kind, tables in house["skill_access"].items()
    }
    for house in _data("houses")["houses"]
}

SKILL_TABLE_ROLLS = {
    name: Table(
        name=f"skill-{name.lower()}",
        title=f"{name} skills",
        dice="D6",
        rows=tuple(Row(i, i, skill, {"table": name}) for i, skill in enumerate(skills, 1)),
        source="rulebook/data/classic/skills.json (S1 BSData/necromunda Standard Gang.cat; S3 p87)",
    )
    for name, skills in SKILL_TABLES.items()
}


def table_full(fighter: FighterSnapshot, table: str) -> bool:
    """Whether the fighter already has every skill of ``table``: no skill is left to roll there."""
    return all(fighter.has_skill(s) for s in SKILL_TABLES[table])


def roll_skill(fighter: FighterSnapshot, table: str, dice: DiceSource) -> tuple[FighterSnapshot, dict]:
    """A random skill from ``table`` (D6), rolled again while the fighter already has it."""
    if table not in SKILL_TABLES:
        raise RulesInputError("skill_table", f"unknown skill table {table!r}; use one of {', '.join(SKILL_TABLES)}")
    if table_full(fighter, table):
        raise RulesInputError("skill_table", f"the fighter already has every {table} skill")
    mark = len(dice.rolls)
    while True:
        skill = SKILL_TABLES[table][dice.d6(f"{table} skill") - 1]
        if not fighter.has_skill(skill):
            break
    before = list(fighter.skills)
    fighter = replace(fighter, skills=(*fighter.skills, skill))
    change = Change(
        "skills", before, list(fighter.skills), f"new {table} skill", tuple(r.as_json() for r in dice.rolls[mark:])
    )
    return fighter, {"skill": skill, "change": change.as_json()}


# --- experience from a battle ------------------------------------------------------------------------

WOUNDING_HIT_XP = 5
WINNING_LEADER_XP = 10
# Per scenario (S2): does the winning Leader get +10 (and on which side), XP per objective, XP to every
# fighter of the winners.
SCENARIO_EXPERIENCE = {
    "gang-fight": {"winning_leader": "either", "per_objective": 0, "winners_each": 0},
    "scavengers": {"winning_leader": "either", "per_objective": 1, "winners_each": 0},
    "hit-and-run": {"winning_leader": None, "per_objective": 0, "winners_each": 10},
    "ambush": {"winning_leader": "either", "per_objective": 0, "winners_each": 0},
    "the-raid": {"winning_leader": None, "per_objective": 5, "winners_each": 0},
    "rescue-mission": {"winning_leader": "defender", "per_objective": 5, "winners_each": 0},
}

# (lowest rating difference, bonus if the underdog won, bonus if it lost)
UNDERDOG_BONUS = (
    (1500, 10, 9),
    (1000, 9, 8),
    (750, 8, 7),
    (500, 7, 6),
    (250, 6, 5),
    (200, 5, 4),
    (150, 4, 3),
    (100, 3, 2),
    (50, 2, 1),
    (1, 1, 0),
)


def underdog_bonus(rating_difference: int, won: bool) -> int:
    """Extra experience for each fighter of the lower-rated gang, by how far below it was."""
    for lowest, if_won, if_lost in UNDERDOG_BONUS:
        if rating_difference >= lowest:
            return if_won if won else if_lost
    return 0


def experience_lines(
    *,
    scenario: str,
    wounding_hits: int = 0,
    objectives: int = 0,
    is_leader: bool = False,
    won: bool = False,
    attacker: bool = False,
    underdog_by: int = 0,
) -> list[tuple[str, int]]:
    """The fixed experience one fighter earns from a battle (all but the D6 for surviving), line by line.

    ``underdog_by`` is how far the fighter's gang rating was below the enemy's (0 if not lower).
    """
    if scenario not in SCENARIO_EXPERIENCE:
        raise RulesInputError("scenario", f"unknown scenario {scenario!r}; use one of {', '.join(SCENARIO_EXPERIENCE)}")
    rules = SCENARIO_EXPERIENCE[scenario]
    lines = []
    if wounding_hits:
        lines.append((f"{wounding_hits} wounding hit(s) x {WOUNDING_HIT_XP}", wounding_hits * WOUNDING_HIT_XP))
    if objectives and rules["per_objective"]:
        lines.append((f"{objectives} objective(s) x {rules['per_objective']}", objectives * rules["per_objective"]))
    leader_side = rules["winning_leader"]
    if is_leader and won and (leader_side == "either" or (leader_side == "defender" and not attacker)):
        lines.append(("Leader of the winning gang", WINNING_LEADER_XP))
    if won and rules["winners_each"]:
        lines.append(("fighter of the winning gang", rules["winners_each"]))
    if underdog_by > 0 and underdog_bonus(underdog_by, won):
        lines.append((f"underdog by {underdog_by} rating", underdog_bonus(underdog_by, won)))
    return lines


def battle_experience(*, survived: bool, dice: DiceSource, **awards) -> dict:
    """The experience one fighter earns from a battle: D6 for surviving (rolled) plus
    :func:`experience_lines`, with the total and the dice."""
    mark = len(dice.rolls)
    lines = [("survived the battle (D6)", dice.d6("Experience for surviving the battle"))] if survived else []
    lines += experience_lines(**awards)
    return {
        "lines": [{"for": what, "xp": xp} for what, xp in lines],
        "total": sum(xp for _, xp in lines),
        "dice": [r.as_json() for r in dice.rolls[mark:]],
    }
