"""The bench's own code (make bench prints figures and asserts nothing; what is tested here is that it measures
and prints what issue 28 asks for): the load test's rounds, the side-by-side table, and the pages' handoff."""

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from django.test import Client
from django.test.utils import override_settings

from tools.bench.load import LoadFigures, PageLoad, load_pages
from tools.bench.table import PAGES, DatabaseFigures, page_table


@pytest.fixture
def server():
    """A loopback server answering every GET with 200 on keep-alive connections, counting the paths asked."""
    asked: dict[str, int] = {}
    lock = threading.Lock()

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_GET(self):
            with lock:
                asked[self.path] = asked.get(self.path, 0) + 1
            self.send_response(200)
            self.send_header("Content-Length", "2")
            self.end_headers()
            self.wfile.write(b"ok")

        def log_message(self, *args):
            pass

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield httpd.server_address[1], asked
    httpd.shutdown()
    httpd.server_close()


def test_each_page_is_loaded_in_every_round_beside_that_rounds_healthz(server):
    port, asked = server
    floor, loads = load_pages(
        port, {"campaign": "/c/", "battle": "/b/"}, "sessionid=x", rounds=2, concurrency=2, floor_requests=10
    )
    assert set(loads) == {"campaign", "battle"}
    assert len(floor.rounds) == 2 and all(
        len(load.rounds) == 2 and load.floors == floor.rounds for load in loads.values()
    )
    # A page's count: what it answered in the warm-up's seconds, at least 10 a thread, at most the floor's.
    assert all(load.requests == 20 and load.errors == 0 for load in loads.values())
    # 20 untimed a thread to each, then per round 10 to /healthz and 20 to each page.
    assert asked == {"/healthz": 40 + 2 * 10, "/c/": 40 + 2 * 20, "/b/": 40 + 2 * 20}


def _load(rates: list[float], floor_rates: list[float]) -> PageLoad:
    def figures(rate):
        return LoadFigures(100, 0, 100 / rate, [0.01] * 100)

    return PageLoad([figures(r) for r in rates], [figures(r) for r in floor_rates])


def test_the_table_has_a_row_per_page_with_both_databases_side_by_side():
    floors = [1000.0, 800.0, 1200.0]
    small = DatabaseFigures(
        "bench database",
        {p: {"queries": 3, "median_ms": 4.0, "floor_ratio": 2.5} for p in PAGES},
        floor=_load(floors, floors),
        loads={"campaign": _load([300.0, 200.0, 240.0], floors)},
    )
    busy = DatabaseFigures(
        "busy site, scale 0.02",
        {p: {"queries": 20, "median_ms": 150.0, "floor_ratio": 45.0} for p in PAGES if p != "postbattle"},
        floor=_load(floors, floors),
        loads={"campaign": _load([12.5, 10.0, 15.0], floors)},
        size={"users": 101, "gangs": 402, "fighters": 4020, "campaigns": 11, "battles": 200, "ledger entries": 2010},
    )
    lines = page_table([small, busy])
    assert "bench database" in lines[0] and "busy site, scale 0.02" in lines[0]
    rows = {label: next(line for line in lines if line.startswith(label)) for label in PAGES.values()}
    for row in rows.values():  # each page's in-process figures from both databases, on one line
        assert row.count("2.5x") == 1
    assert all(row.count("45.0x") == 1 for page, row in zip(PAGES, rows.values(), strict=True) if page != "postbattle")
    # The campaign's share of /healthz: the median of each round's share (30%, 25%, 20%; 1.25%, 1.25%, 1.25%).
    assert "25.0%" in rows[PAGES["campaign"]] and "1.2%" in rows[PAGES["campaign"]]
    assert any(line.startswith("/healthz") and "1000.0" in line for line in lines)
    assert (
        "busy site, scale 0.02: 101 users, 402 gangs, 4,020 fighters, 11 campaigns, 200 battles, 2,010 ledger entries"
        in lines
    )


@pytest.mark.django_db
def test_a_measured_page_is_handed_off_with_its_url_and_floor_ratio(tmp_path, make_user):
    from tools.management.commands import bench_pages

    command = bench_pages.Command()
    command.runs, command.user, command.client = 1, make_user(), Client()
    command.client.force_login(command.user)
    command.measured = {}
    with override_settings(ROOT_URLCONF=bench_pages.__name__):
        command.measure("a page", "/healthz", with_floor=True, page="campaign")
        command.measure("another, unnamed", "/healthz", with_floor=True)
    command.hand_off(str(tmp_path / "handoff.json"), size={"users": 1})
    handed = json.loads((tmp_path / "handoff.json").read_text())
    assert set(handed["pages"]) == {"campaign"} and handed["size"] == {"users": 1} and handed["session"]
    assert handed["pages"]["campaign"]["url"] == "/healthz" and handed["pages"]["campaign"]["label"] == "a page"
    assert handed["pages"]["campaign"]["floor_ratio"] > 0 and handed["pages"]["campaign"]["queries"] >= 0
