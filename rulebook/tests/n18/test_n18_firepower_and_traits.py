"""2018+ Firepower dice and Rapid Fire, Blast markers and templates, armour, the traits that change one attack's
odds, and close combat parries and Reaction attacks: hand-worked fractions, properties, rolls and bad input."""

import json
from fractions import Fraction as F

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulebook.dice import AMMO_FACE, FIREPOWER, ScriptedDice, SeededDice, parse_dice
from rulebook.errors import RulesInputError
from rulebook.n18 import fighting, shooting
from rulebook.query import Query
from rulebook.tests.cli_answers import ok, refused


def exact(answer: dict, name: str):
    value = answer[f"{name}_exact"]
    return {k: F(v) for k, v in value.items()} if isinstance(value, dict) else F(value)


def rapid_fire(x: int, ammo: str = "4+", **extra) -> dict:
    weapon = {
        "short_range": 8,
        "long_range": 24,
        "strength": 3,
        "damage": 1,
        "ammo": ammo,
        "traits": [f"Rapid Fire ({x})"],
    }
    return {"shooter": {"BS": 4}, "weapon": weapon, "target": {"T": 3, "W": 1}, "distance": 10, **extra}


# --- the Firepower dice ----------------------------------------------------------------------------


def test_firepower_dice_faces_and_how_a_player_enters_them():
    assert FIREPOWER.distribution() == {1: F(1, 3), 2: F(1, 3), 3: F(1, 6), AMMO_FACE: F(1, 6)}
    assert parse_dice("4,1a, 1A 3") == [4, "1a", "1a", 3]
    dice = ScriptedDice(["1A", 3])
    assert [dice.roll(FIREPOWER, "test"), dice.roll(FIREPOWER, "test")] == ["1a", 3]


@pytest.mark.parametrize("face", [0, 4, 6, "jam", "2a"])
def test_a_firepower_dice_cannot_show_other_faces(face):
    with pytest.raises(RulesInputError, match="dice"):
        ScriptedDice([face]).roll(FIREPOWER, "test")


# --- Rapid Fire ------------------------------------------------------------------------------------

# One Firepower dice shows one bullet hole on three faces (1, 1 and the Ammo face), two on two, three on one.
# Two dice: 2 holes 1/4, 3 holes 2(1/2)(1/3) = 1/3, 4 holes 2(1/2)(1/6) + (1/3)^2 = 5/18, 5 holes 2(1/3)(1/6)
# = 1/9, 6 holes 1/36; the BS 4+ hit roll (1/2) scales them.


def test_rapid_fire_two_dice_hits_by_hand():
    answer = shooting.odds(Query(rapid_fire(2)))
    assert exact(answer, "hits") == {
        "0": F(1, 2),
        "2": F(1, 8),
        "3": F(1, 6),
        "4": F(5, 36),
        "5": F(1, 18),
        "6": F(1, 72),
    }
    assert answer["firepower"] == {"dice": 2, "rapid_fire": 2}


def test_rapid_fire_two_dice_ammo_by_hand():
    # An Ammo symbol on either dice: 1 - (5/6)^2 = 11/36. A 4+ Ammo test fails half the time: one symbol
    # (10/36) fails 1/2, two symbols (1/36) fail at least once 3/4 and both 1/4 (jammed).
    answer = shooting.odds(Query(rapid_fire(2)))
    assert exact(answer, "p_ammo_check") == F(11, 36)
    assert exact(answer, "p_out_of_ammo") == F(10, 36) * F(1, 2) + F(1, 36) * F(3, 4)
    assert exact(answer, "p_jammed") == F(1, 36) * F(1, 4)


def test_the_shooter_may_roll_fewer_firepower_dice():
    answer = shooting.odds(Query(rapid_fire(2, firepower_dice=1)))
    assert exact(answer, "hits") == {"0": F(1, 2), "1": F(1, 4), "2": F(1, 6), "3": F(1, 12)}
    assert exact(answer, "p_jammed") == 0


def test_a_single_hit_weapon_rolls_one_firepower_dice_and_never_jams():
    answer = shooting.odds(Query({**rapid_fire(1), "weapon": "lasgun", "distance": 20}))
    assert exact(answer, "hits") == {"0": F(1, 2), "1": F(1, 2)}
    assert (exact(answer, "p_ammo_check"), exact(answer, "p_jammed")) == (F(1, 6), 0)
    assert answer["after_out_of_ammo"] == "reloads without an Ammo test"  # Plentiful


def test_rapid_fire_hits_on_a_one_wound_fighter_by_hand():
    # One Firepower dice, S3 against T3 (4+), no save, one Wound. The first hit that wounds brings an Injury
    # dice; a later wound on a Seriously Injured fighter is a Flesh Wound. P(no wound) over 1, 2, 3 hits.
    answer = shooting.odds(Query(rapid_fire(1)))
    no_wound = F(1, 2) * (F(1, 2) * F(1, 2) + F(1, 3) * F(1, 4) + F(1, 6) * F(1, 8))
    assert exact(answer, "outcome")["no_wound"] == no_wound
    assert exact(answer, "p_wound") == F(1, 2) - no_wound


def test_rolled_rapid_fire_takes_hit_firepower_and_ammo_dice_first():
    # Hit 4; two Ammo symbols (one bullet hole each) and both Ammo tests failed (1, 2): jammed. The first hit
    # wounds on 6 and its Injury dice is a 1 (Flesh Wound, T3 to T2); the second hit's wound roll is a 1.
    dice = ScriptedDice([4, "1a", "1a", 1, 2, 6, 1, 1])
    answer = shooting.roll(Query(rapid_fire(2)), dice)
    assert answer["firepower_dice"] == ["1a", "1a"] and answer["hits"] == 2
    assert answer["ammo_tests"] == ["failed", "failed"] and answer["jammed"] and answer["ammo_test"] == "out_of_ammo"
    assert answer["outcome"] == "flesh_wound" and answer["target_after"]["toughness"] == 2
    assert dice.remaining == 0


def test_unstable_overloads_on_an_ammo_symbol_and_one_to_three():
    query = {
        "shooter": {"BS": 3},
        "weapon": "plasma gun",
        "profile": "maximal power",
        "target": {"T": 3},
        "distance": 10,
    }
    assert exact(shooting.odds(Query(query)), "p_overload_out_of_action") == F(1, 6) * F(1, 2)
    assert shooting.odds(Query(query))["after_out_of_ammo"] == "cannot be reloaded this battle"  # Scarce


# --- Scattershot, Knockback, Flesh Wounds -------------------------------------------------------------


def test_scattershot_makes_d6_wound_rolls_by_hand():
    # Shotgun scatter at 3": 4+ with +2 Accuracy hits on 2+; S2 against T3 wounds on 5+; D6 wound rolls, so
    # the chance of none wounding is the mean of (2/3)^n for n = 1..6, which is 665/2187.
    query = {"shooter": {"BS": 4}, "weapon": "shotgun", "profile": "scatter", "target": {"T": 3}, "distance": 3}
    assert exact(shooting.odds(Query(query)), "p_wound") == F(5, 6) * (1 - F(665, 2187))


def test_a_blocked_knockback_hit_adds_damage():
    base = {"shooter": {"BS": 3}, "weapon": "shotgun", "profile": "solid slug", "distance": 6}
    free = shooting.odds(Query({**base, "target": {"T": 3, "W": 3, "S": 3}}))
    blocked = shooting.odds(Query({**base, "target": {"T": 3, "W": 3, "S": 3, "knockback_blocked": True}}))
    assert exact(free, "outcome")["wound_lost"] == exact(free, "p_unsaved")  # Damage 2 on 3 Wounds
    # Hit on 2+ (+1 Accuracy): faces 3-6 reach S3 and make it Damage 3, so an Injury dice follows.
    assert exact(blocked, "outcome")["wound_lost"] == F(1, 6) * F(2, 3)


def test_wound_rolls_after_a_flesh_wound_use_the_lowered_toughness():
    query = {"shooter": {"BS": 4}, "weapon": "lasgun", "target": {"T": 3, "flesh_wounds": 1}, "distance": 20}
    assert exact(shooting.odds(Query(query)), "p_wound") == F(1, 2) * F(2, 3)  # S3 against T2: 3+


def test_gas_ignores_the_save_and_toughness_decides_an_injury_roll():
    # Hit on 4+ (1/2); a D6 of 3+ against T3 (2/3) brings one Injury roll; the 4+ save does not count.
    query = {"shooter": {"BS": 4, "S": 3}, "weapon": "choke gas grenade", "target": {"T": 3, "save": 4}, "distance": 6}
    answer = shooting.odds(Query(query))
    assert exact(answer, "outcome") == {
        "miss": F(1, 2),
        "no_wound": F(1, 6),
        "saved": 0,
        "wound_lost": 0,
        "flesh_wound": F(1, 9),
        "seriously_injured": F(1, 6),
        "out_of_action": F(1, 18),
    }
    rolled = shooting.roll(Query(query), ScriptedDice([4, 3, 6, 2]))  # hit, Gas 3, Injury 6, grenade Ammo 2
    assert rolled["outcome"] == "out_of_action" and rolled["pins"] is False and rolled["ammo_test"] == "out_of_ammo"


def test_toxin_allows_a_save_after_ap():
    # Needle rifle: +2 Accuracy (BS 4+ hits on 2+), AP -2 on a 3+ save leaves 5+; Toxin takes on 3+ against T3.
    query = {"shooter": {"BS": 4}, "weapon": "needle rifle", "target": {"T": 3, "save": 3}, "distance": 6}
    assert exact(shooting.odds(Query(query)), "p_unsaved") == F(5, 6) * F(2, 3) * F(2, 3)


def test_a_grenade_rolls_no_firepower_dice_and_always_tests_its_ammo():
    query = {"shooter": {"BS": 4, "S": 3}, "weapon": "krak grenade", "target": {"T": 3}, "distance": 6}
    answer = shooting.odds(Query(query))
    assert answer["firepower"]["dice"] == 0
    assert (exact(answer, "p_ammo_check"), exact(answer, "p_out_of_ammo")) == (1, F(1, 2))
    assert answer["after_out_of_ammo"] == "out of that grenade for the battle"


def test_pulverise_turns_a_flesh_wound_into_seriously_injured():
    # WS 3+ power hammer with Pulverise spelled out: S4 against T3 wounds on 3+, Damage 1 on one Wound, no save.
    # The Injury dice's Flesh Wound (1/3) becomes Seriously Injured when a D6 reaches T3 (2/3).
    hammer = {"long_range": "E", "strength": "S", "ap": 0, "damage": 1, "traits": ["Melee", "Pulverise"]}
    query = {"attacker": {"WS": 3, "A": 1, "S": 4}, "weapon": hammer, "target": {"T": 3, "W": 1}}
    outcome = exact(fighting.odds(Query(query)), "outcome")
    hit_wound = F(2, 3) * F(2, 3)
    assert outcome["flesh_wound"] == hit_wound * F(1, 3) * F(1, 3)
    assert outcome["seriously_injured"] == hit_wound * (F(1, 2) + F(1, 3) * F(2, 3))
    rolled = fighting.roll(Query(query), ScriptedDice([3, 3, 1, 3]))  # hit, wound, Flesh Wound, Pulverise 3
    assert rolled["outcome"] == "seriously_injured"


# --- Blast markers, templates and armour ------------------------------------------------------------

FRAG = {"shooter": {"BS": 4, "S": 3}, "weapon": "frag grenade", "distance": 6}


def test_blast_hit_roll_other_fighters_and_flak():
    answer = shooting.odds(Query({**FRAG, "target": {"T": 3, "armour": "flak"}, "extra_targets": 2}))
    assert answer["save"]["needed"] == 5  # flak 5+ against a Blast marker
    area = answer["area"]
    assert (F(area["p_on_target_exact"]), F(area["p_scatters_exact"])) == (F(1, 2), F(1, 2))
    assert exact(area, "extra_targets_hit") == {"0": F(1, 2), "2": F(1, 2)}
    assert exact(answer, "outcome")["miss"] == F(1, 2)


@pytest.mark.parametrize(
    ("target", "needed"),
    [
        ({"armour": "flak", "cover_from_marker": "partial"}, 4),
        ({"cover_from_marker": "full"}, 5),
        ({"cover_from_marker": "partial"}, 6),
        ({"armour": "mesh armour"}, 5),
        ({"save": 6}, 6),
    ],
)
def test_cover_from_the_blast_marker_improves_the_save(target, needed):
    answer = shooting.odds(Query({**FRAG, "target": {"T": 3, "under_marker": True, **target}}))
    assert answer["save"]["needed"] == needed
    assert exact(answer, "p_hit") == 1 and answer["to_hit"]["automatic"]


def test_a_flame_template_hits_everyone_under_it_and_cover_helps_the_save():
    query = {
        "shooter": {"BS": 4},
        "weapon": "flamer",
        "distance": 4,
        "cover": "partial",
        "extra_targets": 3,
        "target": {"T": 3, "armour": "flak"},
    }
    answer = shooting.odds(Query(query))
    assert answer["save"]["needed"] == 5  # flak 5+ against a template, AP -1, partial cover +1
    assert exact(answer["area"], "extra_targets_hit") == {"3": 1}
    assert answer["firepower"]["dice"] == 1  # a template still rolls the Firepower dice


def test_flak_is_six_plus_against_a_plain_shot():
    answer = shooting.odds(Query({**FRAG, "weapon": "lasgun", "target": {"T": 3, "armour": "flak armour"}}))
    assert answer["save"]["needed"] == 6 and "area" not in answer


# --- close combat --------------------------------------------------------------------------------------

PARRY = {"attacker": {"WS": 3, "A": 1, "S": 3}, "target": {"T": 3, "weapon": "sword"}}


def test_a_parry_re_rolls_one_hit():
    assert exact(fighting.odds(Query(PARRY)), "hits") == {"0": F(5, 9), "1": F(4, 9)}
    two = fighting.odds(Query({**PARRY, "attacker": {"WS": 3, "A": 2, "S": 3}}))
    assert exact(two, "hits") == {"0": F(7, 27), "1": F(12, 27), "2": F(8, 27)}


@pytest.mark.parametrize(("defender", "hits"), [("sword", F(2, 3)), ("power sword", F(4, 9))])
def test_power_weapons_are_parried_only_by_power_weapons(defender, hits):
    query = {**PARRY, "weapon": "power sword", "target": {"T": 3, "weapon": defender}}
    assert exact(fighting.odds(Query(query)), "hits")["1"] == hits


def test_reaction_attacks_by_hand():
    # WS3+ unarmed S3 against T3 W1: down (Seriously Injured or Out of Action) = 2/3 * 1/2 * 2/3 = 2/9.
    # The target, still Standing 7/9 of the time, strikes back WS4+ S3 against the attacker's T3 W1.
    query = {
        "attacker": {"WS": 3, "A": 1, "S": 3, "T": 3, "W": 1},
        "reaction": True,
        "target": {"T": 3, "W": 1, "WS": 4, "A": 1, "S": 3},
    }
    reaction = fighting.odds(Query(query))["reaction"]
    assert exact(reaction, "p_reacts") == F(7, 9)
    assert exact(reaction, "attacker_outcome") == {
        "unharmed": 1 - F(7, 36),
        "wound_lost": 0,
        "flesh_wound": F(7, 108),
        "seriously_injured": F(7, 72),
        "out_of_action": F(7, 216),
    }


def test_a_blind_target_strikes_back_hitting_only_on_natural_sixes():
    # As above, but the target is Blind (Flash): its Reaction attack hits on a 6 alone, its +2 to hit ignored, so
    # each outcome of the attacker is a third of the sighted target's (1/6 against 1/2).
    query = {
        "attacker": {"WS": 3, "A": 1, "S": 3, "T": 3, "W": 1},
        "reaction": True,
        "target": {"T": 3, "W": 1, "WS": 4, "A": 1, "S": 3, "modifiers": [2], "blind": True},
    }
    reaction = fighting.odds(Query(query))["reaction"]
    assert exact(reaction, "attacker_outcome") == {
        "unharmed": 1 - F(7, 108),
        "wound_lost": 0,
        "flesh_wound": F(7, 324),
        "seriously_injured": F(7, 216),
        "out_of_action": F(7, 648),
    }
    # Rolled: the attacker misses (2); the Blind target's 5 misses where WS 4+ would hit.
    answer = fighting.roll(Query(query), ScriptedDice([2, 5]))
    assert answer["reaction"]["made"] and answer["reaction"]["outcome"] == "unharmed"


def test_disarm_leaves_only_unarmed_reactions():
    query = {
        "attacker": {"WS": 3, "A": 1, "S": 3, "T": 3},
        "weapon": "axe",
        "reaction": True,
        "target": {"T": 3, "W": 2, "WS": 4, "A": 1, "S": 3, "weapon": "power axe"},
    }
    reaction = fighting.odds(Query(query))["reaction"]
    # A natural 6 always hits; with 2 Wounds a single Damage 1 hit cannot take the target down.
    assert exact(reaction, "p_disarmed") == F(1, 6)


def test_a_melee_weapon_accuracy_counts_in_close_combat():
    answer = fighting.odds(Query({"attacker": {"WS": 4, "A": 1, "S": 3}, "weapon": "chainsword", "target": {"T": 3}}))
    assert answer["to_hit"]["needed"] == 3


def test_charging_adds_an_attack_dice():
    answer = fighting.odds(Query({"attacker": {"WS": 4, "A": 1, "S": 3, "charging": True}, "target": {"T": 3}}))
    assert answer["attack_dice"] == 2


def test_a_rolled_fight_with_a_parry_and_a_reaction():
    query = {
        "attacker": {"WS": 3, "A": 2, "S": 3, "T": 3, "W": 1},
        "reaction": True,
        "target": {"T": 3, "W": 2, "WS": 4, "A": 1, "S": 3, "weapon": "sword"},
    }
    # Attack dice 5 and 4; the sword parries the 5, re-rolled 1 (miss); the 4 wounds on 4 and loses a Wound;
    # the target, still Standing, reacts: Attack dice 6, wound 1.
    dice = ScriptedDice([5, 4, 1, 4, 6, 1])
    answer = fighting.roll(Query(query), dice)
    assert answer["hits"] == 1 and answer["target_after"]["wounds"] == 1
    assert answer["reaction"]["made"] and answer["reaction"]["outcome"] == "unharmed"
    assert dice.remaining == 0


# --- properties ------------------------------------------------------------------------------------------

traits = st.sampled_from(
    [
        [],
        ["Rapid Fire (1)"],
        ["Rapid Fire (2)"],
        ["Scattershot"],
        ['Blast (3")'],
        ["Power", "Rapid Fire (1)"],
        ["Knockback"],
        ["Unstable"],
    ]
)
profiles = st.fixed_dictionaries(
    {
        "short_range": st.just(8),
        "long_range": st.just(24),
        "acc_short": st.integers(-1, 2),
        "strength": st.integers(1, 8),
        "ap": st.integers(-2, 0),
        "damage": st.sampled_from([1, 2, "D3"]),
        "ammo": st.sampled_from(["2+", "4+", "6+"]),
        "traits": traits,
    }
)
targets = st.fixed_dictionaries(
    {
        "T": st.integers(2, 5),
        "W": st.integers(1, 2),
        "S": st.integers(2, 5),
        "knockback_blocked": st.booleans(),
        "armour": st.sampled_from(["flak", "mesh armour", "light carapace armour"]),
    }
)


def shot(profile, target, bs=4):
    blocked = target["knockback_blocked"] and "Knockback" in profile["traits"]
    return Query(
        {"shooter": {"BS": bs}, "weapon": profile, "target": {**target, "knockback_blocked": blocked}, "distance": 6}
    )


@settings(max_examples=40, deadline=None)
@given(profiles, targets, st.integers(0, 10_000))
def test_shots_sum_to_one_and_rolls_land_in_their_support(profile, target, seed):
    answer = shooting.odds(shot(profile, target))
    outcome = exact(answer, "outcome")
    assert sum(outcome.values()) == 1 and sum(exact(answer, "hits").values()) == 1
    assert exact(answer, "p_jammed") <= exact(answer, "p_out_of_ammo") <= exact(answer, "p_ammo_check")
    rolled = shooting.roll(shot(profile, target), SeededDice(seed))
    assert outcome[rolled["outcome"]] > 0 and exact(answer, "hits")[str(rolled["hits"])] > 0


@settings(max_examples=30, deadline=None)
@given(profiles, targets)
def test_more_firepower_dice_never_spare_the_target(profile, target):
    profile = {**profile, "traits": ["Rapid Fire (3)"]}
    unharmed = [
        exact(shooting.odds(Query({**shot(profile, target).data, "firepower_dice": n})), "outcome") for n in (1, 2, 3)
    ]
    spared = [o["miss"] + o["no_wound"] + o["saved"] for o in unharmed]
    assert spared == sorted(spared, reverse=True)


fighters = st.fixed_dictionaries(
    {
        "WS": st.integers(2, 5),
        "A": st.integers(1, 3),
        "S": st.integers(2, 5),
        "T": st.integers(2, 4),
        "W": st.integers(1, 2),
        "weapon": st.sampled_from(["sword", "power sword", "axe", "chainsword", "power hammer"]),
    }
)


@settings(max_examples=30, deadline=None)
@given(fighters, fighters, st.integers(0, 10_000))
def test_fights_with_reactions_sum_to_one_and_rolls_are_possible(attacker, defender, seed):
    query = Query({"attacker": attacker, "weapon": attacker["weapon"], "reaction": True, "target": defender})
    answer = fighting.odds(query)
    assert sum(exact(answer, "outcome").values()) == 1
    assert sum(exact(answer["reaction"], "attacker_outcome").values()) == 1
    rolled = fighting.roll(query, SeededDice(seed))
    assert exact(answer, "outcome")[rolled["outcome"]] > 0
    if rolled["reaction"]["made"]:
        assert exact(answer["reaction"], "attacker_outcome")[rolled["reaction"]["outcome"]] > 0


# --- the command line -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("action", "query", "field"),
    [
        ("shoot", rapid_fire(2, firepower_dice=3), "firepower_dice"),
        ("shoot", {**rapid_fire(1), "weapon": "lasgun", "firepower_dice": 2}, "firepower_dice"),
        ("shoot", rapid_fire(9), "weapon.traits"),
        ("shoot", {**FRAG, "target": {"T": 3, "armour": "flak", "save": 5}}, "target.armour"),
        ("shoot", {**FRAG, "target": {"T": 3, "armour": "tin foil"}}, "target.armour"),
        ("shoot", {**FRAG, "weapon": "lasgun", "target": {"T": 3, "under_marker": True}}, "target.under_marker"),
        ("shoot", {**FRAG, "weapon": "lasgun", "target": {"T": 3}, "extra_targets": 2}, "extra_targets"),
        ("shoot", {**FRAG, "target": {"T": 3, "cover_from_marker": "lots"}}, "target.cover_from_marker"),
        (
            "shoot",
            {**FRAG, "weapon": "lasgun", "target": {"T": 3, "knockback_blocked": True}},
            "target.knockback_blocked",
        ),
        (
            "shoot",
            {**FRAG, "weapon": "shotgun", "profile": "solid slug", "target": {"T": 3, "knockback_blocked": True}},
            "target.S",
        ),
        (
            "shoot",
            {**rapid_fire(1), "weapon": {"short_range": "E", "long_range": 24, "strength": 3}},
            "weapon.short_range",
        ),
        ("shoot", {**rapid_fire(1), "weapon": {"short_range": 8, "strength": 3}}, "weapon.long_range"),
        ("fight", {**PARRY, "reaction": True}, "target.WS"),
        ("fight", {**PARRY, "target": {"T": 3, "weapon": "lasgun"}}, "target.weapon"),
        ("fight", {**PARRY, "attacker": {"WS": 3, "A": 1, "S": 3, "charging": "yes"}}, "attacker.charging"),
    ],
)
def test_cli_refuses_bad_input_naming_the_field(action, query, field):
    assert refused("odds", "n18", action, stdin=json.dumps(query)).startswith(field)


def test_cli_refuses_a_firepower_face_the_dice_cannot_show():
    assert "Firepower" in refused("roll", "n18", "shoot", "--dice", "4,6", stdin=json.dumps(rapid_fire(1)))


def test_cli_rolls_rapid_fire_with_entered_dice():
    rolled = ok("roll", "n18", "shoot", "--dice", "4,1a,3,3,3", stdin=json.dumps(rapid_fire(1)))
    assert rolled["firepower_dice"] == ["1a"] and rolled["ammo_tests"] == ["failed"]
    assert rolled["dice"][1] == {"die": "Firepower", "for": rolled["dice"][1]["for"], "value": "1a"}
