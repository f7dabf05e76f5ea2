"""Who plays whom in a cycle of the club campaign: random pairing in Cycle 1, challenges from Cycle 2.

Source: the club campaign guide "Playing Necromunda Games in Cycle 1 & 2", section Issuing
Challenges: in Cycle 1 gangs are matched at random among those who want to play; from Cycle 2 the
players issue challenges, starting with the gangs with the lowest ratings. The guide is silent on
three points, read here as follows:

- an odd number of gangs leaves one gang out; it is picked at random first, so every gang is
  equally likely to sit out, and the arbitrator records it (and may re-roll or adjust);
- pairs are drawn by taking the first gang left and picking its opponent at random among the rest,
  which makes every way of pairing the gangs equally likely;
- gangs with equal ratings challenge in order of lower Reputation, then name (a fixed order a club
  can check, where the guide gives none).

Dice: each pick uses :func:`rulebook.roster.pick_index` (D6s read as bands, every die shown).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from rulebook.dice import DiceSource
from rulebook.errors import RulesInputError
from rulebook.roster import pick_index

GUIDE = "club campaign guide 'Playing Necromunda Games in Cycle 1 & 2', Issuing Challenges"


@dataclass(frozen=True)
class Contender:
    """A gang as matchmaking sees it: an id, its rating and Reputation, a name for ties and messages."""

    id: str
    rating: int
    reputation: int = 0
    name: str = ""


@dataclass(frozen=True)
class Pairing:
    pairs: tuple[tuple[str, str], ...]
    odd_one_out: str | None
    dice: tuple[dict, ...]

    def as_json(self) -> dict:
        return {"pairs": [list(p) for p in self.pairs], "odd_one_out": self.odd_one_out, "dice": list(self.dice)}


def _distinct(ids: Sequence[str], field: str) -> list[str]:
    ids = list(ids)
    if len(set(ids)) != len(ids):
        raise RulesInputError(field, "each gang may appear only once")
    return ids


def pair_at_random(gang_ids: Sequence[str], dice: DiceSource) -> Pairing:
    """Cycle 1: pair the gangs who want to play at random; with an odd number one sits out."""
    rest = _distinct(gang_ids, "gangs")
    if len(rest) < 2:
        raise RulesInputError("gangs", "pairing needs at least two gangs who want to play")
    mark = len(dice.rolls)
    odd = None
    if len(rest) % 2:
        odd = rest.pop(pick_index(len(rest), dice, f"Cycle 1 pairing: the gang left out, among {len(rest)}"))
    pairs = []
    while rest:
        first = rest.pop(0)
        purpose = f"Cycle 1 pairing: opponent of {first}, among {len(rest)}"
        pairs.append((first, rest.pop(pick_index(len(rest), dice, purpose))))
    return Pairing(tuple(pairs), odd, tuple(r.as_json() for r in dice.rolls[mark:]))


def challenge_order(contenders: Iterable[Contender], *, done: Iterable[str] = ()) -> list[Contender]:
    """From Cycle 2: the gangs still to issue a challenge, lowest rating first (ties: lower
    Reputation, then name). ``done`` are the gangs already in a battle this cycle or who passed."""
    finished = set(done)
    waiting = [c for c in contenders if c.id not in finished]
    _distinct([c.id for c in waiting], "gangs")
    return sorted(waiting, key=lambda c: (c.rating, c.reputation, c.name, c.id))


def next_challenger(contenders: Iterable[Contender], *, done: Iterable[str] = ()) -> Contender | None:
    """The gang whose turn it is to issue a challenge, or None when every gang has played or passed."""
    order = challenge_order(contenders, done=done)
    return order[0] if order else None


def roll_off(first: str, second: str, dice: DiceSource) -> tuple[str, tuple[dict, ...]]:
    """A roll-off: each side rolls a D6, ties roll again; the higher scorer wins. Outside a challenge
    the scenarios with an attacker and a defender let the winner decide (guide, Smash & Grab and The
    Trap, Attacker & Defender)."""
    if first == second:
        raise RulesInputError("gangs", "a roll-off needs two different gangs")
    mark = len(dice.rolls)
    while True:
        a, b = dice.d6(f"Roll-off: {first}"), dice.d6(f"Roll-off: {second}")
        if a != b:
            return (first if a > b else second), tuple(r.as_json() for r in dice.rolls[mark:])
