"""Reading settings from the environment, kept apart from settings.py so tests can call it."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from urllib.parse import parse_qs, unquote, urlsplit

import dj_database_url

TRUE = {"1", "true", "yes", "on"}


def read_dotenv(path: Path) -> dict[str, str]:
    """``KEY=value`` lines of a ``.env`` file (comments and blank lines skipped, quotes stripped).

    A development checkout keeps its settings there (``make`` writes ``DEBUG=1`` on first use);
    the real environment always wins over the file.
    """
    if not path.is_file():
        return {}
    values = {}
    for line in path.read_text().splitlines():
        line = line.strip()
        if not line or line.startswith("#") or "=" not in line:
            continue
        key, _, value = line.partition("=")
        values[key.strip().removeprefix("export ").strip()] = value.strip().strip("'\"")
    return values


def flag(environ: Mapping[str, str], name: str, default: bool = False) -> bool:
    value = environ.get(name)
    return default if value is None else value.strip().lower() in TRUE


def listing(environ: Mapping[str, str], name: str, default: list[str]) -> list[str]:
    value = environ.get(name)
    if value is None:
        return default
    return [item.strip() for item in value.split(",") if item.strip()]


def database(environ: Mapping[str, str], base_dir: Path) -> dict:
    """``DATABASE_URL`` (PostgreSQL through psycopg 3) or, without it, an SQLite file in the project.

    Connections to PostgreSQL are kept for a minute and health-checked, which is what several
    app servers sharing one database want; SQLite waits for a lock instead of failing at once (each transaction
    takes the write lock as it begins).
    """
    url = environ.get("DATABASE_URL", "").strip()
    if url:
        config = dj_database_url.parse(url, conn_max_age=60, conn_health_checks=True)
    else:
        config = {"ENGINE": "django.db.backends.sqlite3", "NAME": str(base_dir / "db.sqlite3")}
    if config["ENGINE"] == "django.db.backends.sqlite3":
        # IMMEDIATE: a transaction takes the write lock when it begins, so two requests that read then write (a
        # double tap) queue for it (up to the timeout) instead of one failing with "database is locked".
        config.setdefault("OPTIONS", {}).update(timeout=20, transaction_mode="IMMEDIATE")
    return config


# Django's backends with a guard: a cache server that does not answer is a miss, logged, never a 500 (core.caching).
CACHE_BACKENDS = {
    "redis": "core.caching.GuardedRedisCache",
    "rediss": "core.caching.GuardedRedisCache",
    "memcached": "core.caching.GuardedPyMemcacheCache",
}
# Seconds to wait for the cache server before treating it as down: a page should not hang on it.
CACHE_TIMEOUTS = {
    "redis": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5},
    "memcached": {"connect_timeout": 0.5, "timeout": 0.5},
}


def cache(environ: Mapping[str, str]) -> dict:
    """``CACHE_URL``: ``redis://host:6379/0`` (or ``rediss://``) or ``memcached://host:11211`` for a cache shared
    by several app servers; without it, each process keeps its own local-memory cache, which is right for one.
    The rendered rosters live there (gangs.cache); a key carries the gang's and the content's versions, so a
    shared cache never serves a roster older than the database's."""
    url = environ.get("CACHE_URL", "").strip()
    if not url:
        return {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "underhive-ledger"}
    scheme = url.split("://", 1)[0].lower()
    if scheme not in CACHE_BACKENDS:
        from django.core.exceptions import ImproperlyConfigured

        raise ImproperlyConfigured(f"CACHE_URL must start with redis://, rediss:// or memcached://, not {scheme}://")
    location = url if scheme.startswith("redis") else url.split("://", 1)[1]
    return {
        "BACKEND": CACHE_BACKENDS[scheme],
        "LOCATION": location,
        "KEY_PREFIX": environ.get("CACHE_PREFIX", "ul"),
        "OPTIONS": CACHE_TIMEOUTS["redis" if scheme.startswith("redis") else "memcached"],
    }


def integer(environ: Mapping[str, str], name: str, default: int) -> int:
    value = environ.get(name, "").strip()
    return int(value) if value else default


EMAIL_SCHEMES = {
    "smtp": "django.core.mail.backends.smtp.EmailBackend",
    "smtps": "django.core.mail.backends.smtp.EmailBackend",
    "submission": "django.core.mail.backends.smtp.EmailBackend",
    "console": "django.core.mail.backends.console.EmailBackend",
    "dummy": "django.core.mail.backends.dummy.EmailBackend",
}


def email(environ: Mapping[str, str]) -> dict[str, object]:
    """Django's ``EMAIL_*`` settings from ``EMAIL_URL`` or the individual variables.

    ``EMAIL_URL`` is ``smtp://user:password@host:587?tls=1`` (``smtps://`` for implicit TLS on 465,
    ``submission://`` for STARTTLS on 587, ``console://`` to print messages). Without it,
    ``EMAIL_HOST`` selects SMTP with ``EMAIL_PORT``, ``EMAIL_HOST_USER``, ``EMAIL_HOST_PASSWORD``,
    ``EMAIL_USE_TLS`` and ``EMAIL_USE_SSL``; with neither, mail goes to the console (the terminal in
    development, the log on a server), so a password reset link is never lost to a missing server.
    """
    url = environ.get("EMAIL_URL", "").strip()
    settings: dict[str, object] = {"DEFAULT_FROM_EMAIL": environ.get("DEFAULT_FROM_EMAIL", "webmaster@localhost")}
    settings["SERVER_EMAIL"] = environ.get("SERVER_EMAIL", settings["DEFAULT_FROM_EMAIL"])
    if url:
        parts = urlsplit(url)
        if parts.scheme not in EMAIL_SCHEMES:
            raise ValueError(f"EMAIL_URL: unknown scheme {parts.scheme!r} (use one of {', '.join(EMAIL_SCHEMES)})")
        query = parse_qs(parts.query)
        settings.update(
            EMAIL_BACKEND=EMAIL_SCHEMES[parts.scheme],
            EMAIL_HOST=parts.hostname or "localhost",
            EMAIL_PORT=parts.port or {"smtps": 465, "submission": 587}.get(parts.scheme, 25),
            EMAIL_HOST_USER=unquote(parts.username or ""),
            EMAIL_HOST_PASSWORD=unquote(parts.password or ""),
            EMAIL_USE_SSL=parts.scheme == "smtps" or query.get("ssl", [""])[0] in TRUE,
            EMAIL_USE_TLS=parts.scheme == "submission" or query.get("tls", [""])[0] in TRUE,
        )
    elif environ.get("EMAIL_HOST", "").strip():
        settings.update(
            EMAIL_BACKEND=EMAIL_SCHEMES["smtp"],
            EMAIL_HOST=environ["EMAIL_HOST"].strip(),
            EMAIL_PORT=integer(environ, "EMAIL_PORT", 25),
            EMAIL_HOST_USER=environ.get("EMAIL_HOST_USER", ""),
            EMAIL_HOST_PASSWORD=environ.get("EMAIL_HOST_PASSWORD", ""),
            EMAIL_USE_TLS=flag(environ, "EMAIL_USE_TLS"),
            EMAIL_USE_SSL=flag(environ, "EMAIL_USE_SSL"),
        )
    else:
        settings["EMAIL_BACKEND"] = EMAIL_SCHEMES["console"]
    if settings.get("EMAIL_USE_SSL") and settings.get("EMAIL_USE_TLS"):
        raise ValueError("Email: EMAIL_USE_TLS and EMAIL_USE_SSL exclude each other; choose one.")
    return settings
