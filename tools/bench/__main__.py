"""The bench driver (see :mod:`tools.bench`): a database of its own, the in-process page figures, the load test."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path

from tools.bench.load import load_pages
from tools.bench.notifications import notifications_bench
from tools.bench.slowest import print_slowest
from tools.bench.table import LOADED, DatabaseFigures, page_table

BASE_DIR = Path(__file__).resolve().parents[2]
PYTHON = sys.executable
PG_URL = "postgres://postgres@127.0.0.1:5432/"
# BENCH_DB names the databases (it and <it>_busy, dropped at the end): two checkouts benching on one server at once
# must not drop each other's.
BENCH_DB = os.environ.get("BENCH_DB", "underhive_bench")


def _pg_answers() -> bool:
    try:
        socket.create_connection(("127.0.0.1", 5432), 1).close()
    except OSError:
        return False
    return True


def _pg(sql: str, url: str) -> None:
    import psycopg

    with psycopg.connect(url + "postgres", autocommit=True) as connection:
        connection.execute(sql)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _manage(env: dict, *args: str, quiet: bool = False) -> None:
    out = subprocess.DEVNULL if quiet else None
    subprocess.run([PYTHON, "manage.py", *args], cwd=BASE_DIR, env=env, check=True, stdout=out)


@contextmanager
def bench_database(name: str):
    """The environment of a fresh database ``name`` (on the server DATABASE_URL names, else a local PostgreSQL if
    one answers, else an SQLite file), dropped afterwards."""
    base = os.environ.get("DATABASE_URL", "")
    server = base.rsplit("/", 1)[0] + "/" if base.startswith("postgres") else (PG_URL if _pg_answers() else "")
    workdir = Path(tempfile.mkdtemp(prefix="underhive-bench-"))
    if server:
        url = server + name
        _pg(f"DROP DATABASE IF EXISTS {name}", server)
        _pg(f"CREATE DATABASE {name}", server)
    else:
        url = f"sqlite:///{workdir / 'bench.sqlite3'}"
    env = {
        **os.environ,
        "DATABASE_URL": url,
        "DEBUG": "0",
        "SECRET_KEY": "bench-only-not-a-secret",
        "ALLOWED_HOSTS": "127.0.0.1,localhost,testserver",
        "SECURE_SSL_REDIRECT": "0",
        "LOG_LEVEL": "WARNING",
    }
    try:
        yield env
    finally:
        if server:
            _pg(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)", server)


def main(argv: list[str] | None = None) -> int:
    import argparse

    parser = argparse.ArgumentParser(prog="python -m tools.bench")
    parser.add_argument(
        "--busy-site",
        type=float,
        metavar="SCALE",
        default=None,
        help="Also build a busy site's database (1 = the issue's 5,000 users, 20,000 gangs, 500 campaigns) and "
        "measure its pages and load; 0.02 suits a shared machine.",
    )
    parser.add_argument("--busy-only", action="store_true", help="Only the busy site (with --busy-site).")
    options = parser.parse_args(argv)
    databases = []
    if not options.busy_only:
        with bench_database(BENCH_DB) as env:
            databases.append(_pages_and_load(env))
            notifications_bench(PYTHON, BASE_DIR, env)
    if options.busy_site is not None:
        with bench_database(BENCH_DB + "_busy") as env:
            databases.append(_busy_site(env, options.busy_site))
    print("\n== issue 28: the pages against their floors, side by side ==")
    print("\n".join(page_table(databases)), flush=True)
    return 0


def _busy_site(env: dict, scale: float) -> DatabaseFigures:
    """The busy site (manage.py bench_busy_site: its pages in-process), then its pages under gunicorn."""
    workdir = Path(tempfile.mkdtemp(prefix="underhive-bench-"))
    print(f"\n== a busy site at scale {scale:g} ==", flush=True)
    for setup in (("migrate", "--noinput"), ("load_content",), ("collectstatic", "--noinput")):
        _manage(env, *setup, quiet=True)
    handoff = workdir / "busy.json"
    _manage(env, "bench_busy_site", "--scale", str(scale), "--handoff", str(handoff))
    return _served(env, f"busy site, scale {scale:g}", json.loads(handoff.read_text()))


def _served(env: dict, name: str, handed: dict) -> DatabaseFigures:
    """Issue 28's loaded pages under gunicorn (tools.bench.load.load_pages), each line printed as it comes."""
    paths = {page: handed["pages"][page]["url"] for page in LOADED if page in handed["pages"]}
    with _gunicorn(env) as port:
        print(f"\nLoad test ({name}): gunicorn, 2 workers on 127.0.0.1:{port}", flush=True)
        floor, loads = load_pages(port, paths, f"sessionid={handed['session']}")
    for page, load in (("/healthz", floor), *loads.items()):
        print(
            f"  {page:<12} {load.rate:8.1f} req/s ({load.share:.1%} of /healthz)  {load.requests} requests x "
            f"{len(load.rounds)} rounds  p50 {load.percentile(0.5):6.1f} ms  p99 {load.percentile(0.99):6.1f} ms  "
            f"errors {load.errors}",
            flush=True,
        )
    return DatabaseFigures(name, handed["pages"], floor, loads, handed.get("size", {}))


@contextmanager
def _gunicorn(env: dict):
    port = _free_port()
    command = [PYTHON, "-m", "gunicorn", "necromunda_site.wsgi", "--bind", f"127.0.0.1:{port}", "--workers", "2"]
    server = subprocess.Popen([*command, "--log-level", "warning"], cwd=BASE_DIR, env=env)
    try:
        _wait_for(port)
        yield port
    finally:
        server.terminate()
        server.wait(timeout=30)


def _pages_and_load(env: dict) -> DatabaseFigures:
    server = env["DATABASE_URL"].startswith("postgres")
    workdir = Path(tempfile.mkdtemp(prefix="underhive-bench-"))
    print_slowest()
    print(f"== pages and load on {'PostgreSQL' if server else 'SQLite'}, DEBUG off ==", flush=True)
    for setup in (("migrate", "--noinput"), ("load_content",), ("collectstatic", "--noinput")):
        _manage(env, *setup, quiet=True)
    handoff = workdir / "load.json"
    _manage(env, "bench_pages", "--handoff", str(handoff))
    _manage(env, "bench_imports")
    figures = _served(env, "bench database", json.loads(handoff.read_text()))
    print("\nA whole campaign played by the machine, invariants checked after every step:", flush=True)
    for edition in ("n18", "classic"):
        _manage(env, "simulate_campaign", "--edition", edition, "--gangs", "8", "--cycles", "3", "--seed", "7")
    # Issue 21's runs: the battle that never ended, and its large campaigns (16 gangs, 10 cycles, seeds 5 and 6: one
    # stopped on the rescue invariant, one battle's End phase raised prompts past 1,400 actions) of each policy,
    # reconciled. Each run prints its time per battle cycle by cycle (issue 28: it must not grow with the
    # campaign's age).
    _manage(env, "simulate_campaign", "--edition", "n18", "--gangs", "5", "--cycles", "3", "--seed", "90210")
    for seed in ("5", "6"):
        for policy in ("assistant", "hand"):
            large = ("--gangs", "16", "--cycles", "10", "--seed", seed, "--policy", policy)
            _manage(env, "simulate_campaign", "--edition", "n18", *large)
    return figures


def _wait_for(port: int) -> None:
    for _ in range(100):
        try:
            socket.create_connection(("127.0.0.1", port), 1).close()
            return
        except OSError:
            time.sleep(0.1)
    raise SystemExit("gunicorn did not start")


if __name__ == "__main__":
    sys.exit(main())
