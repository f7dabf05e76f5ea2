"""The 2018+ Trading Post data file and its look-ups."""

import pytest

from rulebook.errors import RulesInputError
from rulebook.n18 import shooting, shot, trading_post
from rulebook.query import Query

COMMON_LIST = [
    "autopistol",
    "laspistol",
    "stub-gun",
    "bolt-pistol",
    "plasma-pistol",
    "hand-flamer",
    "autogun",
    "lasgun",
    "shotgun",
    "boltgun",
    "combat-shotgun",
    "flamer",
    "grenade-launcher",
    "meltagun",
    "plasma-gun",
    "heavy-stubber",
    "heavy-bolter",
    "lascannon",
    "missile-launcher",
    "autocannon",
    "fighting-knife",
    "axe",
    "chainsword",
    "sword",
    "power-sword",
    "frag-grenade",
    "krak-grenade",
    "smoke-grenade",
    "photon-flash-grenade",
    "blasting-charge",
]
CATEGORIES = {"pistol", "basic", "special", "heavy", "close_combat", "grenade", "ammo"}  # ammo: special ammunition


def test_file_shape_and_every_record_sourced():
    data = trading_post.data()
    assert data["edition"] == "n18"
    for kind in trading_post.KINDS:
        slugs = [item["slug"] for item in data[kind]]
        assert len(slugs) == len(set(slugs))
        for item in data[kind]:
            assert item["sources"] and set(item["sources"]) <= set(data["sources"])
            # the Caryatid alone is never bought: it chooses a Leader after a high Trade roll
            assert (isinstance(item["cost"], int) and item["cost"] >= 0) or item["slug"] == "caryatid"
            assert item["rarity"] is None or item["rarity"] == "Common" or item["rarity"][0] in "RI"


def test_weapon_profiles_follow_the_agreed_format():
    for item in trading_post.data()["weapons"]:
        assert item["category"] in CATEGORIES
        for profile in item["profiles"]:
            assert set(profile) == {
                "name",
                "short_range",
                "long_range",
                "acc_short",
                "acc_long",
                "strength",
                "ap",
                "damage",
                "ammo",
                "traits",
            }
            # AP helps the attacker, except the 2023 maul's +1 (V1)
            assert profile["ap"] <= 0 or (item["slug"], profile["ap"]) == ("maul", 1)
            assert profile["ammo"] is None or profile["ammo"] in {"2+", "3+", "4+", "5+", "6+"}
            if item["category"] == "close_combat":
                # Engagement range, or a Versatile weapon's "E" under short range and its reach under long
                assert profile["long_range"] == "E" or (profile["short_range"], trading_post.reach(profile)) == (
                    "E",
                    profile["long_range"],
                )


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


# Spot checks of records added for the house lists (V1: the 2023 profiles on necrovox).
@pytest.mark.parametrize(
    ("slug", "profile", "expected"),
    [
        ("heavy-flamer", None, {"long_range": "T", "strength": 5, "ap": -2, "damage": 1, "ammo": "5+"}),
        ("multi-melta", None, {"short_range": 12, "long_range": 24, "acc_short": 1, "strength": 8, "ap": -4}),
        ("plasma-cannon", "maximal power", {"strength": 8, "ap": -2, "damage": 3, "ammo": "5+"}),
        (
            "seismic-cannon",
            "long wave",
            {"acc_short": -1, "strength": 3, "traits": ["Knockback", "Rapid Fire (2)", "Seismic", "Unwieldy"]},
        ),
        ("power-maul", None, {"long_range": "E", "strength": "S+2", "ap": -1, "damage": 1}),
        ("two-handed-hammer", None, {"acc_long": -1, "strength": "S+1", "damage": 3}),
        ("stiletto-knife", None, {"strength": None, "damage": None, "traits": ["Melee", "Toxin"]}),
        ("melta-bomb", None, {"long_range": "Sx3", "acc_long": -1, "strength": 8, "ap": -4, "damage": 3}),
        ("throwing-knives", None, {"short_range": "Sx2", "long_range": "Sx4", "ap": -1, "ammo": "5+"}),
    ],
)
def test_added_weapon_profiles(slug, profile, expected):
    found = trading_post.profile(trading_post.weapon(slug), profile)
    assert {key: found[key] for key in expected} == expected


@pytest.mark.parametrize(
    ("kind", "slug", "cost", "rarity"),
    [
        ("weapons", "grav-gun", 120, "R11"),
        ("weapons", "web-pistol", 90, "R9"),
        ("weapons", "arc-hammer", 70, None),
        ("armour", "heavy-carapace-armour", 100, "R11"),
        ("wargear", "displacer-field", 70, "R12"),
        ("wargear", "suspensor", 60, "R10"),
    ],
)
def test_added_prices_and_rarity(kind, slug, cost, rarity):
    item = trading_post.find(kind, slug)
    assert (item["cost"], item["rarity"]) == (cost, rarity)


@pytest.mark.parametrize(
    ("slug", "reach"), [("whip", 3), ("digi-laser", 3), ("las-cutter", 2), ("shock-stave", 2), ("arc-hammer", 1)]
)
def test_versatile_close_combat_weapons_reach_and_stay_out_of_the_shooting_rules(slug, reach):
    # 2023 Armoury (V1): "E" under Short range, the reach under Long range.
    (found,) = trading_post.weapon(slug)["profiles"]
    assert found["short_range"] == "E" and "Versatile" in trading_post.trait_names(found)
    assert trading_post.reach(found) == reach
    assert shot.refusal(found) == "a close combat weapon; use it in a fight"


@pytest.mark.parametrize(("distance", "band"), [(6, "short"), (7, "long"), (12, "long"), (13, "out_of_range")])
def test_throwing_knives_reach_twice_and_four_times_the_throwers_strength(distance, band):
    query = {
        "shooter": {"BS": 3, "S": 3},
        "weapon": "throwing knives",
        "target": {"T": 3, "W": 1},
        "distance": distance,
    }
    assert shooting.odds(Query(query))["range"] == {"band": band, "short_range": 6, "long_range": 12}


# --- what a fighter hired with a Rarity allowance takes (Venators, Outcast Leaders and Champions) ----------------


def _item(slug, kind, category, rarity, cost=10, fits=()):
    return {"slug": slug, "kind": kind, "category": category, "rarity": rarity, "cost": cost, "fits": list(fits)}


ALLOWANCE_ITEMS = [
    _item("autogun", "weapon", "basic", "Common"),
    _item("plasma-gun", "weapon", "special", "R9"),
    _item("meltagun", "weapon", "special", "R11"),
    _item("heavy-stubber", "weapon", "heavy", "R7"),
    _item("frag-grenade", "weapon", "grenade", "Common"),
    _item("autogun-rad", "weapon", "ammo", "R9", fits=["autogun"]),
    _item("heavy-stubber-rad", "weapon", "ammo", "R9", fits=["heavy-stubber"]),
    _item("flak-armour", "armour", "armour", "Common"),
    _item("slaught", "wargear", "chem", "R10"),
    _item("ghast", "wargear", "chem", "I9"),
    _item("gold-plated-gun", "wargear", "status", "R10"),
    _item("necromundan-giant-rat", "wargear", "exotic_beast", "Common"),
    _item("caryatid", "wargear", "exotic_beast", "R15", cost=None),
    _item("phyrr-cat", "wargear", "exotic_beast", ""),
]


def test_an_allowance_takes_common_and_rare_items_up_to_its_rarity_and_nothing_illegal():
    taken = trading_post.hire_allowance(
        ALLOWANCE_ITEMS, up_to=10, weapon_categories={"basic", "special", "heavy"}, hierarchy=True
    )
    # The meltagun is Rare (11), Ghast Illegal (9); the Caryatid has no price and the Phyrr Cat no availability.
    assert taken == [
        "autogun",
        "plasma-gun",
        "heavy-stubber",
        "frag-grenade",
        "autogun-rad",
        "heavy-stubber-rad",
        "flak-armour",
        "slaught",
        "gold-plated-gun",
        "necromundan-giant-rat",
    ]
    assert "meltagun" in trading_post.hire_allowance(
        ALLOWANCE_ITEMS, up_to=11, weapon_categories={"special"}, hierarchy=True
    )


def test_an_allowance_keeps_the_weapon_restriction_and_the_leaders_own_kit():
    # A Venator Hunter: Basic, Pistol and Close Combat weapons, up to Rarity 8, no Gang Hierarchy.
    taken = trading_post.hire_allowance(
        ALLOWANCE_ITEMS, up_to=8, weapon_categories={"basic", "pistol", "close_combat"}, hierarchy=False
    )
    # Grenades are Wargear, not weapons; ammunition comes only with a weapon taken; status items and Exotic
    # Beasts are for Leaders and Champions.
    assert taken == ["autogun", "frag-grenade", "flak-armour"]
    with_rad = trading_post.hire_allowance(ALLOWANCE_ITEMS, up_to=9, weapon_categories={"basic"}, hierarchy=False)
    assert "autogun-rad" in with_rad and "heavy-stubber-rad" not in with_rad
