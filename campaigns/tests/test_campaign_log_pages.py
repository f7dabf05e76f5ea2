"""The campaign log in pages (issue 28): the campaign page's size and queries do not grow with its age."""

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from campaigns.views.campaigns import LOG_PAGE_SIZE
from gangs.models import LedgerEntry, LedgerKind


def _grow(campaign, count: int) -> None:
    """``count`` more log entries, oldest first, shared between the campaign's gangs: "Deed 0" is the oldest."""
    gangs = [m.gang for m in campaign.memberships.select_related("gang")]
    LedgerEntry.objects.bulk_create(
        LedgerEntry(gang=gangs[n % len(gangs)], kind=LedgerKind.OTHER, description=f"Deed {n} of the test")
        for n in range(count)
    )


@pytest.mark.django_db
def test_the_campaign_page_reads_as_many_queries_at_one_log_page_as_at_many(
    client, make_campaign, django_assert_num_queries
):
    campaign = make_campaign(gangs=2, started=True)
    client.force_login(campaign.arbitrators.first().user)
    url = reverse("campaigns:campaign-detail", args=[campaign.pk])
    _grow(campaign, 3)
    client.get(url)  # the session warmed
    cache.clear()  # each page drawn afresh (campaigns.cache): what its first reader pays
    with CaptureQueriesContext(connection) as one_page:
        assert client.get(url).status_code == 200
    _grow(campaign, LOG_PAGE_SIZE * 4)
    for page in ("1", "3", "5"):
        cache.clear()
        with django_assert_num_queries(len(one_page)):
            body = client.get(url, {"log_page": page}).content.decode()
        assert body.count("of the test") <= LOG_PAGE_SIZE


@pytest.mark.django_db
def test_the_second_log_page_shows_the_older_entries_and_keeps_the_filter(client, make_campaign):
    campaign = make_campaign(gangs=2, started=True)
    _grow(campaign, LOG_PAGE_SIZE * 2 + 10)  # each gang has LOG_PAGE_SIZE + 5: two pages when filtered by one
    client.force_login(campaign.arbitrators.first().user)
    url = reverse("campaigns:campaign-detail", args=[campaign.pk])
    newest = client.get(url).content.decode()
    assert f"Deed {LOG_PAGE_SIZE * 2 + 9} of the test" in newest and "Deed 0 of the test" not in newest
    assert "log_page=2" in newest and 'rel="prev"' not in newest
    older = client.get(url, {"log_page": 3}).content.decode()
    assert "Deed 0 of the test" in older and 'rel="next"' not in older and "log_page=2" in older
    first_gang = LedgerEntry.objects.get(description="Deed 0 of the test").gang_id
    htmx = {"HX-Request": "true", "HX-Target": "campaign-log"}
    partial = client.get(url, {"gang": first_gang, "log_page": 2}, headers=htmx).content.decode()
    assert partial.lstrip().startswith('<section id="campaign-log"') and "Deed 0 of the test" in partial
    assert "Deed 1 of the test" not in partial  # the other gang's: the filter holds on page 2
    assert 'hx-target="#campaign-log"' in partial and f"gang={first_gang}" in partial


@pytest.mark.django_db
@pytest.mark.parametrize("page", ["x", "0", "-1", "999999999999999999999", "²", "9" * 500])
def test_a_log_page_number_that_is_not_one_answers_with_the_nearest_page(client, make_campaign, page):
    campaign = make_campaign(gangs=2, started=True)
    _grow(campaign, LOG_PAGE_SIZE + 10)
    client.force_login(campaign.arbitrators.first().user)
    response = client.get(reverse("campaigns:campaign-detail", args=[campaign.pk]), {"log_page": page})
    assert response.status_code == 200
    assert ("Deed 0 of the test" in response.content.decode()) is (page == "999999999999999999999")
