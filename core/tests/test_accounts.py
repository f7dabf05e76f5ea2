import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from conftest import PASSWORD


@pytest.mark.django_db
def test_sign_up_creates_the_account_and_logs_in(client):
    response = client.post(
        reverse("signup"),
        {"username": "kal", "email": "kal@example.com", "password1": PASSWORD, "password2": PASSWORD},
        follow=True,
    )
    assert response.status_code == 200
    assert response.context["user"].username == "kal"
    assert b"Welcome to the underhive, kal." in response.content


@pytest.mark.django_db
def test_sign_up_with_mismatched_passwords_creates_nothing(client):
    response = client.post(
        reverse("signup"), {"username": "kal", "email": "", "password1": PASSWORD, "password2": "other-pass-99"}
    )
    assert response.status_code == 200
    assert response.context["form"].errors["password2"]
    assert not get_user_model().objects.filter(username="kal").exists()


@pytest.mark.django_db
def test_log_in_and_log_out(client, make_user):
    make_user("jak")
    response = client.post(reverse("login"), {"username": "jak", "password": PASSWORD}, follow=True)
    assert response.context["user"].is_authenticated
    response = client.post(reverse("logout"), follow=True)
    assert not response.context["user"].is_authenticated


@pytest.mark.django_db
def test_password_change_needs_login_and_the_old_password(client, make_user):
    user = make_user("jak")
    assert client.get(reverse("password_change")).status_code == 302
    client.force_login(user)
    response = client.post(
        reverse("password_change"),
        {"old_password": "wrong", "new_password1": "Fresh-pass-22", "new_password2": "Fresh-pass-22"},
    )
    assert response.status_code == 200 and response.context["form"].errors
    response = client.post(
        reverse("password_change"),
        {"old_password": PASSWORD, "new_password1": "Fresh-pass-22", "new_password2": "Fresh-pass-22"},
    )
    assert response.status_code == 302
    user.refresh_from_db()
    assert user.check_password("Fresh-pass-22")
