"""2018+ kit rules read from the 2023 Armoury (issue 25): Versatile reach in a fight and a charge, the maul's AP +1,
and the Sidearm trait under its 2018 name. Hand-worked fractions through the command line."""

import json
from dataclasses import replace
from fractions import Fraction as F

import pytest

from rulebook.dice import ScriptedDice
from rulebook.errors import RulesInputError
from rulebook.n18 import fighting, kit, trading_post
from rulebook.n18.campaign import post_battle
from rulebook.n18.resolution import p_save
from rulebook.query import Query
from rulebook.roster import FighterSnapshot
from rulebook.tests.cli_answers import ok, refused

TARGET = {"T": 3, "W": 1, "WS": 4, "A": 1, "S": 3, "weapon": "fighting knife"}


def odds(action: str, query: dict) -> dict:
    return ok("odds", "n18", action, stdin=json.dumps(query))


# --- Versatile --------------------------------------------------------------------------------------------


def test_a_whip_attacks_from_three_inches_and_the_knife_cannot_strike_back():
    answer = odds(
        "fight",
        {
            "attacker": {"WS": 3, "A": 1, "S": 3, "T": 3, "W": 1},
            "weapon": "whip",
            "distance": 3,
            "target": TARGET,
            "reaction": True,
        },
    )
    assert answer["reach"]["distance"] == 3
    assert "Fighting knife reaches 0" in answer["reach"]["no_reaction"]
    assert "reaction" not in answer
    # WS3+ with the whip's -1 Accuracy: 4+ to hit, one Attack dice
    assert F(answer["p_any_hit_exact"]) == F(1, 2)


def test_in_base_contact_the_target_strikes_back_as_before():
    answer = odds(
        "fight",
        {"attacker": {"WS": 3, "A": 1, "S": 3, "T": 3, "W": 1}, "weapon": "whip", "target": TARGET, "reaction": True},
    )
    assert "reaction" in answer and "reach" not in answer


def test_a_weapon_that_does_not_reach_is_refused_naming_the_distance():
    error = refused(
        "odds",
        "n18",
        "fight",
        stdin=json.dumps(
            {"attacker": {"WS": 3, "A": 1, "S": 3}, "weapon": "shock stave", "distance": 3, "target": {"T": 3, "W": 1}}
        ),
    )
    assert error.startswith("distance: ") and 'Shock stave reaches 2"' in error


def test_two_versatile_fighters_fight_at_reach_both_ways():
    target = TARGET | {"weapon": "whip"}
    answer = odds(
        "fight",
        {
            "attacker": {"WS": 3, "A": 1, "S": 3, "T": 3, "W": 1},
            "weapon": "las cutter",
            "distance": 2,
            "target": target,
            "reaction": True,
        },
    )
    assert "reaction" in answer and "no_reaction" not in answer["reach"]


@pytest.mark.parametrize(("reach", "p"), [(0, F(0)), (1, F(1, 3)), (2, F(2, 3)), (3, F(1))])
def test_a_charge_need_only_come_within_the_weapons_reach(reach, p):
    # M4 + D3 against 8": 5, 6 or 7 inches; a reach of r covers the last r inches.
    assert F(odds("charge", {"M": 4, "distance": 8, "reach": reach})["p_reaches_exact"]) == p


def test_a_spelled_out_versatile_profile_keeps_its_reach():
    spelled = {
        "name": "Chain lance",
        "short_range": "E",
        "long_range": 2,
        "strength": "S+2",
        "ap": -2,
        "damage": 2,
        "traits": ["Lance", "Unwieldy", "Versatile"],
    }
    profile = trading_post.read_profile(Query({"weapon": spelled}))
    assert trading_post.reach(profile) == 2 and fighting.is_close_combat(profile)


def test_a_reach_without_the_versatile_trait_is_refused():
    spelled = {"name": "Odd", "short_range": "E", "long_range": 2, "strength": 3, "damage": 1, "traits": ["Melee"]}
    error = refused(
        "odds",
        "n18",
        "fight",
        stdin=json.dumps({"attacker": {"WS": 3, "A": 1, "S": 3}, "weapon": spelled, "target": {"T": 3, "W": 1}}),
    )
    assert error.startswith("weapon.short_range: ")


# --- the maul's AP +1 and the Sidearm trait -----------------------------------------------------------------


def test_the_mauls_ap_plus_one_helps_the_save():
    (maul,) = trading_post.weapon("maul")["profiles"]
    assert (maul["strength"], maul["ap"], maul["damage"]) == ("S", 1, 2)
    assert p_save(5, maul["ap"]) == F(1, 2)  # a 5+ save against AP +1 is made on 4+
    assert p_save(2, maul["ap"]) == F(5, 6)  # a natural 1 still fails


def test_pistols_carry_the_2023_sidearm_trait_and_the_old_name_still_means_it():
    (autopistol,) = trading_post.weapon("autopistol")["profiles"]
    assert "Sidearm" in autopistol["traits"] and "Pistol" not in autopistol["traits"]
    old = {
        "name": "Old export's pistol",
        "short_range": 4,
        "long_range": 12,
        "strength": 3,
        "damage": 1,
        "ammo": "4+",
        "traits": ["Pistol"],
    }
    assert fighting.is_sidearm(trading_post.read_profile(Query({"weapon": old})))


def test_every_trading_post_chem_has_its_side_effect():
    assert set(kit.CHEMS) == {
        "frenzon",
        "ghast",
        "icrotic-slime",
        "kalma",
        "obscura",
        "slaught",
        "spur",
        "stinger-mould",
    }
    assert all(chem.side_effect for chem in kit.CHEMS.values())
    assert kit.side_effects(["slaught", "slaught", "no-such-chem"]) == [f"slaught: {kit.CHEMS['slaught'].side_effect}"]


def test_icrotic_slime_drops_the_mind_to_10_and_two_chems_risk_a_bad_reaction():
    stats = {"M": 5, "WS": 4, "A": 1, "Ld": 7, "Int": 11, "Wil": 6}
    out, _, notes = kit.under_chems(stats, ["icrotic-slime"])
    assert (out["Ld"], out["Int"], out["Wil"]) == (10, 11, 10)
    assert not any("D6 of" in note for note in notes)
    out, _, notes = kit.under_chems(stats, ["icrotic-slime", "slaught"])
    assert out["WS"] == 2 and "D6 of 2 or less" in notes[-1]


def test_a_chem_worn_off_leaves_the_line_and_icrotic_slime_gains_last_with_it():
    base = {"M": 4, "WS": 4, "S": 3, "T": 3, "I": 3, "A": 1, "Ld": 7, "Cl": 3, "Int": 8, "Wil": 8}
    assert kit.stats_in_battle(base, ["spur"], [], {}) == {**base, "M": 6, "I": 2}
    assert kit.stats_in_battle(base, ["spur"], ["spur"], {}) == base
    gained = kit.stats_in_battle(base, ["icrotic-slime"], [], {"M": 2, "Cl": 3, "I": 1})
    # Movement higher; Cool and Initiative are target numbers: lower, never past 2+.
    assert (gained["M"], gained["Cl"], gained["I"], gained["Ld"]) == (6, 2, 2, 10)
    assert kit.stats_in_battle(base, ["icrotic-slime", "spur"], [], {"I": 1})["I"] == 2
    assert not kit.taken_before_battle("stinger-mould") and kit.taken_before_battle("a-house-chem")


@pytest.mark.parametrize(
    ("slug", "toughness", "p"),
    [("spur", 3, F(7, 12)), ("spur", 8, F(1)), ("kalma", 3, F(5, 18)), ("obscura", 10, F(1)), ("kalma", 1, F(1, 12))],
)
def test_shaking_a_chem_off_is_2d6_plus_toughness(slug, toughness, p):
    assert kit.shake_off_chance(slug, toughness) == p
    assert F(kit.odds(Query({"chem": slug, "T": toughness}))["p_pass_exact"]) == p


def test_icrotic_slime_checks_roll_a_d3_for_each_passed():
    values = {"M": 4, "S": 3, "T": 3, "I": 4, "A": 1, "Cl": 7}
    # M 4 passes on 4 (D3 1), S fails on 5, T passes on 3 (D3 3), I 4+ passes on 4 (D3 2), A fails on 2, Cl 7+ on 3+4.
    answer = kit.roll(Query({"chem": "icrotic-slime", **values}), ScriptedDice([4, 1, 5, 3, 3, 4, 2, 2, 3, 4, 1]))
    assert answer["gains"] == {"M": 1, "T": 3, "I": 2, "Cl": 1}
    assert F(kit.odds(Query({"chem": "icrotic-slime", **values}))["p_I_exact"]) == F(1, 2)
    assert kit.roll(Query({"chem": "ghast"}), ScriptedDice([1]))["outcome"] == "insane"
    with pytest.raises(RulesInputError):
        kit.odds(Query({"chem": "slaught"}))


def test_after_the_battle_ghast_tests_willpower_and_an_addictive_chem_toughness():
    fighter = FighterSnapshot(characteristics={"T": 3, "Wil": 8})
    worse = post_battle.ghast_willpower_test(fighter, ScriptedDice([3, 4]))
    assert worse.fighter.characteristics["Wil"] == 9
    assert post_battle.ghast_willpower_test(fighter, ScriptedDice([4, 4])).fighter == fighter  # 8 passes
    insane = post_battle.ghast_willpower_test(fighter, ScriptedDice([6, 6]))
    assert insane.fighter.injuries == ("ghast-insane",) and insane.fighter.characteristics["Wil"] == 8
    assert post_battle.addiction_check("slaught", fighter, ScriptedDice([3]))[0] is False
    assert post_battle.addiction_check("frenzon", fighter, ScriptedDice([2]))[0] is True  # 2 + 2 over Toughness 3
    dead = post_battle.icrotic_slime_removal(replace(fighter, status="dead"), ScriptedDice([2, 3]))
    assert dead.fighter.status == "dead" and dead.changes[0].after == "already dead"


def test_a_charge_under_obscura_moves_d6_plus_d3():
    answer = odds("charge", {"M": 4, "distance": 6, "movement_d6": True})
    assert F(answer["p_reaches_exact"]) == F(1, 2)  # D6 + D3 of 6 or more: 9 of the 18 pairs
    assert answer["move"] == {
        "2": "1/18",
        "3": "1/9",
        "4": "1/6",
        "5": "1/6",
        "6": "1/6",
        "7": "1/6",
        "8": "1/9",
        "9": "1/18",
    }
    assert odds("charge", {"M": 4, "distance": 6})["move"] == {"5": "1/3", "6": "1/3", "7": "1/3"}  # unchanged
