"""``manage.py bench_notifications``: the notification bench's database side (``make bench``, tools/bench).

``--queue N --webhook URL``: a campaign of two gangs whose webhook is URL, then N events queued the way the
services queue them (``notify`` in a transaction of its own, waking the worker through the Tasks API once it
commits): "Cycle N has begun" for N = 2, 3 ..., without the rest of beginning a cycle, so that the figure is the
outbox's, not the standings snapshots'.
``--status``: the outbox's counts as JSON (events, expanded, deliveries by state).
"""

import json
import time

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction
from django.db.models import Count

from campaigns.models import Cycle
from campaigns.services import campaign_create, campaign_join, campaign_start
from content.models import Edition, House, HouseKind
from gangs.services import gang_create
from notifications.models import Delivery, Event, EventKind
from notifications.services import notify, webhook_set


class Command(BaseCommand):
    help = "Queue notification events for the bench, or print the outbox's counts."

    def add_arguments(self, parser):
        parser.add_argument("--queue", type=int, default=0)
        parser.add_argument("--webhook", default="")
        parser.add_argument("--status", action="store_true")

    def handle(self, *args, queue: int, webhook: str, status: bool, **options):
        if status:
            states = dict(Delivery.objects.values_list("status").annotate(n=Count("pk")).values_list("status", "n"))
            self.stdout.write(
                json.dumps(
                    {
                        "events": Event.objects.count(),
                        "deliveries": states,
                        "unexpanded": Event.objects.filter(expanded_at__isnull=True).count(),
                    }
                )
            )
            return
        # Names of its own: make bench runs it on the database bench_pages has filled (its bench-arbitrator).
        user = get_user_model().objects.create_user("bench-notifications-arbitrator", password="bench-only-password")
        campaign = campaign_create(user=user, edition=Edition.N18, name="Notification bench")
        house = (
            House.objects.filter(edition=Edition.N18, is_active=True, kind=HouseKind.GANG_LIST).order_by("pk").first()
        )
        for seat in range(2):
            player = get_user_model().objects.create_user(
                f"bench-notifications-player-{seat}", password="bench-only-password"
            )
            gang = gang_create(owner=player, house=house, name=f"Bench gang {seat}")
            campaign_join(campaign=campaign, gang=gang, user=player)
        campaign = campaign_start(campaign=campaign)
        webhook_set(campaign=campaign, url=webhook)
        started = time.perf_counter()
        for number in range(2, queue + 2):
            with transaction.atomic():
                notify(EventKind.CYCLE_BEGUN, Cycle(campaign=campaign, number=number))
        self.stdout.write(json.dumps({"queued": queue, "seconds": time.perf_counter() - started}))
