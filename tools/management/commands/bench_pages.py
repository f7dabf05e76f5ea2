"""``manage.py bench_pages``: page figures for ``make bench`` (run by ``python -m tools.bench`` on its own database).

For each page and size: the queries it makes, the median and 90th percentile of its time, and for each page
the ratio to the *login floor*: the same HTML returned by a view that only checks the login, run
interleaved with the page in the same process, so the ratio is what the page costs beyond Django's own floor.
It builds what it measures through the services (the same rows a club's data would have) and asserts nothing.
"""

from __future__ import annotations

import json
import statistics
import time
from itertools import cycle

from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, get_user_model
from django.contrib.auth.decorators import login_required
from django.contrib.sessions.backends.db import SessionStore
from django.core.cache import cache
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand
from django.db import connection
from django.http import HttpResponse
from django.test import Client
from django.test.utils import CaptureQueriesContext, override_settings
from django.urls import include, path, reverse

from content.models import Edition, House
from gangs import services
from gangs.ledger import ledger_record
from gangs.models import LedgerKind
from gangs.selectors import buyable_equipment
from gangs.services.advancement import advancement_record
from rulebook.dice import SeededDice

ROSTER_SIZES = (3, 10, 30, 100)
CAMPAIGN_SIZES = (4, 16, 32)
BATTLE_SIDES = (2, 10, 22)
RUNS = 15
PAGES = ("rosters", "campaigns", "battles", "history", "postbattle")
HISTORY_ENTRIES = 1000  # a gang some years old; its history page reads one page of them
FLOOR_HTML: dict[str, bytes] = {}


@login_required
def login_floor(request, key: str):
    return HttpResponse(FLOOR_HTML[key])


urlpatterns = [path("bench-floor/<str:key>/", login_floor), path("", include(settings.ROOT_URLCONF))]


class Command(BaseCommand):
    help = "Print page figures (queries, median and p90 ms, ratio to the login floor). For make bench only."

    def add_arguments(self, parser):
        parser.add_argument("--handoff", help="Write issue 28's pages' figures and URLs and a session here (JSON).")
        parser.add_argument("--runs", type=int, default=RUNS)
        parser.add_argument(
            "--only",
            nargs="+",
            choices=PAGES,
            default=PAGES,
            help="Measure only these pages (a change to one page measured before and after).",
        )

    def handle(self, *args, handoff=None, runs=RUNS, only=PAGES, **options):
        self.runs = runs
        self.user = get_user_model().objects.create_user("bench", password="bench-only")
        self.client = Client()
        self.client.force_login(self.user)
        self.serial = cycle(range(10_000))
        self.measured: dict[str, dict] = {}
        with override_settings(ROOT_URLCONF=__name__):
            if "rosters" in only:
                self._rosters()
            if "campaigns" in only:
                self._campaigns()
            if "battles" in only:
                self._battles()
            if "history" in only:
                self._history()
            if "postbattle" in only:
                self._postbattle()
        if handoff:
            self.hand_off(handoff)

    def hand_off(self, path: str, **more) -> None:
        """What the load test needs and the table prints (tools.bench): the session to load the pages with, and
        each of issue 28's pages measured here: its label, URL, queries, warm median and ratio to the floor."""
        with open(path, "w") as out:
            json.dump({"session": self._session(), "pages": self.measured, **more}, out)

    # --- measuring ----------------------------------------------------------------------------------

    def _time(self, url: str) -> tuple[float, bytes]:
        started = time.perf_counter()
        response = self.client.get(url)
        elapsed = time.perf_counter() - started
        if response.status_code != 200:
            raise SystemExit(f"{url} answered {response.status_code}")
        return elapsed, response.content

    def _queries(self, url: str) -> int:
        with CaptureQueriesContext(connection) as queries:
            self._time(url)
        return len(queries)

    def measure(self, label: str, url: str, with_floor: bool = False, cold: bool = False, page: str = "") -> None:
        """Warm once, count the queries, then time ``runs`` requests (interleaved with the floor's); ``cold``: the
        cache emptied before each request counted or timed (what the first reader of a page's version pays).
        ``page``: which of issue 28's pages this is, its figures kept for the handoff (warm, with the floor)."""
        _, html = self._time(url)
        if cold:
            cache.clear()
        queries = self._queries(url)
        key = str(len(FLOOR_HTML))
        FLOOR_HTML[key] = html
        page_times, floor_times = [], []
        for _ in range(self.runs):
            if cold:
                cache.clear()
            page_times.append(self._time(url)[0])
            if with_floor:
                floor_times.append(self._time(f"/bench-floor/{key}/")[0])
        median = statistics.median(page_times) * 1000
        p90 = sorted(page_times)[int(0.9 * (len(page_times) - 1))] * 1000
        line = f"  {label:<34} {queries:>3} queries  median {median:7.1f} ms  p90 {p90:7.1f} ms"
        if with_floor:
            ratio = statistics.median(p / f for p, f in zip(page_times, floor_times, strict=True))
            line += f"  x{ratio:.1f} the login floor ({statistics.median(floor_times) * 1000:.1f} ms)"
            if page:
                self.measured[page] = {
                    "label": label,
                    "url": url,
                    "queries": queries,
                    "median_ms": median,
                    "floor_ratio": ratio,
                }
        self.stdout.write(line)

    def _session(self) -> str:
        store = SessionStore()
        store[SESSION_KEY] = str(self.user.pk)
        store[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
        store[HASH_SESSION_KEY] = self.user.get_session_auth_hash()
        store.create()
        return store.session_key

    # --- what is measured ---------------------------------------------------------------------------

    def _gang(self, fighters: int, owner=None, name: str = ""):
        """An n18 Goliath gang of ``fighters``, each armed from their list, with advancements and injuries."""
        house = House.objects.get(edition=Edition.N18, slug="goliath")
        owner = owner or self.user
        gang = services.gang_create(owner=owner, house=house, name=name or f"Bench gang {next(self.serial)}")
        ledger_record(gang=gang, kind=LedgerKind.CREDITS, credits=400 * fighters, description="Bench credits")
        types = list(house.fighter_types.filter(is_active=True).exclude(category="specialist").order_by("order"))
        for n in range(fighters):
            fighter_type = types[0] if n == 0 else types[1 + n % (len(types) - 1)]
            fighter = services.fighter_hire(
                gang=gang,
                fighter_type=fighter_type,
                name=f"Fighter {n + 1}",
                actor=owner,
                dice=SeededDice(n),
                override_reason="Bench",
            )
            offers = buyable_equipment(gang, fighter)
            weapons = [o for o in offers if o[0].kind == "weapon"][:2]
            wargear = [o for o in offers if o[0].kind != "weapon"][:1]
            for item, _, _ in weapons + wargear:
                services.purchase_buy(gang=gang, equipment=item, fighter=fighter, actor=owner, override_reason="Bench")
            if n % 3 == 0:
                services.injury_record(
                    fighter=fighter,
                    code="bench-scar",
                    name="Old Wound",
                    stat_deltas={"T": -1},
                    actor=owner,
                    reason="Bench",
                )
            if n % 4 == 0:
                advancement_record(
                    fighter=fighter,
                    kind="characteristic",
                    description="+1 Cool",
                    actor=owner,
                    reason="Bench",
                    stat="Cl",
                    delta=1,
                    value=10,
                )
        return gang

    def _rosters(self) -> None:
        self.stdout.write("Roster and print pages (n18 Goliath; 2 weapons and armour a fighter):")
        for size in ROSTER_SIZES:
            gang = self._gang(size)
            url = reverse("gangs:gang-detail", args=[gang.pk])
            self.measure(f"roster, {size} fighters", url, with_floor=True, page="roster" if size == 10 else "")
            self.measure(f"print, {size} fighters", reverse("gangs:gang-print", args=[gang.pk]), with_floor=True)
            if size == 10:
                self.measure("fighter page (a Champion)", self.champion_url(gang), with_floor=True, page="fighter")
        # A club's gang plays in a campaign: its page also asks whether the viewer arbitrates it, its territories
        # and its coming battles (gangs.selectors.roster_page).
        from campaigns import services as campaigns

        arbitrator = get_user_model().objects.create_user("bench-arbitrator")
        campaign = campaigns.campaign_create(user=arbitrator, edition=Edition.N18, name="Bench league")
        gang = self._gang(30)
        campaigns.campaign_join(campaign=campaign, gang=gang, user=self.user, dice=SeededDice(0))
        self.measure(
            "roster, 30 fighters, in a campaign", reverse("gangs:gang-detail", args=[gang.pk]), with_floor=True
        )

    @staticmethod
    def champion_url(gang) -> str:
        champion = gang.fighters.filter(fighter_type__category="champion").first() or gang.fighters.first()
        return reverse("gangs:fighter-detail", args=[gang.pk, champion.pk])

    def _campaigns(self) -> None:
        from campaigns import services as campaigns

        self.stdout.write("Campaign page (n18; 3 fighters a gang):")
        for size in CAMPAIGN_SIZES:
            campaign = campaigns.campaign_create(user=self.user, edition=Edition.N18, name=f"Bench {size}")
            for seat in range(size):
                player = get_user_model().objects.create_user(f"bench-{size}-{seat}")
                gang = self._gang(3, owner=player)
                campaigns.campaign_join(campaign=campaign, gang=gang, user=player, dice=SeededDice(seat))
            campaign = campaigns.campaign_start(campaign=campaign)
            campaigns.cycle_pair(campaign=campaign, dice=SeededDice(size))
            url = reverse("campaigns:campaign-detail", args=[campaign.pk])
            self.measure(f"campaign, {size} gangs, cycle 1", url, with_floor=True)
            if size == 16:
                self._play_cycles(campaign, cycles=4)
                self.measure(f"campaign, {size} gangs, after 4 cycles", url, with_floor=True, page="campaign")
                player = campaign.memberships.select_related("gang__owner").first().gang.owner
                self.client.force_login(player)
                self.measure("  the same, for one of its players", url, with_floor=True)
                self.client.force_login(self.user)

    def _play_cycles(self, campaign, cycles: int) -> None:
        """Every battle of each cycle reported and confirmed, then the next cycle (arranged pairings from the
        second: the bench measures the page, not the challenge rules)."""
        from campaigns import services as campaigns
        from campaigns.models import BattleStatus

        gangs = [m.gang for m in campaign.memberships.select_related("gang")]
        for number in range(cycles):
            if number:
                campaigns.cycle_advance(campaign=campaign, reason="Bench: the page is measured, not the sequences")
                for a, b in zip(gangs[::2], gangs[1::2], strict=False):
                    campaigns.battle_arrange(campaign=campaign, attacker=a, defender=b)
            for battle in campaign.battles.filter(status=BattleStatus.SCHEDULED):
                try:
                    battle = campaigns.battle_scenario_roll(battle=battle, dice=SeededDice(battle.pk))
                    campaigns.battle_report_submit(battle=battle, actor=self.user, winner=battle.attacker)
                    campaigns.battle_report_confirm(battle=battle, actor=self.user, is_arbitrator=True)
                except ValidationError as error:
                    self.stdout.write(f"    (battle {battle.pk} left unreported: {' '.join(error.messages)})")

    def _battles(self) -> None:
        from battles.services import battle_start, fighter_adjust

        self.stdout.write("Battle page (n18):")
        watcher = get_user_model().objects.create_user("bench-watcher")
        for side in BATTLE_SIDES:
            a, b = self._gang(side), self._gang(side)
            battle = battle_start(
                gang_a=a,
                gang_b=b,
                started_by=self.user,
                chosen_a=list(a.fighters.values_list("pk", flat=True)),
                chosen_b=list(b.fighters.values_list("pk", flat=True)),
                dice=SeededDice(side),
            )
            fighters = list(battle.fighters.all())
            for n in range(40):
                fighter_adjust(
                    session=battle,
                    fighter=fighters[n % len(fighters)],
                    field="prone",
                    value=n % 2 == 0,
                    actor=self.user,
                )
            url = reverse("battles:battle-detail", args=[battle.pk])
            page = "battle" if side == 10 else ""
            self.measure(f"battle, {side} a side, 40 actions", url, with_floor=True, page=page)
            self.client.force_login(watcher)
            self.measure("  the same, for a watcher", url, with_floor=True)
            self.client.force_login(self.user)

    def _history(self) -> None:
        self.stdout.write(f"Gang history (10 fighters, {HISTORY_ENTRIES} more ledger entries):")
        gang = self._gang(10)
        for n in range(HISTORY_ENTRIES):
            ledger_record(gang=gang, kind=LedgerKind.OTHER, description=f"Bench note {n}")
        url = reverse("gangs:gang-history", args=[gang.pk])
        self.measure("history, first page", url, with_floor=True, page="history")
        self.measure("history, page 10", f"{url}?page=10", with_floor=True)

    def _postbattle(self) -> None:
        from campaigns import services as campaigns

        self.stdout.write("Post-battle list (an arbitrator's 8-gang campaign after 4 cycles):")
        campaign = campaigns.campaign_create(user=self.user, edition=Edition.N18, name="Bench post-battle")
        for seat in range(8):
            player = get_user_model().objects.create_user(f"bench-postbattle-{seat}")
            gang = self._gang(3, owner=player)
            campaigns.campaign_join(campaign=campaign, gang=gang, user=player, dice=SeededDice(seat))
        campaign = campaigns.campaign_start(campaign=campaign)
        campaigns.cycle_pair(campaign=campaign, dice=SeededDice(8))
        self._play_cycles(campaign, cycles=4)
        self.measure(
            "post-battle list, arbitrator", reverse("postbattle:battle-list"), with_floor=True, page="postbattle"
        )
