"""Issue 26 #9: a cache or worker outage is not an outage. With the cache server down every page answers from
the database, and ``/healthz`` reports the database, the cache and the worker separately."""

import logging

import pytest
from django.urls import reverse

from necromunda_site.environment import cache

# Nothing listens on port 1: a connection is refused at once, as when the cache server is stopped.
DOWN = {"redis": "redis://127.0.0.1:1/0", "memcached": "memcached://127.0.0.1:1"}


@pytest.fixture(params=sorted(DOWN))
def cache_down(request, settings, monkeypatch):
    from core.caching import _Guarded

    monkeypatch.setattr(_Guarded, "_last_logged", 0.0)  # each test sees the outage logged once
    settings.CACHES = {"default": cache({"CACHE_URL": DOWN[request.param]})}
    return request.param


@pytest.fixture
def roster(make_gang, make_fighter):
    gang = make_gang()
    make_fighter(gang, "leader", name="Kal")
    return gang, make_fighter(gang, "ganger", name="Vex")


@pytest.mark.django_db
def test_every_roster_page_answers_with_the_cache_down(client, cache_down, roster, caplog):
    gang, vex = roster
    client.force_login(gang.owner)
    pages = [
        reverse("gangs:gang-detail", args=[gang.pk]),
        reverse("gangs:gang-print", args=[gang.pk]),
        reverse("gangs:gang-print", args=[gang.pk]) + "?cards=1",
        reverse("gangs:fighter-detail", args=[gang.pk, vex.pk]),
        reverse("gangs:gang-history", args=[gang.pk]),
    ]
    with caplog.at_level(logging.WARNING, logger="core.caching"):
        for url in pages:
            response = client.get(url)
            assert response.status_code == 200, url
            assert b"Vex" in response.content, url
    assert any("Cache unreachable" in record.message for record in caplog.records)
    # Changes still go through and show on the next render.
    client.post(reverse("gangs:fighter-rename", args=[gang.pk, vex.pk]), {"name": "Vexa"})
    ganger = gang.house.fighter_types.get(category="ganger")
    hired = client.post(reverse("gangs:fighter-hire", args=[gang.pk]), {"fighter_type": ganger.pk, "name": "Rook"})
    assert hired.status_code == 302
    page = client.get(pages[0]).content
    assert b"Vexa" in page and b"Rook" in page


@pytest.mark.django_db
def test_healthz_reports_the_cache_apart_from_the_database(client, cache_down):
    response = client.get(reverse("healthz"))
    assert response.status_code == 200
    lines = response.content.decode().splitlines()
    assert lines[0] == "database: ok"
    assert lines[1].startswith("cache: ") and lines[1] != "cache: ok"
    assert lines[2] == "worker: ok"


def late_worker():
    return "3 tasks waiting longer than 5 minutes"


@pytest.mark.django_db
def test_healthz_reports_a_worker_that_does_not_keep_up(client, settings):
    settings.HEALTH_WORKER_CHECK = "core.tests.test_outage.late_worker"
    response = client.get(reverse("healthz"))
    assert response.status_code == 200
    assert response.content.decode().splitlines() == [
        "database: ok",
        "cache: ok",
        "worker: 3 tasks waiting longer than 5 minutes",
    ]
