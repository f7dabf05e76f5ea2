"""The fighter types issue 25 added (Delaque psykers, Chaos Spawn, the remaining Brutes), the Exotic Beasts' own cards
and special ammunition tied to its weapon, checked on the shipped data (rulebook/data/n18)."""

import pytest

from content.models import Equipment, EquipmentCategory, FighterType, FighterTypeEquipment

pytestmark = pytest.mark.django_db


@pytest.fixture
def loaded_content(module_content, db):
    return module_content


def statline(fighter: FighterType) -> str:
    return " ".join(value.rstrip('"+') for _, value in fighter.statline)


# The lists that are Outlaw by their own rules; the Nomads take no common Hangers-on (Outlaw ones included).
OUTLAW = ["helot-chaos-cult", "corpse-grinder-cult", "slave-ogryns", "genestealer-cult", "underhive-outcasts"]
OUTLAW_BRUTE = [*OUTLAW[:2], "ash-waste-nomads", *OUTLAW[2:]]

# (slug, cost, stat line M WS BS S T W I A Ld Cl Wil Int, who may recruit it) — N2/N12/N13, checked against G1 where
# it has them (the notes of each record say which).
NEW_TYPES = [
    ("delaque-master-of-shadow-psyker", 130, "5 3 3 3 3 2 3 2 6 6 5 6", None),
    ("delaque-phantom-psyker", 115, "5 3 3 3 3 2 4 2 7 6 6 6", None),
    ("delaque-nacht-ghul-psyker", 140, "6 2 3 4 3 2 2 2 7 6 6 7", None),
    ("helot-chaos-cult-chaos-spawn", 130, "4 4 6 4 5 2 4 2 10 2 2 10", None),
    ("gang-additions-outland-beastmaster", 100, "6 4 4 3 3 2 3 1 7 6 7 8", []),
    ("gang-additions-sanctioner", 205, "5 4 4 4 5 3 5 2 8 7 6 9", ["palanite-enforcers"]),
    ("gang-additions-arthromite-duneskuttler", 210, "6 3 5 5 5 3 3 4 7 8 8 8", ["ash-waste-nomads"]),
    ("gang-additions-vartijan-exo-driller", 250, "4 4 3 4 5 3 5 2 7 6 6 7", ["ironhead-squat-prospectors"]),
    ("gang-additions-ash-wastes-arachni-rig", 360, "5 4 4 5 4 3 4 2 5 5 8 5", ["van-saar"]),
    ("gang-additions-piscean-spektor", 205, "5 3 5 4 4 3 3 4 7 6 6 8", ["delaque"]),
    ("gang-additions-claim-jumper", 60, "4 3 4 3 4 1 4 2 7 6 6 5", ["ironhead-squat-prospectors"]),
    ("gang-additions-heretek", 40, "5 5 4 3 3 1 4 1 9 7 7 5", OUTLAW),
    ("gang-additions-warp-horror", 210, "6 3 6 6 4 3 4 3 9 6 7 9", OUTLAW_BRUTE),
]


@pytest.mark.parametrize(("slug", "cost", "stats", "recruited_by"), NEW_TYPES)
def test_the_fighter_types_that_were_missing_load_with_price_and_stat_line(
    loaded_content, slug, cost, stats, recruited_by
):
    fighter = FighterType.objects.get(edition="n18", slug=slug)
    assert (fighter.cost, statline(fighter)) == (cost, stats)
    assert fighter.sources
    if recruited_by is not None:
        assert fighter.is_addition and fighter.recruited_by == recruited_by


def test_delaque_has_one_leader_psyker_or_not(loaded_content):
    leaders = FighterType.objects.filter(edition="n18", house__slug="delaque", category="leader")
    assert {t.slug for t in leaders} == {"delaque-master-of-shadow", "delaque-master-of-shadow-psyker"}
    assert all(t.min_per_gang == 0 for t in leaders)
    rules = FighterType.objects.get(slug="delaque-master-of-shadow").house.composition_rules
    assert {(r["kind"], r.get("count")) for r in rules} >= {("min_count", 1), ("max_count", 1)}
    # A psyker buys from the same list as the fighter it is.
    plain = FighterTypeEquipment.objects.filter(fighter_type__slug="delaque-phantom")
    psyker = FighterTypeEquipment.objects.filter(fighter_type__slug="delaque-phantom-psyker")
    assert set(plain.values_list("equipment__slug", "cost")) == set(psyker.values_list("equipment__slug", "cost"))


def test_the_chaos_spawn_joins_in_place_of_a_fallen_fighter(loaded_content):
    spawn = FighterType.objects.get(slug="helot-chaos-cult-chaos-spawn")
    assert spawn.recruited_by_rule == "Spawned"
    assert not spawn.equipment_list.exists()


@pytest.mark.parametrize(
    ("slug", "cost", "stats"),
    [
        ("grapplehawk", 90, {"M": 8, "WS": 4, "BS": None, "A": 2}),
        ("necromundan-giant-rat", 50, {"M": 6, "Ld": 10, "Int": 9}),
        ("ripperjack", 70, {"M": 7, "BS": 6, "W": 2}),
        ("cephalopod-spekter", 100, {"Int": 4, "Cl": 5}),
        ("chaos-familiar", 25, {"BS": None, "I": 2}),
        ("hardcase-cyber-mastiff", 130, {"WS": 3, "T": 4, "A": 2}),
    ],
)
def test_exotic_beasts_carry_their_own_card(loaded_content, slug, cost, stats):
    beast = Equipment.objects.get(edition="n18", slug=slug)
    assert beast.category == EquipmentCategory.EXOTIC_BEAST and beast.cost == cost
    assert len(beast.beast["stats"]) == 12 and stats.items() <= beast.beast["stats"].items()
    assert beast.beast["weapons"] and beast.beast["rules"]


def test_every_exotic_beast_with_a_price_has_a_card(loaded_content):
    beasts = Equipment.objects.filter(edition="n18", category=EquipmentCategory.EXOTIC_BEAST)
    assert beasts.count() >= 8 and all(b.beast.get("stats") for b in beasts)


def test_the_beastmaster_buys_its_beasts_from_its_list(loaded_content):
    entries = FighterTypeEquipment.objects.filter(fighter_type__slug="gang-additions-outland-beastmaster")
    assert {"wasteland-giant-rat": 30, "millisaur": 60, "ripperjack": 70}.items() <= {
        e.equipment.slug: e.cost for e in entries.select_related("equipment")
    }.items()


def test_every_special_ammunition_names_the_weapons_it_fits(loaded_content):
    ammunition = Equipment.objects.filter(edition="n18", category=EquipmentCategory.AMMO)
    assert ammunition.count() >= 35
    weapons = set(Equipment.objects.filter(edition="n18", kind="weapon").values_list("slug", flat=True))
    for item in ammunition:
        assert item.fits and set(item.fits) <= weapons, item.slug
    assert Equipment.objects.get(slug="stub-gun-dumdum-rounds").fits == ["stub-gun", "ironhead-stub-gun"]


def test_the_claim_jumper_comes_with_its_techmite_and_fights_in_the_crew(loaded_content):
    jumper = FighterType.objects.get(slug="gang-additions-claim-jumper")
    kit = {e.equipment.slug for e in jumper.equipment_list.filter(is_included=True).select_related("equipment")}
    assert {"gem-extractor", "ironhead-autopistol", "power-fist", "techmite-autoveyor"} <= kit
    assert any(rule.startswith("Part of the Crew") for rule in jumper.special_rules)
    assert Equipment.objects.get(slug="techmite-autoveyor").beast["stats"]["Int"] == 6


@pytest.mark.parametrize(
    ("owner", "beast", "cost"),
    [
        ("delaque-psy-gheist", "psychoteric-wyrm", 70),
        ("delaque-nacht-ghul-psyker", "cephalopod-spekter", 100),
        ("helot-chaos-cult-witch", "chaos-familiar", 25),
        ("palanite-enforcers-palanite-sergeant", "hardcase-cyber-mastiff", 130),
    ],
)
def test_gang_list_beasts_are_on_their_owners_lists(loaded_content, owner, beast, cost):
    assert FighterTypeEquipment.objects.get(fighter_type__slug=owner, equipment__slug=beast).cost == cost
