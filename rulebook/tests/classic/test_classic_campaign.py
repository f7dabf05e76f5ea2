"""Classic campaign rules: Serious Injuries, experience and advances, skills, scenarios, territories."""

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rulebook.classic.campaign.experience import (
    ADVANCE,
    ADVANCE_THRESHOLDS,
    HOUSE_SKILLS,
    SKILL_TABLES,
    advance_distribution,
    advances_gained,
    battle_experience,
    roll_advance,
    roll_skill,
    underdog_bonus,
)
from rulebook.classic.campaign.scenarios import SCENARIO_TABLE, roll_scenario
from rulebook.classic.campaign.serious_injury import (
    DOWN_AT_END,
    SERIOUS_INJURY,
    STATUSES,
    apply_serious_injury,
    roll_serious_injury,
)
from rulebook.classic.campaign.territories import TERRITORY, income_distribution, territories, work_territory
from rulebook.dice import D66_VALUES, ScriptedDice
from rulebook.errors import RulesInputError
from rulebook.roster import FighterSnapshot

PROFILE = {"M": 4, "WS": 3, "BS": 3, "S": 3, "T": 3, "W": 1, "I": 3, "A": 1, "Ld": 7}
GANGER = FighterSnapshot(PROFILE, xp=25, id="g")

CHART = {
    **dict.fromkeys(range(11, 17), "Dead"),
    21: "Multiple Injuries",
    22: "Chest Wound",
    23: "Leg Wound",
    24: "Arm Wound",
    25: "Head Wound",
    26: "Blinded in One Eye",
    31: "Partially Deafened",
    32: "Shell Shock",
    33: "Hand Injury",
    34: "Old Battle Wound",
    35: "Old Battle Wound",
    36: "Old Battle Wound",
    **dict.fromkeys([*range(41, 47), *range(51, 56)], "Full Recovery"),
    56: "Bitter Enmity",
    61: "Captured",
    62: "Captured",
    63: "Captured",
    64: "Horrible Scars",
    65: "Impressive Scars",
    66: "Survives Against the Odds",
}


def test_chart_covers_every_d66():
    assert set(CHART) == set(D66_VALUES)


@pytest.mark.parametrize(("roll", "name"), CHART.items())
def test_serious_injury_rows(roll, name):
    assert SERIOUS_INJURY.lookup(roll)["result"] == name


@pytest.mark.parametrize("roll", [0, 10, 17, 19, 27, 57, 67, 70, 99])
def test_serious_injury_refuses_impossible_rolls(roll):
    with pytest.raises(RulesInputError) as err:
        apply_serious_injury(GANGER, roll, ScriptedDice([]))
    assert err.value.field == "roll"


def test_serious_injury_distribution():
    dist = SERIOUS_INJURY.distribution()
    assert (dist["Dead"], dist["Full Recovery"], dist["Captured"]) == (
        Fraction(6, 36),
        Fraction(11, 36),
        Fraction(3, 36),
    )


# roll → (characteristic changes, status, injuries, skills, xp gained, dice, a change to look for)
EFFECTS = [
    (11, {}, "dead", [], [], 0, [], None),
    (22, {"T": 2}, "active", ["chest-wound"], [], 0, [], None),
    (23, {"M": 3}, "active", ["leg-wound"], [], 0, [], None),
    (24, {}, "active", ["arm-wound"], [], 0, [5], ("arm", "right arm")),
    (25, {}, "active", ["head-wound"], [], 0, [], None),
    (26, {"BS": 2}, "active", ["blinded-in-one-eye"], [], 0, [], None),
    (31, {}, "active", ["partially-deafened"], [], 0, [], None),
    (32, {"I": 2}, "active", ["shell-shock"], [], 0, [], None),
    (33, {"WS": 2}, "active", ["hand-injury"], [], 0, [2], ("fingers lost", "2")),
    (35, {}, "active", ["old-battle-wound"], [], 0, [], None),
    (44, {}, "active", [], [], 0, [], None),
    (56, {}, "active", ["bitter-enmity"], [], 0, [4], ("hatred of", "the leader of that gang")),
    (62, {}, "captured", [], [], 0, [], None),
    (64, {}, "active", ["horrible-scars"], ["Causes Fear"], 0, [], None),
    (65, {"Ld": 8}, "active", ["impressive-scars"], [], 0, [], None),
    (66, {}, "active", [], [], 6, [6], None),
]


@pytest.mark.parametrize(("roll", "chars", "status", "injuries", "skills", "xp", "dice", "look_for"), EFFECTS)
def test_each_serious_injury_applied_to_a_ganger(roll, chars, status, injuries, skills, xp, dice, look_for):
    source = ScriptedDice(dice)
    outcome = apply_serious_injury(GANGER, roll, source)
    assert dict(outcome.fighter.characteristics) == {**PROFILE, **chars}
    assert outcome.fighter.status == status
    assert list(outcome.fighter.injuries) == injuries
    assert list(outcome.fighter.skills) == skills
    assert outcome.fighter.xp == GANGER.xp + xp
    assert source.remaining == 0
    if look_for:
        assert any((c.what, c.after) == look_for for c in outcome.changes)


def test_repeats():
    blind = apply_serious_injury(GANGER, 26, ScriptedDice([])).fighter
    assert apply_serious_injury(blind, 26, ScriptedDice([])).fighter.status == "retired"
    deaf = apply_serious_injury(GANGER, 31, ScriptedDice([])).fighter
    assert apply_serious_injury(deaf, 31, ScriptedDice([])).fighter.characteristics["Ld"] == 6
    scarred = apply_serious_injury(GANGER, 65, ScriptedDice([])).fighter
    again = apply_serious_injury(scarred, 65, ScriptedDice([]))
    assert again.results == ("Full Recovery",) and again.fighter == scarred


def test_multiple_injuries_rerolls_dead_and_full_recovery():
    # D6 = 3 further rolls: 13 Dead and 45 Full Recovery are re-rolled, then 22; 62 Captured stands; 21 again
    # brings D6 = 1 more roll: 32.
    dice = [3, 1, 3, 4, 5, 2, 2, 6, 2, 2, 1, 1, 3, 2]
    source = ScriptedDice(dice)
    outcome = apply_serious_injury(GANGER, 21, source)
    assert outcome.results == ("Multiple Injuries", "Chest Wound", "Captured", "Multiple Injuries", "Shell Shock")
    assert outcome.fighter.status == "captured" and outcome.fighter.characteristics["T"] == 2
    assert source.remaining == 0


@given(st.integers(0, 100_000))
def test_rolled_serious_injuries_stay_sound(seed):
    from rulebook.dice import SeededDice

    outcome = roll_serious_injury(GANGER, SeededDice(seed))
    assert outcome.fighter.status in STATUSES and outcome.fighter.xp >= GANGER.xp
    if outcome.results[0] == "Multiple Injuries":
        assert "Dead" not in outcome.results and "Full Recovery" not in outcome.results


@pytest.mark.parametrize(("roll", "out"), [(1, False), (3, False), (4, True), (6, True)])
def test_down_at_end_of_game(roll, out):
    assert DOWN_AT_END.lookup(roll)["serious_injury"] is out


# --- experience and advances -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("old", "new", "advances"),
    [
        (0, 5, 0),
        (5, 6, 1),
        (0, 6, 1),
        (6, 10, 0),
        (20, 21, 1),
        (20, 31, 2),
        (21, 30, 0),
        (60, 81, 2),
        (400, 401, 1),
        (401, 1000, 0),
        (0, 401, 20),
        (0, 0, 0),
    ],
)
def test_advances_gained(old, new, advances):
    assert advances_gained(old, new) == advances


@pytest.mark.parametrize(("old", "new"), [(-1, 5), (10, 9)])
def test_advances_gained_refuses_bad_experience(old, new):
    with pytest.raises(RulesInputError):
        advances_gained(old, new)


@given(st.integers(0, 500), st.integers(0, 200), st.integers(0, 200))
def test_advances_add_up(a, b, c):
    assert advances_gained(a, a + b) + advances_gained(a + b, a + b + c) == advances_gained(a, a + b + c)


def test_thresholds():
    assert ADVANCE_THRESHOLDS[:5] == (6, 11, 16, 21, 31) and len(ADVANCE_THRESHOLDS) == 20


@pytest.mark.parametrize(
    ("roll", "kind", "either"),
    [
        (2, "skill", None),
        (3, "skill", None),
        (4, "skill", None),
        (5, "characteristic", ("S", "A")),
        (6, "characteristic", ("WS", "BS")),
        (7, "characteristic", ("I", "Ld")),
        (8, "characteristic", ("WS", "BS")),
        (9, "characteristic", ("W", "T")),
        (10, "skill", None),
        (11, "skill", None),
        (12, "skill", None),
    ],
)
def test_advance_rows(roll, kind, either):
    row = ADVANCE.lookup(roll)
    assert row["kind"] == kind
    if either:
        assert (row["sub_roll"]["1-3"], row["sub_roll"]["4-6"]) == either


@pytest.mark.parametrize("roll", [1, 13])
def test_advance_refuses_impossible_rolls(roll):
    with pytest.raises(RulesInputError):
        ADVANCE.lookup(roll)


def test_advance_distribution_is_exact():
    dist = advance_distribution()
    assert sum(dist.values()) == 1
    assert dist["+1 WS"] == dist["+1 BS"] == Fraction(5, 36)
    assert dist["+1 S"] == dist["+1 A"] == dist["+1 W"] == dist["+1 T"] == Fraction(2, 36)
    assert dist["+1 I"] == dist["+1 Ld"] == Fraction(3, 36)
    assert dist["New skill from any table"] == Fraction(2, 36)


def test_roll_advance_applies_the_sub_roll():
    fighter, answer = roll_advance(GANGER, ScriptedDice([3, 2, 5]))
    assert fighter.characteristics["A"] == 2 and answer["change"]["what"] == "A"
    assert [d["value"] for d in answer["dice"]] == [3, 2, 5]
    same, skill = roll_advance(GANGER, ScriptedDice([6, 6]))
    assert same == GANGER and skill["from"] == "any skill table"


def test_roll_skill_rerolls_a_known_skill():
    fighter = FighterSnapshot(PROFILE, skills=("Dodge",))
    after, answer = roll_skill(fighter, "Agility", ScriptedDice([2, 6]))
    assert answer["skill"] == "Sprint" and after.skills == ("Dodge", "Sprint")
    with pytest.raises(RulesInputError):
        roll_skill(fighter, "Cooking", ScriptedDice([]))
    with pytest.raises(RulesInputError):
        roll_skill(FighterSnapshot(PROFILE, skills=SKILL_TABLES["Agility"]), "Agility", ScriptedDice([]))


def test_skill_tables_and_access_come_from_the_content_files():
    assert len(SKILL_TABLES) == 7 and all(len(s) == 6 for s in SKILL_TABLES.values())
    assert HOUSE_SKILLS["Goliath"]["Juve"] == ("Ferocity", "Muscle")


@pytest.mark.parametrize(
    ("kwargs", "dice", "total"),
    [
        ({"scenario": "gang-fight", "survived": True, "wounding_hits": 2, "is_leader": True, "won": True}, [4], 24),
        ({"scenario": "gang-fight", "survived": True, "is_leader": True, "won": False}, [1], 1),
        ({"scenario": "scavengers", "survived": True, "objectives": 3}, [2], 5),
        ({"scenario": "rescue-mission", "survived": True, "is_leader": True, "won": True, "attacker": True}, [6], 6),
        ({"scenario": "rescue-mission", "survived": True, "is_leader": True, "won": True}, [6], 16),
        ({"scenario": "hit-and-run", "survived": True, "won": True}, [3], 13),
        ({"scenario": "the-raid", "survived": False, "objectives": 1, "wounding_hits": 1}, [], 10),
        ({"scenario": "gang-fight", "survived": True, "won": True, "underdog_by": 120}, [3], 6),
    ],
)
def test_battle_experience(kwargs, dice, total):
    source = ScriptedDice(dice)
    assert battle_experience(dice=source, **kwargs)["total"] == total
    assert source.remaining == 0


@pytest.mark.parametrize(
    ("difference", "won", "bonus"),
    [
        (0, True, 0),
        (1, True, 1),
        (49, False, 0),
        (50, False, 1),
        (99, True, 2),
        (249, True, 5),
        (250, True, 6),
        (1499, False, 8),
        (1500, True, 10),
        (9000, False, 9),
    ],
)
def test_underdog_bonus(difference, won, bonus):
    assert underdog_bonus(difference, won) == bonus


def test_battle_experience_refuses_unknown_scenario():
    with pytest.raises(RulesInputError) as err:
        battle_experience(scenario="picnic", survived=True, dice=ScriptedDice([1]))
    assert err.value.field == "scenario"


# --- scenarios and territories -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("roll", "result"),
    [
        (2, "Higher-rated gang chooses"),
        (3, "Higher-rated gang chooses"),
        (4, "Gang Fight"),
        (6, "Gang Fight"),
        (7, "Lower-rated gang chooses"),
        (11, "Lower-rated gang chooses"),
        (12, "Lower-rated gang chooses"),
    ],
)
def test_classic_scenario_rows(roll, result):
    assert SCENARIO_TABLE.lookup(roll)["result"] == result


def test_classic_scenario_distribution():
    assert SCENARIO_TABLE.distribution() == {
        "Higher-rated gang chooses": Fraction(3, 36),
        "Gang Fight": Fraction(12, 36),
        "Lower-rated gang chooses": Fraction(21, 36),
    }
    rolled = roll_scenario(ScriptedDice([1, 1]))
    assert rolled["special"].startswith("fought in an old dome") and len(rolled["dice"]) == 2


@pytest.mark.parametrize(
    ("roll", "slug"),
    [(11, "chem-pit"), (14, "old-ruins"), (26, "mineral-outcrop"), (55, "guilder-contact"), (66, "green-hivers")],
)
def test_territory_rows(roll, slug):
    assert TERRITORY.lookup(roll)["slug"] == slug


@pytest.mark.parametrize(
    ("slug", "dice", "credits", "effect"),
    [
        ("chem-pit", [2, 3], 5, False),
        ("chem-pit", [3, 3], 0, True),
        ("chem-pit", [2, 6], 0, True),
        ("old-ruins", [], 10, False),
        ("mineral-outcrop", [4], 40, False),
        ("gambling-den", [4, 4], -80, True),
        ("gambling-den", [4, 5], 90, False),
        ("spore-cave", [1, 1], 20, True),
        ("green-hivers", [], 0, True),
    ],
)
def test_work_territory(slug, dice, credits, effect):
    source = ScriptedDice(dice)
    worked = work_territory(slug, source)
    assert worked["credits"] == credits and bool(worked["effect"]) is effect and source.remaining == 0


@pytest.mark.parametrize("slug", list(territories()))
def test_income_distributions_sum_to_one(slug):
    assert sum(income_distribution(slug).values()) == 1


def test_chem_pit_income_odds():
    assert income_distribution("chem-pit")[0] == Fraction(16, 36)


def test_pre_battle_checks_for_old_injuries():
    from rulebook.classic.campaign.serious_injury import pre_battle_checks

    fighter = FighterSnapshot(PROFILE, injuries=("old-battle-wound", "head-wound"))
    checks = pre_battle_checks(fighter, ScriptedDice([1, 5]))
    assert checks[0]["misses_game"] is True and checks[1]["subject_to"] == "frenzy"
    assert pre_battle_checks(GANGER, ScriptedDice([])) == []
