"""The public reference pages on the shipped rules data: open to anyone, semantic tables (their query counts:
``test_content_page_queries.py``)."""

import html

import pytest
from django.urls import reverse

from content.models import House

pytestmark = pytest.mark.django_db


@pytest.fixture
def loaded_content(module_content, db):
    """Every file under rulebook/data, loaded once for this module (each test's changes are rolled back)."""
    return module_content


def test_index_lists_houses_by_edition(client, loaded_content):
    response = client.get(reverse("content:index"))
    assert response.status_code == 200
    page = response.content.decode()
    assert "Classic (1995)" in page and "2018+ rules" in page
    assert reverse("content:house-detail", args=["n18", "van-saar"]) in page
    assert reverse("content:house-detail", args=["classic", "cawdor"]) in page


def test_classic_house_page_shows_stat_lines_and_the_equipment_list(client, loaded_content):
    response = client.get(reverse("content:house-detail", args=["classic", "escher"]))
    assert response.status_code == 200
    page = response.content.decode()
    assert '<table class="statline">' in page
    assert '<th scope="col">Ld</th>' in page and '<th scope="col">Cl</th>' not in page
    assert "Starting XP 60+D6" in page
    assert reverse("content:equipment-detail", args=["classic", "lasgun"]) in page


def test_n18_house_page_prints_target_numbers_and_list_prices(client, loaded_content):
    response = client.get(reverse("content:house-detail", args=["n18", "escher"]))
    page = response.content.decode()
    assert '<th scope="col">Wil</th>' in page
    assert "<td>5+</td>" in page  # the Gang Queen's Leadership
    assert "Secondary: Cunning, Ferocity, Finesse" in page
    assert "Gang Queen" in page and "Little Sister" in page


def test_weapon_page_shows_every_profile(client, loaded_content):
    response = client.get(reverse("content:equipment-detail", args=["classic", "missile-launcher"]))
    page = response.content.decode()
    assert '<table class="profiles">' in page
    assert page.count('<tr class="profile-cells">') == 2  # frag and krak missiles
    assert "<i>Frag</i>" in page and "Move or fire</abbr>" in page  # classic special rules go with the profile
    lasgun = html.unescape(client.get(reverse("content:equipment-detail", args=["classic", "lasgun"])).content.decode())
    assert "<td>0-12</td><td>12-24</td>" in lasgun and "<td>2+</td>" in lasgun
    sword = client.get(reverse("content:equipment-detail", args=["n18", "sword"])).content.decode()
    assert "<td>-</td><td>E</td>" in sword  # a close combat weapon: E under long range


def test_n18_weapon_page_shows_traits_and_house_prices(client, loaded_content):
    page = client.get(reverse("content:equipment-detail", args=["n18", "lasgun"])).content.decode()
    assert "Plentiful" in page
    assert "Gang Queen: 5 credits" in page


@pytest.mark.parametrize("name", ["equipment-list", "skill-list", "territory-list"])
def test_edition_pages(client, loaded_content, name):
    response = client.get(reverse(f"content:{name}", args=["n18"]))
    assert response.status_code == 200


def test_territory_page_marks_the_home_settlement(client, loaded_content):
    page = client.get(reverse("content:territory-list", args=["n18"])).content.decode()
    assert "Home Settlement" in page and "D6x10" in page


@pytest.mark.parametrize(
    "url",
    [
        "/content/n23/equipment/",
        "/content/n23/houses/escher/",
        "/content/classic/houses/nobody/",
        "/content/classic/equipment/plasma-cannon/",
    ],
)
def test_unknown_pages_are_404(client, loaded_content, url):
    assert client.get(url).status_code == 404


def test_inactive_content_is_not_shown(client, loaded_content):
    House.objects.filter(edition="classic", slug="cawdor").update(is_active=False)
    assert client.get(reverse("content:house-detail", args=["classic", "cawdor"])).status_code == 404
    assert b"Cawdor" not in client.get(reverse("content:index")).content.split(b"2018+ rules")[0]
