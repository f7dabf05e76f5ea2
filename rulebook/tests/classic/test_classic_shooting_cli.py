"""``python -m rulebook odds|roll|table classic ...`` for shooting, through a real subprocess."""

import json
from fractions import Fraction as F
from pathlib import Path

import pytest

from rulebook import cli as rulebook_cli

ROOT = Path(__file__).resolve().parents[3]
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


def run(*args, query=None):
    stdin = query if isinstance(query, str) else json.dumps(query or {})
    done = rulebook_cli.run(*args, stdin=stdin)
    return done.returncode, done.stdout, done.stderr


def test_odds_answers_the_contract_shape():
    code, out, err = run("odds", "classic", "shoot", query=CONTRACT)
    assert code == 0, err
    answer = json.loads(out)
    assert answer["to_hit"] == {"needed": 5, "then": None}
    for key in ("p_hit", "p_wound", "p_unsaved", "p_ammo_roll", "p_weapon_fails"):
        assert abs(answer[key] - float(F(answer[f"{key}_exact"]))) < 1e-9
    assert set(answer["outcome"]) == {"miss", "no_wound", "saved", "wound_lost", "flesh_wound", "down", "out_of_action"}
    assert sum(F(v) for v in answer["outcome_exact"].values()) == 1


def test_odds_with_a_content_weapon_matches_the_spelled_out_one():
    spelled = json.loads(run("odds", "classic", "shoot", query=CONTRACT)[1])
    named = json.loads(run("odds", "classic", "shoot", query={**CONTRACT, "weapon": "laspistol"})[1])
    assert named["outcome_exact"] == spelled["outcome_exact"]
    assert named["weapon"] == "Laspistol"


def test_roll_with_entered_dice_lists_them():
    code, out, err = run("roll", "classic", "shoot", "--dice", "5,4,3", query=CONTRACT)
    assert code == 0, err
    answer = json.loads(out)
    assert answer["outcome"] == "down"
    assert [d["value"] for d in answer["dice"]] == [5, 4, 3]


def test_roll_with_a_seed_is_reproducible():
    first = run("roll", "classic", "shoot", "--seed", "7", query=CONTRACT)[1]
    assert first == run("roll", "classic", "shoot", "--seed", "7", query=CONTRACT)[1]


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
    code, out, err = run("odds", "classic", "shoot", query=query)
    assert code == 2
    assert out == ""
    assert "Traceback" not in err
    assert json.loads(err)["error"].startswith(f"{field}:")


@pytest.mark.parametrize("dice,message", [("5", "ran out of dice"), ("5,4,9", "not a face")])
def test_roll_with_bad_dice_exits_2(dice, message):
    code, _, err = run("roll", "classic", "shoot", "--dice", dice, query=CONTRACT)
    assert code == 2
    assert message in json.loads(err)["error"]


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
    code, out, err = run("table", "classic", *args)
    assert code == 0, err
    assert json.loads(out)[key] == value


def test_whole_to_hit_chart():
    code, out, _ = run("table", "classic", "to-hit")
    assert code == 0
    assert [row["d6_needed"] for row in json.loads(out)["rows"]] == [6, 5, 4, 3, 2, 2, 2, 2, 2, 2]


@pytest.mark.parametrize("args", [("injury", "7"), ("to-hit", "0"), ("wound-chart", "x"), ("grenade-range", "11")])
def test_table_bad_roll_exits_2(args):
    code, _, err = run("table", "classic", *args)
    assert code == 2
    assert json.loads(err)["error"].startswith("roll:")
