"""The worker's task, through the Tasks API: Django 6's ``django.tasks``, or the ``django-tasks`` backport on
Django 5.2 (the same code runs on both). The queue is the ``TASKS`` setting (README, Configuration)."""

from __future__ import annotations

try:
    from django.tasks import task
except ImportError:  # Django 5.2: the backport
    from django_tasks import task

from notifications.services import BATCH, deliveries_send, events_expand, wake_worker


@task()
def deliver_notifications() -> dict:
    """Expand new events and send due deliveries, at most a batch of each; hand on to a new run if more wait."""
    expanded = events_expand(limit=BATCH)
    sent = deliveries_send(limit=BATCH)
    if expanded == BATCH or sent == BATCH:
        wake_worker()
    return {"expanded": expanded, "sent": sent}


def run_waiting() -> bool:
    """On the database queue: whether a run is queued and not yet started. An event committed before this asks
    is seen by that run, so waking the worker again would only add a run with nothing to do (a burst of events
    would queue one run each). Other queues cannot be asked: False."""
    from django_tasks_db.backend import DatabaseBackend
    from django_tasks_db.models import DBTaskResult

    if not isinstance(deliver_notifications.get_backend(), DatabaseBackend):
        return False
    return DBTaskResult.objects.ready().filter(task_path=deliver_notifications.module_path).exists()
