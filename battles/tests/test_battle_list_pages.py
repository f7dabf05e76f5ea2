"""The battles list's ended battles in pages (issue 28): the list does not grow with a player's battles."""

import copy

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from battles.models import BattleSession, BattleStatus
from battles.views import ENDED_PAGE_SIZE

pytestmark = pytest.mark.django_db


def _grow(battle, count: int) -> list[int]:
    """``count`` ended copies of ``battle`` between the same players, oldest first; their pks."""
    clones = []
    for _ in range(count):
        clone = copy.copy(battle)
        clone.pk = None
        clone._state.adding = True
        clone.status = BattleStatus.ENDED
        clones.append(clone)
    return [b.pk for b in BattleSession.objects.bulk_create(clones)]


def _report(pk: int) -> str:
    return reverse("battles:battle-report", args=[pk])


def test_the_list_reads_as_many_queries_at_one_page_as_at_many(client, make_battle, django_assert_num_queries):
    battle = make_battle(fighters=1)
    client.force_login(battle.player_a)
    url = reverse("battles:battle-list")
    _grow(battle, 2)
    client.get(url)  # warm the session
    with CaptureQueriesContext(connection) as one_page:
        assert client.get(url).status_code == 200
    _grow(battle, ENDED_PAGE_SIZE * 4)
    for page in ("1", "3", "5"):
        with django_assert_num_queries(len(one_page)):
            body = client.get(url, {"ended_page": page}).content.decode()
        assert 0 < body.count("/report") <= ENDED_PAGE_SIZE


def test_the_second_page_shows_the_older_ended_battles(client, make_battle):
    battle = make_battle(fighters=1)
    pks = _grow(battle, ENDED_PAGE_SIZE + 3)
    client.force_login(battle.player_a)
    url = reverse("battles:battle-list")
    newest = client.get(url).content.decode()
    assert _report(pks[-1]) in newest and _report(pks[0]) not in newest and "?ended_page=2" in newest
    assert reverse("battles:battle-detail", args=[battle.pk]) in newest  # the battle in progress stays on top
    older = client.get(url, {"ended_page": 2}).content.decode()
    assert _report(pks[0]) in older and _report(pks[-1]) not in older
    partial = client.get(url, {"ended_page": 2}, headers={"HX-Request": "true", "HX-Target": "ended-battles"})
    body = partial.content.decode()
    assert body.lstrip().startswith('<section id="ended-battles"') and _report(pks[0]) in body and "<html" not in body


@pytest.mark.parametrize("page", ["x", "0", "-2", "999999999999999999999", "²", "9" * 500])
def test_a_page_number_that_is_not_one_answers_with_the_nearest_page(client, make_battle, page):
    battle = make_battle(fighters=1)
    pks = _grow(battle, ENDED_PAGE_SIZE + 3)
    client.force_login(battle.player_a)
    response = client.get(reverse("battles:battle-list"), {"ended_page": page})
    assert response.status_code == 200
    assert (_report(pks[0]) in response.content.decode()) is (page == "999999999999999999999")
