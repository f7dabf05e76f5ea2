"""A content reload shows on the next render of every cached roster (content.versioning, gangs.cache)."""

import pytest
from django.urls import reverse

from content.loader import load_content
from content.models import ContentVersion, Equipment, House
from gangs import services

pytestmark = pytest.mark.django_db


def test_a_reload_that_changes_a_profile_shows_on_the_cached_roster_and_sheet(
    client, cache_backend, make_user, write_data, small_data
):
    load_content(data_dir=write_data(small_data))
    owner = make_user()
    gang = services.gang_create(owner=owner, house=House.objects.get(edition="classic", slug="escher"), name="Dust")
    leader = services.fighter_hire(
        gang=gang, fighter_type=gang.house.fighter_types.get(category="leader"), name="Vey", actor=owner
    )
    services.purchase_buy(gang=gang, equipment=Equipment.objects.get(slug="laspistol"), fighter=leader, actor=owner)
    client.force_login(owner)
    pages = [reverse("gangs:gang-detail", args=[gang.pk]), reverse("gangs:gang-print", args=[gang.pk])]
    for page in pages:
        client.get(page)
        assert "<td>2+</td>" in client.get(page).content.decode()  # the ammo roll, from the cache
    before = ContentVersion.objects.get().number

    small_data["classic/armoury.json"]["weapons"][0]["profiles"][0]["ammo_roll"] = "4+"
    load_content(data_dir=write_data(small_data))

    assert ContentVersion.objects.get().number == before + 1  # once for the whole load
    for page in pages:
        body = client.get(page).content.decode()
        assert "<td>4+</td>" in body and "<td>2+</td>" not in body


def test_a_reload_that_changes_nothing_leaves_the_version(write_data, small_data):
    data_dir = write_data(small_data)
    load_content(data_dir=data_dir)
    before = ContentVersion.objects.get().number
    load_content(data_dir=data_dir)
    assert ContentVersion.objects.get().number == before


def test_an_admin_edit_moves_the_version(write_data, small_data):
    load_content(data_dir=write_data(small_data))
    before = ContentVersion.objects.get().number
    laspistol = Equipment.objects.get(slug="laspistol")
    laspistol.notes = "House rule: cheaper in this club"
    laspistol.save()
    assert ContentVersion.objects.get().number == before + 1
