"""Which 2018+ weapon profiles the Shoot and Fight actions resolve, and the words for those they refuse."""

import pytest

from rulebook.n18 import fighting, shooting, shot, trading_post
from rulebook.query import Query

TARGET = {"T": 3, "W": 1, "flesh_wounds": 0, "state": "standing", "save": None}


def spelled(**profile) -> dict:
    return {"name": "Test weapon", "short_range": 6, "long_range": 12, "strength": 3, "damage": 1, **profile}


def test_a_printed_dash_is_no_strength_or_damage_and_a_gas_weapon_still_shoots():
    profile = trading_post.read_profile(Query({"weapon": spelled(strength="-", damage="-", traits=["Gas"])}))
    assert (profile["strength"], profile["damage"]) == (None, None)
    query = {
        "shooter": {"BS": 3},
        "weapon": spelled(strength="-", damage="-", traits=["Gas"]),
        "target": TARGET,
        "distance": 4,
    }
    assert shooting.odds(Query(query))["p_hit"] > 0


@pytest.mark.parametrize(
    ("profile", "why"),
    [
        (spelled(long_range="E", short_range=None), "a close combat weapon; use it in a fight"),
        # Flash, Web, Smoke and Graviton Pulse are shot (issue 22): their effect replaces the wound, so no Strength or
        # Damage is needed.
        (spelled(strength=None, traits=["Graviton Pulse", 'Blast (3")']), None),
        (spelled(damage=None, traits=["Web"]), None),
        (spelled(strength=None, damage=None, traits=["Smoke", 'Blast (5")']), None),
        (spelled(strength=None, damage=None, traits=["Flash", 'Blast (5")']), None),
        (spelled(damage="-"), "its profile has no Damage, so there is no hit to resolve; roll it at the table"),
        (spelled(), None),
    ],
)
def test_shot_refusals(profile, why):
    assert shot.refusal(trading_post.read_profile(Query({"weapon": profile}))) == why


@pytest.mark.parametrize(
    ("profile", "why"),
    [
        (spelled(), "it has no Melee or Sidearm trait, so it is not used in close combat"),
        (spelled(traits=["Sidearm"]), None),
        (spelled(long_range="E", short_range=None, strength="-", damage="-", traits=["Toxin"]), None),
        (
            spelled(long_range="E", short_range=None, strength="-", damage="-", traits=["Gas", "Melee"]),
            "its profile has no Strength or Damage, so there is no hit to resolve; roll it at the table",
        ),
    ],
)
def test_close_combat_refusals(profile, why):
    assert fighting.refusal(trading_post.read_profile(Query({"weapon": profile}))) == why


def test_a_web_weapon_is_still_refused_in_a_fight():
    gauntlet = spelled(long_range="E", short_range=None, damage=None, traits=["Melee", "Web"])
    assert fighting.refusal(trading_post.read_profile(Query({"weapon": gauntlet}))) == (
        "its Web rule is not resolved by the assistant yet; roll it at the table"
    )
