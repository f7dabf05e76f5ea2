"""The public reference pages keep a flat query count, on houses and items made for the test (not the shipped
data, which ``test_content_pages.py`` loads once for its own tests)."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

pytestmark = pytest.mark.django_db

HOUSE_PAGE_QUERIES = 4  # the house, its fighter types, their skill access, their equipment lists
EQUIPMENT_PAGE_QUERIES = 4  # the item, its profiles, the edition's rule summaries, the lists that carry it


def test_house_page_query_count_stays_flat(client, make_house, django_assert_num_queries):
    small, big = make_house(fighters=2, items=3), make_house(fighters=7, items=40)
    for house in (small, big):
        with django_assert_num_queries(HOUSE_PAGE_QUERIES):
            client.get(reverse("content:house-detail", args=[house.edition, house.slug]))


def test_equipment_page_query_count_stays_flat(client, make_house, equipment_factory, django_assert_num_queries):
    make_house(fighters=7, items=2)
    lonely, carried = equipment_factory(profiles=1), equipment_factory(profiles=4)
    make_house(fighters=1, items=0)
    from content.models import FighterType, FighterTypeEquipment

    for fighter_type in FighterType.objects.all():
        FighterTypeEquipment.objects.create(fighter_type=fighter_type, equipment=carried, cost=5)
    for item in (lonely, carried):
        with django_assert_num_queries(EQUIPMENT_PAGE_QUERIES):
            client.get(reverse("content:equipment-detail", args=[item.edition, item.slug]))


def test_index_and_list_pages_query_counts_stay_flat(client, make_house):
    make_house(fighters=1, items=1)
    counts = [query_count(client, reverse(name, args=args)) for name, args in PAGES]
    make_house(fighters=5, items=30)
    make_house(fighters=5, items=30)
    assert [query_count(client, reverse(name, args=args)) for name, args in PAGES] == counts


PAGES = [
    ("content:index", []),
    ("content:equipment-list", ["classic"]),
    ("content:skill-list", ["classic"]),
    ("content:territory-list", ["classic"]),
]


def query_count(client, url) -> int:
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url).status_code == 200
    return len(queries)
