"""The club campaign guide "Playing Necromunda Games in Cycle 1 & 2" as data and pure functions.

- :mod:`.scenarios`: the 2D6 scenario roll, the Rescue Mission challenge, the four scenarios
  (roles, crews, deployment, ending, victory, rewards) and crew selection;
- :mod:`.battlefield`: set-up order, Reinforcements, Home Turf, loot caskets, the ammo cache;
- :mod:`.lasting_injury`: the Lasting Injury table (D66) with structured effects, and
  :func:`apply_lasting_injury` over a :class:`rulebook.roster.FighterSnapshot`;
- :mod:`.post_battle`: the post-battle injury test, Medical Escort, Home Settlement, who may
  take post-battle actions;
- :mod:`.actions`: the command line's ``odds``/``roll`` for them.

The guide's defects are read as the project's seed notes 1-6 say; each module names the ones it uses.
"""

from rulebook.n18.campaign.actions import ACTIONS
from rulebook.n18.campaign.battlefield import LOOT_CASKET, LOOT_CASKET_SMASH_AND_GRAB, REINFORCEMENT
from rulebook.n18.campaign.lasting_injury import LASTING_INJURY, apply_lasting_injury, roll_lasting_injury
from rulebook.n18.campaign.post_battle import (
    HOME_SETTLEMENT_RECRUIT,
    MEDICAL_ESCORT,
    POST_BATTLE_INJURY,
    apply_medical_escort,
    post_battle_action_eligibility,
    post_battle_injury_test,
)
from rulebook.n18.campaign.scenarios import SCENARIO_TABLE, SCENARIOS, roll_scenario, select_crew

TABLES = (
    SCENARIO_TABLE,
    LASTING_INJURY,
    LOOT_CASKET,
    LOOT_CASKET_SMASH_AND_GRAB,
    MEDICAL_ESCORT,
    HOME_SETTLEMENT_RECRUIT,
    REINFORCEMENT,
    POST_BATTLE_INJURY,
)

__all__ = [
    "ACTIONS",
    "SCENARIOS",
    "TABLES",
    "apply_lasting_injury",
    "apply_medical_escort",
    "post_battle_action_eligibility",
    "post_battle_injury_test",
    "roll_lasting_injury",
    "roll_scenario",
    "select_crew",
]
