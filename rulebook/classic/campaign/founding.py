"""A new classic gang's territories: five rolls on the Territory table (D66).

Source: the 1995 rulebook's territory section, pp94-95 of the scan at
https://www.yumpu.com/en/document/view/15156036/necromunda-rulebook-games-workshop/94 (R1 in
``rulebook/data/classic/territories.json``, whose notes record the rule): a gang starts with five
territories generated on the table. The source asks for no re-roll of a repeated result, so a gang
may hold the same kind of territory twice.
"""

from __future__ import annotations

from rulebook.classic.campaign.territories import TERRITORY
from rulebook.dice import DiceSource

STARTING_TERRITORIES = 5
SOURCE = "1995 rulebook pp94-95 (R1 in rulebook/data/classic/territories.json): five starting territories"


def roll_starting_territories(dice: DiceSource) -> list[dict]:
    """The five starting territories, each the Territory table's look-up with the dice it took."""
    rolled = []
    for n in range(STARTING_TERRITORIES):
        mark = len(dice.rolls)
        found = TERRITORY.roll(dice)
        rolled.append({**found, "number": n + 1, "dice": [r.as_json() for r in dice.rolls[mark:]]})
    return rolled
