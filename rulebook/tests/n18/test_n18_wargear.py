"""2018+ wargear in a Shoot (``rulebook.n18.wargear``): a respirator, filter plugs and an industrial respirator raise
the Toughness of the Gas roll, photo-goggles add 1 to the Flash Initiative test; hand-worked fractions, worked rolls,
bad input and the command line."""

import json
from fractions import Fraction as F

import pytest

from rulebook.dice import ScriptedDice
from rulebook.errors import RulesInputError
from rulebook.n18 import shooting, wargear
from rulebook.query import Query
from rulebook.tests.cli_answers import ok, refused

GAS = {"shooter": {"BS": 4, "S": 3}, "weapon": "choke gas grenade", "target": {"T": 3, "save": 4}, "distance": 6}
FLASH = {"shooter": {"BS": 4, "S": 3}, "weapon": "photon flash grenade", "target": {"T": 3, "I": 4}, "distance": 6}
# The Injury dice: Flesh Wound 1/3, Seriously Injured 1/2, Out of Action 1/6.
INJURY = {"flesh_wound": F(1, 3), "seriously_injured": F(1, 2), "out_of_action": F(1, 6)}


def exact(answer: dict, name: str):
    value = answer[f"{name}_exact"]
    return {k: F(v) for k, v in value.items()} if isinstance(value, dict) else F(value)


def with_wargear(query: dict, *items: str, **target) -> dict:
    return {**query, "target": {**query["target"], **target, "wargear": list(items)}}


@pytest.mark.parametrize(
    ("items", "toughness", "takes"),
    [
        ((), 3, F(2, 3)),  # a D6 of 3+ against T3
        (("respirator",), 3, F(1, 3)),  # T3 + 2: 5+
        (("filter plugs",), 3, F(1, 2)),  # T3 + 1: 4+
        (("respirator", "filter-plugs"), 3, F(1, 6)),  # T3 + 3: 6+
        (("Industrial respirator",), 3, F(1, 6)),  # T3 + 3: 6+
        (("industrial-respirator",), 4, F(1, 6)),  # T4 + 3: 7, still taken on a natural 6
        (("photo-goggles",), 3, F(2, 3)),  # nothing against Gas
    ],
)
def test_gas_roll_against_the_toughness_the_wargear_raises(items, toughness, takes):
    # Hit on 4+ (1/2), then the Gas roll; the 4+ save never counts against Gas.
    answer = shooting.odds(Query(with_wargear(GAS, *items, T=toughness)))
    outcome = exact(answer, "outcome")
    assert outcome["miss"] == F(1, 2)
    assert outcome["no_wound"] == F(1, 2) * (1 - takes)
    assert {k: outcome[k] for k in INJURY} == {k: F(1, 2) * takes * p for k, p in INJURY.items()}
    assert outcome["saved"] == 0


def test_a_respirator_changes_no_toxin_roll_and_no_other_wound():
    needle = {"shooter": {"BS": 4}, "weapon": "needle rifle", "target": {"T": 3, "save": 3}, "distance": 6}
    assert shooting.odds(Query(with_wargear(needle, "respirator"))) == shooting.odds(Query(needle))
    lasgun = {"shooter": {"BS": 4}, "weapon": "lasgun", "target": {"T": 3}, "distance": 20}
    assert shooting.odds(Query(with_wargear(lasgun, "respirator"))) == shooting.odds(Query(lasgun))


@pytest.mark.parametrize(("dice", "outcome"), [([4, 4, 2], "no_wound"), ([4, 5, 6, 2], "out_of_action")])
def test_gas_roll_with_a_respirator_needs_5(dice, outcome):
    # The hit roll, the Gas roll (5+ against T3 with a respirator), the Injury dice when it takes, the grenade's Ammo.
    rolled = shooting.roll(Query(with_wargear(GAS, "respirator")), ScriptedDice(dice))
    assert rolled["outcome"] == outcome


@pytest.mark.parametrize(
    ("initiative", "items", "blind"),
    [
        (4, (), F(1, 2) * F(1, 2)),  # fails on 1-3
        (4, ("photo-goggles",), F(1, 2) * F(1, 3)),  # D6 + 1 fails on 1-2
        (6, ("photo-goggles",), F(1, 2) * F(2, 3)),  # D6 + 1 of 6 fails on 1-4
        (2, ("photo-goggles",), F(0)),  # D6 + 1 always reaches 2 (the Agility test's reading of a test)
        (4, ("respirator",), F(1, 2) * F(1, 2)),  # nothing against Flash
    ],
)
def test_flash_photo_goggles_add_one_to_the_initiative_test(initiative, items, blind):
    answer = shooting.odds(Query(with_wargear(FLASH, *items, I=initiative)))
    assert exact(answer["effect"], "p_condition") == blind


@pytest.mark.parametrize(("items", "blind"), [((), True), (("photo-goggles",), False)])
def test_flash_roll_the_goggles_turn_a_3_into_a_pass(items, blind):
    # Hit 4, Initiative test 3 (needs 4+: 3 + 1 passes with goggles), grenade Ammo 5.
    rolled = shooting.roll(Query(with_wargear(FLASH, *items)), ScriptedDice([4, 3, 5]))
    assert rolled["effect"]["taken"] is blind


def test_split_to_fighters_read_their_own_wargear():
    # A Rapid Fire Gas weapon written out: each fighter's Gas roll against their own raised Toughness.
    weapon = {"short_range": 8, "long_range": 24, "strength": 2, "damage": 1, "traits": ["Rapid Fire (1)", "Gas"]}
    query = {
        "shooter": {"BS": 4},
        "weapon": weapon,
        "target": {"T": 3, "wargear": ["respirator"]},
        "split_to": [{"T": 3}],
        "distance": 6,
        "firepower_dice": 1,
    }
    answer = shooting.odds(Query(query))
    # Hit 1/2. One Firepower dice: 1 bullet hole 1/2, 2 holes 1/3, 3 holes 1/6. The target takes the first hit and, on
    # 3 holes, the third: its Gas roll needs 5+ (1/3). The other fighter takes the second hit (2 holes or more, 1/2)
    # and rolls against T3 unhelped (3+: 2/3).
    target = F(5, 6) * F(1, 3) + F(1, 6) * (1 - F(2, 3) ** 2)
    assert exact(answer, "p_unsaved") == F(1, 2) * target == F(5, 27)
    assert exact(answer["split"][0], "p_unsaved") == F(1, 2) * F(1, 2) * F(2, 3)


def test_wargear_the_engine_does_not_apply_is_refused():
    with pytest.raises(RulesInputError) as refusal:
        shooting.odds(Query(with_wargear(GAS, "grav-chute")))
    assert refusal.value.field == "target.wargear"
    with pytest.raises(RulesInputError) as refusal:
        shooting.odds(Query({**GAS, "target": {**GAS["target"], "wargear": "respirator"}}))
    assert refusal.value.field == "target.wargear"


def test_every_item_has_a_reason_or_is_applied_in_full():
    assert wargear.not_applied("respirator") is None and wargear.not_applied("filter-plugs") is None
    assert "smoke" in wargear.not_applied("photo-goggles")
    assert "first Injury roll" in wargear.not_applied("bio-booster")
    assert wargear.not_applied("anything-else") == wargear.NOT_MODELLED
    assert "Exotic Beast" in wargear.not_applied("grapplehawk", "exotic_beast")


def test_command_line_takes_the_target_wargear():
    answer = ok("odds", "n18", "shoot", stdin=json.dumps(with_wargear(FLASH, "photo-goggles")))
    assert answer["effect"]["p_condition_exact"] == "1/6"
    assert "target.wargear" in refused("odds", "n18", "shoot", stdin=json.dumps(with_wargear(GAS, "medicae kit")))
