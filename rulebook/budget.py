"""How much work one answer may do: a bound the caller sets, spent by the exact computations as they go.

A page asks its odds inside :func:`bounded` (no request may hold a worker for long); the loops that grow with a
query - the dice of a fight, the hits chained on a fighter - :func:`spend` a step for each state they visit, and
an answer that would need more is refused with the reason (:class:`OverBudget`) instead of being computed. Steps,
not seconds: the same query is refused on every machine, however busy, and a test can say which. Without a
bound (the command line, which limits CPU seconds instead) nothing is counted.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from rulebook.errors import RulesInputError

# [steps left, steps allowed] while a bound is set.
_LEFT: ContextVar[list[int] | None] = ContextVar("rulebook_steps_left", default=None)


class OverBudget(RulesInputError):
    """The answer needs more steps of work than the bound allows."""

    def __init__(self, allowed: int):
        super().__init__(
            "query",
            f"its exact odds need more than the {allowed:,} steps of work allowed here "
            "(so many dice, hits and wounds that no page may spend that long on them)",
        )


@contextmanager
def bounded(steps: int) -> Iterator[None]:
    """Within this block, the answers may spend at most ``steps`` in all."""
    token = _LEFT.set([steps, steps])
    try:
        yield
    finally:
        _LEFT.reset(token)


def spend(steps: int) -> None:
    """Count ``steps`` of work against the bound, if one is set; :class:`OverBudget` once it is spent."""
    left = _LEFT.get()
    if left is None:
        return
    left[0] -= steps
    if left[0] < 0:
        raise OverBudget(left[1])
