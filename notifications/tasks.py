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
