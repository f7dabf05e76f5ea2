"""Falling, jumping and structures (1995 rulebook, Advanced Game Rules)."""

import json
from fractions import Fraction as F

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulebook.classic.advanced import fall_hit, falls_chance
from rulebook.classic.checks import check_odds, check_roll
from rulebook.dice import ScriptedDice
from rulebook.errors import RulesInputError
from rulebook.query import Query
from rulebook.tests.cli_answers import ok


def odds(**query) -> dict:
    return check_odds(Query(query))


def exact(answer: dict, name: str = "outcome") -> dict:
    return {k: F(v) for k, v in answer[f"{name}_exact"].items()}


@pytest.mark.parametrize(
    "height,strength,damage,save_mod",
    [(1, 1, "1", 0), (3, 3, "1", 0), (4, 4, "D6", -1), (6, 6, "D6", -3), (12, 12, "D6", -6)],
)
def test_a_fall_hits_with_strength_equal_to_height(height, strength, damage, save_mod):
    hit = fall_hit(height)
    assert (hit.strength, hit.damage, hit.save_mod) == (strength, damage, save_mod)


def test_a_three_inch_fall_by_hand():
    # S3 against T3 wounds on 4+; one wound; injury 1 flesh, 2-5 down, 6 out of action.
    outcome = exact(odds(kind="fall", height=3))
    assert outcome["no_wound"] == F(1, 2)
    assert outcome["flesh_wound"] == F(1, 12)
    assert outcome["down"] == F(1, 3)
    assert outcome["out_of_action"] == F(1, 12)


def test_more_than_twelve_inches_is_out_of_action():
    assert exact(odds(kind="fall", height=13)) == {"out_of_action": 1}
    assert odds(kind="fall", height=13, T=10, save=2)["p_pinned_exact"] == "0"


def test_armour_saves_falls_with_the_strength_modifier():
    # S4 fall against T3 wounds on 3+; mesh 5+ at -1 needs 6.
    outcome = exact(odds(kind="fall", height=4, save=5))
    assert outcome["no_wound"] == F(1, 3)
    assert outcome["saved"] == F(2, 3) * F(1, 6)


@pytest.mark.parametrize(
    "edge,initiative,expected",
    [
        ("pinned_or_down", 3, F(1, 2)),
        ("pinned_or_down", 6, F(0)),
        ("lost_combat", 6, F(1, 6)),  # a 6 always falls
        ("lost_combat", 2, F(2, 3)),
        ("pinned_or_down", 0, F(1)),
    ],
)
def test_test_to_fall(edge, initiative, expected):
    assert falls_chance(edge, initiative) == expected
    answer = odds(kind="fall", height=2, edge=edge, I=initiative)
    assert F(answer["p_falls_exact"]) == expected
    assert exact(answer)["stays_put"] == 1 - expected


def test_falling_onto_another_fighter():
    victim = exact(odds(kind="fall", height=3, onto={"T": 3})["victim"])
    # Struck on 4+ (1/2), then the same S3 one-wound hit.
    assert victim["not_hit"] == F(1, 2)
    assert victim["no_wound"] == F(1, 4)
    assert victim["out_of_action"] == F(1, 24)


def test_fall_roll_with_every_die():
    query = {"kind": "fall", "height": 4, "edge": "lost_combat", "I": 3, "onto": {"T": 3}}
    # Edge 5 > I3: falls. Wound 3 (needs 3+), D6 wounds: 2, injury dice 2 and 6; victim 4: struck, wound 1.
    answer = check_roll(Query(query), ScriptedDice([5, 3, 2, 2, 6, 4, 1]))
    assert answer["falls"] is True
    assert answer["outcome"] == "out_of_action"
    assert answer["landing"]["injury_rolls"] == [2, 6]
    assert answer["victim"]["struck"] is True
    assert answer["victim"]["outcome"] == "no_wound"
    assert answer["victim"]["pinned"] is True


def test_fall_roll_stays_put():
    answer = check_roll(Query({"kind": "fall", "height": 4, "edge": "pinned_or_down", "I": 3}), ScriptedDice([3]))
    assert (answer["falls"], answer["outcome"]) == (False, "stays_put")


def test_jump_across_a_gap():
    answer = odds(kind="jump", gap=3, height=2)
    assert answer["p_pass_exact"] == "2/3"
    outcome = exact(answer)
    assert outcome["clears"] == F(2, 3)
    assert outcome["no_wound"] == F(1, 3) * F(2, 3)  # S2 against T3 wounds on 5+
    assert check_roll(Query({"kind": "jump", "gap": 3, "height": 2}), ScriptedDice([4]))["outcome"] == "clears"


def test_jump_down_is_a_fall():
    jump = odds(kind="jump", height=3)
    assert jump["outcome_exact"] == odds(kind="fall", height=3)["outcome_exact"]


def test_structure_struck_in_hand_to_hand():
    # Two Attacks with S4 against T6: each wounds on 6; one wound destroys it.
    answer = odds(kind="structure", T=6, wounds=1, fighter={"WS": 3, "I": 3, "A": 2, "S": 4})
    assert answer["p_destroyed_exact"] == str(1 - F(5, 6) ** 2)


def test_structure_with_hits_and_damage():
    answer = odds(kind="structure", T=4, wounds=3, hits=1, strength=8, damage="D6")
    # Wounds on 2+; D6 wounds, at least 3 destroys: 5/6 * 4/6.
    assert answer["p_destroyed_exact"] == "5/9"
    assert exact(answer, "wounds_inflicted") == {"0": F(1, 6), "1": F(5, 36), "2": F(5, 36), "3": F(5, 9)}


def test_structure_roll():
    answer = check_roll(
        Query({"kind": "structure", "T": 6, "wounds": 1, "hits": 2, "strength": 4}), ScriptedDice([5, 6])
    )
    assert answer["destroyed"] is True
    assert [h["roll"] for h in answer["hits"]] == [5, 6]


def test_structure_needs_a_striker():
    with pytest.raises(RulesInputError) as err:
        odds(kind="structure", T=6, wounds=1)
    assert err.value.field == "fighter"


@settings(max_examples=40, deadline=None)
@given(
    height=st.integers(1, 14),
    toughness=st.integers(1, 5),
    save=st.sampled_from([None, 4, 5, 6]),
    edge=st.sampled_from([None, "pinned_or_down", "lost_combat"]),
    data=st.data(),
)
def test_fall_roll_lies_in_the_support_of_the_odds(height, toughness, save, edge, data, drawn_dice):
    query = {"kind": "fall", "height": height, "T": toughness, "save": save, "I": 3}
    if edge:
        query["edge"] = edge
    answer = odds(**query)
    assert sum(exact(answer).values()) == 1
    rolled = check_roll(Query(query), drawn_dice(data))
    assert exact(answer)[rolled["outcome"]] > 0


@settings(max_examples=30, deadline=None)
@given(height=st.integers(1, 11), toughness=st.integers(1, 6))
def test_higher_falls_hurt_more(height, toughness):
    low = exact(odds(kind="fall", height=height, T=toughness))
    high = exact(odds(kind="fall", height=height + 1, T=toughness))
    assert high["out_of_action"] >= low["out_of_action"]


def test_a_fall_of_more_than_twelve_inches_takes_every_wound():
    # A W2 fighter falling 13": out of action without dice; the roll says what he lost, as any landing does.
    answer = ok(
        "roll",
        "classic",
        "test",
        "--seed",
        "1",
        stdin=json.dumps({"kind": "fall", "height": 13, "T": 3, "wounds_left": 2}),
    )
    assert answer["landing"]["outcome"] == "out_of_action" and answer["landing"]["wounds_lost"] == 2
    assert answer["dice"] == []


def test_a_multi_wound_fighter_who_falls_loses_wounds_before_injury_dice():
    # W2 T3, a 5" fall: S5 wounds on 2+ (5/6), D6 wounds; 1 wound (1/6) only takes a wound, and he is pinned.
    answer = ok("odds", "classic", "test", stdin=json.dumps({"kind": "fall", "height": 5, "T": 3, "wounds_left": 2}))
    assert answer["outcome_exact"]["wound_lost"] == "5/36"
    assert answer["outcome_exact"]["no_wound"] == "1/6"
