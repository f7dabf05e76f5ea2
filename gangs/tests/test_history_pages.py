"""The gang's history in pages (issue 28): a page's size and its queries do not grow with the gang's age."""

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from gangs import services
from gangs.cache import bump_gang
from gangs.models import LedgerEntry, LedgerKind
from gangs.views import HISTORY_PAGE_SIZE

# A page number and whether the page shown is the last (oldest) one: past the end gives the last page; not a
# number (or one too long to be a page number) or below 1 gives the first.
BAD_PAGES = [
    ("x", False),
    ("0", False),
    ("-3", False),
    ("999999999999999999999", True),
    ("1.5", False),
    ("²", False),
    ("9" * 500, False),
]


def _grow(gang, count: int) -> None:
    """``count`` more entries, oldest first: "Entry 0" is the oldest (created first, smaller pk)."""
    LedgerEntry.objects.bulk_create(
        LedgerEntry(gang=gang, kind=LedgerKind.OTHER, description=f"Entry {n} of the test", actor=gang.owner)
        for n in range(count)
    )
    bump_gang(gang.pk)  # as every saved entry does (gangs.cache); bulk_create sends no signal


@pytest.mark.django_db
def test_a_history_page_reads_as_many_queries_at_one_page_as_at_many(client, make_gang, django_assert_num_queries):
    gang = make_gang()
    client.force_login(gang.owner)
    url = reverse("gangs:gang-history", args=[gang.pk])
    _grow(gang, 3)
    client.get(url)  # the session warmed
    cache.clear()  # each page drawn afresh, the gang's facts with it (gangs.selectors.roster_facts)
    with CaptureQueriesContext(connection) as one_page:
        assert client.get(url).status_code == 200
    _grow(gang, HISTORY_PAGE_SIZE * 5)
    for page in ("1", "3", "6"):
        cache.clear()
        with django_assert_num_queries(len(one_page)):
            body = client.get(url, {"page": page}).content.decode()
        assert body.count("<tr class=") <= HISTORY_PAGE_SIZE


@pytest.mark.django_db
def test_the_second_page_shows_the_older_entries(client, make_gang):
    gang = make_gang()
    _grow(gang, HISTORY_PAGE_SIZE + 10)
    client.force_login(gang.owner)
    url = reverse("gangs:gang-history", args=[gang.pk])
    newest = client.get(url).content.decode()
    # The gang's founding entries and the 10 oldest test entries are older than the newest page.
    assert f"Entry {HISTORY_PAGE_SIZE + 9} of the test" in newest and "Entry 0 of the test" not in newest
    assert 'rel="next"' in newest and 'rel="prev"' not in newest and "?page=2" in newest
    older = client.get(url, {"page": 2}).content.decode()
    assert "Entry 0 of the test" in older and f"Entry {HISTORY_PAGE_SIZE + 9} of the test" not in older
    assert 'rel="prev"' in older and 'rel="next"' not in older
    # With htmx only the history's own element comes back, with its pager.
    partial = client.get(url, {"page": 2}, headers={"HX-Request": "true", "HX-Target": "history"}).content.decode()
    assert partial.lstrip().startswith('<div id="history"') and "Entry 0 of the test" in partial
    assert "<html" not in partial and 'hx-target="#history"' in partial


@pytest.mark.django_db
@pytest.mark.parametrize(("page", "last"), BAD_PAGES)
def test_a_page_number_that_is_not_one_shows_the_nearest_page(client, make_gang, page, last):
    gang = make_gang()
    _grow(gang, HISTORY_PAGE_SIZE + 10)
    client.force_login(gang.owner)
    response = client.get(reverse("gangs:gang-history", args=[gang.pk]), {"page": page})
    assert response.status_code == 200
    body = response.content.decode()
    assert ("Entry 0 of the test" in body) is last


@pytest.mark.django_db
def test_an_undo_on_an_older_page_comes_back_to_that_page(client, make_gang, make_fighter):
    gang = make_gang()
    fighter = make_fighter(gang, "ganger")
    client.force_login(gang.owner)
    services.experience_award(fighter=fighter, amount=2, actor=gang.owner, reason="Old deed")
    entry = LedgerEntry.objects.filter(gang=gang, kind=LedgerKind.EXPERIENCE).latest("pk")
    entry.data = {**entry.data, "record": "test-token"}
    entry.save(update_fields=["data"])
    _grow(gang, HISTORY_PAGE_SIZE)
    url = reverse("gangs:gang-history", args=[gang.pk])
    older = client.get(url, {"page": 2}).content.decode()
    assert f'data-testid="undo-{entry.pk}"' in older and 'name="page" value="2"' in older
    response = client.post(reverse("gangs:entry-undo", args=[gang.pk, entry.pk]), {"page": "2"})
    assert response.status_code == 302 and response.url == f"{url}?page=2"
    assert LedgerEntry.objects.filter(reverses=entry).exists()


@pytest.mark.django_db
def test_a_warm_history_page_reads_no_more_queries_however_long_the_ledger(client, make_gang):
    """Issue 28: a page read again is drawn from the cache, its queries flat in the ledger's length."""
    gang = make_gang()
    client.force_login(gang.owner)
    url = reverse("gangs:gang-history", args=[gang.pk])
    warm = []
    for count in (3, HISTORY_PAGE_SIZE * 5):
        _grow(gang, count)
        client.get(url)
        with CaptureQueriesContext(connection) as queries:
            body = client.get(url).content.decode()
        assert f"Entry {count - 1} of the test" in body
        warm.append(len(queries))
    assert warm[0] == warm[1] <= 3, warm  # the session, its user, the gang


@pytest.mark.django_db
def test_a_new_entry_shows_on_the_next_view_of_a_cached_page(client, make_gang):
    from gangs.ledger import ledger_record

    gang = make_gang()
    client.force_login(gang.owner)
    url = reverse("gangs:gang-history", args=[gang.pk])
    assert "Found a cache of scrap" not in client.get(url).content.decode()
    ledger_record(gang=gang, kind=LedgerKind.CREDITS, credits=7, description="Found a cache of scrap")
    assert "Found a cache of scrap" in client.get(url).content.decode()
