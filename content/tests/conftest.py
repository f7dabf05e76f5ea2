"""Content fixtures: the real rules data loaded, a small data folder to load, and row factories."""

import itertools
import json

import pytest

from content.loader import load_content
from content.models import Equipment, EquipmentKind, FighterType, FighterTypeEquipment, House, WeaponProfile

_serial = itertools.count(1)


@pytest.fixture
def loaded_content(db):
    """Every file under rulebook/data loaded, as ``manage.py load_content`` does; returns the report."""
    return load_content()


@pytest.fixture
def write_data(tmp_path):
    """``write_data({"classic/houses.json": {...}})`` writes a data folder and returns its path."""

    def write(files: dict[str, dict | str]):
        for name, content in files.items():
            path = tmp_path / "data" / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(content if isinstance(content, str) else json.dumps(content))
        return tmp_path / "data"

    return write


def small_armoury() -> dict:
    return {
        "edition": "classic",
        "sources": {"T": "test"},
        "weapons": [
            {
                "slug": "laspistol",
                "name": "Laspistol",
                "category": "pistol",
                "cost": 15,
                "rarity": None,
                "profiles": [
                    {
                        "name": "",
                        "short_range": 8,
                        "long_range": 16,
                        "hit_short": 2,
                        "hit_long": -1,
                        "strength": 3,
                        "damage": "1",
                        "save_mod": 0,
                        "ammo_roll": "2+",
                        "template": None,
                        "sustained_fire": 0,
                        "special_rules": [],
                    }
                ],
                "special_rules": [],
                "sources": ["T"],
            },
            {
                "slug": "needle-pistol",
                "name": "Needle pistol",
                "category": "pistol",
                "cost": 100,
                "rarity": "rare",
                "rare_cost": "100+4D6",
                "profiles": [
                    {
                        "name": "",
                        "short_range": 8,
                        "long_range": 16,
                        "hit_short": 2,
                        "hit_long": 0,
                        "strength": 3,
                        "damage": "1",
                        "save_mod": -1,
                        "ammo_roll": "6+",
                        "template": None,
                        "sustained_fire": 0,
                        "special_rules": [],
                    }
                ],
                "special_rules": [],
                "sources": ["T"],
            },
        ],
        "armour": [{"slug": "flak", "name": "Flak armour", "cost": 10, "save": 6, "sources": ["T"]}],
        "wargear": [{"slug": "respirator", "name": "Respirator", "cost": 10, "sources": ["T"]}],
    }


def small_houses() -> dict:
    return {
        "edition": "classic",
        "sources": {"T": "test"},
        "composition": {
            "starting_credits": 1000,
            "min_fighters": 3,
            "rules": [{"kind": "max_share", "categories": ["juve"], "share": "1/2"}],
        },
        "fighter_types": [
            {
                "slug": "leader",
                "name": "Leader",
                "category": "leader",
                "cost": 120,
                "starting_xp": "60+D6",
                "stats": {"M": 4, "WS": 4, "BS": 4, "S": 3, "T": 3, "W": 1, "I": 4, "A": 1, "Ld": 8},
                "min_per_gang": 1,
                "max_per_gang": 1,
                "weapon_categories": ["pistol"],
                "sources": ["T"],
            },
            {
                "slug": "juve",
                "name": "Juve",
                "category": "juve",
                "cost": 25,
                "starting_xp": "0",
                "stats": {"M": 4, "WS": 2, "BS": 2, "S": 3, "T": 3, "W": 1, "I": 3, "A": 1, "Ld": 6},
                "weapon_categories": ["pistol"],
                "sources": ["T"],
            },
        ],
        "houses": [
            {"slug": "escher", "name": "Escher", "skill_access": {"leader": ["agility"], "juve": []}, "sources": ["T"]}
        ],
    }


def small_skills() -> dict:
    return {
        "edition": "classic",
        "sources": {"T": "test"},
        "skill_tables": [
            {
                "slug": "agility",
                "name": "Agility",
                "order": 1,
                "sources": ["T"],
                "skills": [{"slug": "dodge", "name": "Dodge", "sources": ["T"]}],
            }
        ],
    }


def small_territories() -> dict:
    return {
        "edition": "classic",
        "sources": {"T": "test"},
        "territories": [{"slug": "slag", "name": "Slag", "roll": "21-25", "income": "15", "sources": ["T"]}],
    }


@pytest.fixture
def small_data():
    """The documents of a tiny classic data folder; tests change them, then ``write_data`` them."""
    return {
        "classic/armoury.json": small_armoury(),
        "classic/houses.json": small_houses(),
        "classic/skills.json": small_skills(),
        "classic/territories.json": small_territories(),
    }


STATS = {
    "movement": 4,
    "weapon_skill": 3,
    "ballistic_skill": 3,
    "strength": 3,
    "toughness": 3,
    "wounds": 1,
    "initiative": 3,
    "attacks": 1,
    "leadership": 7,
}


@pytest.fixture
def make_house(db):
    """``make_house(fighters=3, items=10)``: an official classic house whose fighter types all list every item."""

    def make(*, fighters: int = 2, items: int = 3, edition: str = "classic"):
        n = next(_serial)
        house = House.objects.create(edition=edition, slug=f"house-{n}", name=f"House {n}", is_official=True)
        mental = {} if edition == "classic" else {"cool": 7, "willpower": 7, "intelligence": 7}
        fighter_types = [
            FighterType.objects.create(
                edition=edition,
                slug=f"house-{n}-fighter-{i}",
                name=f"Fighter {i}",
                house=house,
                category="ganger",
                cost=50,
                order=i,
                is_official=True,
                **STATS,
                **mental,
            )
            for i in range(fighters)
        ]
        for i in range(items):
            item = make_equipment(edition=edition, slug=f"house-{n}-item-{i}")
            for fighter_type in fighter_types:
                FighterTypeEquipment.objects.create(
                    fighter_type=fighter_type, equipment=item, cost=10 + i, is_official=True
                )
        return house

    return make


def make_equipment(*, edition: str = "classic", slug: str | None = None, profiles: int = 1) -> Equipment:
    slug = slug or f"item-{next(_serial)}"
    item = Equipment.objects.create(
        edition=edition,
        slug=slug,
        name=slug.replace("-", " ").title(),
        kind=EquipmentKind.WEAPON,
        category="pistol",
        cost=10,
        is_official=True,
    )
    for order in range(profiles):
        WeaponProfile.objects.create(
            equipment=item, order=order, name=f"mode {order}", short_range=8, long_range=16, strength="3", damage="1"
        )
    return item


@pytest.fixture
def equipment_factory(db):
    return make_equipment
