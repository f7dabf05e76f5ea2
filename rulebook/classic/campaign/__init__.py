"""The classic (1995 / Living Rulebook) campaign rules as data and pure functions.

- :mod:`.serious_injury`: the Serious Injuries chart (D66) with structured effects and
  :func:`apply_serious_injury` over a :class:`rulebook.roster.FighterSnapshot`; the D6 for
  fighters still down at the end of the game;
- :mod:`.experience`: experience from a battle, the advance thresholds and
  :func:`advances_gained`, the advance roll, the skill tables and house skill access;
- :mod:`.scenarios`: the pre-battle Scenario table;
- :mod:`.territories`: the Territory table (from the content file) and working a territory;
- :mod:`.actions`: the command line's ``odds``/``roll`` for them.

Each module cites the public references it follows (the seed rulebook text has no campaign section).
"""

from rulebook.classic.campaign.actions import ACTIONS
from rulebook.classic.campaign.experience import (
    ADVANCE,
    SKILL_TABLE_ROLLS,
    advances_gained,
    battle_experience,
    roll_advance,
    roll_skill,
)
from rulebook.classic.campaign.scenarios import SCENARIO_TABLE, roll_scenario
from rulebook.classic.campaign.serious_injury import (
    DOWN_AT_END,
    SERIOUS_INJURY,
    apply_serious_injury,
    roll_serious_injury,
)
from rulebook.classic.campaign.territories import TERRITORY, work_territory

TABLES = (SERIOUS_INJURY, ADVANCE, SCENARIO_TABLE, DOWN_AT_END, TERRITORY, *SKILL_TABLE_ROLLS.values())

__all__ = [
    "ACTIONS",
    "TABLES",
    "advances_gained",
    "apply_serious_injury",
    "battle_experience",
    "roll_advance",
    "roll_scenario",
    "roll_serious_injury",
    "roll_skill",
    "work_territory",
]
