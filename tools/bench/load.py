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

    def line(self) -> str:
        return (
            f"{self.rate:8.1f} req/s  p50 {self.percentile(0.5):6.1f} ms  p99 {self.percentile(0.99):6.1f} ms  "
            f"errors {self.errors}"
        )


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


def ratio_line(page: LoadFigures, floor: LoadFigures, name: str = "roster") -> str:
    share = page.rate / floor.rate if floor.rate else 0.0
    return (
        f"{name} rate / /healthz rate: {share:.1%} (goal: 25% or more); "
        f"median latency x{_median_ratio(page, floor):.1f}"
    )


def _median_ratio(page: LoadFigures, floor: LoadFigures) -> float:
    low = statistics.median(floor.latencies) if floor.latencies else 0.0
    return statistics.median(page.latencies) / low if low else 0.0
