"""The Lasting Injury table, applied to a fighter; the post-battle test, the Doc, the Home Settlement."""

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rulebook.dice import D66_VALUES, ScriptedDice, SeededDice
from rulebook.errors import RulesInputError
from rulebook.n18.campaign.lasting_injury import (
    LASTING_INJURY,
    STATUSES,
    apply_lasting_injury,
    characteristic_change_text,
    roll_lasting_injury,
)
from rulebook.n18.campaign.post_battle import (
    HOME_SETTLEMENT_RECRUIT,
    MEDICAL_ESCORT,
    apply_medical_escort,
    post_battle_action_eligibility,
    post_battle_injury_test,
    roll_home_settlement,
    untreated_critical_injury,
)
from rulebook.roster import FighterSnapshot

PROFILE = {"M": 5, "WS": 4, "BS": 4, "S": 3, "T": 3, "W": 1, "I": 4, "A": 1, "Ld": 7, "Cl": 7, "Wil": 7, "Int": 7}
GANGER = FighterSnapshot(PROFILE, skills=("Nerves of Steel",), xp=5, id="g1")

GUIDE_ROWS = {
    11: "Lesson Learned",
    12: "Impressive Scars",
    13: "Horrid Scars",
    14: "Bitter Enmity",
    **dict.fromkeys((15, 16, 21, 22, 23, 24, 25, 26), "Out Cold"),
    **dict.fromkeys(range(31, 37), "Convalescence"),
    41: "Old Battle Wound",
    42: "Partially Deafened",
    43: "Humiliated",
    44: "Eye Injury",
    45: "Hand Injury",
    46: "Hobbled",
    51: "Spinal Injury",
    52: "Enfeebled",
    53: "Head Injury",
    54: "Multiple Injuries",
    55: "Captured",
    56: "Captured",
    **dict.fromkeys(range(61, 66), "Critical Injury"),
    66: "Memorable Death",
}


def test_every_d66_value_has_its_guide_row():
    assert set(GUIDE_ROWS) == set(D66_VALUES)


@pytest.mark.parametrize(("roll", "name"), GUIDE_ROWS.items())
def test_lasting_injury_rows(roll, name):
    assert LASTING_INJURY.lookup(roll)["result"] == name
    assert LASTING_INJURY.lookup(str(roll))["result"] == name


@pytest.mark.parametrize("roll", [0, 10, 17, 20, 27, 37, 60, 67, 70, 77, 100, -11, "1x"])
def test_impossible_d66_rolls_are_refused(roll):
    with pytest.raises(RulesInputError) as err:
        apply_lasting_injury(GANGER, roll, ScriptedDice([]))
    assert err.value.field == "roll"


def test_lasting_injury_distribution():
    dist = LASTING_INJURY.distribution()
    assert sum(dist.values()) == 1
    assert dist["Out Cold"] == Fraction(8, 36)
    assert dist["Convalescence"] == Fraction(6, 36)
    assert dist["Critical Injury"] == Fraction(5, 36)
    assert dist["Captured"] == Fraction(2, 36)


# roll → (characteristic changes, status, injuries recorded, skills gained, xp gained, dice)
EFFECTS = [
    (11, {}, "convalescence", [], [], 2, [2]),
    (12, {"Cl": 6}, "active", ["impressive-scars"], [], 0, []),
    (13, {}, "active", ["horrid-scars"], ["Fearsome"], 0, []),
    (14, {}, "active", ["bitter-enmity"], [], 0, []),
    (15, {}, "active", [], [], 0, []),
    (26, {}, "active", [], [], 0, []),
    (33, {}, "convalescence", [], [], 0, []),
    (41, {}, "active", ["old-battle-wound"], [], 0, []),
    (42, {}, "active", ["partially-deafened"], [], 0, []),
    (43, {"Ld": 8, "Cl": 8}, "convalescence", ["humiliated"], [], 0, []),
    (44, {"BS": 5}, "recovery", ["eye-injury"], [], 0, []),
    (45, {"WS": 5}, "recovery", ["hand-injury"], [], 0, []),
    (46, {"M": 4}, "recovery", ["hobbled"], [], 0, []),
    (51, {"S": 2}, "recovery", ["spinal-injury"], [], 0, []),
    (52, {"T": 2}, "recovery", ["enfeebled"], [], 0, []),
    (53, {"Int": 8, "Wil": 8}, "recovery", ["head-injury"], [], 0, []),
    (55, {}, "captured", [], [], 0, []),
    (56, {}, "captured", [], [], 0, []),
    (61, {}, "critical_injury", [], [], 0, []),
    (65, {}, "critical_injury", [], [], 0, []),
    (66, {}, "dead", [], [], 0, []),
]


@pytest.mark.parametrize(("roll", "chars", "status", "injuries", "skills", "xp", "dice"), EFFECTS)
def test_each_lasting_injury_applied_to_a_ganger(roll, chars, status, injuries, skills, xp, dice):
    source = ScriptedDice(dice)
    outcome = apply_lasting_injury(GANGER, roll, source)
    after = outcome.fighter
    assert dict(after.characteristics) == {**PROFILE, **chars}
    assert after.status == status
    assert list(after.injuries) == injuries
    assert list(after.skills) == ["Nerves of Steel", *skills]
    assert after.xp == GANGER.xp + xp
    assert source.remaining == 0
    assert outcome.results == (LASTING_INJURY.lookup(roll)["result"],)
    # the input snapshot is untouched
    assert dict(GANGER.characteristics) == PROFILE and GANGER.status == "active"


def test_changes_say_what_why_and_dice():
    outcome = apply_lasting_injury(GANGER, 11, ScriptedDice([3]))
    xp = next(c for c in outcome.changes if c.what == "xp")
    assert (xp.before, xp.after, xp.why) == (5, 8, "Lesson Learned (11)")
    assert xp.dice == ({"die": "D3", "for": "Lesson Learned (11): experience (D3)", "value": 3},)
    assert outcome.changes[0].as_json()["dice"] == [
        {"die": "D66", "for": "Lasting Injury table (entered)", "value": 11}
    ]


@pytest.mark.parametrize(
    ("fighter", "roll"),
    [
        (FighterSnapshot(PROFILE, injuries=("impressive-scars",)), 12),
        (FighterSnapshot(PROFILE, skills=("Fearsome",)), 13),
        (FighterSnapshot(PROFILE, skills=("Berserker",)), 14),
        (FighterSnapshot(PROFILE, injuries=("bitter-enmity",)), 14),
    ],
)
def test_only_once_and_second_time_results_become_out_cold(fighter, roll):
    outcome = apply_lasting_injury(fighter, roll, ScriptedDice([]))
    assert outcome.results == ("Out Cold",)
    assert outcome.fighter == fighter


def test_partially_deafened_hurts_from_the_second_time():
    once = apply_lasting_injury(GANGER, 42, ScriptedDice([])).fighter
    twice = apply_lasting_injury(once, 42, ScriptedDice([])).fighter
    thrice = apply_lasting_injury(twice, 42, ScriptedDice([])).fighter
    assert [f.characteristics["Ld"] for f in (once, twice, thrice)] == [7, 8, 9]
    assert thrice.injuries == ("partially-deafened",) * 3


@pytest.mark.parametrize(("by_attack", "owed"), [(True, 1), (False, 0)])
def test_memorable_death_gives_the_attacker_experience(by_attack, owed):
    outcome = apply_lasting_injury(GANGER, 66, ScriptedDice([]), caused_by_attack_action=by_attack)
    assert outcome.attacker_xp == owed and outcome.fighter.status == "dead"


def test_multiple_injuries_rerolls_its_exclusions():
    # D3 = 2 further rolls. First: 55 Captured, 54 Multiple, 66 Memorable Death, 61 Critical, 21 Out Cold are
    # all re-rolled, then 44 Eye Injury. Second: 12 Impressive Scars.
    dice = [2, 5, 5, 5, 4, 6, 6, 6, 1, 2, 1, 4, 4, 1, 2]
    source = ScriptedDice(dice)
    outcome = apply_lasting_injury(GANGER, 54, source)
    assert outcome.results == ("Multiple Injuries", "Eye Injury", "Impressive Scars")
    assert outcome.fighter.status == "recovery"
    assert outcome.fighter.characteristics["BS"] == 5 and outcome.fighter.characteristics["Cl"] == 6
    assert source.remaining == 0
    eye = next(c for c in outcome.changes if c.what == "result" and c.after == "Eye Injury")
    assert [d["value"] for d in eye.dice] == [5, 5, 5, 4, 6, 6, 6, 1, 2, 1, 4, 4]


def test_multiple_injuries_rerolls_a_result_read_as_out_cold():
    # A fighter with Fearsome: 13 Horrid Scars counts as Out Cold, so it is re-rolled; then 31 Convalescence.
    fighter = FighterSnapshot(PROFILE, skills=("Fearsome",))
    outcome = apply_lasting_injury(fighter, 54, ScriptedDice([1, 1, 3, 3, 1]))
    assert outcome.results == ("Multiple Injuries", "Convalescence")


def test_running_out_of_dice_names_the_dice():
    with pytest.raises(RulesInputError) as err:
        apply_lasting_injury(GANGER, 54, ScriptedDice([3, 4, 4]))
    assert err.value.field == "dice"


def test_missing_characteristic_is_named():
    with pytest.raises(RulesInputError) as err:
        apply_lasting_injury(FighterSnapshot({"M": 5}), 44, ScriptedDice([]))
    assert err.value.field == "fighter.characteristics.BS"


@given(st.integers(0, 100_000))
def test_rolled_lasting_injuries_keep_the_snapshot_sound(seed):
    outcome = roll_lasting_injury(GANGER, SeededDice(seed))
    after = outcome.fighter
    assert after.status in STATUSES
    assert after.xp >= GANGER.xp
    assert set(GANGER.skills) <= set(after.skills)
    assert len(outcome.results) >= 1
    # Multiple Injuries never leaves an excluded result among its further rolls
    if outcome.results[0] == "Multiple Injuries":
        excluded = {"Captured", "Multiple Injuries", "Memorable Death", "Critical Injury", "Out Cold"}
        assert not excluded & set(outcome.results[1:]) and 2 <= len(outcome.results) <= 4


# --- post-battle ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("dice", "survives", "results"),
    [([3], True, ()), ([6], True, ()), ([2, 3, 1], False, ("Convalescence",)), ([1, 1, 5], False, ("Out Cold",))],
)
def test_post_battle_injury_test(dice, survives, results):
    test, outcome = post_battle_injury_test(GANGER, ScriptedDice(dice))
    assert (test["slug"] == "survives") is survives
    assert outcome.results == results


@pytest.mark.parametrize(
    ("roll", "name"), [(1, "Complications"), (2, "Stabilised"), (5, "Stabilised"), (6, "Full Recovery")]
)
def test_medical_escort_rows(roll, name):
    assert MEDICAL_ESCORT.lookup(roll)["result"] == name


CRITICAL = FighterSnapshot(PROFILE, status="critical_injury", id="c1")


def test_medical_escort_complications_kill():
    outcome = apply_medical_escort(CRITICAL, 1, ScriptedDice([]))
    assert outcome.fighter.status == "dead" and outcome.results == ("Complications",)


def test_medical_escort_full_recovery_means_recovery_only():
    outcome = apply_medical_escort(CRITICAL, 6, ScriptedDice([]))
    assert outcome.fighter.status == "recovery"
    assert dict(outcome.fighter.characteristics) == PROFILE and outcome.fighter.injuries == ()


def test_medical_escort_stabilised_rerolls_and_goes_into_recovery():
    # 55 Captured, 62 Critical Injury and 66 Memorable Death are re-rolled; 32 Convalescence stands, but the
    # fighter goes into Recovery in addition.
    source = ScriptedDice([5, 5, 6, 2, 6, 6, 3, 2])
    outcome = apply_medical_escort(CRITICAL, 3, source)
    assert outcome.results == ("Stabilised", "Convalescence")
    assert outcome.fighter.status == "recovery" and source.remaining == 0
    # One move of status, from the Critical Injury to Recovery: the Convalescence rolled is not a second one.
    moves = [(c.before, c.after) for c in outcome.changes if c.what == "status"]
    assert moves == [("critical_injury", "recovery")]


def test_medical_escort_stabilised_may_roll_out_cold_or_multiple_injuries():
    outcome = apply_medical_escort(CRITICAL, 4, ScriptedDice([5, 4, 1, 4, 6]))
    assert outcome.results == ("Stabilised", "Multiple Injuries", "Hobbled")
    assert outcome.fighter.characteristics["M"] == 4 and outcome.fighter.status == "recovery"


@pytest.mark.parametrize("status", ["active", "recovery", "dead"])
def test_medical_escort_only_treats_critical_injuries(status):
    with pytest.raises(RulesInputError) as err:
        apply_medical_escort(FighterSnapshot(PROFILE, status=status), 3, ScriptedDice([]))
    assert err.value.field == "fighter.status"


def test_untreated_critical_injury_is_death():
    assert untreated_critical_injury(CRITICAL).fighter.status == "dead"


RECRUIT = {**dict.fromkeys((16, 26, 36, 46, 56, 61, 62, 63, 64, 65), "Juve"), 66: "Ganger"}


@pytest.mark.parametrize("roll", D66_VALUES)
def test_home_settlement_recruit_rows(roll):
    assert HOME_SETTLEMENT_RECRUIT.lookup(roll)["recruit"] == RECRUIT.get(roll)


def test_home_settlement_recruit_odds():
    assert HOME_SETTLEMENT_RECRUIT.distribution() == {
        "No recruit": Fraction(25, 36),
        "Free Juve": Fraction(10, 36),
        "Free Ganger": Fraction(1, 36),
    }


def test_home_settlement_income_and_recruit():
    settled = roll_home_settlement(ScriptedDice([4, 6, 3]))
    assert settled["income"] == 40 and settled["reputation"] == 1
    assert settled["recruit"]["recruit"] == "Juve" and settled["recruit"]["roll"] == 63
    assert roll_home_settlement(ScriptedDice([2]), recruit=False)["recruit"] is None


@pytest.mark.parametrize(
    ("status", "hierarchy", "may_act"),
    [
        ("active", True, True),
        ("convalescence", True, True),
        ("recovery", True, False),
        ("captured", True, False),
        ("critical_injury", True, False),
        ("dead", True, False),
        ("active", False, False),
    ],
)
def test_post_battle_action_eligibility(status, hierarchy, may_act):
    answer = post_battle_action_eligibility(FighterSnapshot(PROFILE, status=status), gang_hierarchy=hierarchy)
    assert answer["may_act"] is may_act
    assert ("Medical Escort" in answer["actions"]) is may_act


@pytest.mark.parametrize(
    ("status", "face", "after"),
    [("active", 1, "convalescence"), ("active", 2, "active"), ("recovery", 1, "recovery")],
)
def test_old_battle_wound_check(status, face, after):
    from rulebook.n18.campaign.post_battle import old_battle_wound_check

    fighter = FighterSnapshot(PROFILE, injuries=("old-battle-wound",), status=status)
    assert old_battle_wound_check(fighter, ScriptedDice([face])).fighter.status == after
    source = ScriptedDice([])
    assert old_battle_wound_check(GANGER, source).fighter == GANGER and source.log() == []


def test_snapshots_are_frozen_and_hashable():
    import dataclasses

    with pytest.raises(dataclasses.FrozenInstanceError):
        GANGER.xp = 10
    with pytest.raises(TypeError):
        GANGER.characteristics["BS"] = 2
    same = FighterSnapshot(dict(PROFILE), skills=["Nerves of Steel"], xp=5, id="g1")
    assert same == GANGER and len({same, GANGER}) == 1


@pytest.mark.parametrize(
    ("code", "before", "after", "text"),
    [("WS", 4, 5, "WS 4+ → 5+"), ("Wil", 7, 6, "Wil 7+ → 6+"), ("S", 3, 4, "S 3 → 4"), ("M", 5, 4, "M 5 → 4")],
)
def test_a_characteristic_change_reads_the_games_way(code, before, after, text):
    assert characteristic_change_text(code, before, after) == text
