"""Issue 28's figures side by side: each page's warm ratio to its login floor in-process, and under gunicorn its
requests a second and share of ``/healthz``, on the bench's own database and on the busy site's, with the busy
site's size. Printed by ``make bench`` (:mod:`tools.bench.__main__`); it asserts nothing."""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from tools.bench.load import PageLoad

# Issue 28's pages, in the table's order: the keys bench_pages and bench_busy_site hand them off by (``page=``).
PAGES = {
    "campaign": "campaign, 16 gangs, 4 cycles",
    "battle": "battle, 10 a side, 40 actions",
    "fighter": "fighter page (a Champion)",
    "postbattle": "post-battle list (arbitrator)",
    "history": "gang history, first page",
    "roster": "roster, 10 fighters",
}
# Served under gunicorn too: the two the goal names, the fighter page (cheap), and the roster (its earlier figures).
LOADED = ("campaign", "battle", "fighter", "roster")
FLOOR_GOAL = 3.0  # every page: at most 3x its login floor warm
SHARE_GOAL = 0.25  # the campaign and battle pages: at least 25% of /healthz under gunicorn
SHARE_PAGES = ("campaign", "battle")


@dataclass
class DatabaseFigures:
    """One database's figures: ``pages`` as bench_pages hands them off (queries, warm median, floor ratio), the
    load test's ``/healthz`` and pages, and the size of a generated site."""

    name: str
    pages: dict[str, dict]
    floor: PageLoad | None = None
    loads: dict[str, PageLoad] = field(default_factory=dict)
    size: dict[str, int] = field(default_factory=dict)


def _cells(figures: DatabaseFigures, page: str) -> str:
    measured, load = figures.pages.get(page), figures.loads.get(page)
    inproc = (
        f"{measured['queries']:>3} {measured['median_ms']:7.1f} {measured['floor_ratio']:6.1f}x"
        if measured
        else f"{'-':>3} {'-':>7} {'-':>7}"
    )
    served = f"{load.rate:7.1f} {load.share:6.1%} {load.requests:>5}" if load else f"{'-':>7} {'-':>6} {'-':>5}"
    return f"{inproc}  {served}"


def page_table(databases: list[DatabaseFigures]) -> list[str]:
    """The table's lines: a row per page, a column group per database; then the goals, the method and sizes."""
    header = f"{'q':>3} {'ms':>7} {'floor':>7}  {'req/s':>7} {'%hz':>6} {'reqs':>5}"
    width = len(header)
    lines = [
        f"{'':<31}" + " | ".join(f"{d.name:^{width}}" for d in databases),
        f"{'page':<31}" + " | ".join(header for _ in databases),
    ]
    for page, label in PAGES.items():
        lines.append(f"{label:<31}" + " | ".join(_cells(d, page) for d in databases))
    floors = []
    for d in databases:
        floors.append(
            f"{'':>3} {'':>7} {'':>7}  {d.floor.rate:7.1f} {'100%':>6} {d.floor.requests:>5}"
            if d.floor
            else f"{'':>{width}}"
        )
    lines.append(f"{'/healthz':<31}" + " | ".join(floors))
    rounds = max((len(d.floor.rounds) for d in databases if d.floor), default=0)
    lines += [
        f"goals: every page {FLOOR_GOAL:g}x its login floor or less (floor); the "
        f"{' and '.join(SHARE_PAGES)} pages {SHARE_GOAL:.0%} of /healthz or more (%hz)",
        "q, ms, floor: in-process (Django's test client, DEBUG off), warm: the queries of one request, the median of "
        "the timed requests and the median of each request's time over the login floor's (the same HTML from a "
        "view that only checks the login), interleaved",
        f"req/s, %hz, reqs: gunicorn, 2 workers, over loopback, 8 requests at a time on keep-alive connections; "
        f"{rounds} rounds of /healthz then each page, reqs requests each (a page's count set by its warm-up "
        f"rate); the median of the rounds' rates, and of each round's page rate over that round's /healthz",
    ]
    for d in databases:
        if d.size:
            lines.append(f"{d.name}: " + ", ".join(f"{n:,} {what}" for what, n in d.size.items()))
    load = ", ".join(f"{n:.2f}" for n in os.getloadavg())
    lines.append(
        f"wall-clock figures on a machine of {os.cpu_count()} cores; load average now {load} (other work on the "
        "machine slows every figure, and the shares and floor ratios less than the rates)"
    )
    return lines
