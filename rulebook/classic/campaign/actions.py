"""The classic campaign rules on the command line: ``odds`` and ``roll`` for each.

Queries (JSON on standard input); a fighter is ``{"id": "a", "characteristics": {"M": 4, "WS": 3, ...},
"skills": [...], "injuries": [...], "xp": 0, "status": "active"}``.

- ``serious-injury``: ``{"fighter": {...}, "roll": 21}`` (``roll`` optional: without it the chart is rolled).
- ``advance``: ``{"fighter": {...}}``: one advance roll applied to the fighter.
- ``skill``: ``{"fighter": {...}, "skill_table": "Combat"}``: a random skill from that table.
- ``experience``: ``{"scenario": "gang-fight", "survived": true, "wounding_hits": 1, "is_leader": true,
  "won": true, "objectives": 0, "attacker": false, "underdog_by": 0, "xp": 20}`` (``xp``, the fighter's
  experience before the battle, lets the answer count the advances gained).
- ``scenario``: ``{}``: the pre-battle Scenario table.
- ``territory``: ``{"territory": "chem-pit"}``: one fighter works a territory for income.
"""

from __future__ import annotations

from rulebook.classic.campaign.experience import (
    ADVANCE,
    SCENARIO_EXPERIENCE,
    SKILL_TABLES,
    advance_distribution,
    advances_gained,
    battle_experience,
    experience_lines,
    roll_advance,
    roll_skill,
)
from rulebook.classic.campaign.scenarios import SCENARIO_TABLE, roll_scenario
from rulebook.classic.campaign.serious_injury import DOWN_AT_END, SERIOUS_INJURY_RULES, STATUSES
from rulebook.classic.campaign.territories import income_distribution, territories, work_territory
from rulebook.dice import D6, DiceSource, certain, map_dist
from rulebook.editions import Action
from rulebook.output import dist
from rulebook.query import Query
from rulebook.roster import FighterSnapshot


def _fighter(q: Query) -> FighterSnapshot:
    return FighterSnapshot.from_query(q.sub("fighter"), STATUSES)


def _serious_injury_odds(q: Query) -> dict:
    return SERIOUS_INJURY_RULES.table.odds()


def _serious_injury_roll(q: Query, dice: DiceSource) -> dict:
    return SERIOUS_INJURY_RULES.apply_or_roll(_fighter(q), q.raw("roll", None), dice).as_json()


def _advance_odds(q: Query) -> dict:
    return {**dist("advance", advance_distribution()), "table": ADVANCE.as_json()}


def _advance_roll(q: Query, dice: DiceSource) -> dict:
    fighter, answer = roll_advance(_fighter(q), dice)
    return {**answer, "fighter": fighter.as_json()}


def _skill_odds(q: Query) -> dict:
    table = q.choice("skill_table", list(SKILL_TABLES))
    return dist("skill", map_dist(D6.distribution(), lambda face: SKILL_TABLES[table][face - 1]))


def _skill_roll(q: Query, dice: DiceSource) -> dict:
    fighter, answer = roll_skill(_fighter(q), q.choice("skill_table", list(SKILL_TABLES)), dice)
    return {**answer, "fighter": fighter.as_json()}


def _experience_inputs(q: Query) -> dict:
    return {
        "scenario": q.choice("scenario", list(SCENARIO_EXPERIENCE)),
        "wounding_hits": q.int("wounding_hits", low=0, high=50, default=0),
        "objectives": q.int("objectives", low=0, high=50, default=0),
        "is_leader": q.bool("is_leader"),
        "won": q.bool("won"),
        "attacker": q.bool("attacker"),
        "underdog_by": q.int("underdog_by", low=0, high=100_000, default=0),
    }


def _experience_odds(q: Query) -> dict:
    fixed = sum(xp for _, xp in experience_lines(**_experience_inputs(q)))
    survival = D6.distribution() if q.bool("survived", default=True) else certain(0)
    return dist("xp", map_dist(survival, lambda face: fixed + face))


def _experience_roll(q: Query, dice: DiceSource) -> dict:
    answer = battle_experience(survived=q.bool("survived", default=True), dice=dice, **_experience_inputs(q))
    if q.has("xp"):
        old = q.int("xp", low=0)
        answer["advances"] = advances_gained(old, old + answer["total"])
    return answer


def _scenario_odds(q: Query) -> dict:
    return SCENARIO_TABLE.odds()


def _scenario_roll(q: Query, dice: DiceSource) -> dict:
    return roll_scenario(dice)


def _down_odds(q: Query) -> dict:
    return dist("result", DOWN_AT_END.distribution())


def _down_roll(q: Query, dice: DiceSource) -> dict:
    return DOWN_AT_END.roll(dice)


def _territory_odds(q: Query) -> dict:
    slug = q.choice("territory", list(territories()))
    return dist("credits", income_distribution(slug))


def _territory_roll(q: Query, dice: DiceSource) -> dict:
    return work_territory(q.choice("territory", list(territories())), dice)


ACTIONS = (
    Action(
        "serious-injury",
        "Serious Injuries chart (D66) applied to a fighter",
        _serious_injury_odds,
        _serious_injury_roll,
    ),
    Action("advance", "advance roll (2D6 and its D6) applied to a fighter", _advance_odds, _advance_roll),
    Action("skill", "a random skill from one skill table", _skill_odds, _skill_roll),
    Action("experience", "experience one fighter earns from a battle", _experience_odds, _experience_roll),
    Action("scenario", "pre-battle Scenario table (2D6)", _scenario_odds, _scenario_roll),
    Action("territory", "one fighter works a territory for income", _territory_odds, _territory_roll),
    Action("down-at-end", "a fighter down at the end of the game: D6 4-6 out of action", _down_odds, _down_roll),
)
