"""The campaign guide through ``python -m rulebook``: tables, odds and rolls, and bad input."""

import json

import pytest

from rulebook.tests.cli_answers import ok, refused

CAMPAIGN_TABLES = [
    "scenario",
    "lasting-injury",
    "loot-casket",
    "loot-casket-smash-and-grab",
    "medical-escort",
    "home-settlement-recruit",
    "reinforcement",
    "post-battle-injury",
]
FIGHTER = {
    "id": "g1",
    "characteristics": {
        "M": 5,
        "WS": 4,
        "BS": 4,
        "S": 3,
        "T": 3,
        "W": 1,
        "I": 4,
        "A": 1,
        "Ld": 7,
        "Cl": 7,
        "Wil": 7,
        "Int": 7,
    },
    "xp": 2,
}


def test_the_campaign_tables_are_listed():
    assert set(CAMPAIGN_TABLES) <= set(ok("table", "n18")["tables"])


@pytest.mark.parametrize("name", CAMPAIGN_TABLES)
def test_whole_tables_list_their_rows(name):
    table = ok("table", "n18", name)
    assert table["rows"] and table["source"]


@pytest.mark.parametrize(
    ("table", "roll", "result"),
    [
        ("scenario", "9", "The Trap"),
        ("scenario", "11", "Search & Destroy"),
        ("lasting-injury", "13", "Horrid Scars"),
        ("lasting-injury", "26", "Out Cold"),
        ("loot-casket", "3", "Nothing Much"),
        ("loot-casket-smash-and-grab", "6", "Jackpot"),
        ("medical-escort", "6", "Full Recovery"),
        ("home-settlement-recruit", "66", "Free Ganger"),
        ("reinforcement", "2", "Enemy deploys"),
        ("post-battle-injury", "3", "Survives"),
    ],
)
def test_table_rows(table, roll, result):
    assert ok("table", "n18", table, roll)["result"] == result


def test_eye_injury_row_has_structured_effects():
    row = ok("table", "n18", "lasting-injury", "44")
    assert row["roll"] == 44 and row["result"] == "Eye Injury"
    assert {"kind": "characteristic", "characteristic": "BS", "change": "worsen"} in row["effects"]
    assert {"kind": "status", "status": "recovery"} in row["effects"]


@pytest.mark.parametrize(
    ("table", "roll"),
    [
        ("lasting-injury", "17"),
        ("lasting-injury", "70"),
        ("lasting-injury", "7"),
        ("scenario", "13"),
        ("scenario", "1"),
        ("loot-casket", "7"),
        ("medical-escort", "0"),
        ("home-settlement-recruit", "67"),
        ("reinforcement", "six"),
    ],
)
def test_impossible_rolls_exit_2(table, roll):
    assert refused("table", "n18", table, roll).startswith("roll:")


def test_unknown_table_exit_2():
    assert refused("table", "n18", "territory").startswith("table:")


def test_scenario_odds_are_exact():
    odds = ok("odds", "n18", "scenario", stdin="{}")
    assert odds["scenario_exact"] == {
        "Border Dispute": "5/9",
        "Search & Destroy": "1/12",
        "Smash & Grab": "1/6",
        "The Trap": "7/36",
    }


def test_scenario_roll_shows_its_dice():
    rolled = ok("roll", "n18", "scenario", "--dice", "6,5", stdin="{}")
    assert rolled["result"] == "Search & Destroy" and [d["value"] for d in rolled["dice"]] == [6, 5]
    assert rolled["scenario"]["crews"]["defender"]["label"] == "Random (D3+3) + Reinforcements"


def test_lasting_injury_roll_resolves_multiple_injuries():
    query = json.dumps({"fighter": FIGHTER})
    rolled = ok("roll", "n18", "lasting-injury", "--dice", "5,4,2,5,5,4,4,1,1,1", stdin=query)
    assert rolled["results"] == ["Multiple Injuries", "Eye Injury", "Lesson Learned"]
    assert rolled["fighter"]["characteristics"]["BS"] == 5 and rolled["fighter"]["xp"] == 3
    assert rolled["fighter"]["status"] == "recovery"
    assert [d["value"] for d in rolled["dice"]] == [5, 4, 2, 5, 5, 4, 4, 1, 1, 1]


def test_lasting_injury_with_an_entered_roll():
    rolled = ok("roll", "n18", "lasting-injury", "--dice", "1", stdin=json.dumps({"fighter": FIGHTER, "roll": 52}))
    assert rolled["results"] == ["Enfeebled"] and rolled["fighter"]["characteristics"]["T"] == 2
    assert rolled["unused_dice"] == 1


def test_crew_roll():
    query = {
        "scenario": "smash-and-grab",
        "role": "defender",
        "fighters": [{"id": x} for x in "abcdef"],
        "chosen": ["a"],
    }
    rolled = ok("roll", "n18", "crew", "--dice", "2,1,4", stdin=json.dumps(query))
    assert rolled["fighters"] == ["a", "b", "f"]


def test_medical_escort_and_home_settlement_roll():
    critical = {**FIGHTER, "status": "critical_injury"}
    assert (
        ok("roll", "n18", "medical-escort", "--dice", "6", stdin=json.dumps({"fighter": critical}))["fighter"]["status"]
        == "recovery"
    )
    settled = ok("roll", "n18", "home-settlement", "--dice", "3,6,6", stdin="{}")
    assert settled["income"] == 30 and settled["recruit"]["result"] == "Free Ganger"


@pytest.mark.parametrize(
    ("action", "query", "field"),
    [
        ("lasting-injury", {}, "fighter"),
        ("lasting-injury", {"fighter": {**FIGHTER, "status": "asleep"}}, "fighter.status"),
        ("lasting-injury", {"fighter": {**FIGHTER, "characteristics": {"BS": "four"}}}, "fighter.characteristics.BS"),
        ("lasting-injury", {"fighter": FIGHTER, "roll": 70}, "roll"),
        ("medical-escort", {"fighter": FIGHTER, "roll": 3}, "fighter.status"),
        ("crew", {"scenario": "nowhere", "fighters": [{"id": "a"}]}, "scenario"),
        ("crew", {"scenario": "the-trap", "role": "defender", "fighters": [{"id": "a"}], "chosen": ["z"]}, "chosen[0]"),
        ("ammo-cache", {"ammo": 9}, "ammo"),
    ],
)
def test_bad_queries_name_the_field(action, query, field):
    assert refused("roll", "n18", action, "--dice", "3,3,3", stdin=json.dumps(query)).startswith(f"{field}:")


def test_running_out_of_dice_exit_2():
    assert refused("roll", "n18", "lasting-injury", "--dice", "5,4", stdin=json.dumps({"fighter": FIGHTER})).startswith(
        "dice:"
    )


@pytest.mark.parametrize(
    "action",
    [
        "scenario",
        "lasting-injury",
        "post-battle-injury",
        "medical-escort",
        "home-settlement",
        "loot-casket",
        "home-turf-bottle",
    ],
)
def test_odds_sum_to_one(action):
    odds = ok("odds", "n18", action, stdin="{}")
    exact = next(v for k, v in odds.items() if k.endswith("_exact") and isinstance(v, dict))
    from fractions import Fraction

    assert sum(Fraction(p) for p in exact.values()) == 1


def test_cache_search_odds_and_roll():
    """Search & Destroy's weapon cache: a D6, found on 5 or 6."""
    from fractions import Fraction

    assert Fraction(ok("odds", "n18", "cache-search", stdin="{}")["p_found_exact"]) == Fraction(1, 3)
    for face, found in ((4, False), (5, True), (6, True), (1, False)):
        rolled = ok("roll", "n18", "cache-search", "--dice", str(face), stdin="{}")
        assert (rolled["roll"], rolled["found"]) == (face, found)
