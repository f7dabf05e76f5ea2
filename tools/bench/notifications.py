"""The notification bench (issue 23): 1,000 campaign events queued and delivered by the real worker
(``manage.py worker`` on the database queue) to a Discord stand-in on a loopback port, the worker killed
(SIGKILL) half-way and started again; it prints events a second and how many were lost or sent twice.

Run with ``make bench`` or alone: ``python -m tools.bench.notifications`` (a database of its own, dropped after).
The receiver is loopback http, which the webhook check allows only in DEBUG, so this part runs with DEBUG on.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import threading
import time
from collections import Counter
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

EVENTS = 1000
BOUND_SECONDS = 300  # the bench gives up (and says so) rather than wait for ever


class _Receiver:
    """Counts the Discord posts by cycle number: each event of the bench is one cycle begun."""

    def __init__(self):
        self.seen: Counter[int] = Counter()
        self.lock = threading.Lock()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                number = int(re.search(r"Cycle (\d+) has begun", body["content"]).group(1))
                with receiver.lock:
                    receiver.seen[number] += 1
                self.send_response(204)
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_port}/api/webhooks/bench/token"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def distinct(self) -> int:
        with self.lock:
            return len(self.seen)

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def _worker(python: str, cwd, env: dict) -> subprocess.Popen:
    return subprocess.Popen(
        [python, "manage.py", "worker", "--no-reload", "--no-startup-delay", "--interval", "0.05", "--verbosity", "0"],
        cwd=cwd,
        env=env,
    )


def _wait(receiver: _Receiver, count: int, deadline: float) -> bool:
    while receiver.distinct() < count:
        if time.monotonic() > deadline:
            return False
        time.sleep(0.01)
    return True


def notifications_bench(python: str, cwd, env: dict) -> None:
    env = {**env, "DEBUG": "1", "SITE_URL": "https://ledger.example"}
    receiver = _Receiver()
    worker = None
    try:
        queued = subprocess.run(
            [python, "manage.py", "bench_notifications", "--queue", str(EVENTS), "--webhook", receiver.url],
            cwd=cwd,
            env=env,
            check=True,
            capture_output=True,
            text=True,
        )
        queue_seconds = json.loads(queued.stdout)["seconds"]
        print(
            f"\nNotifications: {EVENTS} events queued in {queue_seconds:.1f} s ({EVENTS / queue_seconds:.0f} a "
            f"second, each in its own transaction, waking the worker through the Tasks API)",
            flush=True,
        )
        deadline = time.monotonic() + BOUND_SECONDS
        started = time.perf_counter()
        worker = _worker(python, cwd, env)
        reached = _wait(receiver, EVENTS // 2, deadline)
        worker.send_signal(signal.SIGKILL)  # no goodbye: whatever it was sending is cut off
        worker.wait()
        at_kill = receiver.distinct()
        first_run = time.perf_counter() - started
        restarted = time.perf_counter()
        worker = _worker(python, cwd, env)
        done = reached and _wait(receiver, EVENTS, deadline)
        second_run = time.perf_counter() - restarted
        time.sleep(0.5)  # anything sent twice arrives now
        worker.send_signal(signal.SIGTERM)
        worker.wait(timeout=30)
        worker = None
        status = subprocess.run(
            [python, "manage.py", "bench_notifications", "--status"],
            cwd=cwd,
            env=env,
            check=True,
            capture_output=True,
            text=True,
        )
        counts = json.loads(status.stdout)
        seconds = first_run + second_run
        twice = sum(n - 1 for n in receiver.seen.values() if n > 1)
        lost = EVENTS - receiver.distinct()
        print(
            f"  delivered {receiver.distinct()} to a local webhook in {seconds:.1f} s of worker time "
            f"({receiver.distinct() / seconds:.0f} events a second, one worker), killed (SIGKILL) after {at_kill} "
            f"and started again",
            flush=True,
        )
        print(
            f"  lost: {lost}{'' if done else f' (gave up waiting after {BOUND_SECONDS} s)'}; sent twice: {twice}; "
            f"outbox after: {counts['deliveries']}, {counts['unexpanded']} events not yet expanded",
            flush=True,
        )
    finally:
        if worker is not None:
            worker.kill()
            worker.wait()
        receiver.close()


if __name__ == "__main__":
    from tools.bench.__main__ import BASE_DIR, PYTHON, bench_database

    with bench_database("underhive_bench_notifications") as bench_env:
        subprocess.run(
            [PYTHON, "manage.py", "migrate", "--noinput"],
            cwd=BASE_DIR,
            env=bench_env,
            check=True,
            stdout=subprocess.DEVNULL,
        )
        subprocess.run(
            [PYTHON, "manage.py", "load_content"], cwd=BASE_DIR, env=bench_env, check=True, stdout=subprocess.DEVNULL
        )
        notifications_bench(PYTHON, BASE_DIR, bench_env)
    os._exit(0)
