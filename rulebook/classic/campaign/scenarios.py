"""The classic pre-battle Scenario table (2D6) and the rulebook's scenarios.

Source: S3 classic rulebook (Living Rulebook text) p109, Pre-battle Sequence and Scenario Table, as
scanned at https://www.yumpu.com/en/document/view/15156036/necromunda-rulebook-games-workshop/109;
the scenarios on pp110-113 of the same scan (Gang Fight p110, Scavengers p111, Hit and Run p113)
and the Living Rulebook's Rescue Mission (https://yaktribe.games/community/vault/rescue-mission.614/).

The player whose gang has the lower rating rolls; when a scenario has an attacker and a defender,
the player who picks it attacks. The Rescue Mission is not on the table: a gang whose fighter was
captured may choose it instead of paying the ransom. The scan we could read shows the extra rule
under 2 (a dome prone to cave-ins); any extra rule under 3 or 12 was not legible there, so those
rows only say who chooses.
"""

from __future__ import annotations

from rulebook.dice import DiceSource
from rulebook.tables import Row, Table

SCAN = "https://www.yumpu.com/en/document/view/15156036/necromunda-rulebook-games-workshop"

SCENARIOS = {
    "gang-fight": {"name": "Gang Fight", "attacker_defender": False, "page": 110},
    "scavengers": {"name": "Scavengers", "attacker_defender": False, "page": 111},
    "hit-and-run": {"name": "Hit and Run", "attacker_defender": True, "page": 113},
    "ambush": {"name": "Ambush", "attacker_defender": True, "page": None},
    "the-raid": {"name": "The Raid", "attacker_defender": True, "page": None},
    "rescue-mission": {"name": "Rescue Mission", "attacker_defender": True, "page": None},
}

CAVE_IN = (
    "fought in an old dome prone to cave-ins: each time a heavy weapon or grenade is used, D6 4-6 the roof "
    "falls in, the game ends in a draw, and every model must roll under its Initiative or take a S4 hit (-1 save)"
)

SCENARIO_TABLE = Table(
    name="scenario",
    title="Scenario",
    dice="2D6",
    rows=(
        Row(2, 2, "Higher-rated gang chooses", {"chooser": "higher rating", "special": CAVE_IN}),
        Row(3, 3, "Higher-rated gang chooses", {"chooser": "higher rating", "special": None}),
        Row(4, 6, "Gang Fight", {"chooser": None, "scenario": "gang-fight", "special": None}),
        Row(7, 11, "Lower-rated gang chooses", {"chooser": "lower rating", "special": None}),
        Row(12, 12, "Lower-rated gang chooses", {"chooser": "lower rating", "special": None}),
    ),
    source=f"S3 classic rulebook p109 ({SCAN}/109)",
)


def roll_scenario(dice: DiceSource) -> dict:
    """Roll the Scenario table (by the player with the lower gang rating), every die shown."""
    mark = len(dice.rolls)
    found = SCENARIO_TABLE.roll(dice)
    return {**found, "scenarios": SCENARIOS, "dice": [r.as_json() for r in dice.rolls[mark:]]}
