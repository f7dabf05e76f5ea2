"""Exactly once under load: 20 identical requests at the same moment change a gang once (PostgreSQL).

Each thread reads its rows before the barrier (as the view's ``get_object_or_404`` would), then all call the
service together; the services' row locks must queue them so each sees what the one before it did. After each
race the Stash, Reputation and experience still equal the ledger.
"""

import pytest

from content.models import Equipment, Skill
from core.testing import race_marks
from gangs import selectors, services
from gangs.ledger import ledger_totals
from gangs.models import Fighter, FighterStatus, LedgerEntry, LedgerKind, Purchase
from rulebook.dice import RandomDice

pytestmark = race_marks()


def assert_ledger_matches(gang):
    gang.refresh_from_db()
    totals = ledger_totals(gang)
    assert (gang.stash, gang.reputation) == (totals["stash"], totals["reputation"])
    for fighter in gang.fighters.all():
        assert fighter.experience == totals["experience"].get(fighter.pk, 0), fighter.name


def _bought(gang, fighter, slug):
    item = Equipment.objects.get(edition=gang.edition, slug=slug)
    return services.purchase_buy(gang=gang, equipment=item, fighter=fighter, actor=gang.owner)


@pytest.mark.parametrize("edition, slug", [("classic", "laspistol"), ("n18", "autopistol")])
def test_twenty_sells_of_one_item_pay_once(make_gang, make_fighter, at_once, edition, slug):
    gang = make_gang(edition=edition)
    purchase = _bought(gang, make_fighter(gang, "leader"), slug)
    outcomes = at_once(
        20,
        lambda p: services.purchase_sell(purchase=p, actor=gang.owner, dice=RandomDice()),
        load=lambda: Purchase.objects.select_related("gang", "equipment", "fighter").get(pk=purchase.pk),
    )
    assert outcomes == ["done"] + ["refused"] * 19
    assert LedgerEntry.objects.filter(gang=gang, kind=LedgerKind.SALE).count() == 1
    assert not Purchase.objects.filter(pk=purchase.pk).exists()
    assert_ledger_matches(gang)


def test_twenty_discards_of_one_item_discard_once(make_gang, make_fighter, at_once):
    gang = make_gang()
    purchase = _bought(gang, make_fighter(gang, "leader"), "sword")
    outcomes = at_once(
        20,
        lambda p: services.purchase_discard(purchase=p, actor=gang.owner),
        load=lambda: Purchase.objects.select_related("gang", "equipment", "fighter").get(pk=purchase.pk),
    )
    assert outcomes == ["done"] + ["refused"] * 19
    assert LedgerEntry.objects.filter(gang=gang, description__startswith="Discarded").count() == 1
    assert_ledger_matches(gang)


@pytest.mark.parametrize("edition", ["classic", "n18"])
def test_twenty_hires_of_the_leader_type_make_one_leader(make_gang, at_once, edition):
    gang = make_gang(edition=edition, extra_credits=20 * 150)
    leader_type = gang.house.fighter_types.get(category="leader")
    outcomes = at_once(
        20,
        lambda g: services.fighter_hire(
            gang=g, fighter_type=leader_type, name="Boss", actor=g.owner, dice=RandomDice()
        ),
        load=lambda: type(gang).objects.select_related("house").get(pk=gang.pk),
    )
    assert outcomes == ["done"] + ["refused"] * 19
    assert gang.fighters.filter(fighter_type=leader_type).count() == 1
    assert LedgerEntry.objects.filter(gang=gang, kind=LedgerKind.HIRE).count() == 1
    assert_ledger_matches(gang)


def test_twenty_advance_rolls_with_two_due_take_two(make_gang, make_fighter, at_once):
    gang = make_gang()
    ganger = make_fighter(gang, "ganger")  # 20+D6: 21 to 26
    services.experience_award(fighter=ganger, amount=41 - ganger.experience, actor=gang.owner, reason="Test")
    ganger.refresh_from_db()
    assert selectors.classic_advances_due(ganger, 0) == 2  # 31 and 41
    outcomes = at_once(
        20,
        lambda f: services.fighter_advance_classic(
            fighter=f, actor=gang.owner, dice=RandomDice(), skill_table="Combat"
        ),
        load=lambda: Fighter.objects.select_related("gang", "fighter_type").get(pk=ganger.pk),
    )
    assert outcomes == ["done"] * 2 + ["refused"] * 18
    assert ganger.advancements.count() == 2
    assert_ledger_matches(gang)


def test_twenty_n18_advances_spend_the_experience_once_each(make_gang, make_fighter, at_once):
    gang = make_gang(edition="n18")
    champion = make_fighter(gang, "champion")
    services.experience_award(fighter=champion, amount=9, actor=gang.owner, reason="Test")  # a Primary skill is 9
    skill = Skill.objects.get(edition="n18", table__name="Brawn", name="Bull Charge")
    outcomes = at_once(
        20,
        lambda f: services.fighter_advance_n18(fighter=f, actor=gang.owner, skill=skill),
        load=lambda: Fighter.objects.select_related("gang", "fighter_type").get(pk=champion.pk),
    )
    assert outcomes == ["done"] + ["refused"] * 19
    champion.refresh_from_db()
    assert champion.experience == 0 and champion.advancements.count() == 1
    assert_ledger_matches(gang)


def test_twenty_retirements_retire_once(make_gang, make_fighter, at_once):
    gang = make_gang()
    make_fighter(gang, "leader")
    ganger = make_fighter(gang, "ganger")
    _bought(gang, ganger, "sword")
    outcomes = at_once(
        20,
        lambda f: services.fighter_retire(fighter=f, actor=gang.owner),
        load=lambda: Fighter.objects.select_related("gang", "fighter_type").get(pk=ganger.pk),
    )
    assert outcomes == ["done"] + ["refused"] * 19
    ganger.refresh_from_db()
    assert ganger.status == FighterStatus.RETIRED
    assert LedgerEntry.objects.filter(fighter=ganger, kind=LedgerKind.STATUS).count() == 1
    assert gang.purchases.filter(fighter__isnull=True).count() == 1
    assert_ledger_matches(gang)
