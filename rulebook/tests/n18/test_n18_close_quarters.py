"""2018+ close combat weapons (Sidearm, two weapons, two Parry weapons), Charge, Coup de Grace, Blaze, Home Turf
and the Rally and Nerve modifiers: hand-worked fractions through the command line, and unknown fields refused."""

import json
from fractions import Fraction as F

import pytest

from rulebook.dice import ScriptedDice
from rulebook.n18 import fighting
from rulebook.query import Query
from rulebook.tests.cli_answers import ok, refused


def exact(answer: dict, name: str):
    value = answer[f"{name}_exact"]
    return {k: F(v) for k, v in value.items()} if isinstance(value, dict) else F(value)


def odds(action: str, query: dict) -> dict:
    return ok("odds", "n18", action, stdin=json.dumps(query))


def split(answer: dict) -> list:
    return [(w["weapon"], w["attack_dice"]) for w in answer["weapons"]]


# --- Sidearm, two weapons, two Parry weapons ------------------------------------------------------------


def test_a_sidearm_takes_one_attack_dice_and_the_rest_are_unarmed():
    answer = odds("fight", {"attacker": {"WS": 3, "A": 3, "S": 3}, "weapon": "laspistol", "target": {"T": 3}})
    assert split(answer) == [("Laspistol", 1), ("Unarmed", 2)]
    assert answer["attack_dice"] == 3


def test_a_sidearm_passes_its_spare_dice_to_the_melee_weapon():
    # A2, charging, two weapons: 4 Attack dice, split 2/2, but the pistol takes only one.
    query = {
        "attacker": {"WS": 3, "A": 2, "S": 3, "charging": True},
        "weapon": "laspistol",
        "second_weapon": "sword",
        "target": {"T": 3},
    }
    assert split(odds("fight", query)) == [("Laspistol", 1), ("Sword", 3)]


def test_two_weapons_roll_their_own_dice():
    # WS4+ A1 with a chainsword (+1 Accuracy: 3+) and a stub gun (Sidearm: its Accuracy does not count, 4+):
    # 2 Attack dice, one each. No hit 1/3*1/2; one 2/3*1/2 + 1/3*1/2; two 2/3*1/2.
    query = {
        "attacker": {"WS": 4, "A": 1, "S": 3},
        "weapon": "chainsword",
        "second_weapon": "stub gun",
        "target": {"T": 3},
    }
    answer = odds("fight", query)
    assert split(answer) == [("Chainsword", 1), ("Stub gun", 1)]
    assert [w["to_hit"]["needed"] for w in answer["weapons"]] == [3, 4]
    assert exact(answer, "hits") == {"0": F(1, 6), "1": F(1, 2), "2": F(1, 3)}


def test_two_parry_weapons_re_roll_two_hits():
    # WS3+ A2 unarmed against a sword and a chainsword: every hit is re-rolled once, so each die hits 4/9.
    query = {
        "attacker": {"WS": 3, "A": 2, "S": 3},
        "target": {"T": 3, "weapon": "sword", "second_weapon": "chainsword"},
    }
    answer = odds("fight", query)
    assert answer["parries"] == 2
    assert exact(answer, "hits") == {"0": F(25, 81), "1": F(40, 81), "2": F(16, 81)}


def test_only_the_power_weapon_of_two_parries_a_power_attack():
    # A power sword against a sword and a power sword: one parry, as with the power sword alone.
    query = {
        "attacker": {"WS": 3, "A": 2, "S": 3},
        "weapon": "power sword",
        "target": {"T": 3, "weapon": "sword", "second_weapon": "power sword"},
    }
    assert exact(odds("fight", query), "hits") == {"0": F(7, 27), "1": F(12, 27), "2": F(8, 27)}


def test_an_unwieldy_weapon_is_used_alone():
    query = {
        "attacker": {"WS": 3, "A": 2, "S": 3},
        "weapon": "two-handed axe",
        "second_weapon": "sword",
        "target": {"T": 3},
    }
    assert refused("odds", "n18", "fight", stdin=json.dumps(query)).startswith("second_weapon:")


def test_a_rolled_fight_with_two_weapons_rolls_each_weapon_in_turn():
    query = {
        "attacker": {"WS": 3, "A": 1, "S": 3},
        "weapon": "sword",
        "second_weapon": "laspistol",
        "target": {"T": 3, "W": 2},
    }
    # sword die 4 (hit), pistol die 1 (miss); the sword's hit: wound 4, Damage 1 of 2 Wounds.
    rolled = fighting.roll(Query(query), ScriptedDice([4, 1, 4]))
    assert [(a["weapon"], a["face"], a["result"]) for a in rolled["attacks"]] == [(1, 4, "unsaved"), (2, 1, "miss")]
    assert rolled["target_after"]["wounds"] == 1


# --- Charge, Coup de Grace, Blaze -----------------------------------------------------------------------


@pytest.mark.parametrize(("distance", "p"), [(5, F(1)), (6, F(2, 3)), (7, F(1, 3)), (7.5, F(0))])
def test_a_charge_adds_d3_inches(distance, p):
    assert exact(odds("charge", {"M": 4, "distance": distance}), "p_reaches") == p


def test_a_coup_de_grace_takes_a_seriously_injured_fighter_out_of_action():
    answer = odds("coup-de-grace", {"target": {"T": 3, "state": "seriously_injured"}})
    assert exact(answer, "p_out_of_action") == 1
    error = refused("odds", "n18", "coup-de-grace", stdin=json.dumps({"target": {"T": 3, "state": "standing"}}))
    assert error.startswith("target.state:")


def test_blaze_burn_and_putting_the_fire_out():
    # S3 AP-1 D1 against T3 W1 with a 5+ save (6+ after AP): unsaved 1/2 * 5/6 = 5/12, then the Injury dice.
    # Put out with one friend within 1": 5+ standing (1/3), 3+ once Seriously Injured (+2; 2/3).
    answer = odds("blaze", {"target": {"T": 3, "W": 1, "save": 5}, "friends_within_1": 1})
    assert exact(answer, "outcome") == {
        "unharmed": F(7, 12),
        "wound_lost": 0,
        "flesh_wound": F(5, 36),
        "seriously_injured": F(5, 24),
        "out_of_action": F(5, 72),
    }
    assert exact(answer, "p_flames_out") == (F(7, 12) + F(5, 36)) * F(1, 3) + F(5, 24) * F(2, 3)
    assert exact(answer, "p_flames_out") + exact(answer, "p_still_ablaze") + F(5, 72) == 1


def test_blaze_catches_on_a_four():
    assert exact(odds("blaze", {"step": "catch"}), "p_catches_fire") == F(1, 2)


def test_an_engaged_fighter_ablaze_cannot_drop_prone():
    query = {"target": {"T": 3, "state": "engaged"}, "goes_prone": True}
    assert refused("odds", "n18", "blaze", stdin=json.dumps(query)).startswith("goes_prone:")


# --- Home Turf, Rally and Nerve ------------------------------------------------------------------------------


def test_home_turf_bottle_rolls_two_dice_and_keeps_the_lower():
    base = {"kind": "bottle", "starting_crew": 6, "seriously_injured": 1, "out_of_action": 1}
    assert exact(odds("test", base), "p_bottled") == F(1, 3)  # a 5 or 6 on one die
    assert exact(odds("test", {**base, "home_turf": True}), "p_bottled") == F(1, 9)  # both dice 5 or 6
    rolled = ok("roll", "n18", "test", "--dice", "6,2", stdin=json.dumps({**base, "home_turf": True}))
    assert rolled["kept"] == 2 and rolled["total"] == 4 and rolled["passed"]


def test_rally_adds_home_turf_and_friends_within_three_inches():
    # Cl 8+: 2D6 of 8 or more is 15/36; +1 Home Turf and +2 for two friends: 5 or more, 30/36.
    assert exact(odds("test", {"kind": "rally", "Cl": 8}), "p_pass") == F(15, 36)
    answer = odds("test", {"kind": "rally", "Cl": 8, "home_turf": True, "friends_within_3": 2})
    assert answer["modifier"] == 3 and exact(answer, "p_pass") == F(30, 36)


def test_home_turf_does_not_help_a_nerve_test():
    assert refused("odds", "n18", "test", stdin=json.dumps({"kind": "nerve", "Cl": 8, "home_turf": True})) == (
        "home_turf: is not a field this action knows"
    )


def test_a_bottled_gangs_fighter_tests_cool_to_stay():
    assert exact(odds("test", {"kind": "flee", "Cl": 7}), "p_pass") == F(21, 36)


# --- unknown fields ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("action", "query", "field"),
    [
        ("fight", {"attacker": {"WS": 3, "A": 1, "S": 3}, "target": {"T": 3}, "modifers": [1]}, "modifers"),
        ("fight", {"attacker": {"WS": 3, "A": 1, "S": 3, "chargin": True}, "target": {"T": 3}}, "attacker.chargin"),
        (
            "shoot",
            {"shooter": {"BS": 3}, "weapon": "lasgun", "target": {"T": 3, "sav": 5}, "distance": 8},
            "target.sav",
        ),
        ("test", {"kind": "recovery", "T": 3, "asisted": True}, "asisted"),
    ],
)
def test_unknown_fields_are_refused_by_name(action, query, field):
    assert refused("odds", "n18", action, stdin=json.dumps(query)).startswith(f"{field}:")
    assert refused("roll", "n18", action, "--seed", "1", stdin=json.dumps(query)).startswith(f"{field}:")


def test_unknown_classic_modifier_field_is_refused():
    query = {"shooter": {"BS": 3}, "weapon": "laspistol", "target": {"T": 3}, "distance": 12, "modifier": ["x"]}
    assert refused("odds", "classic", "shoot", stdin=json.dumps(query)).startswith("modifier:")
