"""Properties of hand-to-hand odds, rolls in the support of the odds, and the command line's bad input
(fight, multi-fight, break-off and test)."""

import json
from fractions import Fraction as F
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulebook.classic.combat import fight_odds
from rulebook.classic.combat_actions import fight_odds_action
from rulebook.classic.combat_roll import fight_roll
from rulebook.classic.combat_score import ATTACKER, DEFENDER, STANDOFF, Combatant, HandWeapon
from rulebook.cli import run
from rulebook.dice import ScriptedDice
from rulebook.query import Query

ROOT = Path(__file__).resolve().parents[3]
WEAPONS = st.sampled_from(
    [
        (HandWeapon("knife"),),
        (HandWeapon("sword", parry=True),),
        (HandWeapon("sword", parry=True), HandWeapon("sword", parry=True)),
        (HandWeapon("club", None, 1), HandWeapon("laspistol", 3)),
        (HandWeapon("power sword", 5, 0, "1", -3, True),),
    ]
)


@st.composite
def fighters(draw, **fixed):
    kw = {
        "WS": draw(st.integers(0, 6)),
        "A": draw(st.integers(0, 3)),
        "I": draw(st.integers(1, 6)),
        "S": draw(st.integers(1, 6)),
        "T": draw(st.integers(2, 5)),
        "wounds_left": draw(st.integers(1, 2)),
        "save": draw(st.sampled_from([None, 4, 5, 6])),
        "weapons": draw(WEAPONS),
        "charging": draw(st.booleans()),
        "frenzied": draw(st.booleans()),
        "hatred": draw(st.booleans()),
        "parry": draw(st.sampled_from([True, False, "auto"])),
    }
    kw.update(fixed)
    return Combatant(**kw)


@settings(max_examples=40, deadline=None)
@given(fighters(), fighters())
def test_everything_sums_to_one(att, dfn):
    result = fight_odds(att, dfn)
    assert sum(result["win"].values()) == 1
    for side in (ATTACKER, DEFENDER):
        assert sum(result["hits"][side].values()) == 1
        assert sum(result["fate"][side].values()) == 1
        assert result["hits"][side][0] == 1 - result["win"][side]


@settings(max_examples=30, deadline=None)
@given(fighters(WS=0, hatred=False), fighters(), st.integers(0, 5))
def test_monotonic_in_weapon_skill(att, dfn, ws):
    low = fight_odds(Combatant(**{**att.__dict__, "WS": ws}), dfn)["win"]
    high = fight_odds(Combatant(**{**att.__dict__, "WS": ws + 1}), dfn)["win"]
    assert high[ATTACKER] >= low[ATTACKER]
    assert high[DEFENDER] <= low[DEFENDER]


@settings(max_examples=30, deadline=None)
@given(fighters(weapons=(HandWeapon("knife"),)), fighters(), st.integers(1, 8))
def test_monotonic_in_strength(att, dfn, strength):
    weak = fight_odds(Combatant(**{**att.__dict__, "S": strength}), dfn)["fate"][DEFENDER]
    strong = fight_odds(Combatant(**{**att.__dict__, "S": strength + 1}), dfn)["fate"][DEFENDER]
    assert strong["out_of_action"] >= weak["out_of_action"]


@settings(max_examples=60, deadline=None)
@given(att=fighters(), dfn=fighters(), data=st.data())
def test_roll_lies_in_the_support_of_the_odds(att, dfn, data, drawn_dice):
    dice = drawn_dice(data)
    answer = fight_roll(att, dfn, dice)
    odds = fight_odds(att, dfn)
    winner, hits = answer["winner"], answer["hits"]
    if winner == STANDOFF:
        assert odds["win"][STANDOFF] > 0
    else:
        assert odds["hits"][winner][hits] > 0
        loser = DEFENDER if winner == ATTACKER else ATTACKER
        assert odds["fate"][loser][answer["wounds"]["outcome"]] > 0
    # The same faces entered by hand replay the same fight.
    assert fight_roll(att, dfn, ScriptedDice(dice.faces)) == answer


def test_hits_are_the_joint_chance_of_winning_by_that_many():
    answer = fight_odds_action(Query({"attacker": {"WS": 3, "I": 3}, "defender": {"WS": 3, "I": 3}}))
    assert answer["hits_exact"]["attacker"]["1"] == "1/9"
    assert answer["hits_exact"]["attacker"]["0"] == "7/12"
    assert answer["hits_if_wins_exact"]["attacker"]["1"] == str(F(1, 9) / F(5, 12))
    assert answer["p_standoff_exact"] == "1/6"


# --- the command line --------------------------------------------------------------------------------


def test_cli_fight_contract_example():
    query = {
        "attacker": {
            "WS": 3,
            "A": 1,
            "I": 3,
            "S": 3,
            "weapons": ["sword"],
            "charging": True,
            "higher_up": False,
            "encumbered": False,
            "obstacle": False,
        },
        "defender": {"WS": 2, "A": 1, "I": 2, "S": 3, "weapons": ["knife"]},
    }
    done = run("odds", "classic", "fight", stdin=json.dumps(query))
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert answer["p_defender_wins_exact"] == "7/72"
    assert answer["p_attacker_wins_exact"] == "65/72"
    assert any("parry" in a for a in answer["assumptions"])


def test_cli_fight_roll_with_dice():
    query = {"attacker": {"WS": 2, "I": 3, "charging": True}, "defender": {"WS": 3, "I": 3}}
    done = run("roll", "classic", "fight", "--dice", "5,4,3", stdin=json.dumps(query))
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert (answer["winner"], answer["hits"]) == ("attacker", 1)
    assert [d["value"] for d in answer["dice"]] == [5, 4, 3]


@pytest.mark.parametrize(
    "args,query,field",
    [
        (("odds", "classic", "fight"), {"defender": {"WS": 3, "I": 3}}, "attacker"),
        (("odds", "classic", "fight"), {"attacker": {"WS": "x", "I": 3}, "defender": {"WS": 3, "I": 3}}, "attacker.WS"),
        (
            ("odds", "classic", "fight"),
            {"attacker": {"WS": 3, "I": 3, "weapons": ["lascannon"]}, "defender": {"WS": 3, "I": 3}},
            "attacker.weapons[0].name",
        ),
        (("odds", "classic", "multi-fight"), {"fighter": {"WS": 3, "I": 3}, "opponents": []}, "opponents"),
        (
            ("roll", "classic", "fight", "--dice", "9"),
            {"attacker": {"WS": 3, "I": 3}, "defender": {"WS": 3, "I": 3}},
            "dice",
        ),
        (
            ("roll", "classic", "fight", "--dice", "4"),
            {"attacker": {"WS": 3, "I": 3}, "defender": {"WS": 3, "I": 3}},
            "dice",
        ),
        (("odds", "classic", "test"), {"kind": "panic"}, "kind"),
        (("odds", "classic", "test"), {"kind": "leadership", "Ld": "high"}, "Ld"),
        (("odds", "classic", "test"), {"kind": "bottle", "gang_size": 0}, "gang_size"),
        (("odds", "classic", "test"), {"kind": "fall", "height": 4, "edge": "cliff"}, "edge"),
        (("odds", "classic", "test"), {"kind": "structure", "T": 6, "wounds": 1, "hits": 1, "strength": 0}, "strength"),
        (("roll", "classic", "test", "--dice", "6"), {"kind": "leadership", "Ld": 7}, "dice"),
        (("odds", "classic", "break-off"), {"fighter": {"WS": 3, "I": 3}}, "opponent"),
    ],
)
def test_cli_bad_input_exits_2_naming_the_field(args, query, field):
    done = run(*args, stdin=json.dumps(query))
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    error = json.loads(done.stderr)["error"]
    assert error.startswith(f"{field}:")


def test_the_benchmarked_fight_has_four_dice_a_side_and_a_parry():
    from rulebook import classic

    label = next(label for label, target in classic.BENCHMARK_TARGETS_MS.items() if target == 50)
    query = next(q for name, action, q in classic.BENCHMARKS if name == label)
    answer = fight_odds_action(Query(query))
    assert answer["attacker"]["attack_dice"] == answer["defender"]["attack_dice"] == 4
    assert answer["attacker"]["parries"] == 1
