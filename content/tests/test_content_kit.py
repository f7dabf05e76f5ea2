"""The whole Trading Post and every list (issue 25): the list entries that waited for their items, the gang lists'
grenades, and the kit kinds beyond weapons and armour, checked on the shipped data (rulebook/data/n18)."""

import pytest
from django.urls import reverse

from content.models import Equipment, FighterTypeEquipment
from content.templatetags.content_tags import player_notes

pytestmark = pytest.mark.django_db


@pytest.fixture
def loaded_content(module_content, db):
    return module_content


def listed(house: str, item: str) -> set[str]:
    return set(
        FighterTypeEquipment.objects.filter(fighter_type__house__slug=house, equipment__slug=item).values_list(
            "fighter_type__slug", flat=True
        )
    )


def test_no_list_entry_waits_for_an_item(loaded_content):
    assert loaded_content.waiting == set()
    assert "waiting" not in " ".join(loaded_content.lines())


@pytest.mark.parametrize(
    ("house", "fighter", "item", "cost"),
    [
        ("ironhead-squat-prospectors", "charter-master", "ironhead-autogun", 25),
        ("ironhead-squat-prospectors", "digger", "ironhead-stub-gun", 10),
        ("ironhead-squat-prospectors", "drill-kyn-specialist", "ironhead-meltagun", 155),
        ("ironhead-squat-prospectors", "drill-master", "ironhead-arc-welder", 100),
        ("genestealer-cult", "cult-alpha", "long-las", 20),
        ("gang-additions", "ambot", "grav-fist", 90),
    ],
)
def test_the_items_that_waited_are_on_their_lists(loaded_content, house, fighter, item, cost):
    entry = FighterTypeEquipment.objects.get(fighter_type__slug=f"{house}-{fighter}", equipment__slug=item)
    assert entry.cost == cost
    assert entry.equipment.profiles.exists() and entry.equipment.sources


@pytest.mark.parametrize(
    ("fighter", "item"),
    [("ambot", "tunnelling-claw"), ("iron-automata", "assault-cannon"), ("iron-automata", "power-claw")],
)
def test_brutes_are_hired_holding_their_built_in_weapons(loaded_content, fighter, item):
    entry = FighterTypeEquipment.objects.get(fighter_type__slug=f"gang-additions-{fighter}", equipment__slug=item)
    assert entry.is_included and entry.cost == 0


@pytest.mark.parametrize(
    ("house", "grenades"),
    [
        (
            "palanite-enforcers",
            {"choke-gas-grenade", "frag-grenade", "photon-flash-grenade", "smoke-grenade", "stun-grenade"},
        ),
        ("genestealer-cult", {"blasting-charge", "demo-charge", "frag-grenade", "incendiary-charge"}),
        ("helot-chaos-cult", {"blasting-charge", "demo-charge", "frag-grenade", "incendiary-charge", "krak-grenade"}),
        ("corpse-grinder-cult", {"frag-grenade", "incendiary-charge", "krak-grenade", "smoke-grenade"}),
        ("slave-ogryns", {"blasting-charge", "demo-charge", "frag-grenade", "incendiary-charge", "krak-grenade"}),
        ("underhive-outcasts", {"blasting-charge", "frag-grenade", "krak-grenade", "smoke-grenade"}),
        ("ironhead-squat-prospectors", {"blasting-charge", "frag-grenade", "krak-grenade", "smoke-grenade"}),
    ],
)
def test_every_gang_list_has_its_grenades(loaded_content, house, grenades):
    found = set(
        FighterTypeEquipment.objects.filter(fighter_type__house__slug=house, equipment__category="grenade").values_list(
            "equipment__slug", flat=True
        )
    )
    assert grenades <= found


def test_grenades_follow_each_fighters_restrictions(loaded_content):
    # Corpse Grinder Skinners fight in close combat only; a Lobo-slave takes no grenades; Ogryn Gangers no frags.
    assert listed("corpse-grinder-cult", "frag-grenade") == {"corpse-grinder-cult-initiate"}
    assert "slave-ogryns-lobo-slave" not in listed("slave-ogryns", "krak-grenade")
    assert listed("slave-ogryns", "frag-grenade") == {"slave-ogryns-overboss", "slave-ogryns-underboss"}
    assert Equipment.objects.get(edition="n18", slug="demo-charge").rarity == "R12"


# --- the pages print what players need, not the maintainers' notes -------------------------------------------


@pytest.mark.parametrize(
    "house", ["corpse-grinder-cult", "gang-additions", "ash-waste-nomads", "underhive-outcasts", "escher"]
)
def test_house_pages_leave_the_maintainers_notes_in_the_files(client, loaded_content, house):
    page = client.get(reverse("content:house-detail", args=["n18", house])).content.decode()
    assert "check" not in page.lower().replace("checked", "")
    assert "Spot-check" not in page and "CHECK" not in page


def test_the_equipment_page_keeps_the_players_part_of_a_note(client, loaded_content):
    page = client.get(reverse("content:equipment-detail", args=["n18", "ironhead-autogun"])).content.decode()
    assert "Ironhead Squat Prospectors only" in page
    assert "check against the book" not in page


@pytest.mark.parametrize(
    ("notes", "shown"),
    [
        ("Takes two weapon slots. Price from G1 only: CHECK against a printed book.", "Takes two weapon slots."),
        ("Spot-checked against G1.", ""),
        ("House Delaque pays 80", "House Delaque pays 80"),
    ],
)
def test_player_notes_drop_the_sentences_meant_for_maintainers(loaded_content, notes, shown):
    assert player_notes(notes) == shown


# --- the kinds of kit of the 2023 Armoury ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("category", "at_least", "example", "cost", "rarity"),
    [
        ("ammo", 69, "shotgun-gas-shells", 25, "R11"),
        ("chem", 8, "slaught", 30, "R10"),
        ("bionic", 9, "bionic-eye", 45, "R13"),
        ("personal", 25, "cred-sniffer", 35, "R8"),
        ("status", 7, "gold-plated-gun", 40, "R10"),
        ("exotic_beast", 5, "grapplehawk", 90, "R11"),
    ],
)
def test_the_2023_armoury_kinds_are_content_with_sources(loaded_content, category, at_least, example, cost, rarity):
    items = Equipment.objects.filter(edition="n18", category=category, is_active=True)
    assert items.count() >= at_least
    assert all(item.sources for item in items)
    found = items.get(slug=example)
    assert (found.cost, found.rarity) == (cost, rarity)


def test_special_ammunition_fires_as_its_own_profile(loaded_content):
    dumdum = Equipment.objects.get(edition="n18", slug="stub-gun-dumdum-rounds")
    (profile,) = dumdum.profiles.all()
    assert (profile.short_range, profile.long_range, profile.strength, "Limited" in profile.traits) == (
        5,
        10,
        "4",
        True,
    )


def test_special_ammunition_counts(loaded_content):
    # 62 Trading Post ammunitions (the 2023 book's 35 and the 27 of earlier books that necrovox and Gyrinx still
    # list) and 7 a House or the Enforcers sell only from their list; every one names the weapons it fits.
    ammo = Equipment.objects.filter(edition="n18", category="ammo", is_active=True)
    assert ammo.count() == 69
    assert ammo.exclude(rarity="").count() == 62
    assert all(item.fits and item.sources for item in ammo)


def profile_of(slug):
    (profile,) = Equipment.objects.get(edition="n18", slug=slug).profiles.all()
    return profile


@pytest.mark.parametrize(
    ("slug", "fits", "cost", "rarity", "line", "traits"),
    [
        ("shotgun-executioner", ["shotgun"], 20, "R9", (4, 16, -1, 1, "4", -2, "2", "6+"), {"Knockback", "Limited"}),
        ("shotgun-inferno", ["shotgun"], 15, "R8", (4, 16, 1, None, "4", 0, "2", "5+"), {"Blaze", "Limited"}),
        (
            "combat-shotgun-rad",
            ["combat-shotgun"],
            25,
            "R9",
            (None, None, None, None, "2", 0, "1", "4+"),
            {"Rad-phage", "Scattershot"},
        ),
        (
            "autopistol-manstopper",
            ["autopistol", "ironhead-autopistol"],
            10,
            "R8",
            (4, 12, 1, None, "4", 0, "1", "4+"),
            {"Limited", "Rapid Fire (1)"},
        ),
        ("heavy-bolter-gunk", ["heavy-bolter"], 15, "Common", (18, 36, None, -1, "5", -2, "2", "6+"), {"Gunk"}),
        ("stub-cannon-warp", ["stub-cannon"], 15, "I10", (9, 18, None, None, "5", 0, "1", "3+"), {"Cursed"}),
        (
            "enforcer-boltgun-penetrator-rounds",
            ["enforcer-boltgun"],
            20,
            "",
            (12, 24, 1, None, "4", -2, "2", "4+"),
            {"Rending", "Unstable"},
        ),
        ("wyld-bow-poison-arrows", ["wyld-bow"], 25, "", (9, 18, None, -1, "-", 0, "-", "6+"), {"Toxin"}),
    ],
)
def test_each_ammunition_has_its_own_profile(loaded_content, slug, fits, cost, rarity, line, traits):
    item = Equipment.objects.get(edition="n18", slug=slug)
    assert (item.fits, item.cost, item.rarity) == (fits, cost, rarity)
    p = profile_of(slug)
    assert (p.short_range, p.long_range, p.acc_short, p.acc_long, p.strength, p.ap, p.damage, p.ammo) == line
    assert traits <= set(p.traits)


def test_the_combat_shotguns_rad_shells_are_a_template(loaded_content):
    assert profile_of("combat-shotgun-rad").range_code == "T"


@pytest.mark.parametrize(
    ("house", "fighter", "item", "cost"),
    [
        ("goliath", "forge-boss", "grenade-launcher-stun-round", 15),  # the Trading Post's +25
        ("palanite-enforcers", "subjugator-sergeant", "grenade-launcher-scare-gas-grenades", 40),
        ("palanite-enforcers", "palanite-patrolman", "enforcer-boltgun-penetrator-rounds", 20),
        ("van-saar", "prime", "lasgun-focusing-crystal", 20),  # the Trading Post's +30
        ("orlock", "arms-master", "shotgun-executioner", 20),
        ("cawdor", "firebrand", "blunderbuss-emperors-wrath-rounds", 35),
        ("escher", "wyld-runner", "wyld-bow-explosive-arrows", 20),
        ("corpse-grinder-cult", "initiate", "autopistol-fragmentation", 10),
        ("ironhead-squat-prospectors", "digger", "stub-gun-dumdum-rounds", 5),
    ],
)
def test_the_gang_lists_sell_their_ammunition_at_list_price(loaded_content, house, fighter, item, cost):
    entry = FighterTypeEquipment.objects.get(fighter_type__slug=f"{house}-{fighter}", equipment__slug=item)
    assert entry.cost == cost


def test_list_ammunition_follows_the_lists_columns(loaded_content):
    # Goliath: executioner and inferno shells for the Forge Tyrant alone; Delaque Gangers buy no dumdum rounds.
    assert listed("goliath", "shotgun-executioner") == {"goliath-forge-tyrant"}
    assert "delaque-ghost" not in listed("delaque", "stub-gun-dumdum-rounds")
    assert "delaque-ghost" in listed("delaque", "stub-gun")


def test_combi_weapons_carry_both_components(loaded_content):
    combi = Equipment.objects.get(edition="n18", slug="bolter-plasma-gun-combi-weapon")
    assert [p.name for p in combi.profiles.all()] == ["bolter", "plasma gun"]
    assert all("Combi" in p.traits for p in combi.profiles.all())
    assert Equipment.objects.filter(edition="n18", slug__endswith="-combi-pistol").count() == 5


def test_cawdor_has_its_redemptionists_and_one_leader_of_either_kind(loaded_content):
    from content.models import FighterType, House

    cawdor = House.objects.get(edition="n18", slug="cawdor")
    priest = FighterType.objects.get(slug="cawdor-redemptor-priest")
    assert (priest.category, priest.cost, priest.max_per_gang) == ("leader", 100, 1)
    assert FighterType.objects.get(slug="cawdor-zealot").cost == 40
    assert FighterType.objects.get(slug="cawdor-word-keeper").min_per_gang == 0
    assert [(r["kind"], r.get("count")) for r in cawdor.composition_rules[:2]] == [("min_count", 1), ("max_count", 1)]
    assert listed("cawdor", "shotgun") >= {"cawdor-redemptionist-brethren", "cawdor-redemptor-priest"}
    assert "cawdor-redemptionist-brethren" not in listed("cawdor", "grenade-launcher")  # Special: Specialists only


def test_the_profiles_the_2023_book_changed(loaded_content):
    rig = FighterTypeEquipment.objects.get(
        fighter_type__slug="gang-additions-arachni-rig", equipment__slug="light-carapace-armour"
    )
    assert rig.is_included and rig.cost == 0
    assert Equipment.objects.get(edition="n18", slug="bio-booster").rarity == "R8"
    maul = Equipment.objects.get(edition="n18", slug="maul").profiles.get()
    assert (maul.ap, maul.damage) == (1, "2")
    whip = Equipment.objects.get(edition="n18", slug="whip").profiles.get()
    assert (whip.range_code, whip.long_range) == ("E", 3)
    pistol_traits = {
        trait
        for traits in Equipment.objects.filter(edition="n18", category="pistol").values_list(
            "profiles__traits", flat=True
        )
        for trait in traits or ()
    }
    assert "Sidearm" in pistol_traits and "Pistol" not in pistol_traits
