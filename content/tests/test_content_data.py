"""The shipped rules data: counts per edition and house, published numbers, and provenance."""

import pytest

from content.models import (
    Equipment,
    FighterType,
    FighterTypeEquipment,
    House,
    Skill,
    SkillAccess,
    SkillTable,
    Territory,
    WeaponProfile,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def loaded_content(module_content, db):
    """Every file under rulebook/data, loaded once for this module (every test here only reads it)."""
    return module_content


CLASSIC_HOUSES = {"cawdor", "delaque", "escher", "goliath", "orlock", "van-saar"}


def test_classic_has_six_houses_of_four_fighter_types(loaded_content):
    assert set(House.objects.filter(edition="classic").values_list("slug", flat=True)) == CLASSIC_HOUSES
    for house in House.objects.filter(edition="classic"):
        assert sorted(house.fighter_types.values_list("category", flat=True)) == ["ganger", "heavy", "juve", "leader"]
        assert (house.starting_credits, house.min_fighters) == (1000, 3)
        assert house.composition_rules == [{"kind": "max_share", "categories": ["juve"], "share": "1/2"}]


@pytest.mark.parametrize(
    "category, cost, stats, xp, limits",
    [
        ("leader", 120, (4, 4, 4, 3, 3, 1, 4, 1, 8), "60+D6", (1, 1)),
        ("heavy", 60, (4, 3, 3, 3, 3, 1, 3, 1, 7), "60+D6", (0, 2)),
        ("ganger", 50, (4, 3, 3, 3, 3, 1, 3, 1, 7), "20+D6", (0, None)),
        ("juve", 25, (4, 2, 2, 3, 3, 1, 3, 1, 6), "0", (0, None)),
    ],
)
def test_classic_fighter_types_match_the_rulebook(loaded_content, category, cost, stats, xp, limits):
    for fighter in FighterType.objects.filter(edition="classic", category=category):
        line = (
            fighter.movement,
            fighter.weapon_skill,
            fighter.ballistic_skill,
            fighter.strength,
            fighter.toughness,
            fighter.wounds,
            fighter.initiative,
            fighter.attacks,
            fighter.leadership,
        )
        assert (fighter.cost, line, fighter.starting_xp) == (cost, stats, xp)
        assert (fighter.min_per_gang, fighter.max_per_gang) == limits
        assert fighter.cool is None


def test_classic_lasgun_profile(loaded_content):
    profile = WeaponProfile.objects.get(equipment__edition="classic", equipment__slug="lasgun")
    assert (profile.short_range, profile.long_range, profile.hit_short, profile.hit_long) == (12, 24, 1, 0)
    assert (profile.strength, profile.damage, profile.save_mod, profile.ammo) == ("3", "1", -1, "2+")


def test_classic_skill_tables_and_access_matrix(loaded_content):
    tables = SkillTable.objects.filter(edition="classic")
    assert tables.count() == 7
    assert all(table.skills.count() == 6 for table in tables)
    leader = FighterType.objects.get(edition="classic", slug="van-saar-leader")
    assert set(leader.skill_access.values_list("table__slug", flat=True)) == {
        "agility",
        "combat",
        "ferocity",
        "shooting",
        "stealth",
        "techno",
    }
    juve = FighterType.objects.get(edition="classic", slug="goliath-juve")
    assert set(juve.skill_access.values_list("table__slug", flat=True)) == {"ferocity", "muscle"}


def test_classic_lists_follow_the_weapon_lists(loaded_content):
    juve = FighterType.objects.get(edition="classic", slug="escher-juve")
    categories = set(juve.equipment_list.values_list("equipment__category", flat=True))
    assert categories == {"hand_to_hand", "pistol", "grenade"}
    heavy_list = FighterType.objects.get(edition="classic", slug="orlock-heavy").equipment_list
    assert heavy_list.filter(equipment__slug="heavy-stubber").exists()
    assert (
        not FighterType.objects.get(edition="classic", slug="orlock-leader")
        .equipment_list.filter(equipment__category="heavy")
        .exists()
    )
    # Rare items are Trading Post only, at their Armoury price when they are listed at all.
    assert not FighterTypeEquipment.objects.filter(fighter_type__edition="classic", equipment__rarity="rare").exists()
    assert all(
        entry.cost == entry.equipment.cost
        for entry in FighterTypeEquipment.objects.filter(fighter_type__edition="classic").select_related("equipment")
    )


def test_classic_territory_table_covers_every_d66_roll(loaded_content):
    rolls = set()
    for roll in Territory.objects.filter(edition="classic").values_list("roll", flat=True):
        first, _, last = roll.partition("-")
        rolls.update(r for r in range(int(first), int(last or first) + 1) if 1 <= r % 10 <= 6)
    assert rolls == {10 * tens + units for tens in range(1, 7) for units in range(1, 7)}


N18_HOUSES = {"cawdor", "delaque", "escher", "goliath", "orlock", "van-saar"}


@pytest.mark.parametrize("house_slug", sorted(N18_HOUSES))
def test_each_n18_house_has_its_core_fighters(loaded_content, house_slug):
    house = House.objects.get(edition="n18", slug=house_slug)
    categories = list(house.fighter_types.values_list("category", flat=True))
    # One Leader type, or several (Cawdor's Word-Keeper or Redemptor Priest) under a rule of exactly one Leader
    one_leader = {"kind": "max_count", "categories": ["leader"], "count": 1}
    assert categories.count("leader") == 1 or any(one_leader.items() <= r.items() for r in house.composition_rules)
    assert {"leader", "champion", "ganger", "juve", "specialist", "prospect"} <= set(categories)
    for fighter in house.fighter_types.all():
        assert None not in (fighter.cool, fighter.willpower, fighter.intelligence)
        assert fighter.skill_access.exists() or fighter.category == "ganger"
    assert FighterTypeEquipment.objects.filter(fighter_type__house=house).count() > 50


@pytest.mark.parametrize(
    "slug, cost, statline",
    [
        ("escher-gang-queen", 125, ['5"', "3+", "3+", "3", "3", "2", "2+", "3", "5+", "5+", "6+", "7+"]),
        ("goliath-forge-tyrant", 135, ['4"', "3+", "3+", "4", "4", "2", "3+", "3", "5+", "4+", "8+", "7+"]),
        ("orlock-gunner", 45, ['5"', "4+", "4+", "3", "3", "1", "4+", "1", "6+", "7+", "7+", "7+"]),
        ("van-saar-subtek", 35, ['5"', "5+", "4+", "3", "3", "1", "4+", "1", "9+", "8+", "9+", "7+"]),
        ("delaque-ghost", 40, ['5"', "4+", "4+", "3", "3", "1", "4+", "1", "7+", "6+", "7+", "7+"]),
        ("cawdor-word-keeper", 100, ['5"', "3+", "4+", "3", "3", "2", "4+", "2", "4+", "6+", "5+", "6+"]),
    ],
)
def test_n18_fighters_print_their_stat_lines(loaded_content, slug, cost, statline):
    fighter = FighterType.objects.get(edition="n18", slug=slug)
    assert fighter.cost == cost
    assert [value for _, value in fighter.statline] == statline


def test_n18_list_prices_and_specialists(loaded_content):
    price = FighterTypeEquipment.objects.get(fighter_type__slug="escher-gang-queen", equipment__slug="lasgun").cost
    assert price == 5  # an Escher list price, below the Trading Post's 15
    sister = FighterType.objects.get(edition="n18", slug="escher-sister")
    specialist = FighterType.objects.get(edition="n18", slug="escher-sister-specialist")
    assert not sister.equipment_list.filter(equipment__category="special").exists()
    assert specialist.equipment_list.filter(equipment__slug="flamer", cost=140).exists()


def test_n18_skill_tables_and_access_levels(loaded_content):
    general = {"agility", "brawn", "combat", "cunning", "ferocity", "leadership", "savant", "shooting"}
    assert general <= set(SkillTable.objects.filter(edition="n18", house=None).values_list("slug", flat=True))
    assert SkillTable.objects.get(edition="n18", slug="finesse").house.slug == "escher"
    access = SkillAccess.objects.filter(fighter_type__slug="goliath-forge-tyrant")
    assert set(access.filter(level="primary").values_list("table__slug", flat=True)) == {
        "brawn",
        "ferocity",
        "leadership",
    }


def test_n18_home_settlement(loaded_content):
    home = Territory.objects.get(edition="n18", is_home_settlement=True)
    assert (home.name, home.income) == ("Home Settlement", "D6x10")


def test_every_official_record_names_its_sources(loaded_content):
    for model in (House, FighterType, Equipment, SkillTable, Skill, Territory):
        unsourced = model.objects.filter(is_official=True, sources=[])
        assert not unsourced.exists(), [str(row) for row in unsourced[:5]]


def test_house_only_weapons_come_from_the_house_file(loaded_content):
    carbine = Equipment.objects.get(edition="n18", slug="las-carbine")
    assert carbine.sources == ["N7"]
    profile = carbine.profiles.get()
    assert (profile.short_range, profile.long_range, profile.acc_short, profile.strength, profile.ammo) == (
        10,
        24,
        1,
        "3",
        "4+",
    )
    assert profile.traits == ["Plentiful", "Rapid Fire (1)"]
    buyers = set(carbine.fighter_type_lists.values_list("fighter_type__slug", flat=True))
    assert buyers == {"van-saar-prime", "van-saar-augmek", "van-saar-tek", "van-saar-tek-specialist"}
    rad_gun = Equipment.objects.get(edition="n18", slug="rad-gun")
    assert rad_gun.profiles.get().range_code == "T"
    assert not rad_gun.fighter_type_lists.filter(fighter_type__slug="van-saar-tek").exists()  # specialists only
