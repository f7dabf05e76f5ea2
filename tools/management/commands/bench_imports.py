"""``manage.py bench_imports``: how long a large gang file takes to import, for ``make bench``.

Two files of 60 fighters, built from the loaded content: a YakTribe file (a Genestealer Cult: each ganger with
five items, two skills and an injury, the names spelt as YakTribe spells them), read, previewed and created; and
this site's own export of a gang of 60 fighters with five items each, imported. Each is run several times; the
median and the slowest are printed with the queries of one run. Nothing is asserted; every gang made is deleted.

Then the slowest request of each kind that takes a file or a password (issue 26, "no request takes a worker for
long"), through the whole stack in-process (middleware, forms, the view; no network): a login, the YakTribe upload
(its preview) and its confirmation, the own-export gang import, and the campaign import of a campaign played by the
machine (8 gangs, 3 cycles). Each request is run several times, every write rolled back; the slowest is printed
beside the median, the file's size and whether the request imports it or queues it for the worker
(gangs.background_import); last, the worker's own time for that campaign.
"""

from __future__ import annotations

import json
import statistics
import time

from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management.base import BaseCommand
from django.db import connection, transaction
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from content.models import Edition, FighterTypeEquipment, House, Skill
from gangs import exchange, yaktribe

FIGHTERS = 60
RUNS = 5


class _Rollback(Exception):
    pass


class Command(BaseCommand):
    help = (
        "Print the time to import a 60-fighter YakTribe file and a 60-fighter export, then the slowest login, upload, "
        "gang import and campaign import request. For make bench only."
    )

    def add_arguments(self, parser):
        parser.add_argument("--runs", type=int, default=RUNS)

    def handle(self, *args, runs=RUNS, **options):
        user, _ = get_user_model().objects.get_or_create(username="bench-imports")
        raw = self._yaktribe_file()
        self.stdout.write(f"Imports ({FIGHTERS} fighters, {len(raw) // 1024} KB YakTribe file):")
        self._measure(
            "YakTribe: read, preview, create",
            lambda n: yaktribe.yaktribe_import(owner=user, raw=raw, choices={}, token=f"bench-{n}"),
            runs,
        )
        own = self._own_file(user, raw)
        label = f"own export ({len(own['fighters'])} fighters): check, create"
        self._measure(label, lambda n: exchange.gang_import(owner=user, data=own), runs)
        self._requests(user, raw, own, runs)
        user.delete()

    def _requests(self, user, raw: bytes, own: dict, runs: int) -> None:
        """The slowest request of each kind, each a POST as the page sends it (the status code checked, so that a
        refused file is not timed as a fast import)."""
        from campaigns.models import Campaign
        from gangs.background_import import in_background
        from tools.campaign_exchange import campaign_export, campaign_import, parse_campaign_file
        from tools.simulation import simulate

        password = "bench-imports-password"
        user.set_password(password)
        user.save(update_fields=["password"])
        client = Client()
        with transaction.atomic():
            simulate(edition="n18", gangs=8, cycles=3, seed=7, out=lambda *a: None)
            campaign_file = json.dumps(campaign_export(Campaign.objects.latest("pk"))).encode()
            transaction.set_rollback(True)
        own_file = json.dumps(own).encode()
        self.stdout.write("The slowest request of each kind (in-process, each rolled back):")

        def login(n):
            return Client().post(reverse("login"), {"username": user.username, "password": password})

        def upload(n):
            return client.post(reverse("gangs:gang-import-yaktribe"), {"file": SimpleUploadedFile("g.json", raw)})

        def confirm(n):
            form = {"confirm": "1", "raw": raw.decode(), "nonce": f"bench-{n}"}
            return client.post(reverse("gangs:gang-import-yaktribe"), form)

        def gang_import(n):
            return client.post(reverse("gangs:gang-import"), {"file": SimpleUploadedFile("g.json", own_file)})

        def campaign_import_request(n):
            upload = SimpleUploadedFile("c.json", campaign_file)
            return client.post(reverse("campaign_exchange:campaign-import"), {"file": upload})

        def where(kind: str, raw: bytes) -> str:
            return f"{len(raw) // 1024} KB, {'queued for the worker' if in_background(kind, raw) else 'in the request'}"

        self._request("login (password checked)", login, runs)
        client.force_login(user)
        self._request(f"YakTribe upload and preview ({len(raw) // 1024} KB)", upload, runs, status=200)
        self._request(f"YakTribe confirm ({where('yaktribe', raw)})", confirm, runs)
        self._request(f"gang import ({where('gang', own_file)})", gang_import, runs)
        self._request(f"campaign import ({where('campaign', campaign_file)})", campaign_import_request, runs)
        self._measure(
            "the worker's campaign import (8 gangs)",
            lambda n: campaign_import(user=user, data=parse_campaign_file(campaign_file)),
            runs,
        )

    def _request(self, label: str, post, runs: int, status: int = 302) -> None:
        times = []
        for n in range(runs):
            with transaction.atomic():
                start = time.perf_counter()
                response = post(n)
                times.append(time.perf_counter() - start)
                transaction.set_rollback(True)
            if response.status_code != status:
                self.stdout.write(f"  {label:<54} answered {response.status_code}, not {status}: not timed")
                return
        self.stdout.write(
            f"  {label:<54} slowest {max(times) * 1000:7.1f} ms  median {statistics.median(times) * 1000:7.1f} ms"
        )

    def _measure(self, label: str, run, runs: int) -> None:
        times, queries = [], 0
        for n in range(runs):
            try:
                with transaction.atomic(), CaptureQueriesContext(connection) as captured:
                    start = time.perf_counter()
                    run(n)
                    times.append(time.perf_counter() - start)
                    queries = len(captured)
                    raise _Rollback  # each run starts from the same database
            except _Rollback:
                pass
        self.stdout.write(
            f"  {label:<34} {queries:>4} queries  median {statistics.median(times) * 1000:7.1f} ms  "
            f"slowest {max(times) * 1000:7.1f} ms"
        )

    def _yaktribe_file(self) -> bytes:
        house = House.objects.get(edition=Edition.N18, slug="genestealer-cult")
        types = list(house.fighter_types.filter(is_active=True).order_by("order"))
        lists = {}
        for entry in FighterTypeEquipment.objects.filter(fighter_type__in=types).select_related("equipment"):
            lists.setdefault(entry.fighter_type_id, []).append(entry.equipment.name)
        skills = list(Skill.objects.filter(edition=Edition.N18).values_list("name", flat=True)[:40])
        gangers = []
        for n in range(FIGHTERS):
            kind = types[n % len(types)]
            stats = {
                key: getattr(kind, field) or 0
                for key, field in zip(
                    yaktribe.STAT_KEYS,
                    (
                        "movement",
                        "weapon_skill",
                        "ballistic_skill",
                        "strength",
                        "toughness",
                        "wounds",
                        "initiative",
                        "attacks",
                        "leadership",
                        "cool",
                        "willpower",
                        "intelligence",
                    ),
                    strict=True,
                )
            }
            items = lists.get(kind.pk, [])[:5]
            gangers.append(
                {
                    "ganger_id": str(n),
                    "name": f"Cultist {n}",
                    "type": kind.name,
                    **stats,
                    "cost": "100",
                    "xp": str(n % 12),
                    "kills": "1",
                    "advance_count": "1",
                    "equipment": [{"name": name.upper() if n % 2 else name, "qty": "1"} for name in items],
                    "skills": skills[n % 38 : n % 38 + 2],
                    "injuries": ["Eye Injury"] if n % 3 == 0 else [],
                    "status": "Dead" if n % 10 == 9 else "Alive",
                    "notes": "",
                    "image": None,
                }
            )
        gang = {
            "gang_id": "1",
            "gang_name": "Bench Cult",
            "gang_type": "Genestealer Cult",
            "credits": "100",
            "reputation": "5",
            "stash": [],
            "gang_notes": "",
            "gangers": gangers,
        }
        return json.dumps({"gang": gang}).encode()

    def _own_file(self, user, raw: bytes) -> dict:
        """This site's export of the YakTribe gang without what its rules refuse (skills with no advancement,
        unexplained stat changes): a fair 60-fighter file."""
        with transaction.atomic():
            gang = yaktribe.yaktribe_import(owner=user, raw=raw, choices={}, token="bench-own")
            data = exchange.gang_export(gang)
            transaction.set_rollback(True)
        for fighter in data["fighters"]:
            fighter.update(skills=[], stat_changes=[], injuries=[], experience=0, kills=0, status="active")
            fighter["base_stats"] = dict(fighter["base_stats"])
        # One Leader (the list allows one, of either Leader type); the other fighters as many as the export holds.
        leaders = {"genestealer-cult-cult-adept", "genestealer-cult-cult-alpha"}
        others = [f for f in data["fighters"] if f["type"] not in leaders] * 2
        data["fighters"] = [next(f for f in data["fighters"] if f["type"] in leaders), *others][:FIGHTERS]
        return data
