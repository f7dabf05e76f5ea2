"""``python -m rulebook bench``: times representative exact-odds queries on this machine.

Each edition lists its representative queries in ``BENCHMARKS`` as (label, action, query).
The figures are printed, not asserted: tests never depend on wall-clock time.
"""

from __future__ import annotations

import time

from rulebook import editions
from rulebook.query import Query


def _time(fn, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def run(repeat: int = 5) -> dict:
    results = []
    for edition in editions.EDITIONS:
        module = editions.edition_module(edition)
        for label, action_name, query in getattr(module, "BENCHMARKS", ()):
            action = editions.action(edition, action_name)
            seconds = _time(lambda action=action, query=query: action.odds(Query(query)), repeat)
            target = getattr(module, "BENCHMARK_TARGETS_MS", {}).get(label)
            results.append(
                {
                    "edition": edition,
                    "query": label,
                    "best_ms": round(seconds * 1000, 3),
                    "target_ms": target,
                    "within_target": None if target is None else seconds * 1000 <= target,
                }
            )
    return {"repeat": repeat, "results": results}
