"""The House Cawdor (House of Faith) equipment list: spot-checked list prices, who may buy what, house-only profiles."""

import pytest

from content.models import Equipment, FighterType, FighterTypeEquipment

pytestmark = pytest.mark.django_db


@pytest.fixture
def loaded_content(module_content, db):
    """Every file under rulebook/data, loaded once for this module (every test here only reads it)."""
    return module_content


def price(fighter: str, item: str) -> int | None:
    row = FighterTypeEquipment.objects.filter(fighter_type__slug=f"cawdor-{fighter}", equipment__slug=item).first()
    return None if row is None else row.cost


@pytest.mark.parametrize(
    "fighter, item, cost",
    [
        ("word-keeper", "polearm-blunderbuss", 40),
        ("word-keeper", "heavy-crossbow", 125),
        ("word-keeper", "mesh-armour", 15),
        ("firebrand", "chain-glaive", 60),
        ("firebrand", "flamer", 130),  # below the Trading Post's 140
        ("brethren", "reclaimed-autogun", 10),
        ("brethren", "polearm-autogun", 20),
        ("brethren", "fighting-knife", 15),
        ("brethren-specialist", "long-rifle", 30),
        ("way-brethren", "autogun", 15),
        ("way-brethren", "krak-lance", 50),
        ("way-brethren", "cawdor-charger-flamer", 145),
        ("way-brethren", "hand-crossbow", 10),
        ("bonepicker", "reclaimed-autopistol", 5),
        ("bonepicker", "heavy-club", 15),
    ],
)
def test_cawdor_list_prices(loaded_content, fighter, item, cost):
    assert price(fighter, item) == cost


@pytest.mark.parametrize(
    "fighter, item",
    [
        ("brethren", "flamer"),  # special weapons: the Specialist only
        ("brethren", "heavy-stubber"),
        ("firebrand", "mesh-armour"),  # Trading Post only (bracketed) below the Word-Keeper
        ("brethren", "smoke-grenade"),
        ("bonepicker", "autogun"),
        ("word-keeper", "autogun"),  # bracketed: Trading Post only
        ("brethren", "krak-lance"),  # Way-brethren only
    ],
)
def test_cawdor_list_leaves_out(loaded_content, fighter, item):
    assert price(fighter, item) is None


def test_every_cawdor_fighter_has_a_list(loaded_content):
    for fighter in FighterType.objects.filter(edition="n18", house__slug="cawdor"):
        # A Zealot's list is short, and three of its items (eviscerator, hauberk, mantle) are not in the data yet.
        assert fighter.equipment_list.count() >= (14 if fighter.slug == "cawdor-zealot" else 15), fighter.slug


def test_cawdor_house_weapons_carry_profiles_and_sources(loaded_content):
    blunderbuss = Equipment.objects.get(edition="n18", slug="polearm-blunderbuss")
    assert blunderbuss.sources == ["N7", "N2"]
    assert [p.name for p in blunderbuss.profiles.order_by("order")] == ["grape shot", "purgation shot", "polearm"]
    grape = blunderbuss.profiles.get(name="grape shot")
    assert (grape.range_code, grape.strength, grape.damage, grape.ammo) == ("T", "2", "1", "6+")
    autogun = Equipment.objects.get(edition="n18", slug="reclaimed-autogun").profiles.get()
    assert (autogun.short_range, autogun.long_range, autogun.acc_short, autogun.ammo) == (8, 24, 1, "5+")
    assert "Rapid Fire (1)" in autogun.traits
