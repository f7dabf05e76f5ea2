"""Settings for Underhive Ledger, read from the environment (see README.md, Configuration).

Without any environment a newcomer gets an SQLite file in the project folder. ``DEBUG`` is
off unless asked for, and with it off the settings insist on a real ``SECRET_KEY`` and turn on
the secure defaults a deployment behind an HTTPS proxy needs.
"""

import json
import os
from datetime import timedelta
from pathlib import Path

from csp.constants import NONE, SELF
from django.core.exceptions import ImproperlyConfigured

from necromunda_site.environment import cache, database, email, flag, integer, listing, read_dotenv

BASE_DIR = Path(__file__).resolve().parent.parent
ENV = {**read_dotenv(BASE_DIR / ".env"), **os.environ}

DEBUG = flag(ENV, "DEBUG")

SECRET_KEY = ENV.get("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("Set SECRET_KEY (or DEBUG=1 for local development).")
    SECRET_KEY = "dev-only-insecure-key-do-not-deploy"

ALLOWED_HOSTS = listing(ENV, "ALLOWED_HOSTS", ["localhost", "127.0.0.1", "[::1]"] if DEBUG else [])
CSRF_TRUSTED_ORIGINS = listing(ENV, "CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.humanize",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_htmx",
    "template_partials",
    "axes",
    "csp",
    "django_tasks",
    "django_tasks_db",
    "core",
    "content",
    "gangs",
    "campaigns",
    "postbattle",
    "battles",
    "notifications",
    "sharing",
    "tools",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "core.uploads.UploadLimitMiddleware",
    "core.middleware.RefuseNulMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "core.middleware.HtmxMessagesMiddleware",
    "csp.middleware.CSPMiddleware",
    "core.accounts.LoginRateLimitMiddleware",
    # Last, as django-axes asks: it turns a locked-out login into the lockout page.
    "axes.middleware.AxesMiddleware",
]

# The largest file any form takes (the gang import's, gangs.exchange.MAX_FILE_BYTES), read in memory and never
# past this (core.uploads): a larger upload is refused before it reaches the disk.
UPLOAD_MOST_BYTES = 1024 * 1024
FILE_UPLOAD_HANDLERS = ["core.uploads.LimitedUploadHandler"]

ROOT_URLCONF = "necromunda_site.urls"
WSGI_APPLICATION = "necromunda_site.wsgi.application"
ASGI_APPLICATION = "necromunda_site.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    }
]

DATABASES = {"default": database(ENV, BASE_DIR)}
CACHES = {"default": cache(ENV)}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
# django-axes checks every login (the site's and the admin's) before the password is.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

LANGUAGE_CODE = "en-gb"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "whitenoise.storage.CompressedManifestStaticFilesStorage"
    },
}

# Behind a TLS-terminating proxy (see README.md, Deployment).
if not DEBUG:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = flag(ENV, "SECURE_SSL_REDIRECT", True)
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    # HSTS: start short; raise to a year (31536000) with subdomains and preload once HTTPS is settled.
    SECURE_HSTS_SECONDS = integer(ENV, "SECURE_HSTS_SECONDS", 3600)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = flag(ENV, "SECURE_HSTS_INCLUDE_SUBDOMAINS", False)
    SECURE_HSTS_PRELOAD = flag(ENV, "SECURE_HSTS_PRELOAD", False)
    SECURE_CONTENT_TYPE_NOSNIFF = True
    SECURE_REFERRER_POLICY = "same-origin"
    X_FRAME_OPTIONS = "DENY"

# Failed logins (README.md, Accounts): each failure after the first is answered a little later, and
# LOGIN_FAILURE_LIMIT failures lock that username, and separately that address, for LOGIN_LOCKOUT_MINUTES.
AXES_FAILURE_LIMIT = integer(ENV, "LOGIN_FAILURE_LIMIT", 10)
AXES_COOLOFF_TIME = timedelta(minutes=integer(ENV, "LOGIN_LOCKOUT_MINUTES", 15))
# A username locks only together with the address it failed from (a guesser elsewhere cannot lock its owner
# out), and an address for every username (issue 26 #5).
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"], "ip_address"]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_CALLABLE = "core.accounts.locked_out"
AXES_CLIENT_IP_CALLABLE = "core.accounts.client_ip"
AXES_USERNAME_CALLABLE = "core.accounts.attempted_username"
# The client's address (core.accounts.client_ip, django-ipware): the socket's unless proxies are configured, as how
# many append to X-Forwarded-For, or which addresses they have (README.md, Deployment).
PROXY_COUNT = integer(ENV, "PROXY_COUNT", 0)
TRUSTED_PROXIES = listing(ENV, "TRUSTED_PROXIES", [])
LOGIN_SLOWDOWN_STEP = float(ENV.get("LOGIN_SLOWDOWN_STEP", "0.5"))
LOGIN_SLOWDOWN_MOST = float(ENV.get("LOGIN_SLOWDOWN_MOST", "3"))

# Password reset mail: EMAIL_URL or EMAIL_HOST...; without either, the console (the reset link in the terminal).
MAIL = email(ENV)
globals().update(MAIL)
# With mail to send, a new account opens from the link mailed to its address (core.views.signup); without, at once.
SIGNUP_VERIFIES_EMAIL = flag(ENV, "SIGNUP_VERIFIES_EMAIL", MAIL["EMAIL_BACKEND"].endswith(".smtp.EmailBackend"))
# Links in notifications (Discord and mail) start with this, e.g. https://ledger.example.club (no trailing /).
SITE_URL = ENV.get("SITE_URL", "http://127.0.0.1:8000" if DEBUG else "")

# The background worker's queue (README, Configuration): the database by default, so `make run` and one server
# need nothing more (`manage.py worker`); TASKS_BACKEND names another Tasks API backend (a Redis-backed one such
# as django-tasks-rq's) when a site outgrows it, with TASKS_OPTIONS as JSON for that backend.
TASKS = {
    "default": {
        "BACKEND": ENV.get("TASKS_BACKEND", "django_tasks_db.DatabaseBackend"),
        "QUEUES": ["default"],
        "OPTIONS": json.loads(ENV.get("TASKS_OPTIONS", "{}")),
    }
}

PASSWORD_RESET_TIMEOUT = integer(ENV, "PASSWORD_RESET_TIMEOUT", 3 * 24 * 3600)
# Where "Import from YakTribe" fetches a gang by its address (gangs.yaktribe.fetch); empty turns fetching off.
YAKTRIBE_URL = ENV.get("YAKTRIBE_URL", "https://yaktribe.games")

# Content-Security-Policy: only this site's own files; no inline script or style, no other origin.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF, "data:"],
        "font-src": [SELF],
        "connect-src": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
        "base-uri": [SELF],
        "object-src": [NONE],
    }
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": ENV.get("LOG_LEVEL", "INFO")},
    # django-axes logs every login at INFO; its lockouts come at WARNING.
    "loggers": {"axes": {"level": ENV.get("AXES_LOG_LEVEL", "WARNING")}},
}
