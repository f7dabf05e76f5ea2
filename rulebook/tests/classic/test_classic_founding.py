"""A new classic gang rolls five territories on the D66 Territory table."""

import pytest

from rulebook.classic.campaign.founding import roll_starting_territories
from rulebook.dice import ScriptedDice
from rulebook.errors import RulesInputError


def test_five_rolls_read_as_d66():
    rolled = roll_starting_territories(ScriptedDice([1, 1, 1, 2, 2, 1, 1, 1, 6, 6]))
    assert [t["roll"] for t in rolled] == [11, 12, 21, 11, 66]
    assert [t["slug"] for t in rolled][:3] == ["chem-pit", "old-ruins", "slag"]
    assert rolled[3]["slug"] == "chem-pit"  # a repeat stands
    assert [d["value"] for d in rolled[4]["dice"]] == [6, 6]


def test_too_few_dice_is_an_input_error():
    with pytest.raises(RulesInputError):
        roll_starting_territories(ScriptedDice([1, 1]))
