"""``manage.py worker``: the site's background worker on the database queue (the default ``TASKS`` backend).

It is django-tasks-db's ``db_worker`` with one thing first: a sweep of the notification outbox, so events
whose task was lost (a worker killed mid-task, a queue that refused the task) are sent when the worker comes
back. ``--batch`` runs what is queued and exits; ``--max-tasks N`` bounds the loop.
"""

from django_tasks_db.management.commands.db_worker import Command as DatabaseWorker

from notifications.services import wake_worker


class Command(DatabaseWorker):
    help = "Run the background worker (notifications) on the database queue; sweeps the outbox first."

    def handle(self, *args, **options):
        wake_worker()
        return super().handle(*args, **options)
