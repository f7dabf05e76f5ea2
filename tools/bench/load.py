"""A bounded load test over loopback: a fixed number of GET requests at a fixed concurrency, keep-alive
connections, no third-party client. It only ever talks to 127.0.0.1."""

from __future__ import annotations

import http.client
import statistics
import threading
import time
from dataclasses import dataclass


@dataclass
class LoadFigures:
    requests: int
    errors: int
    seconds: float
    latencies: list[float]

    @property
    def rate(self) -> float:
        return self.requests / self.seconds if self.seconds else 0.0

    def percentile(self, share: float) -> float:
        ordered = sorted(self.latencies)
        return ordered[min(len(ordered) - 1, int(share * len(ordered)))] * 1000 if ordered else 0.0


def load_test(port: int, path: str, requests: int, concurrency: int, cookie: str = "") -> LoadFigures:
    """``requests`` GETs of ``path`` spread over ``concurrency`` threads; a non-200 answer is an error."""
    headers = {"Cookie": cookie} if cookie else {}
    latencies: list[float] = []
    errors = [0]
    lock = threading.Lock()
    share = [requests // concurrency + (1 if n < requests % concurrency else 0) for n in range(concurrency)]

    def worker(count: int) -> None:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        mine, failed = [], 0
        for _ in range(count):
            started = time.perf_counter()
            try:
                connection.request("GET", path, headers=headers)
                response = connection.getresponse()
                response.read()
                failed += response.status != 200
            except (OSError, http.client.HTTPException):
                failed += 1
                connection.close()
                connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            mine.append(time.perf_counter() - started)
        connection.close()
        with lock:
            latencies.extend(mine)
            errors[0] += failed

    threads = [threading.Thread(target=worker, args=(count,)) for count in share]
    started = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return LoadFigures(requests, errors[0], time.perf_counter() - started, latencies)


ROUNDS, CONCURRENCY, FLOOR_REQUESTS, PAGE_SECONDS = 3, 8, 1000, 5.0


@dataclass
class PageLoad:
    """One URL's load test over the rounds, each round's ``/healthz`` beside it (the share is taken within a round,
    so a neighbour's load on a shared machine weighs on both of its figures alike)."""

    rounds: list[LoadFigures]
    floors: list[LoadFigures]

    @property
    def requests(self) -> int:
        return self.rounds[0].requests

    @property
    def errors(self) -> int:
        return sum(r.errors for r in self.rounds)

    @property
    def rate(self) -> float:
        return statistics.median(r.rate for r in self.rounds)

    @property
    def share(self) -> float:
        return statistics.median(
            r.rate / f.rate if f.rate else 0.0 for r, f in zip(self.rounds, self.floors, strict=True)
        )

    def percentile(self, share: float) -> float:
        return LoadFigures(0, 0, 0.0, [t for r in self.rounds for t in r.latencies]).percentile(share)


def load_pages(
    port: int,
    paths: dict[str, str],
    cookie: str,
    *,
    rounds: int = ROUNDS,
    concurrency: int = CONCURRENCY,
    seconds: float = PAGE_SECONDS,
    floor_requests: int = FLOOR_REQUESTS,
) -> tuple[PageLoad, dict[str, PageLoad]]:
    """``/healthz`` and each of ``paths`` under load: first 20 untimed requests a thread to each (the workers'
    connections and caches), whose rate sets the page's request count (what it answers in about ``seconds``: at
    least 10 a thread, at most ``floor_requests``, so a slow page costs seconds, not minutes); then ``rounds``
    rounds of ``floor_requests`` to ``/healthz`` followed by each page's count."""
    warm = {key: load_test(port, path, 20 * concurrency, concurrency, cookie=cookie) for key, path in paths.items()}
    load_test(port, "/healthz", 20 * concurrency, concurrency)
    counts = {key: max(10 * concurrency, min(floor_requests, round(w.rate * seconds))) for key, w in warm.items()}
    floors: list[LoadFigures] = []
    pages: dict[str, list[LoadFigures]] = {key: [] for key in paths}
    for _ in range(rounds):
        floors.append(load_test(port, "/healthz", floor_requests, concurrency))
        for key, path in paths.items():
            pages[key].append(load_test(port, path, counts[key], concurrency, cookie=cookie))
    return PageLoad(floors, floors), {key: PageLoad(figures, floors) for key, figures in pages.items()}
