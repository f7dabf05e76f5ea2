"""The fighter page's query budget: flat in the fighter's items, advancements and injuries, for every kind of
fighter (a Ganger's page reads its Specialist's skill access too), and at most 15."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from content.models import Equipment, Skill
from gangs import services
from gangs.services.advancement import advancement_record

pytestmark = pytest.mark.django_db

FIGHTER_PAGE_BUDGET = 15


def _grow(fighter, size):
    """``size`` more items, characteristic advances, skills and Lasting Injuries on the fighter."""
    knife = Equipment.objects.get(edition="n18", slug="fighting-knife")
    skills = list(Skill.objects.filter(edition="n18").order_by("pk"))
    for n in range(size):
        services.purchase_buy(gang=fighter.gang, equipment=knife, fighter=fighter, actor=fighter.gang.owner)
        advancement_record(
            fighter=fighter,
            kind="characteristic",
            description=f"+1 Cool ({n})",
            actor=None,
            reason="Test",
            stat="Cl",
            delta=1,
        )
        advancement_record(
            fighter=fighter, kind="skill", description=skills[n].name, actor=None, reason="Test", skill=skills[n]
        )
        services.injury_record(
            fighter=fighter,
            code=f"scar-{n}",
            name=f"Scar {n}",
            stat_deltas={"Ld": -1},
            actor=fighter.gang.owner,
            reason="Test",
        )


def _queries(client, fighter) -> int:
    target = reverse("gangs:fighter-detail", args=[fighter.gang_id, fighter.pk])
    client.get(target)  # warm the session
    with CaptureQueriesContext(connection) as queries:
        response = client.get(target)
    assert response.status_code == 200
    return len(queries)


@pytest.mark.parametrize("kind", ["leader", "ganger", "juve"])
@pytest.mark.parametrize("viewer", ["owner", "other"])
def test_fighter_page_is_flat_in_items_advancements_and_injuries(
    client, make_user, make_gang, make_fighter, kind, viewer
):
    counts = []
    for size in (1, 6):  # from 1: with no item the weapon profiles are not read at all
        gang = make_gang(edition="n18", extra_credits=5000)
        fighter = make_fighter(gang, kind)
        _grow(fighter, size)
        client.force_login(gang.owner if viewer == "owner" else make_user())
        counts.append(_queries(client, fighter))
    assert counts[0] == counts[1] <= FIGHTER_PAGE_BUDGET, counts


@pytest.mark.parametrize("page", ["gangs:gang-detail", "gangs:gang-print"])
def test_gang_and_print_pages_are_flat_in_items_advancements_and_injuries(client, make_gang, make_fighter, page):
    counts = []
    for size in (1, 6):
        gang = make_gang(edition="n18", extra_credits=5000)
        for kind in ("leader", "champion", "ganger"):
            _grow(make_fighter(gang, kind), size)
        client.force_login(gang.owner)
        target = reverse(page, args=[gang.pk])
        client.get(target)  # warm the session
        with CaptureQueriesContext(connection) as queries:
            assert client.get(target).status_code == 200
        counts.append(len(queries))
    assert counts[0] == counts[1], counts


# The login (session, user) and the gang: the owner's forms come drawn with the rest of the fighter part
# (gangs.views._fighter_page), never built on a warm page.
FIGHTER_PAGE_WARM = {"owner": 3, "other": 3}


@pytest.mark.parametrize("viewer", ["owner", "other"])
def test_a_warm_fighter_page_is_flat_and_small(client, cache_backend, make_user, make_gang, make_fighter, viewer):
    """From the cache (gangs.selectors.fighter_page): the fighter, its kit, advancements and history are read once
    per version of the gang, and the fighter part with the owner's forms drawn once per version and viewer's role;
    what is left is the login's and the gang's."""
    counts = []
    for size in (1, 6):
        gang = make_gang(edition="n18", extra_credits=5000)
        fighter = make_fighter(gang, "champion")
        _grow(fighter, size)
        client.force_login(gang.owner if viewer == "owner" else make_user())
        counts.append(_queries(client, fighter))
    assert counts[0] == counts[1] == FIGHTER_PAGE_WARM[viewer], counts


def test_each_change_to_the_fighter_shows_on_the_next_render(client, cache_backend, make_user, make_gang, make_fighter):
    """Experience, an item bought, a fighter hired (where an item may be handed) and a Lasting Injury each show at
    once; a stranger served the same cached fighter gets no edit controls."""
    gang = make_gang(edition="n18", extra_credits=5000)
    fighter = make_fighter(gang, "champion", name="Vex Thorn")
    services.purchase_buy(
        gang=gang,
        equipment=Equipment.objects.get(edition="n18", slug="fighting-knife"),
        fighter=fighter,
        actor=gang.owner,
    )
    target = reverse("gangs:fighter-detail", args=[gang.pk, fighter.pk])
    client.force_login(gang.owner)
    client.get(target)
    assert "Late Arrival" not in client.get(target).content.decode()
    services.fighter_hire(
        gang=gang, fighter_type=gang.house.fighter_types.get(category="juve"), name="Late Arrival", actor=gang.owner
    )
    assert "Late Arrival" in client.get(target).content.decode()  # in the knife's move list
    services.experience_award(fighter=fighter, amount=9, actor=gang.owner, reason="Test")
    assert "9 XP" in client.get(target).content.decode()
    services.injury_record(
        fighter=fighter, code="eye", name="Eye Injury", stat_deltas={"BS": -1}, actor=gang.owner, reason="Test"
    )
    assert "Eye Injury" in client.get(target).content.decode()
    client.force_login(make_user())
    stranger = client.get(target).content.decode()
    assert "Eye Injury" in stranger and "Late Arrival" not in stranger
