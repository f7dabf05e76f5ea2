"""Read-only links: who may make and revoke them, what an anonymous reader sees (and does not), not indexed."""

import html

import pytest
from django.urls import reverse

from campaigns import services as campaigns
from sharing.models import ShareLink

pytestmark = pytest.mark.django_db


@pytest.fixture
def club(two_player_campaign, make_territory):
    campaign, gangs = two_player_campaign["campaign"], two_player_campaign["gangs"]
    held = campaigns.territory_add(campaign=campaign, territory=make_territory(name="Sump Lake"))
    campaigns.territory_assign(held=held, holder=gangs["alice"], actor=campaign.created_by)
    return two_player_campaign


def _make(client, user, url):
    client.force_login(user)
    response = client.post(url, follow=True)
    assert response.status_code == 200
    client.logout()
    return ShareLink.objects.latest("pk")


def test_an_owner_shares_the_roster_and_cards_without_the_campaign(club, client):
    alice, gang = club["users"]["alice"], club["gangs"]["alice"]
    link = _make(client, alice, reverse("sharing:gang-links", args=[gang.pk]))
    url = reverse("sharing:shared", args=[link.token])
    roster = client.get(url)
    page = html.unescape(roster.content.decode())
    assert roster.status_code == 200 and roster["X-Robots-Tag"] == "noindex, nofollow, noarchive"
    assert '<meta name="robots" content="noindex, nofollow">' in page
    assert gang.name in page and gang.fighters.first().name in page
    assert "Sump Lake" not in page and "Dust Falls" not in page  # the campaign's parts stay private
    assert "Back to the gang" not in page
    cards = client.get(url + "?cards=1")
    assert cards.status_code == 200 and gang.fighters.first().name in html.unescape(cards.content.decode())


def test_an_arbitrator_shares_standings_and_log_but_not_the_rest(club, client):
    campaign = club["campaign"]
    link = _make(client, club["users"]["arbitrator"], reverse("sharing:campaign-links", args=[campaign.pk]))
    response = client.get(reverse("sharing:shared", args=[link.token]))
    page = html.unescape(response.content.decode())
    assert response.status_code == 200 and response["X-Robots-Tag"].startswith("noindex")
    assert page.count('data-testid="standing"') == 2 and "Sump Lake" in page and "Campaign log" in page
    assert campaign.invite_token not in page and "csrfmiddlewaretoken" not in page


def test_who_may_make_and_revoke_links(club, client, make_user):
    gang, campaign = club["gangs"]["alice"], club["campaign"]
    gang_url = reverse("sharing:gang-links", args=[gang.pk])
    campaign_url = reverse("sharing:campaign-links", args=[campaign.pk])
    assert client.get(gang_url).status_code == 302  # to the login
    client.force_login(club["users"]["bob"])
    assert client.post(gang_url).status_code == 403  # another player sees the gang but does not own it
    assert client.post(campaign_url).status_code == 403  # a player, not an arbitrator
    client.force_login(make_user("stranger"))
    assert client.get(campaign_url).status_code == 404
    link = _make(client, club["users"]["alice"], gang_url)
    revoke = reverse("sharing:link-revoke", args=[link.token])
    client.force_login(club["users"]["bob"])
    assert client.post(revoke).status_code == 403
    client.force_login(club["users"]["alice"])
    assert client.get(revoke).status_code == 405
    assert client.post(revoke).status_code == 302
    client.logout()
    assert client.get(reverse("sharing:shared", args=[link.token])).status_code == 404
    assert client.get(reverse("sharing:shared", args=["no-such-token"])).status_code == 404


def test_at_most_five_live_links(club, client):
    url = reverse("sharing:gang-links", args=[club["gangs"]["alice"].pk])
    client.force_login(club["users"]["alice"])
    for _ in range(6):
        response = client.post(url, follow=True)
    assert "At most 5 links at a time" in response.content.decode()
    assert ShareLink.objects.filter(revoked_at__isnull=True).count() == 5
