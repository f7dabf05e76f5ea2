"""Kit that changes a characteristic (issue 25): a bionic gives back what the Lasting Injury it repairs took, and the
roster shows both; chems a fighter carries change the stat line the battle assistant reads."""

import pytest
from django.core.exceptions import ValidationError

from battles.roster import snapshot
from content.models import Equipment, EquipmentCategory, EquipmentKind
from gangs.services import injury_record, purchase_buy
from gangs.services.equipment import purchase_sell
from gangs.stats import current_stats, stat_line

pytestmark = pytest.mark.django_db


def item(slug: str, name: str, category: str, cost: int = 45, rarity: str = "R13") -> Equipment:
    return Equipment.objects.create(
        edition="n18",
        slug=slug,
        name=name,
        kind=EquipmentKind.WARGEAR,
        category=category,
        cost=cost,
        rarity=rarity,
        sources=["V2"],
        is_official=True,
    )


@pytest.fixture
def ganger(make_gang, make_fighter):
    gang = make_gang(edition="n18", extra_credits=500)
    return make_fighter(gang, "ganger")


def injure(fighter, code: str, name: str, **deltas):
    return injury_record(
        fighter=fighter, code=code, name=name, actor=fighter.gang.owner, reason="test", stat_deltas=deltas
    )


def buy(fighter, equipment, **options):
    return purchase_buy(
        gang=fighter.gang,
        equipment=equipment,
        actor=fighter.gang.owner,
        fighter=fighter,
        override_reason="Trade roll made",
        **options,
    )


def test_a_bionic_eye_gives_back_the_ballistic_skill_an_eye_injury_took(ganger):
    before = current_stats(ganger)["BS"]
    injure(ganger, "eye-injury", "Eye Injury", BS=1)
    assert current_stats(ganger)["BS"] == before + 1
    buy(ganger, item("bionic-eye", "Bionic eye", EquipmentCategory.BIONIC))
    assert current_stats(ganger)["BS"] == before
    bought = ganger.gang.ledger.get(kind="purchase")
    assert bought.data["bionic"] == {"injury": "eye-injury", "restores": {"BS": -1}}
    (bs,) = [value for value in stat_line(ganger) if value.code == "BS"]
    # The roster keeps both: the injury's loss and the bionic's repair.
    assert [note.rpartition("(")[2] for note in bs.changes] == ["Lasting Injury)", "Bionic)"]


def test_a_bionic_needs_an_unrepaired_injury_it_fits(ganger):
    eye = item("bionic-eye", "Bionic eye", EquipmentCategory.BIONIC)
    with pytest.raises(ValidationError, match="no unrepaired Lasting Injury"):
        buy(ganger, eye)
    injure(ganger, "eye-injury", "Eye Injury", BS=1)
    buy(ganger, eye)
    with pytest.raises(ValidationError, match="no unrepaired Lasting Injury"):
        buy(ganger, eye)
    with pytest.raises(ValidationError, match="fitted to a fighter"):
        purchase_buy(gang=ganger.gang, equipment=eye, actor=ganger.gang.owner, override_reason="Trade")


def test_a_mundane_lobo_chip_restores_the_characteristic_chosen_and_an_improved_one_both(ganger, make_fighter):
    base = current_stats(ganger)
    injure(ganger, "humiliated", "Humiliated", Ld=1, Cl=1)
    buy(
        ganger,
        item("lobo-chip-mundane", "Lobo chip (mundane)", EquipmentCategory.BIONIC, 20, "R11"),
        bionic_choice="Cl",
    )
    assert (current_stats(ganger)["Ld"], current_stats(ganger)["Cl"]) == (base["Ld"] + 1, base["Cl"])
    other = make_fighter(ganger.gang, "ganger")
    injure(other, "humiliated", "Humiliated", Ld=1, Cl=1)
    buy(other, item("lobo-chip-improved", "Lobo chip (improved)", EquipmentCategory.BIONIC, 45, "R12"))
    assert (current_stats(other)["Ld"], current_stats(other)["Cl"]) == (base["Ld"], base["Cl"])


def test_a_mundane_bionic_refuses_a_characteristic_the_injury_did_not_lower(ganger):
    injure(ganger, "humiliated", "Humiliated", Ld=1, Cl=1)
    chip = item("lobo-chip-mundane", "Lobo chip (mundane)", EquipmentCategory.BIONIC, 20, "R11")
    with pytest.raises(ValidationError, match="must be one of Ld, Cl"):
        buy(ganger, chip, bionic_choice="WS")
    assert ganger.purchases.count() == 0 and not ganger.gang.ledger.filter(kind="purchase").exists()


def test_a_fitted_bionic_is_not_sold(ganger):
    injure(ganger, "hobbled", "Hobbled", M=-1)
    leg = buy(ganger, item("bionic-leg", "Bionic leg", EquipmentCategory.BIONIC, 25, "R12"))
    with pytest.raises(ValidationError, match="stays with them"):
        purchase_sell(purchase=leg, actor=ganger.gang.owner)


def test_a_fighter_carrying_slaught_fights_under_it_in_the_assistant(ganger):
    before = current_stats(ganger)
    buy(ganger, item("slaught", "'Slaught", EquipmentCategory.CHEM, 30, "R10"))
    seen = snapshot(ganger)
    assert seen["stats"]["WS"] == min(before["WS"], 2) and seen["stats"]["I"] == min(before["I"], 2)
    assert seen["stats"]["A"] == before["A"] + 1
    assert seen["chems"]["taken"] == ["'Slaught"]
    assert current_stats(ganger) == before  # the roster itself is unchanged


def test_frenzon_gives_its_skills_for_the_battle(ganger):
    buy(ganger, item("frenzon", "Frenzon", EquipmentCategory.CHEM, 20, "R9"))
    seen = snapshot(ganger)
    assert {"Nerves of Steel", "True Grit", "Unstoppable", "Berserker"} <= set(seen["skills"])
    assert seen["chems"]["notes"]


def test_the_buy_form_shows_availability_and_how_rare_items_are_bought(ganger):
    from gangs.forms import BuyForm
    from rulebook.n18.kit import availability

    item("web-solvent", "Web solvent", EquipmentCategory.PERSONAL, 25, "R8")
    form = BuyForm(gang=ganger.gang)
    labels = [label for _, group in form.fields["equipment"].choices for _, label in group]
    assert "Flak armour — 10 credits (Trading Post)" in labels
    assert not any("Web solvent" in label for label in labels)  # Rare (8): only through a Trade action
    assert "Rare (X) and Illegal (X)" in form.fields["equipment"].help_text
    # The arbitrator sees it, with its availability, to buy by override once the Trade roll allows it; an item
    # without a price (the Caryatid, never bought) is not offered.
    caryatid = item("caryatid", "Caryatid", EquipmentCategory.EXOTIC_BEAST, 0, "R15")
    Equipment.objects.filter(pk=caryatid.pk).update(cost=None)
    form = BuyForm(gang=ganger.gang, can_override=True)
    labels = [label for _, group in form.fields["equipment"].choices for _, label in group]
    assert "Web solvent — 25 credits (Trading Post, Rare (8): by override after a Trade roll)" in labels
    assert not any("Caryatid" in label for label in labels)
    assert (availability("R9"), availability("I10"), availability("Common")) == ("Rare (9)", "Illegal (10)", "Common")


def test_a_rare_item_is_bought_only_with_an_override(ganger):
    solvent = item("web-solvent", "Web solvent", EquipmentCategory.PERSONAL, 25, "R8")
    with pytest.raises(ValidationError, match="the Trading Post does not sell it now"):
        purchase_buy(gang=ganger.gang, equipment=solvent, actor=ganger.gang.owner, fighter=ganger)
    assert buy(ganger, solvent).price == 25
