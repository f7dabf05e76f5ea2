"""The worker's task for large YakTribe imports (gangs.yaktribe_background), through the Tasks API: Django 6's
``django.tasks`` or the ``django-tasks`` backport on Django 5.2, on the queue the ``TASKS`` setting names."""

from __future__ import annotations

try:
    from django.tasks import task
except ImportError:  # Django 5.2: the backport
    from django_tasks import task

from gangs.yaktribe_background import BATCH, wake_importer, yaktribe_imports_run


@task()
def import_yaktribe_gangs() -> dict:
    """Import the waiting YakTribe files, a batch at most; hand on to a new run if more wait."""
    imported = yaktribe_imports_run(limit=BATCH)
    if imported == BATCH:
        wake_importer()
    return {"imported": imported}
