from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command


def snapshot():
    """Every row of every model, so two runs can be compared whole."""
    from django.apps import apps

    rows = {}
    for model in apps.get_models():
        if model._meta.app_label in {"sessions", "admin", "contenttypes", "auth"} and model.__name__ != "User":
            continue
        values = model.objects.order_by("pk").values()
        rows[model._meta.label] = [
            {k: v for k, v in row.items() if k not in {"password", "last_login"}} for row in values
        ]
    return rows


@pytest.mark.django_db
def test_demo_is_idempotent(settings):
    settings.DEBUG = True
    call_command("demo", stdout=StringIO())
    first = snapshot()
    call_command("demo", stdout=StringIO())
    assert snapshot() == first
    user = get_user_model().objects.get(username="demo")
    assert user.check_password("demo")


@pytest.mark.django_db
def test_demo_refuses_without_debug_unless_forced(settings):
    settings.DEBUG = False
    with pytest.raises(CommandError, match="--force"):
        call_command("demo")
    call_command("demo", "--force", stdout=StringIO())
    assert get_user_model().objects.filter(username="demo").exists()
