"""``manage.py notifications_send``: send what waits in the notification outbox now, in this process, then exit.

For a site whose queue is not the database (``TASKS_BACKEND``): run it once when the queue's workers start (it
sends events whose task was lost with a stopped worker), or from cron. It does one batch at a time until nothing
is due, at most ``--batches`` of them.
"""

from django.core.management.base import BaseCommand

from notifications.services import BATCH, deliveries_send, events_expand


class Command(BaseCommand):
    help = "Send the notifications waiting in the outbox, then exit."

    def add_arguments(self, parser):
        parser.add_argument("--batches", type=int, default=50, help=f"At most this many batches of {BATCH}.")

    def handle(self, *args, batches: int, **options):
        expanded = sent = 0
        for _ in range(max(batches, 0)):
            expanded_now, sent_now = events_expand(limit=BATCH), deliveries_send(limit=BATCH)
            expanded, sent = expanded + expanded_now, sent + sent_now
            if expanded_now < BATCH and sent_now < BATCH:
                break
        self.stdout.write(f"{expanded} events expanded, {sent} deliveries tried.")
