"""``manage.py bench_busy_site``: the pages a club uses every week, measured on a database the size of a busy public
instance (issue 28), for ``make bench`` (``python -m tools.bench --busy-site SCALE``, on a database of its own).

At ``--scale 1`` the site holds about 5,000 users, 20,000 gangs of 10 fighters with a few ledger entries each, and
500 campaigns of 8 to 16 of those gangs with four cycles of confirmed battles: written in bulk (rows, not the
services: the bench measures pages, and a million rows through the services would take hours). What is measured
is then built through the services among them, as ``bench_pages`` builds it: a 16-gang campaign after 4 cycles,
a battle of 10 a side with 40 actions, a Champion's page, and a gang history of 1,001 entries. Each page is
measured warm (the cache holding what it keeps) and cold (the cache emptied before every request), against the
login floor. The default scale is small enough for a shared machine; the scale and the site's size are printed.
"""

from __future__ import annotations

import itertools
import random

from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password
from django.db import transaction
from django.test import Client
from django.test.utils import override_settings
from django.urls import reverse
from django.utils import timezone

from content.models import Edition, House
from gangs.ledger import ledger_record
from gangs.models import Fighter, Gang, LedgerEntry, LedgerKind
from rulebook.dice import SeededDice
from tools.management.commands import bench_pages

FULL = {"users": 5_000, "gangs": 20_000, "campaigns": 500}  # the busy public instance
FIGHTERS, ENTRIES, BATCH = 10, 5, 2_000


class Command(bench_pages.Command):
    help = "Build a busy site's database at --scale and print its pages' figures, warm and cold. For make bench."

    def add_arguments(self, parser):
        parser.add_argument("--scale", type=float, default=0.02, help="1 is the issue's busy site (default 0.02).")
        parser.add_argument(
            "--handoff", help="Write the pages' figures, URLs, a session and the site's size here (JSON)."
        )
        parser.add_argument("--runs", type=int, default=bench_pages.RUNS)

    def handle(self, *args, scale=0.02, handoff=None, runs=bench_pages.RUNS, **options):
        self.runs = runs
        self.user = get_user_model().objects.create_user("bench", password="bench-only")
        self.client = Client()
        self.client.force_login(self.user)
        self.serial = itertools.count()
        self.measured = {}
        sizes = {name: max(1, round(count * scale)) for name, count in FULL.items()}
        self._fill(**sizes)
        size = ", ".join(f"{n:,} {what}" for what, n in site_size().items())
        self.stdout.write(f"Busy site at scale {scale:g}: {size}")
        with override_settings(ROOT_URLCONF=bench_pages.__name__):
            self._pages()
        if handoff:
            # The size once more, with what was measured built in it (the pages' own campaign, gangs, battle).
            self.hand_off(handoff, scale=scale, size=site_size())

    # --- the site around what is measured (rows in bulk) ------------------------------------------------

    @transaction.atomic
    def _fill(self, *, users: int, gangs: int, campaigns: int) -> None:
        from campaigns.models import Battle, BattleStatus, Campaign, CampaignGang, CampaignStatus

        dice = random.Random(28)
        house = House.objects.get(edition=Edition.N18, slug="goliath")
        types = list(house.fighter_types.filter(is_active=True).exclude(category="specialist"))
        password = make_password("bench-only")
        people = get_user_model().objects.bulk_create(
            [get_user_model()(username=f"player-{n}", password=password) for n in range(users)], batch_size=BATCH
        )
        rows = Gang.objects.bulk_create(
            [
                Gang(owner=people[n % users], edition=Edition.N18, house=house, name=f"Gang {n}", stash=100 * ENTRIES)
                for n in range(gangs)
            ],
            batch_size=BATCH,
        )
        Fighter.objects.bulk_create(
            [
                Fighter(gang=gang, fighter_type=kind, name=f"Fighter {n}", cost=kind.cost or 0, base_stats={})
                for gang in rows
                for n, kind in enumerate(dice.choices(types, k=FIGHTERS))
            ],
            batch_size=BATCH,
        )
        LedgerEntry.objects.bulk_create(
            [
                LedgerEntry(gang=gang, kind=LedgerKind.CREDITS, credits=100, description=f"Income {n}")
                for gang in rows
                for n in range(ENTRIES)
            ],
            batch_size=BATCH,
        )
        now, free = timezone.now(), iter(rows)  # a gang plays in one campaign at a time
        for n in range(campaigns):
            campaign = Campaign.objects.create(
                edition=Edition.N18,
                name=f"League {n}",
                created_by=people[n % users],
                status=CampaignStatus.IN_PROGRESS,
                cycle=4,
            )
            members = [gang for _, gang in zip(range(dice.randint(8, 16)), free, strict=False)]
            CampaignGang.objects.bulk_create(CampaignGang(campaign=campaign, gang=gang) for gang in members)
            Battle.objects.bulk_create(
                [
                    Battle(
                        campaign=campaign,
                        origin="arranged",
                        attacker=a,
                        defender=b,
                        winner=a,
                        confirmed_at=now,
                        status=BattleStatus.CONFIRMED,
                    )
                    for _ in range(4)
                    for a, b in zip(members[::2], members[1::2], strict=False)
                ],
                batch_size=BATCH,
            )

    # --- what is measured (through the services) ----------------------------------------------------

    def _pages(self) -> None:
        from battles.services import battle_start, fighter_adjust
        from campaigns import services as campaigns

        self.stdout.write("Busy site, warm (the cache holding what each page keeps) and cold (the cache emptied):")
        campaign = campaigns.campaign_create(user=self.user, edition=Edition.N18, name="Bench busy league")
        for seat in range(16):
            player = get_user_model().objects.create_user(f"bench-busy-{seat}")
            campaigns.campaign_join(
                campaign=campaign, gang=self._gang(3, owner=player), user=player, dice=SeededDice(seat)
            )
        campaign = campaigns.campaign_start(campaign=campaign)
        campaigns.cycle_pair(campaign=campaign, dice=SeededDice(16))
        self._play_cycles(campaign, cycles=4)
        gang = self._gang(10)
        for n in range(1_000 - gang.ledger.count()):
            ledger_record(gang=gang, kind=LedgerKind.OTHER, description=f"Bench deed {n}")
        a, b = self._gang(10), self._gang(10)
        battle = battle_start(
            gang_a=a,
            gang_b=b,
            started_by=self.user,
            chosen_a=list(a.fighters.values_list("pk", flat=True)),
            chosen_b=list(b.fighters.values_list("pk", flat=True)),
            dice=SeededDice(28),
        )
        fighters = list(battle.fighters.all())
        for n in range(40):
            fighter_adjust(
                session=battle, fighter=fighters[n % len(fighters)], field="prone", value=n % 2 == 0, actor=self.user
            )
        pages = {
            "campaign": (
                "campaign, 16 gangs, after 4 cycles",
                reverse("campaigns:campaign-detail", args=[campaign.pk]),
            ),
            "battle": ("battle, 10 a side, 40 actions", reverse("battles:battle-detail", args=[battle.pk])),
            "fighter": ("fighter page (a Champion)", self.champion_url(gang)),
            # The arbitrator's list of the 16-gang campaign's sequences, among the site's other battles.
            "postbattle": ("post-battle list, arbitrator", reverse("postbattle:battle-list")),
            "history": (
                f"gang history, {gang.ledger.count():,} entries",
                reverse("gangs:gang-history", args=[gang.pk]),
            ),
            "roster": ("roster, 10 fighters", reverse("gangs:gang-detail", args=[gang.pk])),
        }
        for page, (label, url) in pages.items():
            self.measure(f"{label}, warm", url, with_floor=True, page=page)
            self.measure(f"{label}, cold", url, with_floor=True, cold=True)


def site_size() -> dict[str, int]:
    """The rows that make the site busy, as the table prints them (tools.bench.table)."""
    from campaigns.models import Battle, Campaign

    return {
        "users": get_user_model().objects.count(),
        "gangs": Gang.objects.count(),
        "fighters": Fighter.objects.count(),
        "campaigns": Campaign.objects.count(),
        "battles": Battle.objects.count(),
        "ledger entries": LedgerEntry.objects.count(),
    }
