"""Hand-to-hand combat (1995 rulebook, Hand-to-Hand Combat; seed-notes 9 and 10)."""

from fractions import Fraction as F

import pytest

from rulebook.classic.combat import fight_odds, multi_fight_odds
from rulebook.classic.combat_actions import (
    break_off_odds_action,
    break_off_roll_action,
    combatant,
    fight_odds_action,
    fight_roll_action,
)
from rulebook.classic.combat_roll import fight_roll, multi_fight_roll
from rulebook.classic.combat_score import (
    ATTACKER,
    DEFENDER,
    STANDOFF,
    Combatant,
    HandWeapon,
    net,
    parries,
    score_odds,
    verdict,
)
from rulebook.classic.resolution import DOWN, OUT_OF_ACTION
from rulebook.dice import ScriptedDice
from rulebook.errors import RulesInputError
from rulebook.query import Query

KNIFE = HandWeapon("knife")
SWORD = HandWeapon("sword", parry=True)


def fighter(**kw) -> Combatant:
    kw.setdefault("WS", 3)
    kw.setdefault("I", 3)
    kw.setdefault("weapons", (KNIFE,))
    return Combatant(**kw)


def wins(att, dfn) -> dict:
    out = {ATTACKER: F(0), DEFENDER: F(0), STANDOFF: F(0)}
    for (winner, _), p in score_odds(att, dfn).items():
        out[winner] += p
    return out


# --- the worked example: a ganger (WS3) against a charging juve (WS2) -------------------------


def test_worked_example_ganger_against_charging_juve():
    query = Query({"attacker": {"WS": 2, "I": 3, "charging": True}, "defender": {"WS": 3, "I": 3}})
    # The juve rolls 5, the ganger 4, then the juve's one hit is rolled to wound (3: no wound).
    answer = fight_roll_action(query, ScriptedDice([5, 4, 3]))
    assert answer["scores"][ATTACKER]["score"] == 8  # 5 + WS2 + 1 for charging
    assert answer["scores"][DEFENDER]["score"] == 7  # 4 + WS3
    assert (answer["winner"], answer["hits"]) == (ATTACKER, 1)
    assert answer["wounds"]["hits"][0]["strength"] == 3


def test_worked_example_in_the_odds():
    # Charging evens the WS gap: the fight is symmetrical, equal Initiative makes ties stand-offs.
    result = wins(fighter(WS=2, charging=True), fighter(WS=3))
    assert result == {ATTACKER: F(5, 12), DEFENDER: F(5, 12), STANDOFF: F(1, 6)}


# --- exact cases worked by hand ------------------------------------------------------------------


def test_one_die_each_equal_fighters():
    # Nets are 0 (a fumbled 1), 2, 3, 4, 5, 6: k hits is the number of pairs k apart.
    odds = score_odds(fighter(), fighter())
    expected = {1: F(4, 36), 2: F(4, 36), 3: F(3, 36), 4: F(2, 36), 5: F(1, 36), 6: F(1, 36)}
    for hits, p in expected.items():
        assert odds[ATTACKER, hits] == p
        assert odds[DEFENDER, hits] == p
    assert odds[STANDOFF, 0] == F(1, 6)
    assert sum(odds.values()) == 1


def test_tie_goes_to_higher_initiative_with_one_hit():
    odds = score_odds(fighter(I=4), fighter(I=3))
    assert (STANDOFF, 0) not in odds
    assert odds[ATTACKER, 1] == F(4, 36) + F(1, 6)


@pytest.mark.parametrize(
    "diff,ia,id_,expected",
    [
        (2, 3, 3, (ATTACKER, 2)),
        (-3, 3, 3, (DEFENDER, 3)),
        (0, 4, 3, (ATTACKER, 1)),
        (0, 2, 5, (DEFENDER, 1)),
        (0, 3, 3, (STANDOFF, 0)),
    ],
)
def test_verdict(diff, ia, id_, expected):
    assert verdict(diff, ia, id_) == expected


@pytest.mark.parametrize(
    "dice,expected",
    [((), 0), ((1,), 0), ((4,), 4), ((6, 6), 7), ((6, 6, 6), 8), ((6, 6, 1), 6), ((1, 1), -1), ((5, 3, 1), 4)],
)
def test_net_is_highest_plus_criticals_minus_fumbles(dice, expected):
    assert net(dice) == expected


def test_combat_score_modifiers():
    assert fighter(WS=3).base_score == 3
    assert fighter(WS=3, charging=True, higher_up=True).base_score == 5
    assert fighter(WS=3, encumbered=True, obstacle=True).base_score == 1
    assert fighter(WS=3, broken=True, charging=True).base_score == 1  # broken: WS counts as 0
    assert fighter(WS=3, bonus=2).base_score == 5


@pytest.mark.parametrize(
    "kw,dice",
    [
        ({}, 1),
        ({"A": 2}, 2),
        ({"weapons": (KNIFE, SWORD)}, 2),
        ({"weapons": (KNIFE, SWORD), "carries_basic_weapon": True}, 1),
        ({"A": 2, "frenzied": True, "weapons": (KNIFE, KNIFE)}, 5),
        ({"extra_dice": 2}, 3),
        ({"A": 3, "no_attack_dice": True}, 0),
    ],
)
def test_attack_dice(kw, dice):
    assert fighter(**kw).dice == dice


def test_no_attack_dice_leaves_ws_alone():
    odds = score_odds(fighter(WS=4, no_attack_dice=True), fighter(WS=1, no_attack_dice=True))
    assert odds == {(ATTACKER, 3): 1}


# --- parry ------------------------------------------------------------------------------------------


def test_sword_matters_one_die_against_one_die():
    # The swordsman parries when the opponent's die beats his; the re-roll must beat it again.
    # With m better faces out of 6 for each of his nets 0,2,...,6 (m = 5..0): sum (m/6)^2 / 6.
    with_sword = wins(fighter(I=4, weapons=(SWORD,)), fighter())
    without = wins(fighter(I=4), fighter())
    assert without[DEFENDER] == F(15, 36)
    assert with_sword[DEFENDER] == F(25 + 16 + 9 + 4 + 1, 216)
    assert with_sword[ATTACKER] == 1 - with_sword[DEFENDER]


def test_sword_charging_example():
    att = fighter(WS=3, I=3, weapons=(SWORD,), charging=True)
    dfn = fighter(WS=2, I=2)
    # Without the parry the juve wins on 7 of 36 pairs; each win is re-rolled and repeats on m/6.
    assert wins(att, dfn)[DEFENDER] == F(4 * 4 + 2 * 2 + 1 * 1, 216)


def test_swords_cancel():
    assert wins(fighter(weapons=(SWORD,)), fighter(weapons=(SWORD,))) == wins(fighter(), fighter())
    assert parries(fighter(weapons=(SWORD, SWORD)), fighter(weapons=(SWORD,))) == 1
    assert parries(fighter(weapons=(SWORD,)), fighter(weapons=(SWORD, SWORD))) == 0


def test_frenzy_takes_away_his_parry_but_his_sword_still_cancels():
    frenzied = fighter(weapons=(SWORD,), frenzied=True)
    assert parries(frenzied, fighter()) == 0
    assert parries(fighter(weapons=(SWORD,)), frenzied) == 0


def test_parry_false_is_no_parry():
    assert wins(fighter(I=4, weapons=(SWORD,), parry=False), fighter()) == wins(fighter(I=4), fighter())


def test_two_parries_against_one_die():
    # Each parry gives the opponent a fresh die that must win again: sum (m/6)^3 / 6.
    result = wins(fighter(I=4, weapons=(SWORD, SWORD), carries_basic_weapon=True), fighter())
    assert result[DEFENDER] == F(125 + 64 + 27 + 8 + 1, 6**4)


def test_parry_against_two_dice_keeps_the_other_die():
    # Dice scripted: swordsman 2; opponent 5 and 3 (winning) -> parry re-rolls the 5 into a 1.
    att = fighter(weapons=(SWORD,), I=4)
    dfn = fighter(A=2)
    answer = fight_roll(att, dfn, ScriptedDice([2, 5, 3, 1, 3]))
    parry = [s for s in answer["steps"] if s["step"] == "parry"][0]
    assert parry == {"step": "parry", "fighter": ATTACKER, "used": True, "rerolled": 5, "now": [1, 3]}
    # Opponent now 3 + 3 = 6 with one fumble; swordsman 2 + 3 + 1 = 6; tie on I: the swordsman hits once.
    assert answer["scores"][ATTACKER]["score"] == 6
    assert answer["scores"][DEFENDER]["score"] == 6
    assert (answer["winner"], answer["hits"]) == (ATTACKER, 1)


def test_parry_auto_is_not_used_when_winning():
    answer = fight_roll(fighter(weapons=(SWORD,)), fighter(T=10), ScriptedDice([6, 2]))
    assert answer["steps"][-1] == {"step": "parry", "fighter": ATTACKER, "used": False, "why": "opponent would not win"}
    assert answer["winner"] == ATTACKER


def test_parry_true_is_used_even_when_winning():
    answer = fight_roll(fighter(weapons=(SWORD,), parry=True), fighter(T=10), ScriptedDice([6, 2, 1]))
    assert answer["steps"][-1]["used"] is True
    assert answer["scores"][DEFENDER]["dice"] == [1]


# --- hatred ---------------------------------------------------------------------------------------


def test_hatred_rerolls_when_not_winning():
    hating = wins(fighter(hatred=True), fighter())
    # Against an opponent's net the hater beats with w = 5/6, 4/6 ... 0, he wins with w + (1 - w) w.
    assert hating[ATTACKER] == sum((2 * F(w, 6) - F(w, 6) ** 2 for w in range(6)), F(0)) / 6 == F(125, 216)
    assert wins(fighter(hatred=True, frenzied=True), fighter(frenzied=True)) == wins(
        fighter(frenzied=True), fighter(frenzied=True)
    )


def test_hatred_roll_with_positions():
    q = Query(
        {
            "attacker": {"WS": 3, "I": 3, "A": 2, "hatred": True, "hate_reroll": [2]},
            "defender": {"WS": 3, "I": 3, "T": 10},
        }
    )
    answer = fight_roll_action(q, ScriptedDice([6, 1, 2, 5]))
    assert answer["steps"][1] == {"step": "hatred re-roll", "fighter": ATTACKER, "dice_rerolled": [2], "now": [6, 5]}


# --- hits, wounds and the loser's fate --------------------------------------------------------


def test_one_hit_in_one_on_one_down_is_out_of_action():
    # WS 4 against WS 3, no dice: one hit, S3 against T3 (4+), injury: 1 flesh wound, 2-6 out.
    result = fight_odds(fighter(WS=4, no_attack_dice=True), fighter(WS=3, no_attack_dice=True))
    fate = result["fate"][DEFENDER]
    assert fate["no_wound"] == F(1, 2)
    assert fate["flesh_wound"] == F(1, 12)
    assert fate[OUT_OF_ACTION] == F(5, 12)
    assert fate[DOWN] == 0
    assert result["fate"][ATTACKER]["not_hit"] == 1


def test_user_strength_weapons_take_the_armour_modifiers_chart():
    assert HandWeapon("club", None, 1).hit(4).save_mod == -2  # S5 blow
    assert HandWeapon("knife").hit(3).save_mod == 0
    assert HandWeapon("power sword", 5, 0, "1", -3, True).hit(2).strength == 5


def test_two_weapons_alternate_hits():
    pistol = HandWeapon("laspistol", 3)
    maul = HandWeapon("maul", 5, 0, "1", -3)
    att = fighter(WS=6, no_attack_dice=True, weapons=(maul, pistol))
    answer = fight_roll(att, fighter(WS=3, no_attack_dice=True, T=10), ScriptedDice([]))
    assert [h["weapon"] for h in answer["wounds"]["hits"]] == ["maul", "laspistol", "maul"]


def test_roll_reports_every_die_and_the_outcome():
    q = Query({"attacker": {"WS": 4, "I": 4, "S": 4, "weapons": ["sword"]}, "defender": {"WS": 3, "I": 3, "save": 5}})
    dice = ScriptedDice([6, 2, 5, 5, 4, 1, 1, 1, 1])
    answer = fight_roll_action(q, dice)
    # 6+4 = 10 against 2+3 = 5: five hits. The first wounds (5), the save needs 6 at -1 (5 fails),
    # injury 4: down. The other four fail to wound (1s). Down in a one-on-one: out of action.
    assert (answer["winner"], answer["hits"]) == (ATTACKER, 5)
    assert answer["wounds"]["outcome"] == OUT_OF_ACTION
    assert answer["wounds"]["finished_off"]
    assert dice.remaining == 0


# --- multiple combats --------------------------------------------------------------------------------


def test_second_opponent_gets_a_die_and_plus_one():
    lone = fighter(WS=3, T=10)  # nothing wounds him: every bout is fought
    result = multi_fight_odds(lone, [fighter(WS=3), fighter(WS=3)])
    first, second = result["bouts"]
    assert first["p_fought_exact"] == "1" and second["p_fought_exact"] == "1"
    expected = wins(fighter(WS=3, extra_dice=1, bonus=1), fighter(WS=3))
    assert F(second["p_opponent_wins_exact"]) == expected[ATTACKER]
    assert F(second["p_fighter_wins_exact"]) == expected[DEFENDER]


def test_multi_fight_down_ends_the_lone_fighter():
    lone = fighter(WS=0, no_attack_dice=True)
    result = multi_fight_odds(lone, [fighter(WS=1, no_attack_dice=True), fighter(WS=1, no_attack_dice=True)])
    # First bout: 1 hit, 1/2 wounds, 5/6 of those are down or out.
    assert F(result["p_fighter_out_of_action_exact"]) > F(5, 12)
    assert F(result["bouts"][1]["p_fought_exact"]) == 1 - F(5, 12)


def test_multi_fight_roll_stops_when_the_lone_fighter_goes_down():
    lone = fighter(WS=0, no_attack_dice=True)
    answer = multi_fight_roll(
        lone, [fighter(WS=1, no_attack_dice=True), fighter(WS=1, no_attack_dice=True)], ScriptedDice([5, 3])
    )
    assert answer["fighter"] == OUT_OF_ACTION
    assert len(answer["bouts"]) == 1


# --- reading queries -------------------------------------------------------------------------------


def test_named_weapons_come_from_the_armoury():
    fighter_ = combatant(Query({"WS": 3, "I": 3, "weapons": ["sword", "laspistol"]}))
    assert [w.parry for w in fighter_.weapons] == [True, False]
    assert fighter_.weapons[1].strength == 3
    assert fighter_.dice == 2


def test_no_weapons_means_a_knife():
    assert [w.name for w in combatant(Query({"WS": 3, "I": 3})).weapons] == ["Knife"]


@pytest.mark.parametrize(
    "fighter_json,field",
    [
        ({"I": 3}, "attacker.WS"),
        ({"WS": 11, "I": 3}, "attacker.WS"),
        ({"WS": 3, "I": 3, "weapons": ["lasgun"]}, "attacker.weapons[0].name"),
        ({"WS": 3, "I": 3, "weapons": ["no such thing"]}, "attacker.weapons[0].name"),
        ({"WS": 3, "I": 3, "weapons": ["knife", "knife", "knife"]}, "attacker.weapons"),
        ({"WS": 3, "I": 3, "parry": "maybe"}, "attacker.parry"),
        ({"WS": 3, "I": 3, "A": 11}, "attacker.A"),
        ({"WS": 3, "I": 3, "charging": "yes"}, "attacker.charging"),
    ],
)
def test_bad_fighters_name_the_field(fighter_json, field):
    with pytest.raises(RulesInputError) as err:
        fight_odds_action(Query({"attacker": fighter_json, "defender": {"WS": 3, "I": 3}}))
    assert err.value.field == field


# --- breaking from combat ----------------------------------------------------------------------------


def test_breaking_from_combat_takes_one_hit_with_the_first_weapon():
    q = Query({"fighter": {"WS": 3, "I": 3}, "opponent": {"WS": 3, "I": 3, "S": 3, "weapons": ["knife", "power fist"]}})
    answer = break_off_odds_action(q)
    # One S3 knife blow on T3: 1/2 no wound; then injury 1/6 flesh, 4/6 down (not finished off), 1/6 out.
    assert answer["outcome_exact"]["no_wound"] == "1/2"
    assert answer["outcome_exact"]["down"] == "1/3"
    assert answer["outcome_exact"]["out_of_action"] == "1/12"
    rolled = break_off_roll_action(q, ScriptedDice([4, 3]))
    assert rolled["outcome"] == DOWN
    assert rolled["hits"][0]["weapon"] == "Knife"
