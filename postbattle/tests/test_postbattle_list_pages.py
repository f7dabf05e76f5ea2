"""The post-battle list in pages (issue 28): its size and queries do not grow with a player's battles."""

from datetime import timedelta

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from campaigns.models import Battle
from postbattle.views import BATTLE_LIST_PAGE_SIZE

pytestmark = pytest.mark.django_db


def _grow(battle, count: int) -> None:
    """``count`` more confirmed battles between the same gangs, confirmed an hour apart: "Raid 0" the oldest."""
    now = timezone.now()
    Battle.objects.bulk_create(
        Battle(
            campaign=battle.campaign,
            origin=battle.origin,
            attacker=battle.attacker,
            defender=battle.defender,
            scenario_name=f"Raid {n} of the test",
            status="confirmed",
            confirmed_at=now - timedelta(hours=count - n),
        )
        for n in range(count)
    )


@pytest.mark.parametrize("viewer", ["player", "arbitrator"])
def test_the_list_reads_as_many_queries_at_one_page_as_at_many(
    client, make_confirmed_battle, django_assert_num_queries, viewer
):
    battle = make_confirmed_battle()
    client.force_login(battle.attacker.owner if viewer == "player" else battle.campaign.created_by)
    url = reverse("postbattle:battle-list")
    _grow(battle, 2)
    client.get(url)  # warm the session
    # Read from the database each time (the page's cache emptied, as for its first reader): bulk_create moves no
    # version, and the list's rows are what is counted.
    cache.clear()
    with CaptureQueriesContext(connection) as one_page:
        assert client.get(url).status_code == 200
    _grow(battle, BATTLE_LIST_PAGE_SIZE * 4)
    for page in ("1", "3", "5"):
        cache.clear()
        with django_assert_num_queries(len(one_page)):
            body = client.get(url, {"page": page}).content.decode()
        assert 0 < body.count('<article class="card">') <= BATTLE_LIST_PAGE_SIZE


def test_the_second_page_shows_the_older_battles(client, make_confirmed_battle):
    battle = make_confirmed_battle()
    _grow(battle, BATTLE_LIST_PAGE_SIZE + 5)
    client.force_login(battle.attacker.owner)
    url = reverse("postbattle:battle-list")
    newest = client.get(url).content.decode()
    assert f"Raid {BATTLE_LIST_PAGE_SIZE + 4} of the test" in newest and "Raid 0 of the test" not in newest
    assert "?page=2" in newest and 'rel="prev"' not in newest
    older = client.get(url, {"page": 2}).content.decode()
    assert "Raid 0 of the test" in older and f"Raid {BATTLE_LIST_PAGE_SIZE + 4} of the test" not in older
    partial = client.get(url, {"page": 2}, headers={"HX-Request": "true", "HX-Target": "battle-list"})
    body = partial.content.decode()
    assert body.lstrip().startswith('<div id="battle-list">') and "Raid 0 of the test" in body and "<html" not in body


@pytest.mark.parametrize("page", ["x", "0", "-2", "999999999999999999999", "²", "9" * 500])
def test_a_page_number_that_is_not_one_answers_with_the_nearest_page(client, make_confirmed_battle, page):
    battle = make_confirmed_battle()
    _grow(battle, BATTLE_LIST_PAGE_SIZE + 5)
    client.force_login(battle.attacker.owner)
    response = client.get(reverse("postbattle:battle-list"), {"page": page})
    assert response.status_code == 200
    assert ("Raid 0 of the test" in response.content.decode()) is (page == "999999999999999999999")
