from pathlib import Path

from necromunda_site.environment import database, flag, listing, read_dotenv


def test_without_database_url_an_sqlite_file_in_the_project():
    config = database({}, Path("/srv/ledger"))
    assert config["ENGINE"] == "django.db.backends.sqlite3"
    assert config["NAME"] == "/srv/ledger/db.sqlite3"
    # Each transaction takes the write lock as it begins: two requests that read then write queue, not fail.
    assert config["OPTIONS"] == {"timeout": 20, "transaction_mode": "IMMEDIATE"}


def test_database_url_selects_postgresql():
    config = database({"DATABASE_URL": "postgres://ledger:secret@db.internal:5433/underhive"}, Path("/srv"))
    assert config["ENGINE"] == "django.db.backends.postgresql"
    assert (config["HOST"], config["PORT"], config["NAME"], config["USER"]) == (
        "db.internal",
        5433,
        "underhive",
        "ledger",
    )
    assert config["CONN_MAX_AGE"] == 60 and config["CONN_HEALTH_CHECKS"] is True


def test_flags_and_lists():
    assert flag({"DEBUG": "1"}, "DEBUG") is True
    assert flag({"DEBUG": "off"}, "DEBUG") is False
    assert flag({}, "DEBUG") is False
    assert listing({"ALLOWED_HOSTS": "a.example, b.example"}, "ALLOWED_HOSTS", []) == ["a.example", "b.example"]
    assert listing({}, "ALLOWED_HOSTS", ["localhost"]) == ["localhost"]


def test_the_running_suite_uses_the_database_the_environment_names(settings):
    import os

    engine = settings.DATABASES["default"]["ENGINE"]
    expected = "postgresql" if os.environ.get("DATABASE_URL") else "sqlite3"
    assert engine.endswith(expected)


def test_settings_refuse_to_start_without_a_secret_key_when_debug_is_off():
    import subprocess
    import sys

    # DEBUG=0 in the real environment outranks a developer's .env with DEBUG=1.
    env = {"PATH": "/usr/bin:/bin", "DJANGO_SETTINGS_MODULE": "necromunda_site.settings", "DEBUG": "0"}
    result = subprocess.run(
        [sys.executable, "-c", "import django; django.setup()"],
        env=env,
        capture_output=True,
        text=True,
        cwd=Path(__file__).resolve().parents[2],
    )
    assert result.returncode != 0
    assert "Set SECRET_KEY" in result.stderr


def test_dotenv_lines_are_read_and_the_environment_wins(tmp_path):
    dotenv = tmp_path / ".env"
    dotenv.write_text("# local settings\nDEBUG=1\nexport SECRET_KEY='abc'\n\nnot a setting\n")
    assert read_dotenv(dotenv) == {"DEBUG": "1", "SECRET_KEY": "abc"}
    assert read_dotenv(tmp_path / "missing") == {}
    merged = {**read_dotenv(dotenv), **{"DEBUG": "0"}}
    assert flag(merged, "DEBUG") is False
