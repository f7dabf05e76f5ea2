"""The roster the gang and print pages show: values, rating, Stash items, composition problems."""

import pytest

from content.models import Equipment
from gangs import services
from gangs.models import Gang
from gangs.selectors import gang_queryset, lazy_roster


def roster(gang):
    return lazy_roster(gang_queryset().get(pk=gang.pk))


@pytest.mark.django_db
def test_classic_rating_adds_cost_equipment_and_experience_and_leaves_out_the_retired(make_gang, make_fighter):
    gang = make_gang()
    leader, ganger, juve = make_fighter(gang, "leader"), make_fighter(gang, "ganger"), make_fighter(gang, "juve")
    lasgun = Equipment.objects.get(edition="classic", slug="lasgun")
    services.purchase_buy(gang=gang, equipment=lasgun, fighter=ganger, actor=gang.owner)
    for fighter in (leader, ganger, juve):
        fighter.refresh_from_db()
    values = {row.fighter.name: row.value for row in roster(gang).fighters}
    assert values == {
        leader.name: 120 + leader.experience,
        ganger.name: 50 + 25 + ganger.experience,
        juve.name: 25,
    }
    assert roster(gang).rating == sum(values.values())
    services.fighter_retire(fighter=juve, actor=gang.owner)
    assert roster(gang).rating == sum(values.values()) - 25


@pytest.mark.django_db
def test_n18_rating_adds_advancement_values_not_experience(make_gang, make_fighter):
    gang = make_gang(edition="n18")
    boss = make_fighter(gang, "champion")
    services.experience_award(fighter=boss, amount=10, actor=gang.owner, reason="Test")
    services.fighter_advance_n18(fighter=boss, actor=gang.owner, characteristic="BS")
    row = roster(gang).fighters[0]
    assert row.value == 100 + 20  # cost and the advance's value; the 4 XP left do not count


@pytest.mark.django_db
def test_stash_items_and_problems(make_gang, make_fighter):
    gang = make_gang()
    make_fighter(gang, "ganger")
    services.purchase_buy(gang=gang, equipment=Equipment.objects.get(slug="flak-armour"), actor=gang.owner)
    result = roster(gang)
    assert [p.equipment.slug for p in result.stash_items] == ["flak-armour"]
    assert result.problems == [
        "Orlock: a gang needs at least one Leader (it has 0)",
        "Orlock: a gang needs at least 3 fighters to play (it has 1)",
    ]
    assert isinstance(result.gang, Gang)
