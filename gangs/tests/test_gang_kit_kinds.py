"""The rest of the 2023 Armoury's kinds on the shipped data (issue 25): the personal and gang equipment the Trading Post
lacked, the bionics in every grade Gyrinx lists, and the House lists' and the Genestealer Cults' own Exotic Beasts, each
bought by its owner from the list and shown as its own card."""

import json
from pathlib import Path

import pytest

import rulebook
from battles.roster import snapshot
from content.models import Equipment, EquipmentCategory, FighterTypeEquipment, House
from gangs.selectors import gang_queryset, lazy_roster
from gangs.services import fighter_hire, gang_create, gang_override, injury_record, purchase_buy
from gangs.stats import current_stats, stat_line
from rulebook.dice import SeededDice
from rulebook.n18 import kit, wargear

pytestmark = pytest.mark.django_db
DATA = Path(rulebook.__file__).resolve().parent / "data" / "n18"


@pytest.fixture
def loaded_content(module_content, db):
    return module_content


def hired(house_slug: str, local_slug: str, make_user, credits: int = 1000):
    owner = make_user()
    house = House.objects.get(edition="n18", slug=house_slug)
    gang = gang_create(owner=owner, house=house, name=f"{house_slug} kit")
    fighter = fighter_hire(
        gang=gang,
        fighter_type=house.fighter_types.get(slug=f"{house_slug}-{local_slug}"),
        name=local_slug,
        actor=owner,
        dice=SeededDice(3),
    )
    gang_override(gang=gang, actor=owner, reason="test credits", credits=credits)
    return fighter


def buy(fighter, slug: str, **options):
    return purchase_buy(
        gang=fighter.gang,
        equipment=Equipment.objects.get(edition="n18", slug=slug),
        actor=fighter.gang.owner,
        fighter=fighter,
        override_reason="Trade roll made",
        **options,
    )


# --- counts and representative entries ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("slug", "category", "cost", "rarity"),
    [
        ("magnacles", "personal", 20, "Common"),
        ("servo-harness-full", "personal", 160, "R12"),
        ("strip-kit", "personal", 15, "Common"),
        ("frag-trap", "wargear", 20, "Common"),
        ("gas-trap", "wargear", 40, "R8"),
        ("melta-trap", "wargear", 50, "R10"),
        ("isotropic-fuel-rod", "wargear", 60, "R10"),
    ],
)
def test_the_missing_trading_post_items_are_in_with_price_availability_and_source(
    loaded_content, slug, category, cost, rarity
):
    item = Equipment.objects.get(edition="n18", slug=slug)
    assert (item.category, item.cost, item.rarity, item.is_active) == (category, cost, rarity, True)
    assert item.sources and item.notes


def test_counts_of_each_kind(loaded_content):
    def count(category: str) -> int:
        return Equipment.objects.filter(edition="n18", category=category, is_active=True).count()

    assert count("personal") >= 29
    assert count("bionic") == len(kit.BIONICS) == 9
    assert count("status") >= 7
    assert count("exotic_beast") >= 21


def test_items_moved_to_the_trading_post_keep_the_lists_that_name_them(loaded_content):
    # Magnacles stay part of every Enforcer's kit (Venators and Outcasts may buy them from the Trading Post by their
    # Rarity allowance); the strip kit stays on the Cawdor list at its list price.
    magnacles = FighterTypeEquipment.objects.filter(
        equipment__slug="magnacles", fighter_type__house__slug="palanite-enforcers"
    )
    assert magnacles.exists() and all(e.is_included and e.cost == 0 for e in magnacles)
    strip_kit = FighterTypeEquipment.objects.get(fighter_type__slug="cawdor-word-keeper", equipment__slug="strip-kit")
    assert strip_kit.cost == 15


def test_every_new_item_is_listed_with_its_reason_where_the_engine_does_not_apply_it(loaded_content):
    for slug in ("magnacles", "servo-harness-full", "strip-kit", "frag-trap", "gas-trap", "melta-trap"):
        reason = wargear.not_applied(slug)
        assert reason and reason != wargear.NOT_MODELLED, slug
    assert "booby trap" in wargear.not_applied("melta-trap")


# --- bionics --------------------------------------------------------------------------------------------------------

# Gyrinx (G4) lists a Mundane lobo chip and cortex-cogitator once per characteristic; here each is one item and the
# characteristic is chosen when it is fitted (``bionic_choice``). Its name → (our item, the choice, the injury, the
# characteristics the injury lowered).
GYRINX_BIONICS = {
    "Aortic Supercharger (Mundane)": ("aortic-supercharger", None, "enfeebled", {"T": -1}),
    "Bionic Arm (Mundane)": ("bionic-arm", None, "hand-injury", {"WS": 1}),
    "Bionic Eye (Mundane)": ("bionic-eye", None, "eye-injury", {"BS": 1}),
    "Bionic Leg (Mundane)": ("bionic-leg", None, "hobbled", {"M": -1}),
    "Cortex-Cogitator (Improved)": ("cortex-cogitator-improved", None, "head-injury", {"Int": 1, "Wil": 1}),
    "Cortex-Cogitator (Mundane Int)": ("cortex-cogitator-mundane", "Int", "head-injury", {"Int": 1, "Wil": 1}),
    "Cortex-Cogitator (Mundane Will)": ("cortex-cogitator-mundane", "Wil", "head-injury", {"Int": 1, "Wil": 1}),
    "Lobo Chip (Improved)": ("lobo-chip-improved", None, "humiliated", {"Ld": 1, "Cl": 1}),
    "Lobo Chip (Mundane Cl)": ("lobo-chip-mundane", "Cl", "humiliated", {"Ld": 1, "Cl": 1}),
    "Lobo Chip (Mundane Ld)": ("lobo-chip-mundane", "Ld", "humiliated", {"Ld": 1, "Cl": 1}),
    "Skeletal Enhancers (Mundane)": ("skeletal-enhancers", None, "spinal-injury", {"S": -1}),
}


def test_the_data_has_every_bionic_gyrinx_lists(loaded_content):
    records = json.loads((DATA / "trading_post.json").read_text(encoding="utf-8"))["wargear"]
    bionics = {r["slug"] for r in records if r.get("category") == "bionic"}
    assert len(GYRINX_BIONICS) == 11
    assert {slug for slug, *_ in GYRINX_BIONICS.values()} == bionics == set(kit.BIONICS)


@pytest.mark.parametrize("name", sorted(GYRINX_BIONICS))
def test_each_grade_gives_back_what_its_injury_took(loaded_content, make_user, name):
    slug, choice, injury, lowered = GYRINX_BIONICS[name]
    fighter = hired("goliath", "bruiser", make_user)
    before = current_stats(fighter)
    injury_record(
        fighter=fighter, code=injury, name=injury, actor=fighter.gang.owner, reason="test", stat_deltas=lowered
    )
    buy(fighter, slug, **({"bionic_choice": choice} if choice else {}))
    after = current_stats(fighter)
    restored = {code for code in lowered if after[code] == before[code]}
    assert restored == ({choice} if choice else set(lowered)), name
    if choice:
        (other,) = set(lowered) - {choice}
        assert after[other] != before[other]
        # The roster shows both the injury's loss and the repair on the characteristic chosen.
        (line,) = [value for value in stat_line(fighter) if value.code == choice]
        assert [note.rpartition("(")[2] for note in line.changes] == ["Lasting Injury)", "Bionic)"]


# --- Exotic Beasts of the gang lists ----------------------------------------------------------------------------------

# (beast, list price, part of its stat line, an owner who may buy it); N2/N8, checked against G1 (the notes say where
# they differ).
BEASTS = [
    ("phyrr-cat", 120, {"M": 7, "WS": 3, "BS": None, "A": 2}, "escher-gang-queen"),
    ("phelynx", 50, {"Ld": 10, "Int": 11}, "escher-wyld-runner"),
    ("sumpkroc", 130, {"S": 4, "T": 4, "W": 2, "Cl": 6}, "goliath-forge-boss"),
    ("cyber-mastiff", 100, {"WS": 3, "I": 4, "Ld": 7}, "orlock-arms-master"),
    ("cyberachnid", 75, {"BS": 5, "Cl": 8}, "van-saar-augmek"),
    ("sheen-bird", 90, {"BS": 6, "T": 2, "A": 2}, "cawdor-firebrand"),
    ("cherub-servitor", 55, {"WS": 5, "Cl": 5, "Wil": 5}, "cawdor-redemptor-priest"),
    ("psychic-familiar", 25, {"BS": None, "Wil": 6}, "genestealer-cult-hybrid-acolyte"),
]


@pytest.mark.parametrize(("slug", "cost", "stats", "owner"), BEASTS)
def test_each_gang_list_beast_has_its_card_and_its_owners_list_price(loaded_content, slug, cost, stats, owner):
    beast = Equipment.objects.get(edition="n18", slug=slug)
    assert beast.category == EquipmentCategory.EXOTIC_BEAST and beast.cost == cost and beast.sources
    assert len(beast.beast["stats"]) == 12 and stats.items() <= beast.beast["stats"].items()
    assert beast.beast["weapons"] and beast.beast["rules"]
    assert FighterTypeEquipment.objects.get(fighter_type__slug=owner, equipment__slug=slug).cost == cost


def test_a_beast_is_only_on_its_own_lists(loaded_content):
    owners = FighterTypeEquipment.objects.filter(equipment__slug="cyberachnid").values_list(
        "fighter_type__slug", flat=True
    )
    assert set(owners) == {"van-saar-prime", "van-saar-archeotek", "van-saar-augmek"}
    assert not FighterTypeEquipment.objects.filter(equipment__slug="sheen-bird", fighter_type__slug="cawdor-brethren")


def test_a_van_saar_prime_buys_a_cyberachnid_and_the_roster_shows_its_card(loaded_content, make_user, client):
    prime = hired("van-saar", "prime", make_user)
    buy(prime, "cyberachnid")
    roster = lazy_roster(gang_queryset().get(pk=prime.gang_id))
    (row,) = [row for row in roster.fighters if row.fighter.pk == prime.pk]
    (card,) = row.beasts
    assert [s.shown for s in card.stats][:4] == ['6"', "4+", "5+", "2"]
    assert card.weapons[1].startswith("Web projector: T, S 2")
    assert [rule.name for rule in card.rules] == ["Clamber", "Fear Inducing", "Fearsome", "Horrific"]
    client.force_login(prime.gang.owner)
    page = client.get(f"/gangs/{prime.gang_id}/").content.decode()
    assert 'Cyberachnid</strong> <span class="muted">(exotic beast)</span>' in page
    # The assistant does not field it: its owner's card lists it with the reason.
    (listed,) = [n for n in snapshot(prime)["not_applied"] if n["name"] == "Cyberachnid"]
    assert "Exotic Beast" in listed["reason"]
