"""2018+ core resolution: Injury dice, hit/wound/save rolls, Damage, shoot, fight and the tests."""

import json
from fractions import Fraction as F

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulebook.dice import ScriptedDice, SeededDice
from rulebook.errors import RulesInputError
from rulebook.n18 import BENCHMARKS, checks, fighting, shooting
from rulebook.n18.damage import (
    FLESH_WOUND,
    INJURY_DICE,
    OUT_OF_ACTION,
    SERIOUSLY_INJURED,
    Fighter,
    apply_injury,
    damage_outcomes,
    injury_dice_count,
)
from rulebook.n18.resolution import MISS, hit_faces, hit_needed, p_save, save_target, wound_target
from rulebook.query import Query
from rulebook.tests.cli_answers import ok, refused


def exact(answer: dict, name: str):
    value = answer[f"{name}_exact"]
    return {k: F(v) for k, v in value.items()} if isinstance(value, dict) else F(value)


# --- Injury dice ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("roll", "result"),
    [
        (1, "Flesh Wound"),
        (2, "Flesh Wound"),
        (3, "Seriously Injured"),
        (4, "Seriously Injured"),
        (5, "Seriously Injured"),
        (6, "Out of Action"),
    ],
)
def test_injury_dice_rows(roll, result):
    assert INJURY_DICE.lookup(roll)["result"] == result
    assert ok("table", "n18", "injury-dice", str(roll))["result"] == result


@pytest.mark.parametrize("roll", ["0", "7", "13", "x"])
def test_injury_dice_refuses_impossible_rolls(roll):
    assert refused("table", "n18", "injury-dice", roll).startswith("roll")


def test_flesh_wounds_lower_toughness_and_toughness_zero_is_out_of_action():
    fighter = Fighter(toughness=2, wounds=0)
    once = apply_injury(fighter, FLESH_WOUND)
    assert (once.flesh_wounds, once.out_of_action) == (1, False)
    assert apply_injury(once, FLESH_WOUND).out_of_action


def test_a_second_seriously_injured_result_is_a_flesh_wound():
    down = apply_injury(Fighter(3, 0), SERIOUSLY_INJURED)
    again = apply_injury(down, SERIOUSLY_INJURED)
    assert down.seriously_injured and again.flesh_wounds == 1


@pytest.mark.parametrize(
    ("wounds", "damage", "dice"), [(1, 1, 1), (2, 1, 0), (2, 2, 1), (2, 3, 2), (1, 3, 3), (0, 2, 2)]
)
def test_one_injury_dice_at_zero_wounds_and_one_per_extra_damage(wounds, damage, dice):
    assert injury_dice_count(Fighter(3, wounds), damage) == dice


def test_two_injury_dice_on_a_t3_fighter():
    outcome = {k: sum(p for f, p in damage_outcomes(Fighter(3, 1), 2).items() if _name(f) == k) for k in NAMES}
    assert outcome == {FLESH_WOUND: F(1, 9), SERIOUSLY_INJURED: F(7, 12), OUT_OF_ACTION: F(11, 36)}


def test_two_injury_dice_on_a_t2_fighter_two_flesh_wounds_take_them_out():
    outcomes = damage_outcomes(Fighter(2, 1), 2)
    assert sum(p for f, p in outcomes.items() if f.out_of_action) == F(5, 12)


NAMES = (FLESH_WOUND, SERIOUSLY_INJURED, OUT_OF_ACTION)


def _name(fighter):
    if fighter.out_of_action:
        return OUT_OF_ACTION
    return SERIOUSLY_INJURED if fighter.seriously_injured else FLESH_WOUND


# --- hit, wound and save ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("strength", "toughness", "needed"),
    [(8, 4, 2), (9, 4, 2), (5, 4, 3), (4, 4, 4), (3, 4, 5), (2, 4, 6), (3, 6, 6), (3, 5, 5), (1, 3, 6)],
)
def test_wound_table(strength, toughness, needed):
    assert wound_target(strength, toughness) == needed


@pytest.mark.parametrize(
    ("save", "ap", "needed", "p"),
    [
        (5, 0, 5, F(1, 3)),
        (5, -1, 6, F(1, 6)),
        (5, -2, None, 0),
        (None, 0, None, 0),
        (2, 0, 2, F(5, 6)),
        (4, -3, None, 0),
    ],
)
def test_saves_after_ap_with_natural_one_failing(save, ap, needed, p):
    assert save_target(save, ap) == needed
    assert p_save(save, ap) == p


@pytest.mark.parametrize(
    ("skill", "modifier", "need", "p_hit"),
    [
        (4, 0, {"needed": 4, "then": None}, F(1, 2)),
        (3, 3, {"needed": 2, "then": None}, F(5, 6)),
        (5, -3, {"needed": 6, "then": 5}, F(1, 18)),
        (6, -1, {"needed": 6, "then": 6}, F(1, 36)),
        (4, 1, {"needed": 3, "then": None}, F(2, 3)),
    ],
)
def test_hit_rolls_a_one_always_misses_and_the_improbable_shot(skill, modifier, need, p_hit):
    assert {k: hit_needed(skill, modifier)[k] for k in need} == need
    assert 1 - hit_faces(skill, modifier).get(MISS, 0) == p_hit


# --- shoot -----------------------------------------------------------------------------------

LASGUN = {
    "shooter": {"BS": 4},
    "weapon": "lasgun",
    "target": {"T": 3, "W": 1, "save": 5},
    "distance": 12,
    "cover": "partial",
}


def test_shoot_lasgun_by_hand():
    answer = shooting.odds(Query(LASGUN))
    assert answer["to_hit"]["needed"] == 4  # +1 short-range accuracy, -1 partial cover
    assert (exact(answer, "p_hit"), exact(answer, "p_wound"), exact(answer, "p_unsaved")) == (F(1, 2), F(1, 4), F(1, 6))
    outcome = exact(answer, "outcome")
    assert outcome["flesh_wound"] == F(1, 18)
    assert outcome["seriously_injured"] == F(1, 12)
    assert outcome["out_of_action"] == F(1, 36)
    assert exact(answer, "p_out_of_ammo") == F(1, 36)  # Ammo symbol 1/6, then a 1 on the 2+ Ammo test


def test_a_fighter_standing_at_zero_wounds_goes_straight_to_injury_dice():
    """Left standing at 0 Wounds by a Flesh Wound: a further unsaved hit rolls an Injury dice per Damage."""
    query = {**LASGUN, "target": {"T": 3, "W": 0, "flesh_wounds": 1, "save": 5}}
    odds = shooting.odds(Query(query))
    assert exact(odds, "injury_dice")["1"] == exact(odds, "p_unsaved") == F(2, 9)  # wounds T2 on 3+
    # hit 4, wound 4, save 1 fails, Injury dice 2: a second Flesh Wound, still standing at 0
    rolled = shooting.roll(Query(query), ScriptedDice([4, 4, 1, 2, 3]))
    assert rolled["injury_dice"] == 1 and rolled["outcome"] == "flesh_wound"
    assert rolled["target_after"] == {
        "wounds": 0,
        "flesh_wounds": 2,
        "toughness": 1,
        "seriously_injured": False,
        "out_of_action": False,
    }


def test_shoot_out_of_range_misses():
    answer = shooting.odds(Query({**LASGUN, "distance": 25}))
    assert answer["to_hit"]["needed"] is None
    assert exact(answer, "outcome")["miss"] == 1


def test_shoot_long_range_prone_and_engaged_modifiers():
    prone = shooting.odds(Query({**LASGUN, "distance": 20, "cover": "none", "target": {"T": 3, "state": "prone"}}))
    assert prone["to_hit"]["modifier"] == -1  # long range accuracy "-" and prone at long range
    engaged = shooting.odds(Query({**LASGUN, "cover": "none", "target": {"T": 3, "state": "engaged"}}))
    assert engaged["to_hit"]["modifier"] == 0  # +1 short range, -1 engaged


def test_shoot_template_hits_without_a_roll():
    query = {"shooter": {"BS": 4}, "weapon": "flamer", "target": {"T": 3}, "distance": 5}
    answer = shooting.odds(Query(query))
    assert answer["to_hit"]["template"] and exact(answer, "p_hit") == 1
    assert exact(answer, "p_wound") == F(2, 3)


def test_shoot_melta_at_short_range_is_out_of_action():
    query = {"shooter": {"BS": 3}, "weapon": "meltagun", "target": {"T": 3, "W": 2}, "distance": 5}
    outcome = exact(shooting.odds(Query(query)), "outcome")
    assert outcome["out_of_action"] == F(5, 6) * F(5, 6)  # hit on 2+ (3+ with +1), wound on 2+, no save


def test_shoot_thrown_grenade_range_uses_strength():
    query = {"shooter": {"BS": 4, "S": 3}, "weapon": "frag grenade", "target": {"T": 3}, "distance": 9}
    assert shooting.odds(Query(query))["range"]["long_range"] == 9


# --- fight -----------------------------------------------------------------------------------


def test_fight_hits_distribution():
    answer = fighting.odds(Query({"attacker": {"WS": 3, "A": 2, "S": 3}, "target": {"T": 3}}))
    assert exact(answer, "hits") == {"0": F(1, 9), "1": F(4, 9), "2": F(4, 9)}


def test_fight_power_weapon_by_hand():
    # WS3+ power sword (S+1 = 4, AP-2): a natural 6 to hit ignores the 4+ save and adds 1 Damage.
    query = {"attacker": {"WS": 3, "A": 1, "S": 3}, "weapon": "power sword", "target": {"T": 3, "W": 1, "save": 4}}
    outcome = exact(fighting.odds(Query(query)), "outcome")
    assert outcome["out_of_action"] == F(5, 18) * F(1, 6) + F(1, 9) * F(11, 36)


# --- tests -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("query", "p"),
    [
        ({"characteristic": "WS", "value": 4}, F(1, 2)),
        ({"characteristic": "I", "value": "4+", "modifier": 1}, F(2, 3)),
        ({"characteristic": "Ld", "value": 7}, F(7, 12)),
        ({"characteristic": "Cl", "value": 8, "modifier": -1}, F(5, 18)),
        ({"characteristic": "S", "value": 3}, F(1, 2)),
        ({"characteristic": "T", "value": 4, "modifier": -1}, F(1, 2)),
    ],
)
def test_characteristic_tests(query, p):
    assert exact(checks.odds(Query({"kind": "characteristic", **query})), "p_pass") == p


@pytest.mark.parametrize(
    ("si", "ooa", "crew", "p"), [(2, 1, 6, F(1, 2)), (0, 0, 6, 0), (2, 1, 3, 1), (1, 0, 5, F(1, 3))]
)
def test_bottle_test(si, ooa, crew, p):
    query = {"kind": "bottle", "seriously_injured": si, "out_of_action": ooa, "starting_crew": crew}
    assert exact(checks.odds(Query(query)), "p_bottled") == p


def test_a_bottle_test_counts_the_reinforcements_casualties_against_the_starting_crew():
    """Issue 21 (seed 5 of 16 gangs): a Border Dispute crew of three with four Out of Action after Reinforcements
    was refused, so the End phase could never end; the casualties are bounded by the fighters fielded."""
    query = {"kind": "bottle", "seriously_injured": 0, "out_of_action": 4, "starting_crew": 3, "reinforcements": 2}
    assert exact(checks.odds(Query(query)), "p_bottled") == 1
    assert exact(checks.odds(Query({**query, "out_of_action": 1})), "p_bottled") == F(2, 3)
    with pytest.raises(RulesInputError, match="exceed the fighters fielded"):
        checks.odds(Query({**query, "seriously_injured": 2}))


def test_nerve_and_rally_are_cool_tests():
    for kind in ("nerve", "rally"):
        assert exact(checks.odds(Query({"kind": kind, "Cl": "6+"})), "p_pass") == F(26, 36)


@pytest.mark.parametrize(
    ("query", "outcome"),
    [
        ({"T": 3}, {"out_of_action": F(1, 6), "stays_down": F(1, 2), "recovers": F(1, 3)}),
        ({"T": 2, "flesh_wounds": 1}, {"out_of_action": 1}),
        ({"T": 3, "assisted": True}, {"out_of_action": F(1, 36), "stays_down": F(5, 12), "recovers": F(5, 9)}),
        (
            {"T": 2, "flesh_wounds": 1, "assisted": True},
            {"out_of_action": F(1, 36), "stays_down": F(5, 12), "recovers": F(5, 9)},
        ),
    ],
)
def test_recovery_test_with_and_without_an_assisting_friend(query, outcome):
    assert exact(checks.odds(Query({"kind": "recovery", **query})), "outcome") == outcome


def test_ammo_test():
    assert exact(checks.odds(Query({"kind": "ammo", "ammo": "4+"})), "p_pass") == F(1, 2)


# --- properties ------------------------------------------------------------------------------

profiles = st.fixed_dictionaries(
    {
        "short_range": st.just(8),
        "long_range": st.just(24),
        "acc_short": st.integers(-1, 2),
        "acc_long": st.integers(-1, 1),
        "strength": st.integers(1, 10),
        "ap": st.integers(-3, 0),
        "damage": st.sampled_from([1, 2, 3, "D3"]),
        "ammo": st.sampled_from([None, "2+", "4+", "6+"]),
        "traits": st.sampled_from([[], ["Power"], ["Rending"], ["Shock"]]),
    }
)
targets = st.fixed_dictionaries(
    {
        "T": st.integers(1, 6),
        "W": st.integers(1, 3),
        "save": st.sampled_from([None, 3, 4, 5, 6]),
        "state": st.sampled_from(["standing", "engaged", "prone"]),
    }
)


def shoot_query(bs, profile, target, distance=10, cover="none"):
    return {"shooter": {"BS": bs}, "weapon": profile, "target": target, "distance": distance, "cover": cover}


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 6), profiles, targets, st.integers(0, 30), st.sampled_from(["none", "partial", "full"]))
def test_shoot_outcomes_sum_to_one(bs, profile, target, distance, cover):
    answer = shooting.odds(Query(shoot_query(bs, profile, target, distance, cover)))
    assert sum(exact(answer, "outcome").values()) == 1
    assert sum(exact(answer, "injury_dice").values()) == 1
    assert exact(answer, "p_unsaved") <= exact(answer, "p_wound") <= exact(answer, "p_hit")


@settings(max_examples=40, deadline=None)
@given(profiles, targets)
def test_p_hit_falls_as_the_bs_target_number_rises(profile, target):
    hits = [exact(shooting.odds(Query(shoot_query(bs, profile, target))), "p_hit") for bs in range(2, 7)]
    assert hits == sorted(hits, reverse=True)


@settings(max_examples=40, deadline=None)
@given(profiles, targets)
def test_p_wound_rises_with_strength_and_falls_with_toughness(profile, target):
    by_s = [
        exact(shooting.odds(Query(shoot_query(4, {**profile, "strength": s}, target))), "p_wound") for s in range(1, 11)
    ]
    assert by_s == sorted(by_s)
    by_t = [exact(shooting.odds(Query(shoot_query(4, profile, {**target, "T": t}))), "p_wound") for t in range(1, 8)]
    assert by_t == sorted(by_t, reverse=True)


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 6), profiles, targets, st.integers(0, 10_000))
def test_rolled_shots_land_in_the_support_of_the_odds(bs, profile, target, seed):
    query = Query(shoot_query(bs, profile, target))
    outcome = exact(shooting.odds(query), "outcome")
    assert outcome[shooting.roll(query, SeededDice(seed))["outcome"]] > 0


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 6), st.integers(1, 4), st.integers(1, 6), targets, st.integers(0, 10_000))
def test_fight_sums_to_one_and_rolls_are_possible(ws, attacks, strength, target, seed):
    query = Query({"attacker": {"WS": ws, "A": attacks, "S": strength}, "weapon": "chainsword", "target": target})
    answer = fighting.odds(query)
    assert sum(exact(answer, "outcome").values()) == 1
    assert sum(exact(answer, "hits").values()) == 1
    assert exact(answer, "outcome")[fighting.roll(query, SeededDice(seed))["outcome"]] > 0


def test_scripted_shot_reports_every_die():
    dice = ScriptedDice([4, 4, 1, 3, 2])  # hit 4, wound 4, save 1 fails, Injury 3, Firepower 2 (last)
    answer = shooting.roll(Query(LASGUN), dice)
    assert answer["outcome"] == "seriously_injured"
    assert [r["value"] for r in dice.log()] == [4, 4, 1, 3, 2]


def test_benchmarks_run():
    from rulebook.n18 import ACTIONS

    for _label, action, query in BENCHMARKS:
        assert sum(exact(ACTIONS[action].odds(Query(query)), "outcome").values()) == 1


# --- the command line ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("action", "query", "field"),
    [
        ("shoot", {**LASGUN, "shooter": {"BS": 7}}, "shooter.BS"),
        ("shoot", {**LASGUN, "weapon": "bolt thrower"}, "weapon"),
        ("shoot", {**LASGUN, "weapon": "plasma gun"}, "profile"),
        ("shoot", {**LASGUN, "weapon": "sword"}, "weapon"),
        ("shoot", {**LASGUN, "cover": "heavy"}, "cover"),
        ("shoot", {**LASGUN, "target": {"T": 3, "W": -1}}, "target.W"),
        ("shoot", {**LASGUN, "modifiers": ["lots"]}, "modifiers[0]"),
        ("fight", {"attacker": {"WS": 3, "A": 0, "S": 3}, "target": {"T": 3}}, "attacker.A"),
        ("fight", {"attacker": {"WS": 3, "A": 1, "S": 3}, "weapon": "lasgun", "target": {"T": 3}}, "weapon"),
        ("test", {"kind": "luck"}, "kind"),
        ("test", {"kind": "bottle", "seriously_injured": 4, "out_of_action": 3, "starting_crew": 6}, "out_of_action"),
        ("test", {"kind": "characteristic", "characteristic": "Ld", "value": 13}, "value"),
    ],
)
def test_cli_refuses_bad_input_naming_the_field(action, query, field):
    assert refused("odds", "n18", action, stdin=json.dumps(query)).startswith(field)


def test_cli_refuses_dice_that_cannot_be_rolled():
    assert refused("roll", "n18", "shoot", "--dice", "7", stdin=json.dumps(LASGUN)).startswith("dice")


def test_cli_shoot_odds_and_roll():
    odds = ok("odds", "n18", "shoot", stdin=json.dumps(LASGUN))
    assert odds["p_unsaved_exact"] == "1/6"
    rolled = ok("roll", "n18", "shoot", "--seed", "7", stdin=json.dumps(LASGUN))
    assert rolled["dice"] and rolled["outcome"] in odds["outcome"]
