"""Leadership, Bottle, pinning, recovery, fear, terror, stupidity, frenzy and hatred (1995 rulebook)."""

import json
from fractions import Fraction as F

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulebook.classic.checks import KINDS, check_odds, check_roll
from rulebook.dice import ScriptedDice
from rulebook.errors import RulesInputError
from rulebook.query import Query
from rulebook.tests.cli_answers import ok, refused

# 2D6 equal to or under Ld, counted by hand out of 36.
LD_PASS = {2: 1, 3: 3, 4: 6, 5: 10, 6: 15, 7: 21, 8: 26, 9: 30, 10: 33}


def odds(**query) -> dict:
    return check_odds(Query(query))


def p_pass(**query) -> F:
    return F(odds(**query)["p_pass_exact"])


@pytest.mark.parametrize("ld,ways", LD_PASS.items())
def test_leadership_two_dice_under_ld(ld, ways):
    assert p_pass(kind="leadership", Ld=ld) == F(ways, 36)


@pytest.mark.parametrize(
    "leader,ld",
    [
        ({"Ld": 8}, 8),
        ({"Ld": 8, "within_6": False}, 7),
        ({"Ld": 8, "down": True}, 7),
        ({"Ld": 8, "broken": True}, 7),
        ({"Ld": 6}, 7),  # his own is better
    ],
)
def test_leader_within_6_lends_his_leadership(leader, ld):
    assert p_pass(kind="leadership", Ld=7, leader=leader) == F(LD_PASS[ld], 36)


def test_hatred_tests_as_ld_10():
    assert p_pass(kind="leadership", Ld=5, hatred=True) == F(33, 36)
    assert p_pass(kind="hatred", Ld=5) == F(33, 36)
    assert p_pass(kind="hatred", Ld=5, frenzied=True) == 1


def test_leadership_roll():
    answer = check_roll(Query({"kind": "leadership", "Ld": 7}), ScriptedDice([4, 4]))
    assert (answer["rolled"], answer["passed"], answer["outcome"]) == (8, False, "broken")


@pytest.mark.parametrize(
    "query,expected",
    [
        ({"broken_this_turn": True}, F(0)),
        ({"in_cover_unseen": False}, F(0)),
        ({}, F(21, 36)),
    ],
)
def test_recovering_nerve(query, expected):
    assert p_pass(kind="nerve", Ld=7, **query) == expected


# --- the Bottle test ------------------------------------------------------------------------------


@pytest.mark.parametrize("casualties,tested", [(2, False), (3, True), (10, True)])
def test_bottle_needs_a_quarter_down_or_out(casualties, tested):
    answer = odds(kind="bottle", gang_size=10, down_or_out=casualties, leader={"Ld": 8})
    assert (answer["test"] is not None) == tested
    assert F(answer["p_pass_exact"]) == (F(26, 36) if tested else 1)
    assert answer["voluntary_bottle_allowed"] is True


def test_bottle_with_the_leader_down_uses_the_best_leadership_standing():
    answer = odds(
        kind="bottle", gang_size=8, down_or_out=2, leader={"Ld": 8, "down_or_out": True}, fighters_Ld=[6, 7, 6]
    )
    assert answer["test"] == "2D6 <= 7"
    assert odds(kind="bottle", gang_size=8, down_or_out=1, leader={"Ld": 8})["voluntary_bottle_allowed"] is False


def test_bottle_with_the_leader_down_needs_the_others():
    with pytest.raises(RulesInputError) as err:
        odds(kind="bottle", gang_size=8, down_or_out=2, leader={"Ld": 8, "down_or_out": True})
    assert err.value.field == "fighters_Ld"


def test_bottle_roll():
    answer = check_roll(
        Query({"kind": "bottle", "gang_size": 4, "down_or_out": 1, "leader": {"Ld": 8}}), ScriptedDice([6, 5])
    )
    assert answer["outcome"] == "bottles_out"


# --- pinning and recovery ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "query,expected",
    [
        ({"I": 3}, F(1, 2)),
        ({"I": 6}, F(1)),
        ({"I": 0}, F(0)),
        ({"I": 3, "friend_within_2": False}, F(0)),
        ({"I": 3, "in_hand_to_hand": True}, F(1)),
    ],
)
def test_escape_pinning(query, expected):
    assert p_pass(kind="escape_pinning", **query) == expected


def test_recovery_of_a_down_fighter():
    answer = odds(kind="recovery")
    assert answer["outcome_exact"] == {"down": "2/3", "flesh_wound": "1/6", "out_of_action": "1/6"}
    assert answer["p_pass_exact"] == "1/6"
    # A fighter at WS 1 and BS 1 who takes a further flesh wound bleeds out.
    assert odds(kind="recovery", WS=1, BS=1)["outcome_exact"]["out_of_action"] == "1/3"


@pytest.mark.parametrize("face,outcome", [(1, "flesh_wound"), (3, "down"), (6, "out_of_action")])
def test_recovery_roll(face, outcome):
    assert check_roll(Query({"kind": "recovery"}), ScriptedDice([face]))["outcome"] == outcome


# --- fear, terror, stupidity, frenzy -----------------------------------------------------------------


@pytest.mark.parametrize(
    "query,expected",
    [
        ({"situation": "charged_by"}, F(21, 36)),
        ({"situation": "wants_to_charge", "causes_fear": True}, F(1)),
        ({"situation": "charged_by", "frenzied": True}, F(1)),
        ({"situation": "charged_by", "stupefied": True}, F(1)),
    ],
)
def test_fear(query, expected):
    assert p_pass(kind="fear", Ld=7, **query) == expected


@pytest.mark.parametrize(
    "query,expected",
    [
        ({"situation": "within_8"}, F(21, 36)),
        ({"situation": "within_8", "causes_fear": True}, F(1)),
        ({"situation": "charged_by", "causes_fear": True}, F(1)),
        ({"situation": "charged_by", "causes_terror": True}, F(1)),
        ({"situation": "wants_to_charge"}, F(21, 36)),
    ],
)
def test_terror(query, expected):
    assert p_pass(kind="terror", Ld=7, **query) == expected


def test_fear_failures():
    assert odds(kind="fear", Ld=7, situation="wants_to_charge")["outcome_exact"]["transfixed"] == "5/12"
    assert odds(kind="terror", Ld=7, situation="within_8")["outcome_exact"]["broken"] == "5/12"


def test_stupidity_in_hand_to_hand():
    answer = odds(kind="stupidity", Ld=7, in_hand_to_hand=True)
    assert answer["outcome_exact"] == {"acts_normally": "7/12", "fights_normally": "5/24", "no_attack_dice": "5/24"}
    moving = odds(kind="stupidity", Ld=7)["outcome_exact"]
    assert moving["wanders"] == moving["stands_still"] == "5/24"
    assert odds(kind="stupidity", Ld=7, frenzied=True)["p_pass_exact"] == "1"


def test_stupidity_roll_fails_then_rolls_a_d6():
    answer = check_roll(Query({"kind": "stupidity", "Ld": 6, "in_hand_to_hand": True}), ScriptedDice([6, 5, 2]))
    assert answer["passed"] is False
    assert answer["outcome"] == "no_attack_dice"
    assert answer["after_fail"]["roll"] == 2


def test_frenzy_control():
    answer = odds(kind="frenzy", Ld=7)
    assert answer["outcome_exact"] == {"frenzied": "5/12", "under_control": "7/12"}
    assert "doubles his Attacks" in answer["effects_while_frenzied"]
    assert odds(kind="frenzy", Ld=7, broken=True)["outcome_exact"] == {"not_frenzied": "1"}


@settings(max_examples=60, deadline=None)
@given(
    kind=st.sampled_from(["leadership", "nerve", "fear", "terror", "stupidity", "frenzy", "hatred"]),
    ld=st.integers(2, 10),
    flags=st.fixed_dictionaries({"in_hand_to_hand": st.booleans(), "causes_fear": st.booleans()}),
    data=st.data(),
)
def test_roll_lies_in_the_support_of_the_odds(kind, ld, flags, data, drawn_dice):
    query = {"kind": kind, "Ld": ld, "situation": "charged_by", **flags}
    answer = odds(**query)
    assert sum(F(p) for p in answer["outcome_exact"].values()) == 1
    rolled = check_roll(Query(query), drawn_dice(data))
    assert F(answer["outcome_exact"][rolled["outcome"]]) > 0


def test_unknown_kind_names_the_field():
    with pytest.raises(RulesInputError) as err:
        odds(kind="panic")
    assert err.value.field == "kind"
    assert "fall" in KINDS and "recovery" in KINDS


def test_a_test_not_taken_still_knows_its_fields_and_refuses_misspelt_ones():
    known = {"kind": "escape_pinning", "I": 3, "friend_within_2": False}
    assert ok("odds", "classic", "test", stdin=json.dumps(known))["kind"] == "escape_pinning"
    misspelt = {"kind": "escape_pinning", "I": 3, "frend_within_2": False}
    assert refused("odds", "classic", "test", stdin=json.dumps(misspelt)).startswith("frend_within_2:")
