"""2018+ movement: Agility tests, movement cost, falling and jumping down (seed n18-core-movement.txt)."""

import json
from fractions import Fraction as F

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulebook.dice import ScriptedDice, SeededDice
from rulebook.n18 import movement
from rulebook.n18.movement import FALL_BANDS, agility_passes, fall_band, p_agility
from rulebook.query import Query
from rulebook.tests.cli_answers import ok, refused


def exact(answer: dict, name: str):
    value = answer[f"{name}_exact"]
    return {k: F(v) for k, v in value.items()} if isinstance(value, dict) else F(value)


# --- Agility tests ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("query", "p"),
    [
        ({}, F(1, 2)),
        ({"escher": True}, F(2, 3)),
        ({"modifier": 5}, F(5, 6)),
        ({"modifier": -5}, F(1, 6)),
        ({"escher": True, "railings": True}, F(5, 6)),
        ({"modifier": -1}, F(1, 3)),
    ],
)
def test_agility_test_four_plus_natural_one_fails_natural_six_passes(query, p):
    answer = movement.agility_odds(Query(query))
    assert answer["target"] == 4
    assert exact(answer, "p_pass") == p


def test_agility_does_not_use_initiative():
    assert movement.agility_odds(Query({"I": 2}))["p_pass_exact"] == "1/2"


@pytest.mark.parametrize(("face", "modifier", "passed"), [(1, 5, False), (6, -5, True), (3, 1, True), (3, 0, False)])
def test_agility_natural_rolls(face, modifier, passed):
    assert agility_passes(face, modifier) is passed


@given(st.integers(-5, 4))
def test_agility_chance_never_falls_as_modifiers_rise(modifier):
    assert F(1, 6) <= p_agility(modifier) <= p_agility(modifier + 1) <= F(5, 6)


# --- movement cost ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("segment", "cost", "test"),
    [
        ({"kind": "open", "distance": 3}, 3, None),
        ({"kind": "difficult", "distance": 1.5}, 3, None),
        ({"kind": "dangerous", "distance": 1}, 2, "dangerous"),
        ({"kind": "obstacle", "height": 1.5}, 1.5, None),
        ({"kind": "door"}, 2, None),
        ({"kind": "climb", "height": 2}, 4, None),
        ({"kind": "ladder", "height": 2}, 2, None),
        ({"kind": "step", "height": 0.5}, 0, None),
        ({"kind": "gap", "width": 2}, 2, None),
        ({"kind": "gap", "width": 2.5}, 2.5, "Agility"),
        ({"kind": "jump_down", "height": 3}, 3, None),
    ],
)
def test_each_movement_cost_rule(segment, cost, test):
    answer = movement.move_cost_odds(Query({"path": [segment]}))
    assert answer["cost"] == cost
    step = answer["steps"][0]
    if test is None:
        assert step["test"] is None and exact(answer, "p_all_tests_pass") == 1
    else:
        assert test in step["test"]


def test_dangerous_terrain_wounds_on_a_one_and_a_wide_gap_is_an_agility_test():
    path = [{"kind": "dangerous", "distance": 0.5}, {"kind": "gap", "width": 3}]
    answer = movement.move_cost_odds(Query({"movement": 5, "path": path, "escher": True}))
    assert exact(answer, "p_all_tests_pass") == F(5, 6) * F(2, 3)
    assert (answer["cost"], answer["enough_movement"], answer["remaining"]) == (4, True, 1)


def test_not_enough_movement():
    answer = movement.move_cost_odds(Query({"movement": 4, "path": [{"kind": "climb", "height": 2.5}]}))
    assert (answer["cost"], answer["enough_movement"], answer["remaining"]) == (5, False, 0)


def test_a_failed_leap_stops_the_roll():
    path = [{"kind": "gap", "width": 3}, {"kind": "open", "distance": 2}]
    answer = movement.move_cost_roll(Query({"path": path}), ScriptedDice([2]))
    assert answer["steps"][-1]["leap"] == "falls" and len(answer["steps"]) == 1


@settings(max_examples=50, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["open", "difficult", "climb", "ladder"]), st.integers(0, 6)), max_size=6))
def test_movement_cost_adds_up(parts):
    path = [{"kind": kind, "distance" if kind in ("open", "difficult") else "height": n} for kind, n in parts]
    total = sum(n * (2 if kind in ("difficult", "climb") else 1) for kind, n in parts)
    assert movement.move_cost_odds(Query({"path": path or [{"kind": "door"}]}))["cost"] == (total if path else 2)


# --- falling ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("height", "band"),
    [
        (0.5, 0),
        (2, 0),
        (2.1, 1),
        (3, 1),
        (5, 1),
        (5.5, 2),
        (6, 2),
        (7, 2),
        (7.5, 3),
        (8, 3),
        (9, 3),
        (9.2, 4),
        (10, 4),
        (40, 4),
    ],
)
def test_falling_table_bands_round_the_distance_up(height, band):
    assert fall_band(F(str(height))) == band


@pytest.mark.parametrize(
    ("band", "hit"),
    [
        (0, None),
        (1, {"strength": 3, "ap": 0, "damage": 1}),
        (2, {"strength": 5, "ap": -1, "damage": 1}),
        (3, {"strength": 7, "ap": -2, "damage": 2}),
        (4, {"strength": 9, "ap": -3, "damage": 3}),
    ],
)
def test_falling_table_rows(band, hit):
    assert FALL_BANDS[band]["hit"] == hit


# Each row's hit on a T3, 1-Wound fighter with no save, worked by hand: the wound roll (S against T3), then
# one Injury dice per point of Damage (1/3 Flesh Wound, 1/2 Seriously Injured, 1/6 Out of Action), a second
# Seriously Injured counting as a Flesh Wound and a third Flesh Wound taking a T3 fighter Out of Action.
@pytest.mark.parametrize(
    ("height", "outcome"),
    [
        (4, {"pinned": F(1, 2), "flesh_wound": F(1, 6), "seriously_injured": F(1, 4), "out_of_action": F(1, 12)}),
        (7, {"pinned": F(1, 3), "flesh_wound": F(2, 9), "seriously_injured": F(1, 3), "out_of_action": F(1, 9)}),
        (
            9,
            {
                "pinned": F(1, 6),
                "out_of_action": F(5, 6) * F(11, 36),
                "seriously_injured": F(5, 6) * F(7, 12),
                "flesh_wound": F(5, 6) * F(1, 9),
            },
        ),
        (11, {"pinned": F(1, 6), "out_of_action": F(5, 6) * F(11, 24), "seriously_injured": F(5, 6) * F(13, 24)}),
    ],
)
def test_each_falling_row_by_hand(height, outcome):
    answer = movement.fall_odds(Query({"height": height, "target": {"T": 3, "W": 1}}))
    assert exact(answer, "outcome") == outcome
    assert "necrovox.org" in answer["falling_table_source"]


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 14))
def test_a_longer_fall_is_never_kinder(height):
    def harm(h):
        outcome = exact(movement.fall_odds(Query({"height": h, "target": {"T": 3, "W": 2, "save": 5}})), "outcome")
        return outcome.get("out_of_action", 0), 1 - outcome.get("pinned", 0) - outcome.get("no_fall", 0)

    assert all(longer >= shorter for longer, shorter in zip(harm(height + 1), harm(height), strict=True))


def test_a_short_fall_pins_without_a_hit():
    assert exact(movement.fall_odds(Query({"height": 2})), "outcome") == {"pinned": 1}


def test_jumping_down_a_good_landing_lowers_the_band():
    outcome = exact(movement.fall_odds(Query({"height": 2, "cause": "jump_down"})), "outcome")
    assert outcome == {"no_fall": F(1, 2), "pinned": F(1, 2)}


def test_forced_off_a_ledge_with_railings():
    answer = movement.fall_odds(Query({"height": 2, "cause": "forced", "railings": True}))
    assert exact(answer, "p_agility") == F(2, 3)
    assert exact(answer, "outcome") == {"stays_put": F(2, 3), "pinned": F(1, 3)}


def test_landing_on_another_fighter_is_four_plus():
    answer = movement.fall_odds(Query({"height": 4, "lands_on_fighter": True}))
    assert exact(answer, "p_lands_on_fighter") == F(1, 2)
    rolled = movement.fall_roll(Query({"height": 4, "lands_on_fighter": True}), ScriptedDice([4, 1]))
    assert rolled["lands_on_fighter"] is True


@settings(max_examples=50, deadline=None)
@given(st.integers(0, 12), st.sampled_from(["fall", "forced", "jump_down"]), st.integers(0, 10_000))
def test_falls_sum_to_one_and_rolls_are_possible(height, cause, seed):
    query = Query({"height": height, "cause": cause, "target": {"T": 3, "W": 2, "save": 5}})
    outcome = exact(movement.fall_odds(query), "outcome")
    assert sum(outcome.values()) == 1
    assert outcome[movement.fall_roll(query, SeededDice(seed))["outcome"]] > 0


# --- the command line ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("action", "query", "field"),
    [
        ("move-cost", {"path": [{"kind": "obstacle", "height": 3}]}, "path[0].height"),
        ("move-cost", {"path": [{"kind": "step", "height": 1}]}, "path[0].height"),
        ("move-cost", {"path": [{"kind": "gap", "width": -1}]}, "path[0].width"),
        ("move-cost", {"path": [{"kind": "teleport"}]}, "path[0].kind"),
        ("move-cost", {"path": []}, "path"),
        ("agility", {"escher": "yes"}, "escher"),
        ("fall", {"height": 4, "railings": True}, "railings"),
        ("fall", {"height": -2}, "height"),
        ("fall", {"height": 4, "cause": "pushed"}, "cause"),
    ],
)
def test_cli_refuses_bad_movement_input(action, query, field):
    assert refused("odds", "n18", action, stdin=json.dumps(query)).startswith(field)


def test_cli_agility_roll_with_entered_dice():
    answer = ok("roll", "n18", "agility", "--dice", "1", stdin='{"modifier": 4}')
    assert answer["passed"] is False
    assert answer["dice"][0]["value"] == 1
