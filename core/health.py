"""What ``/healthz`` reports: the database, the cache and the background worker, each on its own.

Only the database is needed to serve a page (the cache is an aid, core.caching; work that waits for the worker
waits in its outbox), so only the database decides the status: 503 without it, 200 otherwise, with the reason
for whatever else does not answer. ``HEALTH_WORKER_CHECK`` (a dotted path to a function returning None or a
reason) lets the worker's app say how it is; without one, the django-tasks database queue is read if installed.
"""

from __future__ import annotations

from datetime import timedelta

from django.apps import apps
from django.conf import settings
from django.db import DatabaseError, connection
from django.utils import timezone
from django.utils.module_loading import import_string

from core.caching import cache_health

# A task ready this long and still not started means no worker is taking tasks.
WORKER_LAG = timedelta(minutes=5)


def database_health() -> str | None:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except DatabaseError as error:
        return f"unavailable ({type(error).__name__})"
    return None


def worker_health() -> str | None:
    """None when the worker keeps up (or there is none to keep up), else why not."""
    check = getattr(settings, "HEALTH_WORKER_CHECK", "")
    if check:
        return import_string(check)()
    if not apps.is_installed("django_tasks_db"):
        return None
    from django_tasks_db.models import DBTaskResult

    try:
        late = DBTaskResult.objects.ready().filter(enqueued_at__lt=timezone.now() - WORKER_LAG)
        waiting = late.count()
    except DatabaseError as error:
        return f"its queue could not be read ({type(error).__name__})"
    if waiting:
        minutes = int(WORKER_LAG.total_seconds() // 60)
        return f"{waiting} task{'s' if waiting != 1 else ''} waiting longer than {minutes} minutes (is the worker running?)"
    return None


def report() -> tuple[bool, dict[str, str | None]]:
    """(whether the site can serve pages, each part's reason for not answering or None)."""
    database = database_health()
    parts = {
        "database": database,
        "cache": cache_health(),
        "worker": "not checked without the database" if database else worker_health(),
    }
    return database is None, parts
