"""Every content model has a working admin: list (with search and filters), add and change pages."""

import pytest
from django.urls import reverse

from content.loader import load_content
from content.models import (
    Equipment,
    FighterType,
    FighterTypeEquipment,
    House,
    Skill,
    SkillAccess,
    SkillTable,
    Territory,
    WeaponProfile,
)

pytestmark = pytest.mark.django_db
MODELS = [House, FighterType, Equipment, WeaponProfile, FighterTypeEquipment, SkillTable, Skill, SkillAccess, Territory]


@pytest.fixture
def admin_client_with_content(client, django_user_model, write_data, small_data):
    """A superuser, and a small data folder loaded so that every model has rows (two houses)."""
    small_data["classic/houses.json"]["houses"].append(
        {"slug": "goliath", "name": "Goliath", "skill_access": {"leader": ["agility"]}, "sources": ["T"]}
    )
    load_content(data_dir=write_data(small_data))
    # No password: hashing one would cost more than the test.
    client.force_login(django_user_model.objects.create(username="arbitrator", is_staff=True, is_superuser=True))
    return client


def admin_url(model, action, *args):
    return reverse(f"admin:content_{model._meta.model_name}_{action}", args=args)


@pytest.mark.parametrize("model", MODELS, ids=lambda m: m.__name__)
def test_changelist_search_and_filters_load(admin_client_with_content, model):
    client = admin_client_with_content
    assert client.get(admin_url(model, "changelist")).status_code == 200
    assert client.get(admin_url(model, "changelist"), {"q": "las"}).status_code == 200
    parent = next((f.name for f in model._meta.fields if f.name in {"equipment", "fighter_type"}), None)
    edition_filter = f"{parent}__edition" if parent else "edition"
    response = client.get(admin_url(model, "changelist"), {edition_filter: "classic"})
    assert response.status_code == 200  # an unknown filter would redirect with ?e=1
    assert response.context["cl"].result_count == model.objects.count()


@pytest.mark.parametrize("model", MODELS, ids=lambda m: m.__name__)
def test_add_and_change_pages_load(admin_client_with_content, model):
    client = admin_client_with_content
    assert client.get(admin_url(model, "add")).status_code == 200
    row = model.objects.order_by("pk").first()
    assert client.get(admin_url(model, "change", row.pk)).status_code == 200


def test_filter_by_house(admin_client_with_content):
    escher = House.objects.get(edition="classic", slug="escher")
    response = admin_client_with_content.get(admin_url(FighterType, "changelist"), {"house__id__exact": escher.pk})
    assert response.status_code == 200
    assert {str(row) for row in response.context["cl"].result_list} == {
        "Escher Leader (classic)",
        "Escher Juve (classic)",
    }
    response = admin_client_with_content.get(admin_url(Equipment, "changelist"), {"house": escher.pk})
    assert [item.slug for item in response.context["cl"].result_list] == ["laspistol"]  # not the rare needle pistol


def test_an_item_added_in_the_admin_is_a_house_rule(admin_client_with_content):
    response = admin_client_with_content.post(
        admin_url(Territory, "add"),
        {
            "edition": "classic",
            "slug": "glow-pit",
            "name": "Glow pit",
            "sources": "[]",
            "income": "D3x10",
            "is_active": "on",
        },
    )
    assert response.status_code == 302, response.content
    assert not Territory.objects.get(slug="glow-pit").is_official
