"""``{% site_url %}`` and ``{% site_static %}`` (core.templatetags.site) give what ``{% url %}`` and ``{% static %}``
give, under any URLconf, script prefix and static files' settings."""

from django.http import HttpResponse
from django.template import Context, Template
from django.templatetags.static import static
from django.test import override_settings
from django.urls import path, reverse, set_script_prefix

urlpatterns = [path("elsewhere/", lambda request: HttpResponse(), name="home")]


def drawn(name: str) -> str:
    return Template("{% load site %}{% site_url '" + name + "' %}").render(Context())


def test_site_url_is_the_url_tags_answer():
    for name in ("home", "gangs:gang-list", "logout", "password_change"):
        assert drawn(name) == reverse(name)


def test_site_url_follows_the_script_prefix():
    home = drawn("home")
    set_script_prefix("/ledger/")
    try:
        assert drawn("home") == "/ledger" + home
    finally:
        set_script_prefix("/")
    assert drawn("home") == home


def test_site_url_follows_a_swapped_urlconf():
    with override_settings(ROOT_URLCONF=__name__):
        assert drawn("home") == "/elsewhere/"
    assert drawn("home") == reverse("home") != "/elsewhere/"


def static_drawn(path: str) -> str:
    return Template("{% load site %}{% site_static '" + path + "' %}").render(Context())


def test_site_static_is_the_static_tags_answer():
    for name in ("css/base.css", "favicon.svg"):
        assert static_drawn(name) == static(name)


def test_site_static_follows_the_static_files_settings():
    before = static_drawn("css/base.css")
    with override_settings(STATIC_URL="https://assets.example/ledger/"):
        assert static_drawn("css/base.css") == static("css/base.css")
        assert static_drawn("css/base.css").startswith("https://assets.example/ledger/")
    assert static_drawn("css/base.css") == before
