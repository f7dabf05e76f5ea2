"""The deployment's security settings: CSP, HSTS from the environment, ``check --deploy`` clean."""

import re
import secrets
import subprocess
import sys
from pathlib import Path

import pytest
from django.urls import reverse

from necromunda_site.environment import email

ROOT = Path(__file__).resolve().parents[2]


def _production(extra: dict | None = None, code: str = "") -> subprocess.CompletedProcess:
    env = {
        "PATH": "/usr/bin:/bin",
        "DJANGO_SETTINGS_MODULE": "necromunda_site.settings",
        "DEBUG": "0",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "ALLOWED_HOSTS": "ledger.example.org",
        **(extra or {}),
    }
    command = [sys.executable, "-c", code] if code else [sys.executable, "manage.py", "check", "--deploy"]
    return subprocess.run(command, env=env, capture_output=True, text=True, cwd=ROOT)


def test_check_deploy_is_clean_with_production_settings():
    result = _production(
        {"SECURE_HSTS_SECONDS": "31536000", "SECURE_HSTS_INCLUDE_SUBDOMAINS": "1", "SECURE_HSTS_PRELOAD": "1"}
    )
    assert result.returncode == 0, result.stderr
    assert "System check identified no issues" in result.stdout


def test_check_deploy_with_the_defaults_names_only_the_hsts_choices_left_to_the_deployer():
    """Subdomains and preload are hard to undo, so they stay off until the deployer turns them on."""
    result = _production()
    warnings = set(re.findall(r"\(security\.(W\d+)\)", result.stdout + result.stderr))
    assert warnings == {"W005", "W021"}


def test_hsts_comes_from_the_environment():
    code = (
        "import django; django.setup(); from django.conf import settings as s; "
        "print(s.SECURE_HSTS_SECONDS, s.SECURE_HSTS_INCLUDE_SUBDOMAINS, s.SECURE_HSTS_PRELOAD)"
    )
    assert _production(code=code).stdout.split() == ["3600", "False", "False"]
    env = {"SECURE_HSTS_SECONDS": "63072000", "SECURE_HSTS_INCLUDE_SUBDOMAINS": "1", "SECURE_HSTS_PRELOAD": "yes"}
    assert _production(env, code=code).stdout.split() == ["63072000", "True", "True"]


@pytest.mark.django_db
def test_every_page_forbids_inline_script_and_other_origins(client):
    policy = client.get(reverse("home"))["Content-Security-Policy"]
    directives = dict(d.strip().split(" ", 1) for d in policy.split(";"))
    assert directives["default-src"] == "'self'"
    assert directives["script-src"] == "'self'"
    assert directives["style-src"] == "'self'"
    assert directives["frame-ancestors"] == "'none'"
    assert "unsafe" not in policy and "http" not in policy


def test_no_template_carries_inline_script_or_style():
    """What the policy would block in the browser: script without src, style elements and attributes, on* handlers."""
    offences = []
    for path in ROOT.glob("*/templates/**/*.html"):
        if ".venv" in path.parts:
            continue
        text = path.read_text()
        for pattern in (
            r"<script(?![^>]*\ssrc=)[^>]*>",
            r"<style",
            r"\sstyle=",
            r"\son[a-z]+=",
            r"hx-on",
            r"javascript:",
        ):
            offences += [f"{path.relative_to(ROOT)}: {m.group(0)}" for m in re.finditer(pattern, text)]
    assert offences == []


@pytest.mark.parametrize(
    ("environ", "expected"),
    [
        ({}, {"EMAIL_BACKEND": "django.core.mail.backends.console.EmailBackend"}),
        (
            {"EMAIL_URL": "submission://ledger%40example.org:p%40ss@mail.example.org"},
            {
                "EMAIL_HOST": "mail.example.org",
                "EMAIL_PORT": 587,
                "EMAIL_USE_TLS": True,
                "EMAIL_USE_SSL": False,
                "EMAIL_HOST_USER": "ledger@example.org",
                "EMAIL_HOST_PASSWORD": "p@ss",
            },
        ),
        ({"EMAIL_URL": "smtps://u:p@mail.example.org"}, {"EMAIL_PORT": 465, "EMAIL_USE_SSL": True}),
        ({"EMAIL_URL": "smtp://mail.example.org:2525?tls=1"}, {"EMAIL_PORT": 2525, "EMAIL_USE_TLS": True}),
        (
            {
                "EMAIL_HOST": "mail.example.org",
                "EMAIL_PORT": "587",
                "EMAIL_USE_TLS": "1",
                "DEFAULT_FROM_EMAIL": "a@b.c",
            },
            {
                "EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend",
                "EMAIL_PORT": 587,
                "EMAIL_USE_TLS": True,
                "DEFAULT_FROM_EMAIL": "a@b.c",
                "SERVER_EMAIL": "a@b.c",
            },
        ),
    ],
)
def test_email_settings_from_the_environment(environ, expected):
    settings = email(environ)
    assert {key: settings[key] for key in expected} == expected


@pytest.mark.parametrize("url", ["ftp://mail.example.org", "smtps://h?tls=1"])
def test_email_settings_that_cannot_work_are_refused_at_start(url):
    with pytest.raises(ValueError, match="EMAIL"):
        email({"EMAIL_URL": url})


def test_development_prints_the_reset_link_on_the_console():
    code = "import django; django.setup(); from django.conf import settings as s; print(s.EMAIL_BACKEND)"
    result = subprocess.run(
        [sys.executable, "-c", code],
        env={"PATH": "/usr/bin:/bin", "DJANGO_SETTINGS_MODULE": "necromunda_site.settings", "DEBUG": "1"},
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert result.stdout.strip() == "django.core.mail.backends.console.EmailBackend"
