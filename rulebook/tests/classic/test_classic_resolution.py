"""The shared classic chain: Wound chart, saves, damage, injuries (1995 rulebook, Shooting)."""

from fractions import Fraction as F

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rulebook.classic.resolution import (
    DOWN,
    FLESH_WOUND,
    INJURY,
    NO_WOUND,
    OUT_OF_ACTION,
    OUTCOMES,
    SAVED,
    WOUND_CHART,
    WOUND_LOST,
    Hit,
    Target,
    hit_odds,
    hit_roll,
    injury_dice,
    save_needed,
    strength_save_modifier,
    wound_needed,
)
from rulebook.dice import ScriptedDice
from rulebook.errors import RulesInputError

N = None
# The chart as printed in the 1995 rulebook, Strength rows 1-10, Toughness columns 1-10.
PRINTED = {
    1: [4, 5, 6, 6, N, N, N, N, N, N],
    2: [3, 4, 5, 6, 6, N, N, N, N, N],
    3: [2, 3, 4, 5, 6, 6, N, N, N, N],
    4: [2, 2, 3, 4, 5, 6, 6, N, N, N],
    5: [2, 2, 2, 3, 4, 5, 6, 6, N, N],
    6: [2, 2, 2, 2, 3, 4, 5, 6, 6, N],
    7: [2, 2, 2, 2, 2, 3, 4, 5, 6, 6],
    8: [2, 2, 2, 2, 2, 2, 3, 4, 5, 6],
    9: [2, 2, 2, 2, 2, 2, 2, 3, 4, 5],
    10: [2, 2, 2, 2, 2, 2, 2, 2, 3, 4],
}


@pytest.mark.parametrize("strength,toughness", [(s, t) for s in range(1, 11) for t in range(1, 11)])
def test_wound_chart_cell_by_cell(strength, toughness):
    assert WOUND_CHART[strength][toughness] == PRINTED[strength][toughness - 1]
    assert wound_needed(strength, toughness) == PRINTED[strength][toughness - 1]


@pytest.mark.parametrize("strength,need", [(0, None), (11, 2), (12, 2)])
def test_wound_needed_outside_the_printed_rows(strength, need):
    assert wound_needed(strength, 3) == need


@pytest.mark.parametrize(
    "save,mod,need", [(6, 0, 6), (5, 0, 5), (4, 0, 4), (5, -1, 6), (6, -1, None), (4, -3, None), (None, 0, None)]
)
def test_save_needed(save, mod, need):
    assert save_needed(save, mod) == need


@pytest.mark.parametrize(
    "strength,mod", [(1, 0), (3, 0), (4, -1), (5, -2), (6, -3), (7, -4), (8, -5), (9, -6), (12, -6)]
)
def test_strength_save_modifier_chart(strength, mod):
    assert strength_save_modifier(strength) == mod


@pytest.mark.parametrize("roll,result", [(1, "Flesh Wound"), (2, "Down"), (5, "Down"), (6, "Out of Action")])
def test_injury_table(roll, result):
    assert INJURY.lookup(roll)["result"] == result


@pytest.mark.parametrize("wounds,left,count", [(1, 1, 1), (4, 1, 4), (1, 2, 0), (2, 2, 1), (3, 2, 2), (2, 0, 2)])
def test_injury_dice(wounds, left, count):
    assert injury_dice(wounds, left) == count


def test_s3_t3_no_armour_by_hand():
    odds = hit_odds(Hit(3), Target(3))
    assert odds == {
        NO_WOUND: F(1, 2),
        SAVED: 0,
        WOUND_LOST: 0,
        FLESH_WOUND: F(1, 12),
        DOWN: F(1, 3),
        OUT_OF_ACTION: F(1, 12),
    }


def test_s4_save_mod_against_mesh_by_hand():
    # S4 vs T3 wounds on 3+ (2/3); mesh 5 with -1 saves on 6 (1/6).
    odds = hit_odds(Hit(4, save_mod=-1), Target(3, save=5))
    assert odds[SAVED] == F(2, 3) * F(1, 6)
    assert odds[OUT_OF_ACTION] == F(2, 3) * F(5, 6) * F(1, 6)


def test_two_wounds_on_a_one_wound_fighter():
    # Two Injury dice: any 6 out; else any 2-5 down; two 1s are two flesh wounds.
    odds = hit_odds(Hit(10, damage="2"), Target(1))
    assert odds[OUT_OF_ACTION] == F(5, 6) * (1 - F(25, 36))
    assert odds[FLESH_WOUND] == F(5, 6) * F(1, 36)


def test_two_flesh_wounds_bleed_out_at_zero_ws_and_bs():
    # WS2 BS1 with one flesh wound already: a further one leaves 0/0.
    target = Target(3, flesh_wounds=1, WS=2, BS=1)
    odds = hit_odds(Hit(3), target)
    assert odds[FLESH_WOUND] == 0
    assert odds[OUT_OF_ACTION] == F(1, 2) * F(2, 6)


def test_d3_damage_on_a_two_wound_fighter():
    odds = hit_odds(Hit(5, damage="D3"), Target(3, wounds_left=2))
    wound = F(5, 6)  # S5 vs T3 wounds on 2+
    assert odds[WOUND_LOST] == wound * F(1, 3)
    # 2 wounds: one die; 3 wounds: two dice.
    assert odds[OUT_OF_ACTION] == wound * (F(1, 3) * F(1, 6) + F(1, 3) * F(11, 36))


def test_bad_damage_names_field():
    with pytest.raises(RulesInputError) as err:
        hit_odds(Hit(3, damage="D4"), Target(3))
    assert err.value.field == "damage"


def test_roll_steps_every_die():
    result = hit_roll(Hit(4, damage="D3", save_mod=-1), Target(3, save=4), ScriptedDice([5, 2, 3, 6, 1, 1]))
    assert result.outcome == OUT_OF_ACTION
    assert [s["step"] for s in result.steps] == ["wound", "save", "damage", "injury"]
    assert result.injury_rolls == (6, 1, 1)
    assert result.flesh_wounds == 2


hits = st.builds(
    Hit,
    strength=st.integers(0, 12),
    damage=st.sampled_from(["1", "2", "D3", "D6", "2D6"]),
    save_mod=st.integers(-6, 0),
)
targets = st.builds(
    Target,
    T=st.integers(1, 10),
    wounds_left=st.integers(0, 3),
    save=st.sampled_from([None, 2, 3, 4, 5, 6]),
    flesh_wounds=st.integers(0, 3),
    WS=st.one_of(st.none(), st.integers(1, 6)),
    BS=st.one_of(st.none(), st.integers(1, 6)),
)


@given(hits, targets)
def test_outcome_sums_to_one(hit, target):
    odds = hit_odds(hit, target)
    assert set(odds) == set(OUTCOMES)
    assert sum(odds.values()) == 1
    assert all(p >= 0 for p in odds.values())


@given(hits, targets)
def test_harm_is_monotonic_in_strength_and_toughness(hit, target):
    def harmed(h, t):
        odds = hit_odds(h, t)
        return 1 - odds[NO_WOUND] - odds[SAVED]

    stronger = Hit(hit.strength + 1, hit.damage, hit.save_mod)
    assert harmed(stronger, target) >= harmed(hit, target)
    if target.T < 10:
        tougher = Target(target.T + 1, target.wounds_left, target.save, target.flesh_wounds, target.WS, target.BS)
        assert harmed(hit, tougher) <= harmed(hit, target)


@given(hits, targets, st.data())
def test_roll_lies_in_support_of_odds(drawn_dice, hit, target, data):
    dice = drawn_dice(data)
    result = hit_roll(hit, target, dice)
    assert hit_odds(hit, target)[result.outcome] > 0
    assert hit_roll(hit, target, ScriptedDice(dice.faces)) == result
