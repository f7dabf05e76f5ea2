"""The worker's task for large imports (gangs.background_import), through the Tasks API: Django 6's
``django.tasks`` or the ``django-tasks`` backport on Django 5.2, on the queue the ``TASKS`` setting names."""

from __future__ import annotations

try:
    from django.tasks import task
except ImportError:  # Django 5.2: the backport
    from django_tasks import task

from gangs.background_import import BATCH, imports_run, wake_importer


@task()
def import_files() -> dict:
    """Import the waiting files, a batch at most; hand on to a new run if more wait."""
    imported = imports_run(limit=BATCH)
    if imported == BATCH:
        wake_importer()
    return {"imported": imported}
