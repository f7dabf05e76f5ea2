from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rulebook.dice import (
    ARTILLERY,
    D6,
    D66,
    D66_VALUES,
    JAM,
    MISFIRE,
    SUSTAINED_FIRE,
    TWO_D6,
    ScriptedDice,
    SeededDice,
    d6_at_least,
    parse_dice,
    sum_of,
)
from rulebook.errors import RulesInputError


def test_special_dice_distributions():
    assert SUSTAINED_FIRE.distribution() == {
        1: Fraction(1, 3),
        2: Fraction(1, 3),
        3: Fraction(1, 6),
        JAM: Fraction(1, 6),
    }
    assert ARTILLERY.distribution()[MISFIRE] == Fraction(1, 6)
    assert sum(ARTILLERY.distribution().values()) == 1


def test_two_d6_and_d66():
    assert TWO_D6[7] == Fraction(6, 36) and TWO_D6[2] == TWO_D6[12] == Fraction(1, 36)
    assert sum(TWO_D6.values()) == 1
    assert len(D66_VALUES) == 36 and 17 not in D66 and 70 not in D66 and D66[44] == Fraction(1, 36)


@given(st.integers(min_value=1, max_value=5))
def test_sums_of_d6_are_distributions(n):
    dist = sum_of(D6, n)
    assert sum(dist.values()) == 1
    assert min(dist) == n and max(dist) == 6 * n


def test_d6_at_least():
    assert d6_at_least(4) == Fraction(1, 2)
    assert d6_at_least(7) == 0 and d6_at_least(1) == 1


def test_scripted_dice_in_order_and_logged():
    dice = ScriptedDice(parse_dice("4, 3 jam"))
    assert dice.d6("to hit") == 4
    assert dice.d6("to wound") == 3
    assert dice.roll(SUSTAINED_FIRE, "sustained fire") == JAM
    assert [r.purpose for r in dice.rolls] == ["to hit", "to wound", "sustained fire"]


def test_scripted_dice_refuse_impossible_values_and_running_out():
    with pytest.raises(RulesInputError, match="not a face of the D6"):
        ScriptedDice([7]).d6("to hit")
    with pytest.raises(RulesInputError, match="ran out of dice"):
        ScriptedDice([]).d6("to hit")
    with pytest.raises(RulesInputError) as exc:
        ScriptedDice([5]).roll(ARTILLERY, "scatter distance")
    assert exc.value.field == "dice"


def test_seeded_dice_repeat():
    a, b = SeededDice(7), SeededDice(7)
    assert [a.d6("x") for _ in range(20)] == [b.d6("x") for _ in range(20)]


def test_replay_dice_answer_each_purpose_with_the_die_already_rolled_for_it():
    from rulebook.dice import ReplayDice, ScriptedDice

    recorded = [
        {"die": "D6", "for": "Medical Escort", "value": 1},
        {"die": "D6", "for": "Lasting Injury (tens)", "value": 4},
    ]
    replay = ReplayDice(recorded, ScriptedDice([6]))
    # Asked in another order, and for one purpose never rolled: that one alone takes a new die.
    assert (
        replay.d6("Lasting Injury (tens)") == 4
        and replay.d6("Old Battle Wound") == 6
        and replay.d6("Medical Escort") == 1
    )
    assert replay.replayed == 2 and replay.fresh == [{"die": "D6", "for": "Old Battle Wound", "value": 6}]
    assert replay.kept() == [*recorded, {"die": "D6", "for": "Old Battle Wound", "value": 6}]
    # A second request for the same purpose is a second die: the first is not handed out twice.
    again = ReplayDice(recorded, ScriptedDice([2]))
    assert again.d6("Medical Escort") == 1 and again.d6("Medical Escort") == 2
