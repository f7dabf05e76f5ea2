"""``manage.py worker``: the site's background worker on the database queue (the default ``TASKS`` backend).

It is django-tasks-db's ``db_worker`` with one thing first: a sweep of the notification outbox and of the
waiting large imports (gangs.background_import), so events and imports whose task was lost (a worker killed
mid-task, a queue that refused the task) are done when the worker comes back. ``--batch`` runs what is queued and exits; ``--max-tasks N`` bounds the loop.
"""

from django_tasks_db.management.commands.db_worker import Command as DatabaseWorker

from gangs.background_import import wake_importer
from gangs.models import FileImport, ImportState
from notifications.services import wake_worker


class Command(DatabaseWorker):
    help = "Run the background worker (notifications, large imports) on the database queue; sweeps the outboxes first."

    def handle(self, *args, **options):
        wake_worker()
        if FileImport.objects.filter(state=ImportState.WAITING).exists():
            wake_importer()
        return super().handle(*args, **options)
