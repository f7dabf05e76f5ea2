import pytest
from django.db import DatabaseError
from django.urls import reverse


@pytest.mark.django_db
def test_home_page_introduces_the_app(client, django_assert_max_num_queries):
    with django_assert_max_num_queries(2):
        response = client.get(reverse("home"))
    assert response.status_code == 200
    assert b"Underhive Ledger" in response.content
    assert b"htmx-2.0.11.min.js" in response.content


@pytest.mark.django_db
def test_header_shows_who_is_logged_in(client, make_user):
    user = make_user("scabber")
    client.force_login(user)
    response = client.get(reverse("home"))
    assert b"scabber" in response.content
    assert b"Log out" in response.content


@pytest.mark.django_db
def test_healthz_answers_when_the_database_does(client):
    response = client.get(reverse("healthz"))
    assert response.status_code == 200
    assert response.content == b"ok\n"


@pytest.mark.django_db
def test_healthz_is_503_when_the_database_fails(client, monkeypatch):
    from django.db import connection

    def broken_cursor(*args, **kwargs):
        raise DatabaseError("server closed the connection")

    monkeypatch.setattr(connection, "cursor", broken_cursor)
    response = client.get(reverse("healthz"))
    assert response.status_code == 503


@pytest.mark.django_db
def test_healthz_refuses_post(client):
    assert client.post(reverse("healthz")).status_code == 405
