"""The nine 2018+ gang lists beyond the six Houses (rulebook/data/n18/gang_*.json): counts per gang, published
numbers spot-checked against the second public reference, composition rules as stored, and the loader's handling
of rules that name fighter types and of gang rules (rules refused or stored from a small data folder:
``test_content_composition_rules.py``).

Spot-check values are the ones the records' notes cite: the necrovox gang pages (N8) agreeing with Gyrinx's fighter
files (G1) or page references (G2); where they disagree the record says "check against a printed book".
"""

import pytest

from content.loader import load_content
from content.models import Equipment, FighterType, FighterTypeEquipment, House, SkillTable

pytestmark = pytest.mark.django_db


@pytest.fixture
def loaded_content(module_content, db):
    """Every file under rulebook/data, loaded once for this module (each test's changes are rolled back)."""
    return module_content


# House slug → number of fighter types in its file.
GANG_LISTS = {
    "palanite-enforcers": 9,
    "genestealer-cult": 8,
    "helot-chaos-cult": 6,
    "corpse-grinder-cult": 4,
    "ash-waste-nomads": 7,
    "ironhead-squat-prospectors": 5,
    "venators": 16,
    "slave-ogryns": 4,
    "underhive-outcasts": 32,
}


def statline(fighter: FighterType) -> str:
    return " ".join(value.rstrip('"+') for _, value in fighter.statline)


def test_every_gang_list_is_loaded_with_its_fighter_types_lists_and_rules(loaded_content):
    for slug, count in GANG_LISTS.items():
        house = House.objects.get(edition="n18", slug=slug)
        assert house.fighter_types.count() == count, slug
        assert house.gang_rules and all(rule["name"] and rule["summary"] for rule in house.gang_rules), slug
        assert house.sources and all(t.sources for t in house.fighter_types.all()), slug
        categories = set(house.fighter_types.values_list("category", flat=True))
        assert {"leader", "champion", "ganger"} <= categories, slug
        # Every fighter can buy something from its list (Trading Post items or the gang's own), but the Chaos
        # Spawn, which never carries anything.
        for fighter in house.fighter_types.exclude(slug__in=NEVER_ARMED):
            assert fighter.equipment_list.exists(), fighter.slug


NEVER_ARMED = {"helot-chaos-cult-chaos-spawn"}


# (fighter type slug, cost, stat line M WS BS S T W I A Ld Cl Wil Int) — three per gang, N8 checked against G1/G2.
STAT_CHECKS = [
    ("palanite-enforcers-palanite-captain", 140, "5 3 4 3 3 2 4 2 4 6 5 6"),
    ("palanite-enforcers-palanite-sergeant", 100, "5 4 4 3 3 2 4 1 5 6 6 7"),
    ("palanite-enforcers-palanite-rookie", 0, "5 5 5 3 3 1 4 1 8 8 8 8"),
    ("genestealer-cult-cult-adept", 120, "4 4 4 3 3 2 3 2 3 5 5 4"),
    ("genestealer-cult-aberrant", 95, "5 3 6 5 4 2 5 2 9 4 6 10"),
    ("genestealer-cult-neophyte-hybrid", 45, "4 4 4 3 3 1 4 1 7 5 6 8"),
    ("helot-chaos-cult-demagogue", 100, "5 3 3 3 3 2 3 2 6 5 6 7"),
    ("helot-chaos-cult-witch", 70, "5 5 5 3 3 2 4 1 8 7 6 6"),
    ("helot-chaos-cult-cultist", 35, "5 4 4 3 3 1 3 1 9 7 7 8"),
    ("corpse-grinder-cult-butcher", 130, "5 2 4 4 4 2 4 2 5 5 5 7"),
    ("corpse-grinder-cult-cutter", 90, "5 3 5 4 3 2 4 2 6 6 7 8"),
    ("corpse-grinder-cult-initiate", 25, "5 4 4 3 3 1 4 1 8 7 9 9"),
    ("ash-waste-nomads-khatragi-chieftain", 120, "6 3 4 3 3 2 3 2 5 5 6 6"),
    ("ash-waste-nomads-tarhnoki-dust-rider", 80, "5 4 4 3 3 1 3 2 9 7 8 9"),
    ("ash-waste-nomads-runtaani-dust-runner", 35, "6 5 5 3 3 1 3 1 9 7 8 9"),
    ("ironhead-squat-prospectors-charter-master", 115, "4 3 3 3 4 3 5 2 5 5 5 6"),
    ("ironhead-squat-prospectors-drill-kyn", 50, "4 4 4 3 4 1 5 1 7 6 6 7"),
    ("ironhead-squat-prospectors-digger", 35, "5 5 5 3 4 1 4 1 8 7 6 7"),
    ("venators-hunt-leader-2", 110, "3 3 4 3 4 2 5 2 6 6 5 5"),
    ("venators-hunt-champion-3", 85, "4 3 5 4 4 2 5 2 7 5 8 8"),
    ("venators-hunter-4", 50, "4 5 3 3 3 1 4 1 6 6 6 7"),
    ("slave-ogryns-overboss", 145, "5 3 5 5 5 3 3 3 8 5 9 8"),
    ("slave-ogryns-ogryn", 90, "5 4 5 5 5 2 4 2 8 7 9 9"),
    ("slave-ogryns-lobo-slave", 70, "4 4 6 5 5 2 5 2 5 5 10 10"),
    ("underhive-outcasts-leader-brawler-1", 125, "7 4 2 3 3 2 3 2 5 4 7 5"),
    ("underhive-outcasts-champion-mastermind", 60, "5 3 4 3 3 2 4 1 6 7 8 8"),
    ("underhive-outcasts-hive-scum", 30, "5 4 4 3 3 1 4 1 8 8 8 8"),
]


def test_published_costs_and_stat_lines(loaded_content):
    # One load for all the checks (the shipped data takes a while to load); every mismatch is listed.
    fighters = {f.slug: f for f in FighterType.objects.filter(edition="n18", slug__in=[c[0] for c in STAT_CHECKS])}
    found = [(slug, fighters[slug].cost, statline(fighters[slug])) for slug, _, _ in STAT_CHECKS]
    assert found == STAT_CHECKS


# (fighter type slug, item slug, list price) — three per gang, from N8's equipment lists.
PRICE_CHECKS = [
    ("palanite-enforcers-palanite-patrolman", "enforcer-boltgun", 50),
    ("palanite-enforcers-palanite-sergeant", "combat-shotgun", 60),
    ("palanite-enforcers-subjugator-patrolman", "grenade-launcher", 50),
    ("genestealer-cult-cult-adept", "heavy-rock-saw", 120),
    ("genestealer-cult-neophyte-hybrid", "hand-flamer", 50),
    ("genestealer-cult-aberrant", "power-sword", 45),
    ("helot-chaos-cult-disciple", "heavy-stubber", 130),
    ("helot-chaos-cult-cultist-specialist", "flamer", 130),
    ("helot-chaos-cult-cultist", "reclaimed-autogun", 10),
    ("corpse-grinder-cult-butcher", "heavy-chain-cleaver", 70),
    ("corpse-grinder-cult-skinner", "cleaver", 25),
    ("corpse-grinder-cult-cutter", "rotary-flensing-saw", 55),
    ("ash-waste-nomads-khatragi-chieftain", "charge-caster", 155),
    ("ash-waste-nomads-wytari-stormcaller", "stormcaller-staff", 35),
    ("ash-waste-nomads-tarnruni-warrior", "blast-carbine", 25),
    ("ironhead-squat-prospectors-drill-master", "vartijan-heavy-flamer", 210),
    ("ironhead-squat-prospectors-charter-master", "stone-burner", 70),
    ("ironhead-squat-prospectors-digger", "circular-stone-saw", 25),
    ("venators-hunt-leader-1", "meltagun", 135),
    ("venators-hunt-champion-1", "plasma-gun", 100),
    ("venators-hunter-1", "autogun", 15),
    ("slave-ogryns-ogryn", "heavy-rock-cutter", 120),
    ("slave-ogryns-lobo-slave", "las-cutter", 60),
    ("slave-ogryns-underboss", "servo-harness-partial", 100),
    ("underhive-outcasts-hive-scum", "fighting-knife", 10),
    ("underhive-outcasts-hive-scum", "sawn-off-shotgun", 15),
    ("underhive-outcasts-leader-gunslinger-2", "plasma-pistol", 50),
]


def test_published_list_prices(loaded_content):
    entries = FighterTypeEquipment.objects.filter(fighter_type__edition="n18").values_list(
        "fighter_type__slug", "equipment__slug", "cost"
    )
    prices = {(fighter, item): cost for fighter, item, cost in entries}
    assert [(fighter, item, prices.get((fighter, item))) for fighter, item, _ in PRICE_CHECKS] == PRICE_CHECKS


def test_fighters_only_list_what_their_weapon_types_allow(loaded_content):
    # Corpse Grinder Skinners fight in close combat only; Venator Hunters may not take Special weapons until promoted.
    skinner = FighterType.objects.get(slug="corpse-grinder-cult-skinner")
    assert set(
        skinner.equipment_list.filter(equipment__kind="weapon").values_list("equipment__category", flat=True)
    ) == {"close_combat"}
    hunter = FighterType.objects.get(slug="venators-hunter-1")
    assert not hunter.equipment_list.filter(equipment__category__in=["special", "heavy"]).exists()
    assert (
        FighterType.objects.get(slug="venators-hunter-1-specialist")
        .equipment_list.filter(equipment__category="special")
        .exists()
    )
    # A Hunter picks Trading Post items up to Rarity 8, a Hunt Leader up to 11 (the meltagun is Rare 11).
    assert not hunter.equipment_list.filter(equipment__rarity__in=["R9", "R10", "R11"]).exists()
    assert (
        FighterType.objects.get(slug="venators-hunt-leader-1")
        .equipment_list.filter(equipment__slug="meltagun")
        .exists()
    )


# Venators and Outcast Leaders and Champions take Trading Post items up to a Rarity (``trading_post_allowance``):
# the kinds their written lists lacked, each at its Trading Post price and availability (V2: the necrovox armoury
# pages' chems, grenades, combi-weapons and special ammunition rows).
ALLOWANCE_CHECKS = [
    ("venators-hunt-leader-1", "shotgun-executioner", 20, "R9"),
    ("venators-hunt-leader-1", "slaught", 30, "R10"),
    ("venators-hunt-leader-1", "bolter-plasma-gun-combi-weapon", 115, "R10"),
    ("venators-hunt-leader-1", "melta-bomb", 60, "R11"),
    ("venators-hunt-champion-2", "frenzon", 20, "R9"),
    ("venators-hunt-champion-2", "krak-grenade", 45, "R8"),
    ("venators-hunter-2", "stub-gun-dumdum-rounds", 5, "R7"),
    ("venators-hunter-2", "kalma", 15, "Common"),
    ("venators-hunter-2", "stub-gun-plasma-pistol-combi-pistol", 40, "R8"),
    ("venators-hunter-2", "frag-grenade", 30, "Common"),
    ("underhive-outcasts-leader-wyrd-3", "shotgun-executioner", 20, "R9"),
    ("underhive-outcasts-leader-wyrd-3", "frenzon", 20, "R9"),
    ("underhive-outcasts-leader-wyrd-3", "bolter-flamer-combi-weapon", 180, "R8"),
    ("underhive-outcasts-leader-wyrd-3", "choke-gas-grenade", 50, "R9"),
    ("underhive-outcasts-champion-survivor", "stub-gun-dumdum-rounds", 5, "R7"),
    ("underhive-outcasts-champion-survivor", "kalma", 15, "Common"),
    ("underhive-outcasts-champion-survivor", "autogun-grenade-launcher-combi-weapon", 30, "R7"),
    ("underhive-outcasts-champion-survivor", "krak-grenade", 45, "R8"),
]


def _allowance_list(fighter_type: str) -> dict[str, tuple[int, str]]:
    rows = FighterTypeEquipment.objects.filter(fighter_type__slug=fighter_type)
    return {
        item: (cost, rarity) for item, cost, rarity in rows.values_list("equipment__slug", "cost", "equipment__rarity")
    }


def test_rarity_allowances_take_the_newer_trading_post_kinds(loaded_content):
    lists = {fighter: _allowance_list(fighter) for fighter in {check[0] for check in ALLOWANCE_CHECKS}}
    found = [(fighter, item, *lists[fighter].get(item, (None, None))) for fighter, item, _, _ in ALLOWANCE_CHECKS]
    assert found == ALLOWANCE_CHECKS
    # Above the allowance: 'Slaught is Rare (10) for an Outcast Leader's 9, the melta bomb Rare (11) for a Champion's
    # 10, the choke gas grenade Rare (9) for a Hunter's 8; ammunition only for a weapon the fighter may take.
    assert "slaught" not in lists["underhive-outcasts-leader-wyrd-3"]
    assert "melta-bomb" not in lists["venators-hunt-champion-2"]
    assert "choke-gas-grenade" not in lists["venators-hunter-2"]
    assert "grenade-launcher-smoke-grenades" not in lists["venators-hunter-2"]


# List entries per fighter type as measured (86, 78, 41, 44, 68 and 49 while the lists were written out in the files).
# The lists grow with the Trading Post data, so more is fine; fewer means an item the allowance takes went missing.
ALLOWANCE_COUNTS = {
    "venators-hunt-leader-1": 198,
    "venators-hunt-champion-1": 177,
    "venators-hunter-1": 79,
    "venators-hunter-1-specialist": 89,
    "underhive-outcasts-leader-brawler-1": 143,
    "underhive-outcasts-champion-wyrd": 92,
}


def test_rarity_allowance_lists_count_and_leave_out_what_the_allowance_does_not_take(loaded_content):
    counts = {fighter: len(_allowance_list(fighter)) for fighter in ALLOWANCE_COUNTS}
    assert {fighter: n for fighter, n in counts.items() if n < ALLOWANCE_COUNTS[fighter]} == {}
    for house in ("venators", "underhive-outcasts"):
        rows = FighterTypeEquipment.objects.filter(fighter_type__house__slug=house)
        # Nothing Illegal, and no list-only item such as the Beastmaster's beasts.
        assert not rows.filter(equipment__rarity__startswith="I").exists(), house
        assert not rows.filter(equipment__slug__in=["millisaur", "ripperjack", "wasteland-giant-rat"]).exists()
        # Status items and Exotic Beasts go to Leaders and Champions only.
        hierarchy_kit = rows.filter(equipment__category__in=["status", "exotic_beast"])
        assert hierarchy_kit.exists(), house
        assert set(hierarchy_kit.values_list("fighter_type__category", flat=True)) <= {"leader", "champion"}, house
    # The Hive Scum keep the list the Outcasts' book writes out, the fighting knife at its own price.
    assert len(_allowance_list("underhive-outcasts-hive-scum")) == 30


def test_gang_weapons_carry_profiles_for_the_battle_assistant(loaded_content):
    boltgun = Equipment.objects.get(edition="n18", slug="enforcer-boltgun")
    (profile,) = boltgun.profiles.all()
    assert (profile.short_range, profile.long_range, profile.acc_short, profile.strength, profile.ap) == (
        12,
        24,
        1,
        "4",
        -1,
    )
    assert (profile.damage, profile.ammo, profile.traits) == ("2", "4+", ["Rapid Fire (1)"])
    caster = Equipment.objects.get(edition="n18", slug="charge-caster")
    assert [p.name for p in caster.profiles.all()] == ["shock blast rocket", "krak rocket"]
    assert Equipment.objects.get(edition="n18", slug="plate-mail").armour_save == 6


def test_composition_rules_name_fighter_types_by_their_full_slugs(loaded_content):
    gsc = House.objects.get(edition="n18", slug="genestealer-cult")
    (neophytes,) = [r for r in gsc.composition_rules if r["kind"] == "not_fewer"]
    assert "genestealer-cult-neophyte-hybrid" in neophytes["types"]
    assert neophytes["than_types"] == ["genestealer-cult-aberrant"]
    rookie = FighterType.objects.get(slug="palanite-enforcers-palanite-rookie")
    assert rookie.recruited_by_rule == "Fresh from the Academy"
    assert FighterType.objects.get(slug="helot-chaos-cult-witch").max_per_gang == 1
    assert FighterType.objects.get(slug="corpse-grinder-cult-cutter").max_per_gang == 3


def test_gang_skill_tables_belong_to_their_gangs(loaded_content):
    drill = SkillTable.objects.get(edition="n18", slug="palanite-drill")
    assert drill.house.slug == "palanite-enforcers" and drill.skills.count() == 6
    captain = FighterType.objects.get(slug="palanite-enforcers-palanite-captain")
    assert captain.skill_tables_by_level["primary"] == ["Brawn", "Shooting", "Palanite Drill"]


def test_loading_the_shipped_data_twice_changes_nothing(loaded_content):
    assert loaded_content.changed_anything
    again = load_content()
    assert not again.changed_anything
    assert again.counts["Houses"]["unchanged"] == House.objects.count()
