"""The steps of each edition's post-battle sequence, computed over fighter snapshots (no writes).

- :mod:`.base`: the battle's facts (:class:`Context`), a step's outcome and choices, injuries as effects;
- :mod:`.n18`: the club campaign guide's Post-Battle Sequence (2018+);
- :mod:`.classic`: the classic post-battle rules.
"""

from postbattle.engine.base import (
    Context,
    Field,
    FighterInfo,
    ResultInfo,
    Step,
    StepOutcome,
    TerritoryInfo,
    snapshot_from_json,
)
from postbattle.engine.classic import CLASSIC_STEPS, advances_due
from postbattle.engine.n18 import N18_STEPS, may_act

STEPS = {"n18": N18_STEPS, "classic": CLASSIC_STEPS}


def steps_for(edition: str) -> tuple[Step, ...]:
    return STEPS[edition]


__all__ = [
    "STEPS",
    "Context",
    "Field",
    "FighterInfo",
    "ResultInfo",
    "Step",
    "StepOutcome",
    "TerritoryInfo",
    "advances_due",
    "may_act",
    "snapshot_from_json",
    "steps_for",
]
