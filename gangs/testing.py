"""Small house lists built straight into the database, for tests that need gangs without ``load_content``.

The root ``conftest.py`` wraps these in the ``make_house_list``, ``make_gang`` and ``make_fighter``
fixtures. The numbers are the real ones (classic: S3 p76/p85; 2018+ Goliath: N2), trimmed to
what tests need: every weapon category, an armour, a Trading Post item, a rare item, skill tables.
"""

from __future__ import annotations

from content.models import (
    Edition,
    Equipment,
    EquipmentCategory,
    EquipmentKind,
    FighterType,
    FighterTypeEquipment,
    House,
    HouseKind,
    Skill,
    SkillAccess,
    SkillTable,
    WeaponProfile,
)
from rulebook.classic.campaign.experience import SKILL_TABLES as CLASSIC_SKILL_TABLES

_STAT_FIELDS = ("movement", "weapon_skill", "ballistic_skill", "strength", "toughness", "wounds", "initiative")

# slug, name, kind, category, cost, rarity, profile columns
CLASSIC_EQUIPMENT = [
    ("knife", "Knife", "weapon", "hand_to_hand", 5, "", {"strength": "user", "damage": "1"}),
    ("sword", "Sword", "weapon", "hand_to_hand", 10, "", {"strength": "user", "damage": "1"}),
    (
        "laspistol",
        "Laspistol",
        "weapon",
        "pistol",
        15,
        "",
        {
            "short_range": 8,
            "long_range": 16,
            "hit_short": 2,
            "hit_long": -1,
            "strength": "3",
            "damage": "1",
            "ammo": "2+",
        },
    ),
    (
        "lasgun",
        "Lasgun",
        "weapon",
        "basic",
        25,
        "",
        {
            "short_range": 12,
            "long_range": 24,
            "hit_short": 1,
            "hit_long": 0,
            "strength": "3",
            "damage": "1",
            "save_mod": -1,
            "ammo": "2+",
        },
    ),
    (
        "flamer",
        "Flamer",
        "weapon",
        "special",
        40,
        "",
        {"template": "flamer", "strength": "4", "damage": "1", "save_mod": -2, "ammo": "4+"},
    ),
    (
        "heavy-stubber",
        "Heavy stubber",
        "weapon",
        "heavy",
        120,
        "",
        {
            "short_range": 20,
            "long_range": 40,
            "strength": "4",
            "damage": "1",
            "save_mod": -1,
            "ammo": "4+",
            "sustained_fire": 2,
        },
    ),
    (
        "frag-grenades",
        "Frag grenades",
        "weapon",
        "grenade",
        30,
        "",
        {"strength": "3", "damage": "1", "save_mod": -1, "template": "blast"},
    ),
    ("flak-armour", "Flak armour", "armour", "armour", 10, "", None),
    ("mesh-armour", "Mesh armour", "armour", "armour", 25, "rare", None),
]

N18_EQUIPMENT = [
    (
        "fighting-knife",
        "Fighting knife",
        "weapon",
        "close_combat",
        15,
        "Common",
        {"range_code": "E", "strength": "S", "ap": -1, "damage": "1", "traits": ["Backstab", "Melee"]},
    ),
    (
        "autopistol",
        "Autopistol",
        "weapon",
        "pistol",
        10,
        "Common",
        {
            "short_range": 4,
            "long_range": 12,
            "acc_short": 1,
            "strength": "3",
            "ap": 0,
            "damage": "1",
            "ammo": "4+",
            "traits": ["Rapid Fire (1)", "Sidearm"],
        },
    ),
    (
        "stub-cannon",
        "Stub cannon",
        "weapon",
        "pistol",
        20,
        "Common",
        {
            "short_range": 6,
            "long_range": 12,
            "strength": "5",
            "ap": 0,
            "damage": "1",
            "ammo": "4+",
            "traits": ["Knockback", "Sidearm"],
        },
    ),
    ("combat-shotgun", "Combat shotgun", "weapon", "basic", 70, "Rare (8)", None),
    (
        "lasgun",
        "Lasgun",
        "weapon",
        "basic",
        15,
        "Common",
        {
            "short_range": 18,
            "long_range": 24,
            "acc_short": 1,
            "strength": "3",
            "ap": 0,
            "damage": "1",
            "ammo": "2+",
            "traits": ["Plentiful"],
        },
    ),
    ("flak-armour", "Flak armour", "armour", "armour", 10, "Common", None),
    ("mesh-armour", "Mesh armour", "armour", "armour", 15, "Common", None),
]

N18_SKILL_TABLES = {
    "Brawn": ("Bull Charge", "Bulging Biceps", "Crushing Blow", "Headbutt", "Hurl", "Iron Jaw"),
    "Combat": ("Combat Master", "Counter-attack", "Disarm", "Parry", "Rain of Blows", "Step Aside"),
    "Ferocity": ("Berserker", "Fearsome", "Impetuous", "Nerves of Steel", "True Grit", "Unstoppable"),
    "Leadership": ("Commanding Presence", "Inspirational", "Iron Will", "Mentor", "Overseer", "Regroup"),
}


def _equipment(edition: str, rows) -> dict[str, Equipment]:
    items = {}
    for slug, name, kind, category, cost, rarity, profile in rows:
        save = {"flak-armour": 6, "mesh-armour": 5}.get(slug) if kind == EquipmentKind.ARMOUR else None
        item = Equipment.objects.create(
            edition=edition,
            slug=slug,
            name=name,
            kind=kind,
            category=category,
            cost=cost,
            rarity=rarity,
            armour_save=save,
            sources=["test"],
            is_official=True,
        )
        if profile:
            WeaponProfile.objects.create(equipment=item, order=0, **profile)
        items[slug] = item
    return items


def _skill_tables(edition: str, tables: dict) -> dict[str, SkillTable]:
    made = {}
    for order, (name, skills) in enumerate(tables.items()):
        table = SkillTable.objects.create(edition=edition, slug=name.lower(), name=name, order=order)
        for position, skill in enumerate(skills):
            Skill.objects.create(
                edition=edition, slug=f"{name.lower()}-{position}", name=skill, table=table, order=position
            )
        made[name] = table
    return made


def _fighter_type(house: House, slug: str, name: str, category: str, cost: int, stats: tuple, **fields) -> FighterType:
    values = dict(zip(_STAT_FIELDS, stats[:7], strict=True))
    values.update(attacks=stats[7], leadership=stats[8])
    if house.edition == Edition.N18:
        values.update(cool=stats[9], willpower=stats[10], intelligence=stats[11])
    return FighterType.objects.create(
        edition=house.edition,
        slug=f"{house.slug}-{slug}",
        name=name,
        house=house,
        category=category,
        cost=cost,
        sources=["test"],
        is_official=True,
        **values,
        **fields,
    )


def build_classic_house(slug: str = "orlock", name: str = "Orlock") -> House:
    """A classic house: Leader, Heavy, Ganger, Juve with their weapon lists (S3 p76/p85)."""
    house = House.objects.create(
        edition=Edition.CLASSIC,
        slug=slug,
        name=name,
        starting_credits=1000,
        min_fighters=3,
        composition_rules=[{"kind": "max_share", "categories": ["juve"], "share": "1/2"}],
        sources=["S3 p76"],
    )
    items = Equipment.objects.filter(edition=Edition.CLASSIC)
    items = {e.slug: e for e in items} or _equipment(Edition.CLASSIC, CLASSIC_EQUIPMENT)
    if not SkillTable.objects.filter(edition=Edition.CLASSIC).exists():
        _skill_tables(Edition.CLASSIC, CLASSIC_SKILL_TABLES)
    tables = {t.name: t for t in SkillTable.objects.filter(edition=Edition.CLASSIC)}
    types = [
        (
            "leader",
            "Leader",
            120,
            (4, 4, 4, 3, 3, 1, 4, 1, 8),
            "60+D6",
            1,
            1,
            ["hand_to_hand", "pistol", "basic", "special", "grenade"],
            ["Combat", "Shooting", "Ferocity"],
        ),
        (
            "heavy",
            "Heavy",
            60,
            (4, 3, 3, 3, 3, 1, 3, 1, 7),
            "60+D6",
            0,
            2,
            ["hand_to_hand", "pistol", "basic", "special", "heavy", "grenade"],
            ["Combat", "Muscle", "Shooting", "Techno"],
        ),
        (
            "ganger",
            "Ganger",
            50,
            (4, 3, 3, 3, 3, 1, 3, 1, 7),
            "20+D6",
            0,
            None,
            ["hand_to_hand", "pistol", "basic", "grenade"],
            ["Combat", "Ferocity", "Shooting"],
        ),
        (
            "juve",
            "Juve",
            25,
            (4, 2, 2, 3, 3, 1, 3, 1, 6),
            "0",
            0,
            None,
            ["hand_to_hand", "pistol", "grenade"],
            ["Ferocity", "Shooting"],
        ),
    ]
    for order, (type_slug, type_name, cost, stats, xp, low, high, categories, access) in enumerate(types):
        fighter_type = _fighter_type(
            house,
            type_slug,
            type_name,
            type_slug,
            cost,
            stats,
            starting_xp=xp,
            min_per_gang=low,
            max_per_gang=high,
            weapon_categories=categories,
            order=order,
        )
        for item in items.values():
            if item.kind == EquipmentKind.WEAPON and item.category in categories:
                FighterTypeEquipment.objects.create(fighter_type=fighter_type, equipment=item, cost=item.cost)
        for table in access:
            SkillAccess.objects.create(fighter_type=fighter_type, table=tables[table])
    return house


def build_n18_house(slug: str = "goliath", name: str = "Goliath") -> House:
    """A 2018+ house: Leader, Champion, Ganger, Juve, Specialist with equipment lists and skill access (N2)."""
    house = House.objects.create(
        edition=Edition.N18,
        slug=slug,
        name=name,
        starting_credits=1000,
        composition_rules=[{"kind": "min_share", "categories": ["ganger", "juve"], "share": "1/2"}],
        sources=["N2"],
    )
    items = {e.slug: e for e in Equipment.objects.filter(edition=Edition.N18)} or _equipment(Edition.N18, N18_EQUIPMENT)
    if not SkillTable.objects.filter(edition=Edition.N18).exists():
        _skill_tables(Edition.N18, N18_SKILL_TABLES)
    tables = {t.name: t for t in SkillTable.objects.filter(edition=Edition.N18)}
    types = [
        (
            "forge-tyrant",
            "Forge Tyrant",
            "leader",
            135,
            (4, 3, 4, 4, 4, 2, 4, 2, 5, 5, 6, 7),
            1,
            1,
            {"fighting-knife": 15, "stub-cannon": 20, "combat-shotgun": 70},
            {"Brawn": "primary", "Leadership": "primary", "Ferocity": "secondary"},
        ),
        (
            "forge-boss",
            "Forge Boss",
            "champion",
            100,
            (4, 3, 4, 4, 4, 2, 4, 2, 6, 6, 6, 7),
            0,
            None,
            {"fighting-knife": 15, "stub-cannon": 20},
            {"Brawn": "primary", "Ferocity": "primary", "Combat": "secondary"},
        ),
        (
            "bruiser",
            "Bruiser",
            "ganger",
            55,
            (4, 4, 5, 4, 4, 1, 5, 1, 7, 7, 8, 8),
            0,
            None,
            {"fighting-knife": 15, "stub-cannon": 20},
            {},
        ),
        (
            "bully",
            "Bully",
            "juve",
            35,
            (5, 5, 5, 4, 3, 1, 4, 1, 8, 8, 9, 9),
            0,
            None,
            {"fighting-knife": 15},
            {"Brawn": "primary", "Combat": "secondary"},
        ),
        (
            "bruiser-specialist",
            "Bruiser Specialist",
            "specialist",
            55,
            (4, 4, 5, 4, 4, 1, 5, 1, 7, 7, 8, 8),
            0,
            None,
            {"fighting-knife": 15, "stub-cannon": 20},
            {"Brawn": "primary", "Ferocity": "primary", "Combat": "secondary"},
        ),
    ]
    for order, (type_slug, type_name, category, cost, stats, low, high, prices, access) in enumerate(types):
        fighter_type = _fighter_type(
            house, type_slug, type_name, category, cost, stats, min_per_gang=low, max_per_gang=high, order=order
        )
        for item_slug, price in prices.items():
            FighterTypeEquipment.objects.create(fighter_type=fighter_type, equipment=items[item_slug], cost=price)
        for table, level in access.items():
            SkillAccess.objects.create(fighter_type=fighter_type, table=tables[table], level=level)
    return house


BUILDERS = {Edition.CLASSIC: build_classic_house, Edition.N18: build_n18_house}


def build_gang_additions(edition: str = Edition.N18) -> dict[str, FighterType]:
    """The Gang Additions of the 2023 Core Rulebook in small (N8-N10 of rulebook/data/n18/gang_additions.json):
    Rogue Doc (0-2, with a medicae kit), Dome Runner (0-1), Ambot (Brute, 0-2, Orlock 185), Hive Scum
    (Hired Gun, 0-5) and Bounty Hunter (Hired Gun, 0-1); the house list's items are reused when present."""
    house = House.objects.create(
        edition=edition, slug="gang-additions", name="Gang Additions", kind=HouseKind.ADDITIONS, starting_credits=0
    )
    items = {e.slug: e for e in Equipment.objects.filter(edition=edition)} or _equipment(edition, N18_EQUIPMENT)
    kit, _ = Equipment.objects.get_or_create(
        edition=edition,
        slug="medicae-kit",
        defaults={"name": "Medicae kit", "kind": EquipmentKind.WARGEAR, "category": "wargear", "cost": 30},
    )
    types = {
        "rogue-doc": ("Rogue Doc", "hanger_on", 50, (5, 5, 5, 2, 3, 1, 4, 1, 9, 8, 7, 5), 2, {}),
        "dome-runner": ("Dome Runner", "hanger_on", 20, (5, 5, 5, 3, 3, 1, 3, 1, 10, 9, 7, 8), 1, {}),
        "ambot": ("Ambot", "brute", 215, (4, 3, 5, 5, 5, 3, 5, 2, 8, 6, 8, 9), 2, {"orlock": 185}),
        "hive-scum": ("Hive Scum", "hired_gun", 30, (5, 4, 4, 3, 3, 1, 4, 1, 8, 8, 8, 8), 5, {}),
        "bounty-hunter": ("Bounty Hunter", "hired_gun", 80, (5, 3, 3, 3, 3, 2, 3, 1, 7, 5, 6, 6), 1, {}),
    }
    made = {}
    for order, (slug, (name, category, cost, stats, most, house_costs)) in enumerate(types.items()):
        made[slug] = _fighter_type(
            house, slug, name, category, cost, stats, max_per_gang=most, house_costs=house_costs, order=order
        )
    FighterTypeEquipment.objects.create(fighter_type=made["rogue-doc"], equipment=kit, cost=0, is_included=True)
    FighterTypeEquipment.objects.create(fighter_type=made["rogue-doc"], equipment=items["autopistol"], cost=0)
    FighterTypeEquipment.objects.create(fighter_type=made["hive-scum"], equipment=items["autopistol"], cost=10)
    return made


def make_chem(slug: str, name: str) -> Equipment:
    """A 2018+ chem in the Trading Post, 30 credits, Common: a dose a fighter carries into a battle."""
    return Equipment.objects.create(
        edition="n18",
        slug=slug,
        name=name,
        kind=EquipmentKind.WARGEAR,
        category=EquipmentCategory.CHEM,
        cost=30,
        rarity="Common",
        is_official=True,
    )
