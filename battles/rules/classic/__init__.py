"""The 1995 rules at the table: the edition's interface for the battle assistant.

States follow the 1995 rulebook: a fighter is standing, pinned, down or out of action; apart from that
broken, hidden or on overwatch; flesh wounds take 1 from WS and BS each (Shooting: Flesh Wound), so the
queries carry the current WS and BS. :mod:`.queries` builds the ``classic`` shoot, fight, multi-fight and
test queries, :mod:`.effects` writes their answers onto the fighters, :mod:`.phases` holds the prompts and
the turn sequence (Leadership, Shooting: Pinning and Down, Recovering Your Nerve).
"""

from __future__ import annotations

from battles.rules import Plan
from battles.rules.classic.effects import (
    apply_fight,
    apply_multi_fight,
    apply_shoot,
    apply_test,
    casualties,
    fresh_state,
)
from battles.rules.classic.phases import activation_side, advance, prompts
from battles.rules.classic.queries import (
    COVER,
    FALL_EDGES,
    FEAR_SITUATIONS,
    KINDS,
    SHOOT_MODIFIERS,
    TERROR_SITUATIONS,
    TESTS,
    fight_plan,
    multi_fight_plan,
    offered,
    range_bands,
    shoot_plan,
    test_plan,
)

__all__ = [
    "COVER",
    "activation_side",
    "FALL_EDGES",
    "FEAR_SITUATIONS",
    "KINDS",
    "SHOOT_MODIFIERS",
    "TERROR_SITUATIONS",
    "TESTS",
    "advance",
    "apply",
    "casualties",
    "fresh_state",
    "plan",
    "offered",
    "range_bands",
    "prompts",
]

PLANS = {"shoot": shoot_plan, "fight": fight_plan, "multi-fight": multi_fight_plan}
APPLY = {"shoot": apply_shoot, "fight": apply_fight, "multi-fight": apply_multi_fight, "test": apply_test}


def plan(kind: str, params: dict, fighters: list, session=None) -> Plan:
    return test_plan(params, fighters) if kind == "test" else PLANS[kind](params)


def apply(plan: Plan, result: dict, session) -> list[str]:
    return APPLY[plan.kind](plan, result, session)
