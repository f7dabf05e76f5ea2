"""Gangers' Advancement table (2018+): every row with scripted dice, the limits, the player's preferences."""

from fractions import Fraction

import pytest

from rulebook.dice import ScriptedDice
from rulebook.errors import RulesInputError
from rulebook.n18 import TABLES
from rulebook.n18.advancement import GANGER_ADVANCEMENT, GANGER_XP, ganger_advance, roll_ganger_advance


@pytest.mark.parametrize(
    ("dice", "kind", "characteristic", "value"),
    [
        ((1, 1), "specialist", None, 20),
        ((1, 2), "characteristic", "WS", 20),
        ((2, 2), "characteristic", "WS", 20),
        ((2, 3), "characteristic", "S", 30),
        ((3, 3), "characteristic", "S", 30),
        ((3, 4), "characteristic", "M", 10),
        ((4, 4), "characteristic", "Wil", 5),
        ((4, 5), "characteristic", "Wil", 5),
        ((5, 5), "characteristic", "Ld", 10),
        ((5, 6), "characteristic", "Ld", 10),
        ((6, 6), "specialist", None, 20),
    ],
)
def test_every_roll_of_the_table(dice, kind, characteristic, value):
    scripted = ScriptedDice(list(dice))
    answer = roll_ganger_advance(scripted)
    assert (answer["roll"], answer["kind"], answer["characteristic"], answer["value"]) == (
        sum(dice),
        kind,
        characteristic,
        value,
    )
    assert answer["xp"] == GANGER_XP == 6 and scripted.remaining == 0 and not answer["counted_as_12"]


@pytest.mark.parametrize(
    ("roll", "prefer", "expected"),
    [(3, ["BS"], "BS"), (5, ["T", "S"], "T"), (7, ["I"], "I"), (8, ["Int"], "Int"), (11, ["Cl", "BS"], "Cl")],
)
def test_the_player_picks_one_of_the_rows_two_characteristics(roll, prefer, expected):
    assert ganger_advance(roll, prefer=prefer)["characteristic"] == expected


def test_a_limited_characteristic_gives_way_to_the_other_then_the_roll_counts_as_12():
    assert ganger_advance(6, raised={"S": 2}, prefer=["S"])["characteristic"] == "T"
    closed = ganger_advance(6, raised={"S": 2, "T": 2})
    assert (closed["roll"], closed["kind"], closed["counted_as_12"], closed["value"]) == (6, "specialist", True, 20)
    assert ganger_advance(7, raised={"M": 1}, prefer=["M"])["characteristic"] == "M"  # M may rise twice
    assert ganger_advance(4, blocked=["WS", "BS"])["kind"] == "specialist"  # at the profile's maximum


def test_a_bad_preference_is_refused_before_any_die_is_rolled():
    dice = ScriptedDice([3, 3])
    with pytest.raises(RulesInputError) as error:
        roll_ganger_advance(dice, prefer=["A"])
    assert error.value.field == "prefer" and dice.remaining == 2


def test_the_table_covers_2d6_exactly_and_is_listed_for_the_command_line():
    chances = GANGER_ADVANCEMENT.distribution()
    assert sum(chances.values()) == 1
    assert chances["Specialist"] == Fraction(2, 36)
    assert chances["Strength or Toughness +1"] == Fraction(9, 36)
    assert TABLES["ganger-advancement"] is GANGER_ADVANCEMENT
    assert "18-gaining-experience" in GANGER_ADVANCEMENT.source


@pytest.mark.parametrize(
    ("roll", "prefer", "characteristic", "value"),
    [(2, ["T"], "T", 30), (12, [], "WS", 20), (12, ["Cl"], "Cl", 10), (7, [], "M", 10)],
)
def test_limited_learning_capacity_turns_a_specialist_result_into_another(roll, prefer, characteristic, value):
    answer = ganger_advance(roll, prefer=prefer, never_promoted=True)
    assert (answer["kind"], answer["characteristic"], answer["value"]) == ("characteristic", characteristic, value)


def test_limited_learning_capacity_skips_characteristics_at_their_limit():
    answer = ganger_advance(2, raised={"W": 1, "A": 1, "S": 2}, prefer=["S", "T"], never_promoted=True)
    assert answer["characteristic"] == "T"
    assert "Limited Learning Capacity" in answer["result"]
