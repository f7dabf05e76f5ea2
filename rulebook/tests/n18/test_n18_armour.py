"""Armour worn together (``rulebook.n18.armour``): the save each combination gives against each kind of attack,
per the 2023 core rulebook's Armour and Personal Equipment pages (necrovox.org)."""

from fractions import Fraction

import pytest

from rulebook import editions
from rulebook.errors import RulesInputError
from rulebook.n18.armour import Situation, read_worn, save_and_modifier
from rulebook.query import Query

SHOT = {"shooter": {"BS": 3, "S": 3}, "distance": 6}


def save_needed(armour, situation):
    save, modifier = save_and_modifier(read_worn(Query({"armour": armour})), situation)
    return None if save is None else save - situation.ap - modifier


@pytest.mark.parametrize(
    ("armour", "situation", "needed"),
    [
        ("flak", Situation(), 6),
        ("flak", Situation(area=True), 5),  # 5+ against Blast markers and Flame templates
        (["flak-armour", "armoured-undersuit"], Situation(), 5),  # the page's own example
        (["flak-armour", "armoured-undersuit"], Situation(area=True), 4),
        (["armoured-undersuit"], Situation(), 6),  # alone: 6+
        ("layered-flak-armour", Situation(area=True), 4),
        ("heavy-carapace-armour", Situation(front=True), 3),
        ("heavy-carapace-armour", Situation(), 4),
        ("plate-mail", Situation(area=True), 5),
        ("hardened-layered-flak-armour", Situation(ap=-2), 6),  # AP -2 counts as -1: 5+1
        ("hardened-layered-flak-armour", Situation(ap=-1), 6),  # AP -1 stays -1
        ("hardened-layered-flak-armour", Situation(ap=-3), 7),  # AP -3 counts as -2
        (["flak", "vigilance-assault-shield"], Situation(front=True), 5),  # +1 against ranged from the front
        (["flak", "vigilance-assault-shield"], Situation(front=True, melee=True), 4),  # +2 in close combat
        (["flak", "vigilance-assault-shield"], Situation(), 6),  # not from the front: nothing
        (["flak", "scrap-shield"], Situation(melee=True, reaction=True, engaged=True), 5),
        (["flak", "scrap-shield"], Situation(), 6),  # nothing against ranged attacks
        ([], Situation(), None),
    ],
)
def test_worn_together(armour, situation, needed):
    assert save_needed(armour, situation) == needed


def test_two_suits_are_refused():
    with pytest.raises(RulesInputError, match="one suit of armour"):
        read_worn(Query({"armour": ["flak", "mesh"]}))


def test_unknown_armour_is_refused_naming_the_field():
    with pytest.raises(RulesInputError) as refused:
        read_worn(Query({"armour": ["tin foil"]}, "target"))
    assert refused.value.field == "target.armour"


def odds(action, query):
    return editions.action("n18", action).odds(Query(query))


def test_frag_grenade_against_flak_and_undersuit_needs_4():
    answer = odds(
        "shoot",
        {**SHOT, "weapon": "frag grenade", "target": {"T": 3, "W": 1, "armour": ["flak", "armoured undersuit"]}},
    )
    assert answer["save"]["needed"] == 4


def test_a_flamer_against_flak_saves_on_5_plus_less_its_ap():
    """Flak's 5+ against a Flame template, AP -1: 6+ (a plain 6+ save would be no save at all)."""
    flak = odds("shoot", {**SHOT, "weapon": "flamer", "target": {"T": 3, "W": 1, "armour": "flak"}})
    plain = odds("shoot", {**SHOT, "weapon": "flamer", "target": {"T": 3, "W": 1, "save": 6}})
    assert (flak["save"]["needed"], plain["outcome_exact"]["saved"]) == (6, "0")


def test_a_prone_fighter_has_no_front_arc():
    target = {"T": 3, "W": 1, "armour": "heavy-carapace-armour", "front_arc": True}
    standing = odds("shoot", {**SHOT, "weapon": "laspistol", "target": target})
    prone = odds("shoot", {**SHOT, "weapon": "laspistol", "target": {**target, "state": "prone"}})
    assert (standing["save"]["needed"], prone["save"]["needed"]) == (3, 4)


def test_fight_reads_the_target_armour_and_the_shield_from_the_front():
    fight = {"attacker": {"WS": 3, "A": 1, "S": 3}, "weapon": "fighting knife"}
    plain = odds("fight", {**fight, "target": {"T": 3, "W": 1, "save": 6}})
    shielded = odds(
        "fight",
        {**fight, "target": {"T": 3, "W": 1, "armour": ["flak", "vigilance-assault-shield"], "front_arc": True}},
    )
    unharmed = [Fraction(answer["outcome_exact"]["unharmed"]) for answer in (plain, shielded)]
    assert unharmed[1] > unharmed[0]


def test_falling_and_blaze_read_armour_too():
    assert odds("fall", {"height": 4, "target": {"T": 3, "W": 1, "armour": "flak"}})
    assert odds("blaze", {"step": "activation", "target": {"T": 3, "W": 1, "armour": "mesh"}})


def test_a_fighter_also_under_the_marker_is_hit_with_no_ammo_test_of_its_own():
    """``also_under``: one more fighter under the Blast marker (or Flame template) of an attack already resolved."""
    query = {
        **SHOT,
        "weapon": "frag grenade",
        "target": {"T": 3, "W": 1, "armour": "flak", "under_marker": True},
        "also_under": True,
    }
    answer = odds("shoot", query)
    assert (answer["p_hit_exact"], answer["p_ammo_check_exact"], answer["save"]["needed"]) == ("1", "0", 5)
    flamer = odds("shoot", {**SHOT, "weapon": "flamer", "target": {"T": 3, "W": 1}, "also_under": True})
    assert flamer["p_ammo_check_exact"] == "0"
    with pytest.raises(RulesInputError) as refused:
        odds("shoot", {**SHOT, "weapon": "laspistol", "target": {"T": 3, "W": 1}, "also_under": True})
    assert refused.value.field == "also_under"
