"""Special ammunition goes with its weapon, an Exotic Beast shows its own card under its owner, and a chem taken
into a battle is a dose used up (issue 25)."""

import pytest
from django.core.exceptions import ValidationError

from battles.display import fighter_rows
from battles.roster import snapshot
from battles.services.start import battle_start
from content.models import Equipment, EquipmentCategory, EquipmentKind, WeaponProfile
from gangs.models import LedgerKind, Purchase
from gangs.selectors import buyable_equipment, gang_queryset, lazy_roster, move_targets
from gangs.services import purchase_buy
from gangs.services.equipment import purchase_move
from gangs.testing import make_chem
from rulebook.dice import SeededDice

pytestmark = pytest.mark.django_db


@pytest.fixture
def gang(make_gang):
    return make_gang(edition="n18", extra_credits=1000)


@pytest.fixture
def dumdum(db):
    rounds = Equipment.objects.create(
        edition="n18",
        slug="autopistol-dumdum",
        name="Autopistol: dumdum rounds",
        kind=EquipmentKind.WEAPON,
        category=EquipmentCategory.AMMO,
        cost=5,
        rarity="Common",
        fits=["autopistol"],
        is_official=True,
    )
    WeaponProfile.objects.create(
        equipment=rounds, name="dumdum", short_range=4, long_range=12, strength="4", damage="1", ammo="4+"
    )
    return rounds


def buy(fighter, slug_or_item, **options):
    item = (
        slug_or_item if isinstance(slug_or_item, Equipment) else Equipment.objects.get(edition="n18", slug=slug_or_item)
    )
    return purchase_buy(gang=fighter.gang, equipment=item, actor=fighter.gang.owner, fighter=fighter, **options)


def row_of(fighter):
    roster = lazy_roster(gang_queryset().get(pk=fighter.gang_id))
    (row,) = [row for row in roster.fighters if row.fighter.pk == fighter.pk]
    return row


def test_special_ammunition_needs_the_weapon_it_fits(gang, make_fighter, dumdum):
    ganger = make_fighter(gang, "ganger")
    assert dumdum not in [item for item, _, _ in buyable_equipment(gang, ganger)]
    with pytest.raises(ValidationError, match="carries no Autopistol"):
        buy(ganger, dumdum, override_reason="Trade roll")
    with pytest.raises(ValidationError, match="not for the Stash"):
        purchase_buy(gang=gang, equipment=dumdum, actor=gang.owner, override_reason="Trade roll")
    buy(ganger, "autopistol")
    assert dumdum in [item for item, _, _ in buyable_equipment(gang, ganger)]
    assert buy(ganger, dumdum).price == 5


def test_ammunition_moves_only_to_a_fighter_with_its_weapon(gang, make_fighter, dumdum):
    first, second = make_fighter(gang, "ganger"), make_fighter(gang, "ganger")
    buy(first, "autopistol")
    rounds = buy(first, dumdum)
    assert move_targets(gang, [rounds])[rounds.pk] == []
    with pytest.raises(ValidationError, match="carries no Autopistol"):
        purchase_move(purchase=rounds, fighter=second, actor=gang.owner)
    buy(second, "autopistol")
    assert [f.pk for f in move_targets(gang, [rounds])[rounds.pk]] == [second.pk]


def test_ammunition_shows_under_its_weapon_and_leaves_the_shoot_menu_without_it(gang, make_fighter, dumdum):
    ganger = make_fighter(gang, "ganger")
    pistol = buy(ganger, "autopistol")
    buy(ganger, "lasgun")
    buy(ganger, dumdum)
    assert [item.name for item in row_of(ganger).weapons] == ["Autopistol", "Autopistol: dumdum rounds", "Lasgun"]
    assert "Autopistol: dumdum rounds" in [w["name"] for w in snapshot(ganger)["weapons"]]
    pistol.delete()
    ganger = type(ganger).objects.get(pk=ganger.pk)
    (lasgun, rounds) = row_of(ganger).weapons
    assert (lasgun.name, rounds.note) == ("Lasgun", "no weapon it fits: not fired")
    assert [w["name"] for w in snapshot(ganger)["weapons"]] == ["Lasgun"]


def test_an_exotic_beast_shows_its_own_card_under_its_owner(gang, make_fighter, client):
    hawk = Equipment.objects.create(
        edition="n18",
        slug="grapplehawk",
        name="Grapplehawk",
        kind=EquipmentKind.WARGEAR,
        category=EquipmentCategory.EXOTIC_BEAST,
        cost=90,
        rarity="Common",
        is_official=True,
        beast={
            "stats": {
                "M": 8,
                "WS": 4,
                "BS": None,
                "S": 2,
                "T": 3,
                "W": 1,
                "I": 3,
                "A": 2,
                "Ld": 9,
                "Cl": 7,
                "Wil": 9,
                "Int": 9,
            },
            "weapons": ["Talons: E, S 3, AP -1, D 1"],
            "rules": ['Swoop: may range 9" from its owner'],
        },
    )
    leader = make_fighter(gang, "leader")
    buy(leader, hawk)
    (card,) = row_of(leader).beasts
    assert [s.shown for s in card.stats][:4] == ['8"', "4+", "-", "2"]
    assert card.weapons == ["Talons: E, S 3, AP -1, D 1"] and card.rules[0].name == "Swoop"
    client.force_login(gang.owner)
    page = client.get(f"/gangs/{gang.pk}/").content.decode()
    assert 'Grapplehawk</strong> <span class="muted">(exotic beast)</span>' in page and "Talons: E, S 3" in page


def test_a_chem_taken_into_a_battle_is_a_dose_used_up(make_gang, make_fighter):
    gang, rival = make_gang(edition="n18", extra_credits=500), make_gang(edition="n18")
    ganger = make_fighter(gang, "ganger")
    make_fighter(rival, "ganger")
    slaught = make_chem("slaught", "'Slaught")
    buy(ganger, slaught)
    buy(ganger, slaught)  # two doses: one a battle
    battle = battle_start(gang_a=gang, gang_b=rival, started_by=gang.owner, chosen_a=[ganger.pk], dice=SeededDice(2))
    profile = battle.fighters.get(fighter=ganger).profile
    assert profile["chems"]["taken"] == ["'Slaught"] and "addicted" in profile["chems"]["side_effects"][0]
    assert Purchase.objects.filter(fighter=ganger, equipment=slaught).count() == 1
    (entry,) = gang.ledger.filter(kind=LedgerKind.EQUIPMENT, data__chem_taken=True)
    assert entry.fighter == ganger and entry.data["battle_session"] == battle.pk
    assert "one dose" in entry.reason and "addicted" in entry.data["side_effect"]
    (row,) = [r for r in fighter_rows(list(battle.fighters.all()), (), "n18") if r["fighter"].fighter_id == ganger.pk]
    assert row["chems"]["taken"] == ["'Slaught"]
