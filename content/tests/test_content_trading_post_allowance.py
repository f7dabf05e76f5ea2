"""Lists stated as a Rarity allowance (``trading_post_allowance``: Venators, Outcast Leaders and Champions) on a
small 2018+ data folder: the loader lists the Trading Post items the allowance takes at their Trading Post price,
follows the Trading Post when it changes, lets a written entry keep its own price and refuses a bad allowance."""

import pytest

from content.loader import ContentFileError, load_content
from content.models import FighterTypeEquipment

pytestmark = pytest.mark.django_db

STATS = {"M": 5, "WS": 4, "BS": 4, "S": 3, "T": 3, "W": 1, "I": 4, "A": 1, "Ld": 7, "Cl": 6, "Wil": 7, "Int": 7}


def _weapon(slug, category, rarity, cost, **extra):
    profile = {"name": "", "short_range": 8, "long_range": 16, "strength": 3, "damage": 1, "traits": []}
    return {"slug": slug, "name": slug, "category": category, "rarity": rarity, "cost": cost, "sources": ["T"]} | {
        "profiles": [profile],
        **extra,
    }


def _fighter(slug, category, weapon_categories):
    return {
        "slug": slug,
        "name": slug,
        "category": category,
        "cost": 50,
        "stats": STATS,
        "weapon_categories": weapon_categories,
        "skill_access": {"primary": [], "secondary": []},
        "sources": ["T"],
    }


@pytest.fixture
def n18_data():
    return {
        "n18/trading_post.json": {
            "edition": "n18",
            "sources": {"T": "test"},
            "weapons": [
                _weapon("autogun", "basic", "Common", 15),
                _weapon("plasma-gun", "special", "R9", 100),
                _weapon("autogun-rad", "ammo", "R9", 20, fits=["autogun"]),
                _weapon("frag-grenade", "grenade", "Common", 30),
            ],
            "armour": [{"slug": "flak-armour", "name": "Flak armour", "cost": 10, "rarity": "Common", "save": 6}],
            "wargear": [
                {"slug": "slaught", "name": "'Slaught", "category": "chem", "cost": 30, "rarity": "R10"},
                {"slug": "ghast", "name": "Ghast", "category": "chem", "cost": 30, "rarity": "I9"},
                {
                    "slug": "gold-plated-gun",
                    "name": "Gold-plated gun",
                    "category": "status",
                    "cost": 40,
                    "rarity": "R10",
                },
            ],
        },
        "n18/gang_hunters.json": {
            "edition": "n18",
            "sources": {"T": "test"},
            "composition": {"starting_credits": 1000},
            "houses": [
                {
                    "slug": "hunters",
                    "name": "Hunters",
                    "sources": ["T"],
                    "fighter_types": [
                        _fighter("boss", "leader", ["basic", "special"]),
                        _fighter("hunter", "ganger", ["basic"]),
                    ],
                    "trading_post_allowance": [
                        {"up_to_rarity": 10, "fighter_types": ["boss"]},
                        {"up_to_rarity": 8, "fighter_types": ["hunter"]},
                    ],
                }
            ],
        },
    }


def listed(fighter_type: str) -> dict[str, int]:
    rows = FighterTypeEquipment.objects.filter(fighter_type__slug=f"hunters-{fighter_type}")
    return dict(rows.values_list("equipment__slug", "cost"))


def test_an_allowance_lists_the_trading_post_items_it_takes_at_their_price(write_data, n18_data):
    data_dir = write_data(n18_data)
    report = load_content(data_dir=data_dir)
    # Ghast is Illegal; the Hunter takes no special weapon, nothing above Rare (8) and no status item.
    assert listed("boss") == {
        "autogun": 15,
        "plasma-gun": 100,
        "autogun-rad": 20,
        "frag-grenade": 30,
        "flak-armour": 10,
        "slaught": 30,
        "gold-plated-gun": 40,
    }
    assert listed("hunter") == {"autogun": 15, "frag-grenade": 30, "flak-armour": 10}
    assert not report.waiting
    assert not load_content(data_dir=data_dir).changed_anything


def test_the_list_follows_the_trading_post(write_data, n18_data):
    load_content(data_dir=write_data(n18_data))
    trading_post = n18_data["n18/trading_post.json"]
    trading_post["wargear"].append(
        {"slug": "kalma", "name": "Kalma", "category": "chem", "cost": 15, "rarity": "Common"}
    )
    trading_post["weapons"][1]["rarity"] = "R11"  # the plasma gun, now beyond the boss's Rarity 10
    trading_post["weapons"][0]["cost"] = 20
    report = load_content(data_dir=write_data(n18_data))
    assert report.changed_anything
    assert listed("boss")["kalma"] == 15 and "plasma-gun" not in listed("boss")
    assert listed("hunter") == {"autogun": 20, "frag-grenade": 30, "flak-armour": 10, "kalma": 15}


def test_a_written_entry_keeps_its_own_price(write_data, n18_data):
    house = n18_data["n18/gang_hunters.json"]["houses"][0]
    house["equipment_list"] = [{"item": "autogun", "cost": 10, "fighter_types": ["hunter"]}]
    load_content(data_dir=write_data(n18_data))
    assert listed("hunter")["autogun"] == 10 and listed("boss")["autogun"] == 15


@pytest.mark.parametrize(
    ("allowances", "message"),
    [
        ([{"up_to_rarity": 8, "fighter_types": ["warlord"]}], "'warlord' is not a fighter type of this house"),
        (
            [{"up_to_rarity": 8, "fighter_types": ["hunter"]}, {"up_to_rarity": 9, "fighter_types": ["hunter"]}],
            r"trading_post_allowance\[1\]\.fighter_types: 'hunter' has two allowances",
        ),
        ([{"fighter_types": ["hunter"]}], r"trading_post_allowance\[0\]\.up_to_rarity: is required"),
        ([{"up_to_rarity": 8, "fighter_types": []}], "fighter_types: names no fighter type"),
    ],
)
def test_a_bad_allowance_is_refused_naming_its_place(write_data, n18_data, allowances, message):
    n18_data["n18/gang_hunters.json"]["houses"][0]["trading_post_allowance"] = allowances
    with pytest.raises(ContentFileError, match=message):
        load_content(data_dir=write_data(n18_data))
    assert not FighterTypeEquipment.objects.exists()


def test_a_classic_list_has_no_allowance(write_data, small_data):
    small_data["classic/houses.json"]["houses"][0]["trading_post_allowance"] = [
        {"up_to_rarity": 8, "fighter_types": ["leader"]}
    ]
    with pytest.raises(ContentFileError, match="only a 2018\\+ list takes Trading Post items by Rarity"):
        load_content(data_dir=write_data(small_data))
