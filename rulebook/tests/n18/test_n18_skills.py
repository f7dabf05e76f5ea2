"""2018+ skills the engine models (rulebook.n18.skills): Berserker in a charge, Iron Will in a Bottle test, and the
number of friends a Group Activation brings."""

from fractions import Fraction

import pytest

from rulebook.errors import RulesInputError
from rulebook.n18 import checks, fighting, skills
from rulebook.query import Query

FIGHT = {"attacker": {"WS": 3, "A": 1, "S": 3, "charging": True}, "target": {"T": 3, "W": 1}}


@pytest.mark.parametrize(
    "special_rules, learnt, most",
    [
        ([], [], 0),
        (["Gang Leader", "Group Activation (2)"], [], 2),
        (["Group Activation (1)"], ["Commanding Presence"], 2),
        (["Group Activation (2)"], ["Commanding Presence", "Berserker"], 3),
        ([], ["Commanding Presence"], 0),  # the skill adds to a Group Activation the fighter has
    ],
)
def test_group_activation(special_rules, learnt, most):
    assert skills.group_activation(special_rules, learnt) == most


@pytest.mark.parametrize("learnt, charging, dice", [([], True, 2), (["Berserker"], True, 3), (["Berserker"], False, 1)])
def test_a_berserker_rolls_one_more_attack_dice_on_a_charge(learnt, charging, dice):
    query = {**FIGHT, "attacker": {**FIGHT["attacker"], "charging": charging, "skills": learnt}}
    assert fighting.odds(Query(query))["attack_dice"] == dice


def test_a_skill_the_fight_does_not_model_is_refused():
    query = {**FIGHT, "attacker": {**FIGHT["attacker"], "skills": ["Step Aside"]}}
    with pytest.raises(RulesInputError):
        fighting.odds(Query(query))


def test_iron_will_takes_one_off_the_bottle_roll():
    query = {"kind": "bottle", "starting_crew": 6, "seriously_injured": 2, "out_of_action": 1}
    plain = checks.odds(Query(dict(query)))["p_bottled_exact"]
    steady = checks.odds(Query({**query, "iron_will": True}))["p_bottled_exact"]
    # D6 + 3 above 6 bottles on 4+ (1/2); with Iron Will on 5+ (1/3).
    assert (Fraction(plain), Fraction(steady)) == (Fraction(1, 2), Fraction(1, 3))


def test_skills_the_engine_does_not_model_are_named():
    assert skills.not_modelled(["Berserker", "Iron Will", "Commanding Presence", "Dodge"]) == ["Dodge"]
