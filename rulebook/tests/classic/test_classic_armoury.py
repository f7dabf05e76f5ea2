"""The classic Armoury data file and its lookups."""

import pytest

from rulebook.classic import armoury
from rulebook.errors import RulesInputError

DAMAGES = {None, "1", "D3", "D6", "2D6"}
STRENGTHS = {None, "user", "user+1", "user+2"}


def test_every_record_has_slug_name_and_known_sources():
    doc = armoury.data()
    keys = set(doc["sources"])
    for kind in ("weapons", "armour", "wargear"):
        slugs = [r["slug"] for r in doc[kind]]
        assert len(slugs) == len(set(slugs)), kind
        for record in doc[kind]:
            assert record["name"] and record["sources"], record["slug"]
            assert all(source.split()[0] in keys for source in record["sources"]), record["slug"]


@pytest.mark.parametrize("weapon", sorted(armoury.weapons().values(), key=lambda w: w.slug), ids=lambda w: w.slug)
def test_weapon_profiles_are_well_formed(weapon):
    assert weapon.category in armoury.CATEGORIES
    assert weapon.profiles
    assert len({p.name for p in weapon.profiles}) == len(weapon.profiles)
    for p in weapon.profiles:
        assert p.strength in STRENGTHS or (isinstance(p.strength, int) and 1 <= p.strength <= 10)
        assert p.damage in DAMAGES
        assert p.save_mod <= 0
        assert p.template in armoury.TEMPLATES
        assert p.ammo_roll in (None, "auto") or p.ammo_target in range(2, 7)
        ranged = weapon.category not in ("hand_to_hand", "grenade") and p.template != "flamer"
        if ranged:
            assert 0 < p.short_range <= p.long_range
        else:
            assert p.short_range is None and p.long_range is None
        if weapon.category == "grenade":
            assert p.ammo_roll == "auto"


@pytest.mark.parametrize(
    "name,slug", [("laspistol", "laspistol"), ("Heavy Bolter", "heavy-bolter"), ("heavy_bolter", "heavy-bolter")]
)
def test_lookup_by_slug_or_name(name, slug):
    assert armoury.weapon(name).slug == slug


def test_unknown_weapon_names_the_field():
    with pytest.raises(RulesInputError) as err:
        armoury.weapon("bolt thrower", field="attacker.weapons[0]")
    assert err.value.field == "attacker.weapons[0]"


def test_profiles_by_name():
    gun = armoury.weapon("plasma gun")
    assert gun.profile("Maximum Power").strength == 7
    with pytest.raises(RulesInputError):
        gun.profile()
    assert armoury.weapon("laspistol").profile().ammo_target == 2


@pytest.mark.parametrize(
    "slug,short,long,hit_short,hit_long,strength,ammo",
    [
        ("laspistol", 8, 16, 2, -1, 3, "2+"),
        ("bolt-pistol", 8, 16, 2, 0, 4, "6+"),
        ("autogun", 12, 24, 1, 0, 3, "4+"),
        ("boltgun", 12, 24, 1, 0, 4, "6+"),
        ("meltagun", 6, 12, 1, 0, 8, "4+"),
        ("heavy-stubber", 20, 40, 0, 0, 4, "4+"),
        ("lascannon", 20, 60, 0, 0, 9, "4+"),
    ],
)
def test_profiles_agree_with_the_rulebooks_own_examples(slug, short, long, hit_short, hit_long, strength, ammo):
    """The 1995 rulebook's Shooting tables (ranges, range modifiers, Strength, Ammo rolls)."""
    p = armoury.weapon(slug).profile()
    assert (p.short_range, p.long_range, p.hit_short, p.hit_long, p.strength, p.ammo_roll) == (
        short,
        long,
        hit_short,
        hit_long,
        strength,
        ammo,
    )


def test_the_two_settled_discrepancies_are_recorded():
    bolter = armoury.weapon("heavy bolter")
    assert bolter.profile().long_range == 40 and "20-72" in bolter.notes
    club = armoury.weapon("club")
    assert club.profile().strength == "user+1" and "S1" in club.notes


def test_armour_saves():
    assert {slug: a["save"] for slug, a in armoury.armour().items()} == {"flak": 6, "mesh": 5, "carapace": 4}


def test_wargear_has_prices_or_a_rolled_price():
    for item in armoury.wargear().values():
        assert isinstance(item["cost"], int) or item.get("rare_cost"), item["slug"]
