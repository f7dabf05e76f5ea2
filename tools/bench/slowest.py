"""The slowest request of each kind the site's rules answer (issue 26, "no request takes a worker for long").

Each kind's worst query is the one its form allows at every bound: the most Attack dice, two parrying weapons
against hatred, six opponents in a multiple combat. Timed cold (the odds caches emptied) and warm (the same query
again, as a page asked twice answers), best of three; printed, never asserted. ``python -m tools.bench.slowest``
runs this part alone; ``make bench`` prints it first.
"""

from __future__ import annotations

import time

from rulebook import editions
from rulebook.classic import combat_score
from rulebook.query import Query

_TWELVE_DICE_TWO_SWORDS = {"WS": 5, "A": 10, "I": 5, "weapons": ["sword", "sword"], "extra_dice": 1}
_TWELVE_DICE_HATRED = {"WS": 5, "A": 10, "I": 4, "weapons": ["sword", "chain"], "hatred": True, "extra_dice": 1}

WORST = [
    (
        "classic fight: 12 dice, two swords against a sword and hatred",
        "classic",
        "fight",
        {"attacker": _TWELVE_DICE_TWO_SWORDS, "defender": _TWELVE_DICE_HATRED},
    ),
    (
        "classic fight: 12 dice a side, hatred both ways",
        "classic",
        "fight",
        {
            "attacker": {"WS": 5, "A": 10, "I": 5, "hatred": True, "extra_dice": 2},
            "defender": {"WS": 5, "A": 10, "I": 5, "hatred": True, "extra_dice": 2},
        },
    ),
    # Each later opponent adds a die and each bout is scored once per WS the lone fighter's flesh wounds can leave
    # him (issue 26: 3.5 s before, 0.4 s now); past battles.selectors.ODDS_STEPS a page leaves the odds out.
    (
        "classic multi-fight: 2 opponents of 10 dice with hatred against two swords",
        "classic",
        "multi-fight",
        {
            "fighter": _TWELVE_DICE_TWO_SWORDS,
            "opponents": [{"WS": 5, "A": 10, "I": 4, "hatred": True} for _ in range(2)],
        },
    ),
    (
        "classic multi-fight: 3 opponents of 4 dice against a sword",
        "classic",
        "multi-fight",
        {
            "fighter": {"WS": 4, "A": 2, "I": 4, "weapons": ["sword", "knife"]},
            "opponents": [{"WS": 3, "A": 4, "I": 3} for _ in range(3)],
        },
    ),
]


def _clear() -> None:
    for cached in (
        combat_score.score_counts,
        combat_score._kept_rolls,
        combat_score._fresh,
        combat_score._reroll_highest,
    ):
        cached.cache_clear()


def _best(call, repeat: int, cold: bool) -> float:
    best = float("inf")
    for _ in range(repeat):
        if cold:
            _clear()
        start = time.perf_counter()
        call()
        best = min(best, time.perf_counter() - start)
    return best


def slowest(repeat: int = 3) -> list[tuple[str, float, float]]:
    rows = []
    for label, edition, name, query in WORST:
        action = editions.action(edition, name)

        def call(action=action, query=query):
            return action.odds(Query(query))

        rows.append((label, _best(call, repeat, cold=True), _best(call, repeat, cold=False)))
    return rows


def print_slowest() -> None:
    print("== the slowest odds query of each kind a page can send (best of 3) ==", flush=True)
    for label, cold, warm in slowest():
        print(f"  {label:<66} cold {cold * 1000:8.1f} ms   again {warm * 1000:7.1f} ms", flush=True)


if __name__ == "__main__":
    print_slowest()
