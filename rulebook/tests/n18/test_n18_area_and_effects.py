"""2018+ area and special weapons (issue 22): Rapid Fire hits split to fighters within 3", a missed Blast marker's
scatter, and the Flash, Web, Smoke and Graviton Pulse traits: hand-worked fractions, worked rolls, bad input and
the command line."""

import json
from fractions import Fraction as F

import pytest

from rulebook.dice import ScriptedDice
from rulebook.errors import RulesInputError
from rulebook.n18 import shooting
from rulebook.query import Query
from rulebook.tests.cli_answers import ok, refused


def exact(answer: dict, name: str):
    value = answer[f"{name}_exact"]
    return {k: F(v) for k, v in value.items()} if isinstance(value, dict) else F(value)


def odds(query: dict) -> dict:
    return shooting.odds(Query(query))


def roll(query: dict, dice: list) -> dict:
    return shooting.roll(Query(query), ScriptedDice(dice))


# --- Rapid Fire hits split between fighters within 3" ------------------------------------------------


def rapid_fire_one(**extra) -> dict:
    weapon = {
        "short_range": 8,
        "long_range": 24,
        "strength": 3,
        "damage": 1,
        "ammo": "4+",
        "traits": ["Rapid Fire (1)"],
    }
    return {"shooter": {"BS": 3}, "weapon": weapon, "target": {"T": 3, "W": 1}, "distance": 10, **extra}


def test_the_first_hit_stays_on_the_target_and_the_next_goes_to_the_fighter_within_3():
    # BS 3+ hits 2/3; one Firepower dice shows 1 hole 1/2 (the Ammo face has one too), 2 holes 1/3, 3 holes 1/6.
    # One hit at most goes to the other fighter: the target takes 1, 1, 2 of 1, 2, 3 hits; the other 0, 1, 1.
    answer = odds(rapid_fire_one(split_to=[{"T": 3, "W": 1, "hits": 1}]))
    assert exact(answer, "hits") == {"0": F(1, 3), "1": F(2, 3) * (F(1, 2) + F(1, 3)), "2": F(2, 3) * F(1, 6)}
    other = answer["split"][0]
    assert exact(other, "hits") == {"0": F(1, 3) + F(2, 3) * F(1, 2), "1": F(2, 3) * F(1, 2)}
    # The other fighter, T3 with no save, is wounded on a 4+ by its one hit: (1/3) * (1/2).
    assert exact(other, "p_unsaved") == F(1, 3) * F(1, 2)
    assert 'then up to 1 on the fighters within 3"' in answer["assumptions"]


def test_without_split_to_every_hit_stays_on_the_target():
    answer = odds(rapid_fire_one())
    assert exact(answer, "hits") == {"0": F(1, 3), "1": F(2, 3) * F(1, 2), "2": F(2, 9), "3": F(1, 9)}
    assert "split" not in answer


def test_a_split_roll_resolves_the_target_then_each_other_fighter():
    # Hit roll 4 (hits), Firepower dice 2 (two hits, no Ammo symbol): one on the target, one on the other fighter.
    # Target: wound roll 2 fails. Other fighter (5+ save): wound roll 5, save roll 3 fails, Injury dice 6.
    query = rapid_fire_one(split_to=[{"T": 3, "W": 1, "save": 5}])
    answer = roll(query, [4, 2, 2, 5, 3, 6])
    assert (answer["hits_scored"], answer["hits"], answer["result"]) == (2, 1, "no_wound")
    (other,) = answer["split"]
    assert (other["hits"], other["outcome"], other["pins"]) == (1, "out_of_action", True)


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ({**rapid_fire_one(), "weapon": "laspistol", "split_to": [{"T": 3}]}, "split_to"),
        (rapid_fire_one(split_to=[{"T": 3}] * 6), "split_to"),
        (rapid_fire_one(split_to=[{"T": 3, "hits": 0}]), "split_to[0].hits"),
        (rapid_fire_one(split_to=[{"W": 1}]), "split_to[0].T"),
    ],
)
def test_bad_split_to_is_refused_naming_the_field(query, field):
    with pytest.raises(RulesInputError) as refusal:
        odds(query)
    assert refusal.value.field == field


# --- a Blast marker that misses scatters ------------------------------------------------------------

FRAG = {"shooter": {"BS": 4, "S": 3}, "weapon": "frag grenade", "target": {"T": 3, "W": 1}, "distance": 6}


def test_scatter_odds_follow_the_scatter_dice_and_the_d6():
    # Two Hit faces of six: a Hit and a 1 (1/18) is a misfire check, a dud on 2-6 of a further D6, the shooter on 1.
    scatter = odds(FRAG)["area"]["scatter_odds"]
    assert exact(scatter, "lands") == {"scattered": F(17, 18), "dud": F(5, 108), "on_shooter": F(1, 108)}
    # Given it moves: 1" only on an arrow (4/6 * 1/6 = 12/108 of 102/108), 2"-6" on either face.
    assert exact(scatter, "inches") == {"1": F(2, 17), **{str(n): F(3, 17) for n in range(2, 7)}}


@pytest.mark.parametrize(
    ("dice", "scatter"),
    [
        (
            [1, 5, "arrow", 4],
            {"scatter_dice": "arrow", "d6": 4, "lands": "scattered", "inches": 4, "direction": "the arrow"},
        ),
        (
            [2, 5, "hit", 3],
            {
                "scatter_dice": "hit",
                "d6": 3,
                "lands": "scattered",
                "inches": 3,
                "direction": "the small arrow on the Hit symbol",
            },
        ),
        ([1, 5, "hit", 1, 4], {"scatter_dice": "hit", "d6": 1, "misfire_d6": 4, "lands": "dud"}),
        ([1, 5, "hit", 1, 1], {"scatter_dice": "hit", "d6": 1, "misfire_d6": 1, "lands": "on_shooter"}),
    ],
)
def test_a_missed_blast_rolls_its_scatter_last(dice, scatter):
    # The hit roll misses (BS 4+), the grenade's Ammo test (4+) comes after the attack, then the scatter.
    assert roll({**FRAG, "scatter": True}, dice)["scatter"] == scatter


def test_without_scatter_a_missed_blast_reads_the_same_dice_as_before():
    answer = roll(FRAG, [1, 5])
    assert answer["blast_marker"].startswith("scatters") and "scatter" not in answer


def test_a_blast_that_hits_does_not_scatter():
    answer = roll({**FRAG, "scatter": True}, [4, 1, 5])  # hit, wound roll 1 fails, Ammo test
    assert "scatter" not in answer and "blast_marker" not in answer


def test_scatter_is_only_for_a_blast_marker_aimed_at_the_target():
    with pytest.raises(RulesInputError) as refusal:
        odds({**rapid_fire_one(), "scatter": True})
    assert refusal.value.field == "scatter"


# --- Flash, Web, Smoke and Graviton Pulse ------------------------------------------------------------------

FLASH = {"shooter": {"BS": 4, "S": 3}, "weapon": "photon flash grenade", "target": {"T": 3, "I": 4}, "distance": 6}


def test_flash_no_wound_and_an_initiative_test_against_blindness():
    # BS 4+ hits 1/2; Initiative 4+ fails on 1-3 (1/2): Blind 1/4. No wound roll: a hit is "no_wound".
    answer = odds(FLASH)
    assert exact(answer["effect"], "p_condition") == F(1, 4)
    assert answer["effect"]["condition"] == "Blind"
    assert exact(answer, "outcome")["no_wound"] == F(1, 2)
    assert exact(answer, "p_wound") == 0


@pytest.mark.parametrize(("dice", "blind"), [([4, 3, 5], True), ([4, 4, 5], False)])
def test_flash_roll_hit_then_the_initiative_test_then_the_grenade_ammo_test(dice, blind):
    answer = roll(FLASH, dice)
    assert answer["effect"] == {"trait": "Flash", "condition": "Blind", "taken": blind}
    assert (answer["hits"], answer["pins"], answer["ammo_test"]) == (1, True, "passed")


def test_flash_needs_the_target_initiative():
    with pytest.raises(RulesInputError) as refusal:
        odds({**FLASH, "target": {"T": 3}})
    assert refusal.value.field == "target.I"


WEB = {"shooter": {"BS": 3}, "weapon": "web gun", "target": {"T": 3, "W": 2, "save": 4}, "distance": 0}


def test_web_webbed_on_a_successful_wound_roll_with_no_save():
    # A Flame template hits; S5 against T3 wounds on 3+: Webbed 2/3, the 4+ save never rolled.
    answer = odds(WEB)
    assert exact(answer["effect"], "p_condition") == F(2, 3)
    assert answer["effect"]["condition"] == "Webbed"
    assert exact(answer, "outcome")["no_wound"] == 1


@pytest.mark.parametrize(("dice", "webbed"), [([3, 2], True), ([2, 2], False)])
def test_web_roll_the_wound_roll_then_the_firepower_dice(dice, webbed):
    answer = roll(WEB, dice)
    assert answer["effect"]["taken"] is webbed
    assert answer["target_after"]["wounds"] == 2  # no wound inflicted either way


SMOKE = {"shooter": {"BS": 4, "S": 3}, "weapon": "smoke grenade", "target": {"T": 3}, "distance": 6}


def test_smoke_hits_nobody_and_places_a_cloud():
    answer = odds(SMOKE)
    assert exact(answer, "outcome")["miss"] == 1 and exact(answer, "p_hit") == 0
    assert exact(answer["area"], "p_on_target") == F(1, 2)  # the hit roll places the cloud where aimed
    assert exact(answer["effect"], "p_clears_each_end_phase") == F(2, 3)
    hit = roll(SMOKE, [5, 6])  # the hit roll lands it; the grenade's Ammo test
    assert (hit["hits"], hit["pins"], hit["effect"]["hits_fighters"]) == (0, False, False)


GRAV = {"shooter": {"BS": 3}, "weapon": "grav gun", "target": {"T": 3, "S": 3, "W": 2, "armour": "flak"}, "distance": 6}


def test_graviton_pulse_a_strength_roll_then_damage_with_no_save():
    # Short range +1: hits on 2+ (5/6). A D6 of 1-3 resists (S3); on 4-6 (1/2) Damage 2 takes W2 to 0 with no
    # save (flak never rolled): one Injury dice, 1-2 Flesh Wound, 3-5 Seriously Injured, 6 Out of Action.
    answer = odds(GRAV)
    outcome = exact(answer, "outcome")
    assert exact(answer, "p_unsaved") == F(5, 12)
    assert (outcome["no_wound"], outcome["saved"]) == (F(5, 12), 0)
    assert (outcome["flesh_wound"], outcome["seriously_injured"], outcome["out_of_action"]) == (
        F(5, 36),
        F(5, 24),
        F(5, 72),
    )


@pytest.mark.parametrize(("dice", "outcome"), [([4, 3, 1], "no_wound"), ([4, 6, 4, 1], "seriously_injured")])
def test_graviton_pulse_roll(dice, outcome):
    # Hit roll, Strength roll (a 6 always fails), Injury dice, Firepower dice.
    assert roll(GRAV, dice)["outcome"] == outcome


def test_graviton_pulse_needs_the_target_strength():
    with pytest.raises(RulesInputError) as refusal:
        odds({**GRAV, "target": {"T": 3, "W": 2}})
    assert refusal.value.field == "target.S"


def test_the_command_line_answers_the_special_weapons():
    assert ok("odds", "n18", "shoot", stdin=json.dumps(FLASH))["effect"]["p_condition_exact"] == "1/4"
    answer = ok("roll", "n18", "shoot", "--dice", "1,5,arrow,4", stdin=json.dumps({**FRAG, "scatter": True}))
    assert answer["scatter"]["inches"] == 4
    assert "split_to" in refused("odds", "n18", "shoot", stdin=json.dumps({**FLASH, "split_to": [{"T": 3}]}))
