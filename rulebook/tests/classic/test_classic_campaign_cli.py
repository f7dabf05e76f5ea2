"""Classic campaign rules through ``python -m rulebook``: tables, odds, rolls and bad input."""

import json
from fractions import Fraction

import pytest

from rulebook.tests.cli_answers import ok, refused

FIGHTER = {"id": "g", "characteristics": {"M": 4, "WS": 3, "BS": 3, "S": 3, "T": 3, "W": 1, "I": 3, "A": 1, "Ld": 7}}


def test_campaign_tables_are_listed():
    listed = ok("table", "classic")["tables"]
    for name in ("serious-injury", "advance", "scenario", "down-at-end", "territory", "skill-combat"):
        assert name in listed


@pytest.mark.parametrize(
    ("table", "roll", "result"),
    [
        ("serious-injury", "21", "Multiple Injuries"),
        ("serious-injury", "56", "Bitter Enmity"),
        ("advance", "7", "+1 Initiative or Leadership (D6)"),
        ("scenario", "5", "Gang Fight"),
        ("down-at-end", "4", "Out of Action"),
        ("territory", "11", "Chem Pit"),
        ("skill-combat", "5", "Parry"),
    ],
)
def test_table_rows(table, roll, result):
    assert ok("table", "classic", table, roll)["result"] == result


@pytest.mark.parametrize(
    ("table", "roll"),
    [("serious-injury", "17"), ("serious-injury", "70"), ("advance", "13"), ("advance", "1"), ("down-at-end", "7")],
)
def test_impossible_rolls_exit_2(table, roll):
    assert refused("table", "classic", table, roll).startswith("roll:")


def test_serious_injury_roll():
    rolled = ok("roll", "classic", "serious-injury", "--dice", "2,2", stdin=json.dumps({"fighter": FIGHTER}))
    assert rolled["results"] == ["Chest Wound"] and rolled["fighter"]["characteristics"]["T"] == 2


def test_experience_roll_counts_advances():
    query = {"scenario": "gang-fight", "wounding_hits": 1, "is_leader": True, "won": True, "xp": 20}
    rolled = ok("roll", "classic", "experience", "--dice", "6", stdin=json.dumps(query))
    assert rolled["total"] == 21 and rolled["advances"] == 3  # 21, 31 and 41


def test_experience_odds_are_exact():
    odds = ok("odds", "classic", "experience", stdin=json.dumps({"scenario": "gang-fight", "wounding_hits": 1}))
    assert odds["xp_exact"] == {str(5 + k): "1/6" for k in range(1, 7)}


@pytest.mark.parametrize(
    ("action", "query"),
    [
        ("serious-injury", {}),
        ("advance", {}),
        ("scenario", {}),
        ("down-at-end", {}),
        ("territory", {"territory": "gambling-den"}),
        ("skill", {"skill_table": "Stealth"}),
        ("experience", {"scenario": "scavengers"}),
    ],
)
def test_odds_sum_to_one(action, query):
    odds = ok("odds", "classic", action, stdin=json.dumps(query))
    exact = next(v for k, v in odds.items() if k.endswith("_exact") and isinstance(v, dict))
    assert sum(Fraction(p) for p in exact.values()) == 1


@pytest.mark.parametrize(
    ("action", "query", "field"),
    [
        ("serious-injury", {}, "fighter"),
        ("serious-injury", {"fighter": FIGHTER, "roll": 17}, "roll"),
        ("serious-injury", {"fighter": {**FIGHTER, "status": "recovery"}}, "fighter.status"),
        ("experience", {"scenario": "picnic"}, "scenario"),
        ("experience", {"scenario": "gang-fight", "wounding_hits": -1}, "wounding_hits"),
        ("territory", {"territory": "moon-base"}, "territory"),
        ("skill", {"fighter": FIGHTER, "skill_table": "Cooking"}, "skill_table"),
    ],
)
def test_bad_queries_name_the_field(action, query, field):
    assert refused("roll", "classic", action, "--dice", "3,3,3", stdin=json.dumps(query)).startswith(f"{field}:")
