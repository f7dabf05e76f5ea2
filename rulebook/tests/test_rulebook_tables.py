"""Reading a table result as a player types it."""

import pytest

from rulebook import editions
from rulebook.errors import RulesInputError


@pytest.mark.parametrize(
    ("table", "typed", "roll"),
    [
        ("lasting-injury", "44", 44),
        ("lasting-injury", "4,4", 44),
        ("lasting-injury", "1 5", 15),
        ("home-settlement-recruit", "6+6", 66),
        ("scenario", "5,6", 11),
        ("scenario", "9", 9),
    ],
)
def test_two_dice_may_be_typed_apart(table, typed, roll):
    assert editions.table("n18", table).lookup(typed)["roll"] == roll


@pytest.mark.parametrize(
    ("table", "typed", "message"),
    [
        ("lasting-injury", "17", "cannot be rolled on D66"),
        ("lasting-injury", "7,1", "1 to 6"),
        ("scenario", "13", "cannot be rolled on 2D6"),
        ("scenario", "0,6", "1 to 6"),
        ("medical-escort", "3,3", "whole number"),
        ("lasting-injury", "four", "whole number"),
    ],
)
def test_impossible_results_are_refused_naming_the_roll(table, typed, message):
    with pytest.raises(RulesInputError, match=message) as refused:
        editions.table("n18", table).lookup(typed)
    assert refused.value.field == "roll"
