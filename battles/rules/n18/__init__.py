"""The 2018+ rules at the table: the edition's interface for the battle assistant.

:mod:`.queries` builds the ``n18`` shoot, fight and test queries, :mod:`.scenarios` the club campaign
guide's scenario actions (seed ``n18-campaign-cycles-1-2``) and their effects, :mod:`.effects` writes the
other answers onto the fighters (states per the project's content facts, section 3), :mod:`.phases` holds
the prompts and the round sequence.
"""

from __future__ import annotations

from battles.rules import Plan
from battles.rules.n18.effects import (
    apply_coup_de_grace,
    apply_fight,
    apply_shoot,
    apply_test,
    casualties,
    fresh_state,
)
from battles.rules.n18.phases import (
    ACTING,
    GROUPS,
    activation_side,
    advance,
    group_in_progress,
    group_leaders,
    group_refusal,
    prompts,
)
from battles.rules.n18.queries import (
    COVER,
    FALL_CAUSES,
    KINDS,
    TESTS,
    coup_de_grace_plan,
    fight_plan,
    has_rapid_fire,
    offered,
    range_bands,
    shoot_plan,
    test_plan,
)
from battles.rules.n18.scenarios import SCENARIO_ACTIONS, apply_scenario, may_take, scenario_actions, scenario_plan

__all__ = [
    "ACTING",
    "GROUPS",
    "group_in_progress",
    "group_leaders",
    "group_refusal",
    "COVER",
    "activation_side",
    "FALL_CAUSES",
    "KINDS",
    "SCENARIO_ACTIONS",
    "TESTS",
    "advance",
    "apply",
    "casualties",
    "fresh_state",
    "has_rapid_fire",
    "plan",
    "offered",
    "range_bands",
    "prompts",
    "may_take",
    "scenario_actions",
]

PLANS = {"shoot": shoot_plan, "fight": fight_plan, "coup-de-grace": coup_de_grace_plan}
APPLY = {
    "shoot": apply_shoot,
    "fight": apply_fight,
    "coup-de-grace": apply_coup_de_grace,
    "test": apply_test,
    "scenario": apply_scenario,
}


def plan(kind: str, params: dict, fighters: list, session) -> Plan:
    if kind == "test":
        return test_plan(params, fighters, session)
    if kind == "scenario":
        return scenario_plan(params, fighters, session)
    if kind == "fight":
        return fight_plan(params, fighters, session)  # a Blind target's Reaction attacks are the battle's fact
    return PLANS[kind](params, fighters)


def apply(plan: Plan, result: dict, session) -> list[str]:
    return APPLY[plan.kind](plan, result, session)
