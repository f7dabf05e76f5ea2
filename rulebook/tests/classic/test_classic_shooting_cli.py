"""``python -m rulebook odds|roll|table classic ...`` for shooting, asked in-process (``rulebook.cli.run``)."""

import json
from fractions import Fraction
from fractions import Fraction as F

import pytest

from rulebook.cli import run
from rulebook.tests.cli_answers import ok, refused

CONTRACT = {
    "shooter": {"BS": 3},
    "weapon": {
        "short_range": 8,
        "long_range": 16,
        "hit_short": 2,
        "hit_long": -1,
        "strength": 3,
        "damage": "1",
        "save_mod": 0,
        "ammo_roll": "2+",
    },
    "target": {"T": 3, "wounds_left": 1, "save": None},
    "distance": 12,
    "cover": "none",
    "modifiers": [],
}


QUERY = json.dumps(CONTRACT)


def test_odds_answers_the_contract_shape():
    answer = ok("odds", "classic", "shoot", stdin=QUERY)
    assert answer["to_hit"] == {"needed": 5, "then": None}
    for key in ("p_hit", "p_wound", "p_unsaved", "p_ammo_roll", "p_weapon_fails"):
        assert abs(answer[key] - float(F(answer[f"{key}_exact"]))) < 1e-9
    assert set(answer["outcome"]) == {"miss", "no_wound", "saved", "wound_lost", "flesh_wound", "down", "out_of_action"}
    assert sum(F(v) for v in answer["outcome_exact"].values()) == 1


def test_odds_with_a_content_weapon_matches_the_spelled_out_one():
    spelled = ok("odds", "classic", "shoot", stdin=QUERY)
    named = ok("odds", "classic", "shoot", stdin=json.dumps({**CONTRACT, "weapon": "laspistol"}))
    assert named["outcome_exact"] == spelled["outcome_exact"]
    assert named["weapon"] == "Laspistol"


def test_roll_with_entered_dice_lists_them():
    answer = ok("roll", "classic", "shoot", "--dice", "5,4,3", stdin=QUERY)
    assert answer["outcome"] == "down"
    assert [d["value"] for d in answer["dice"]] == [5, 4, 3]


def test_roll_with_a_seed_is_reproducible():
    first = run("roll", "classic", "shoot", "--seed", "7", stdin=QUERY).stdout
    assert first == run("roll", "classic", "shoot", "--seed", "7", stdin=QUERY).stdout


@pytest.mark.parametrize(
    "query,field",
    [
        ({**CONTRACT, "shooter": {}}, "shooter.BS"),
        ({**CONTRACT, "shooter": {"BS": 11}}, "shooter.BS"),
        ({**CONTRACT, "weapon": "bolt thrower"}, "weapon"),
        ({**CONTRACT, "weapon": "shotgun"}, "profile"),
        ({**CONTRACT, "weapon": "shotgun", "profile": "dragon breath"}, "profile"),
        ({**CONTRACT, "weapon": {**CONTRACT["weapon"], "strength": 0}}, "weapon.strength"),
        ({**CONTRACT, "weapon": {**CONTRACT["weapon"], "damage": "D4"}}, "weapon.damage"),
        ({**CONTRACT, "target": {"T": 0}}, "target.T"),
        ({**CONTRACT, "target": {"T": 3, "save": 7}}, "target.save"),
        ({**CONTRACT, "distance": -1}, "distance"),
        ({**CONTRACT, "cover": "heavy"}, "cover"),
        ({**CONTRACT, "modifiers": ["blessed"]}, "modifiers"),
        ({**CONTRACT, "weapon": "frag grenade"}, "shooter.S"),
        ("[1, 2]", "query"),
        ("not json", "query"),
    ],
)
def test_bad_input_exits_2_naming_the_field(query, field):
    stdin = query if isinstance(query, str) else json.dumps(query)
    assert refused("odds", "classic", "shoot", stdin=stdin).startswith(f"{field}:")


@pytest.mark.parametrize("dice,message", [("5", "ran out of dice"), ("5,4,9", "not a face")])
def test_roll_with_bad_dice_exits_2(dice, message):
    assert message in refused("roll", "classic", "shoot", "--dice", dice, stdin=QUERY)


@pytest.mark.parametrize(
    "args,key,value",
    [
        (("injury", "1"), "result", "Flesh Wound"),
        (("misfire", "5"), "result", "Roof strike"),
        (("to-hit", "3"), "d6_needed", 4),
        (("grenade-range", "4"), "range", 10),
        (("wound-chart", "1"), "T", {str(t): n for t, n in zip(range(1, 11), [4, 5, 6, 6] + [None] * 6, strict=True)}),
    ],
)
def test_tables(args, key, value):
    assert ok("table", "classic", *args)[key] == value


def test_whole_to_hit_chart():
    assert [row["d6_needed"] for row in ok("table", "classic", "to-hit")["rows"]] == [6, 5, 4, 3, 2, 2, 2, 2, 2, 2]


@pytest.mark.parametrize("args", [("injury", "7"), ("to-hit", "0"), ("wound-chart", "x"), ("grenade-range", "11")])
def test_table_bad_roll_exits_2(args):
    assert refused("table", "classic", *args).startswith("roll:")


# --- shooting at a fighter who is already down (1995 rulebook, "Shooting at a Fighter Who is Down") ---------


def test_a_fighter_already_down_rolls_injury_again_and_is_not_pinned():
    # Laspistol S3 against T3: wounds on 4+. A down fighter has no wounds left, so every wound rolls an Injury
    # die: 1 a further flesh wound (stays down), 2-5 Down again (ignored: stays down), 6 Out of Action.
    query = {"shooter": {"BS": 3}, "weapon": "laspistol", "target": {"T": 3, "down": True}, "distance": 6}
    answer = ok("odds", "classic", "shoot", stdin=json.dumps(query))
    p_hit = Fraction(answer["p_hit_exact"])
    outcome = {k: Fraction(v) for k, v in answer["outcome_exact"].items()}
    assert outcome["out_of_action"] == p_hit * Fraction(1, 2) * Fraction(1, 6)
    assert outcome["flesh_wound"] == p_hit * Fraction(1, 2) * Fraction(1, 6)
    assert outcome["down"] == p_hit * Fraction(1, 2) * Fraction(4, 6)
    assert outcome["wound_lost"] == 0
    assert answer["p_pinned_exact"] == "0"


def test_a_down_fighter_has_no_wounds_left_to_give():
    query = {
        "shooter": {"BS": 3},
        "weapon": "laspistol",
        "target": {"T": 3, "down": True, "wounds_left": 1},
        "distance": 6,
    }
    assert refused("odds", "classic", "shoot", stdin=json.dumps(query)).startswith("target.wounds_left:")


def test_a_down_fighter_shot_and_flesh_wounded_stays_down():
    query = {"shooter": {"BS": 3}, "weapon": "laspistol", "target": {"T": 3, "down": True}, "distance": 6}
    # hit 5, wound 4, injury 1 (flesh wound): still down, not pinned
    rolled = ok("roll", "classic", "shoot", "--dice", "5,4,1", stdin=json.dumps(query))
    assert rolled["outcome"] == "flesh_wound"
    assert rolled["target_after"]["down"] and not rolled["target_after"]["pinned"]
