"""Issue 26 #11: uploads stop being read past the limit and never reach the disk first."""

import pytest
from django.conf import settings
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from gangs import exchange


@pytest.fixture
def no_disk(monkeypatch):
    """Fail the test if Django starts a temporary file for an upload."""

    def refuse(*args, **kwargs):
        raise AssertionError("an upload was written to a temporary file")

    monkeypatch.setattr("django.core.files.uploadhandler.TemporaryUploadedFile", refuse)


def test_the_limit_is_the_gang_imports():
    assert settings.UPLOAD_MOST_BYTES == exchange.MAX_FILE_BYTES


@pytest.mark.django_db
def test_a_large_upload_is_refused_before_its_body_is_read(client, make_user, no_disk):
    client.force_login(make_user())
    upload = SimpleUploadedFile("gang.json", b" " * (3 * 1024 * 1024), content_type="application/json")
    response = client.post(reverse("gangs:gang-import"), {"file": upload})
    assert response.status_code == 413
    assert "larger than 1 MiB; a file sent here is at most 1 MiB" in response.content.decode()


@pytest.mark.django_db
def test_an_upload_just_past_the_limit_stops_at_the_limit_and_the_form_says_why(client, make_user, no_disk):
    user = make_user()
    client.force_login(user)
    upload = SimpleUploadedFile("gang.json", b" " * (settings.UPLOAD_MOST_BYTES + 1), content_type="application/json")
    response = client.post(reverse("gangs:gang-import"), {"file": upload})
    assert response.status_code == 200
    assert "larger than 1 MiB; a file sent here is at most 1 MiB" in response.content.decode()
    assert not user.gangs.exists()


@pytest.mark.django_db
def test_an_upload_within_the_limit_is_read(client, make_user, no_disk):
    client.force_login(make_user())
    upload = SimpleUploadedFile("gang.json", b"{not json", content_type="application/json")
    response = client.post(reverse("gangs:gang-import"), {"file": upload})
    assert response.status_code == 200
    assert "larger than" not in response.content.decode()
    assert "JSON" in response.content.decode()
