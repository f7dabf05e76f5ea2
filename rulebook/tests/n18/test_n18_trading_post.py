"""The 2018+ Trading Post data file and its look-ups."""

import pytest

from rulebook.errors import RulesInputError
from rulebook.n18 import trading_post
from rulebook.query import Query

COMMON_LIST = [
    "autopistol", "laspistol", "stub-gun", "bolt-pistol", "plasma-pistol", "hand-flamer", "autogun", "lasgun",
    "shotgun", "boltgun", "combat-shotgun", "flamer", "grenade-launcher", "meltagun", "plasma-gun",
    "heavy-stubber", "heavy-bolter", "lascannon", "missile-launcher", "autocannon", "fighting-knife", "axe",
    "chainsword", "sword", "power-sword", "frag-grenade", "krak-grenade", "smoke-grenade", "photon-flash-grenade",
    "blasting-charge",
]  # fmt: skip
CATEGORIES = {"pistol", "basic", "special", "heavy", "close_combat", "grenade"}


def test_file_shape_and_every_record_sourced():
    data = trading_post.data()
    assert data["edition"] == "n18"
    for kind in trading_post.KINDS:
        slugs = [item["slug"] for item in data[kind]]
        assert len(slugs) == len(set(slugs))
        for item in data[kind]:
            assert item["sources"] and set(item["sources"]) <= set(data["sources"])
            assert isinstance(item["cost"], int) and item["cost"] >= 0
            assert item["rarity"] is None or item["rarity"] == "Common" or item["rarity"][0] in "RI"


def test_weapon_profiles_follow_the_agreed_format():
    for item in trading_post.data()["weapons"]:
        assert item["category"] in CATEGORIES
        for profile in item["profiles"]:
            assert set(profile) == {"name", "short_range", "long_range", "acc_short", "acc_long", "strength", "ap",
                                    "damage", "ammo", "traits"}  # fmt: skip
            assert profile["ap"] <= 0
            assert profile["ammo"] is None or profile["ammo"] in {"2+", "3+", "4+", "5+", "6+"}
            if item["category"] == "close_combat":
                assert profile["long_range"] == "E"


@pytest.mark.parametrize("slug", COMMON_LIST)
def test_the_common_list_is_there(slug):
    assert trading_post.weapon(slug)["slug"] == slug


@pytest.mark.parametrize("name", ["Plasma pistol", "plasma-pistol", "PLASMA PISTOL", " plasma   pistol "])
def test_look_up_by_slug_or_name(name):
    assert trading_post.weapon(name)["slug"] == "plasma-pistol"


def test_armour_and_wargear():
    assert trading_post.find("armour", "Flak armour")["save"] == 6
    assert trading_post.find("armour", "mesh-armour")["save"] == 5
    assert trading_post.find("wargear", "respirator")["cost"] == 15


@pytest.mark.parametrize(
    ("weapon", "profile", "strength"), [("shotgun", "solid slug", 4), ("shotgun", "Scatter", 2), ("lasgun", None, 3)]
)
def test_profiles_by_name(weapon, profile, strength):
    assert trading_post.profile(trading_post.weapon(weapon), profile)["strength"] == strength


def test_a_weapon_with_several_profiles_needs_one_named():
    with pytest.raises(RulesInputError) as error:
        trading_post.profile(trading_post.weapon("plasma gun"), None)
    assert error.value.field == "profile"


def test_unknown_items_are_refused_naming_the_field():
    with pytest.raises(RulesInputError) as error:
        trading_post.weapon("bolt thrower")
    assert error.value.field == "weapon"


def test_a_profile_spelled_out_in_a_query():
    query = Query({"weapon": {"long_range": 24, "short_range": 12, "strength": "S+1", "ap": -1, "damage": "D3"}})
    profile = trading_post.read_profile(query)
    assert (profile["strength"], profile["damage"], profile["traits"]) == ("S+1", "D3", [])
    with pytest.raises(RulesInputError) as error:
        trading_post.read_profile(Query({"weapon": {"long_range": 24, "strength": "lots"}}))
    assert error.value.field == "weapon.strength"
