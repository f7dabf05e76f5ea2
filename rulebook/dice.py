"""Dice: what each die shows, its exact distribution, and where rolls come from.

The 1995 rulebook ("What You Will Need: Dice") names four dice: the ordinary D6, the
Sustained Fire dice (1, 1, 2, 2, 3 and a Jam symbol), the Artillery dice (2, 4, 6, 8, 10 and a
Misfire symbol) and the Scatter dice (four arrows and two Hit symbols). D3, 2D6 and D66 are
read from ordinary dice. The 2018+ rules use the same D6, D3, 2D6 and D66, and add the Firepower dice:
five faces show one, two or three bullet holes (1, 1, 2, 2, 3) and the sixth shows the Ammo symbol beside
one bullet hole, entered as ``1a`` (https://necrovox.org/docs/the-rules/shooting, "The Firepower Dice";
what each face means is in ``rulebook.n18.shooting``).

A :class:`DiceSource` hands out rolls and keeps a log of every die it rolled and what for.
Three sources exist: :class:`RandomDice` for real rolls, :class:`SeededDice` for reproducible
ones (``--seed``) and :class:`ScriptedDice` for dice a player rolled at the table and entered.
Rules code takes a source as an argument and never rolls anything else.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass
from fractions import Fraction

from rulebook.errors import RulesInputError
from rulebook.numbers import is_whole_number, whole_number

JAM = "jam"
MISFIRE = "misfire"
HIT = "hit"
ARROW = "arrow"
AMMO_FACE = "1a"  # the Firepower dice's Ammo symbol, with its one bullet hole


@dataclass(frozen=True)
class Die:
    """A die whose faces are equally likely; a face may repeat (the Sustained Fire dice)."""

    name: str
    faces: tuple

    def distribution(self) -> dict:
        share = Fraction(1, len(self.faces))
        dist: dict = {}
        for face in self.faces:
            dist[face] = dist.get(face, 0) + share
        return dist


D3 = Die("D3", (1, 2, 3))
D6 = Die("D6", (1, 2, 3, 4, 5, 6))
SUSTAINED_FIRE = Die("Sustained Fire", (1, 1, 2, 2, 3, JAM))
ARTILLERY = Die("Artillery", (2, 4, 6, 8, 10, MISFIRE))
SCATTER = Die("Scatter", (HIT, HIT, ARROW, ARROW, ARROW, ARROW))
FIREPOWER = Die("Firepower", (1, 1, 2, 2, 3, AMMO_FACE))

DICE = {die.name: die for die in (D3, D6, SUSTAINED_FIRE, ARTILLERY, SCATTER, FIREPOWER)}


# --- exact distributions -------------------------------------------------------------
# A distribution is a dict from outcome to Fraction whose values sum to 1.

Dist = dict


def certain(value: Hashable) -> Dist:
    return {value: Fraction(1)}


def map_dist(dist: Dist, f: Callable) -> Dist:
    """The distribution of ``f(outcome)``."""
    out: Dist = {}
    for value, p in dist.items():
        key = f(value)
        out[key] = out.get(key, 0) + p
    return out


def combine(a: Dist, b: Dist, f: Callable) -> Dist:
    """The distribution of ``f(x, y)`` for independent ``x ~ a`` and ``y ~ b``."""
    out: Dist = {}
    for x, px in a.items():
        for y, py in b.items():
            key = f(x, y)
            out[key] = out.get(key, 0) + px * py
    return out


def mix(branches: Iterable[tuple[Fraction, Dist]]) -> Dist:
    """Weighted sum of distributions: ``branches`` are (probability, distribution) pairs."""
    out: Dist = {}
    for weight, dist in branches:
        if not weight:
            continue
        for value, p in dist.items():
            out[value] = out.get(value, 0) + weight * p
    return out


def chain(dist: Dist, then: Callable[[Hashable], Dist]) -> Dist:
    """For each outcome, continue with the distribution ``then(outcome)`` (a two-step roll)."""
    return mix((p, then(value)) for value, p in dist.items())


def sum_of(die: Die, count: int) -> Dist:
    """The distribution of the total of ``count`` dice (numeric faces only)."""
    total = certain(0)
    for _ in range(count):
        total = combine(total, die.distribution(), lambda x, y: x + y)
    return total


def probability(dist: Dist, predicate: Callable[[Hashable], bool]) -> Fraction:
    return sum((p for value, p in dist.items() if predicate(value)), Fraction(0))


def d6_at_least(target: int) -> Fraction:
    """Chance that one D6 scores ``target`` or more (0 above 6, 1 at or below 1)."""
    return Fraction(min(6, max(0, 7 - target)), 6)


TWO_D6 = sum_of(D6, 2)
D66_VALUES = tuple(10 * tens + units for tens in range(1, 7) for units in range(1, 7))
D66 = {value: Fraction(1, 36) for value in D66_VALUES}


# --- where rolls come from -------------------------------------------------------------


@dataclass(frozen=True)
class Roll:
    die: str
    purpose: str
    value: object

    def as_json(self) -> dict:
        return {"die": self.die, "for": self.purpose, "value": self.value}


class DiceSource:
    """Hands out faces of dice and remembers each roll and what it was for."""

    def __init__(self) -> None:
        self.rolls: list[Roll] = []

    def _face(self, die: Die, purpose: str):
        raise NotImplementedError

    def roll(self, die: Die, purpose: str):
        face = self._face(die, purpose)
        self.rolls.append(Roll(die.name, purpose, face))
        return face

    def d6(self, purpose: str) -> int:
        return self.roll(D6, purpose)

    def d3(self, purpose: str) -> int:
        return self.roll(D3, purpose)

    def two_d6(self, purpose: str) -> tuple[int, int]:
        return self.d6(f"{purpose} (first die)"), self.d6(f"{purpose} (second die)")

    def d66(self, purpose: str) -> int:
        """Tens die first, then units die (each a D6), read as 11-66."""
        return 10 * self.d6(f"{purpose} (tens)") + self.d6(f"{purpose} (units)")

    def log(self) -> list[dict]:
        return [r.as_json() for r in self.rolls]


class RandomDice(DiceSource):
    """Real rolls from the operating system's randomness."""

    def __init__(self) -> None:
        super().__init__()
        self._random = random.SystemRandom()

    def _face(self, die: Die, purpose: str):
        return self._random.choice(die.faces)


class SeededDice(DiceSource):
    """Reproducible rolls: the same seed gives the same dice."""

    def __init__(self, seed: int) -> None:
        super().__init__()
        self._random = random.Random(seed)

    def _face(self, die: Die, purpose: str):
        return self._random.choice(die.faces)


class DiceNeeded(RulesInputError):
    """Dice entered from the table ran out: ``index`` (from 0) is the die the rules want next, a ``die`` rolled for
    ``purpose``. Lets a caller ask for the dice one at a time, each with its own faces."""

    def __init__(self, index: int, die: Die, purpose: str, given: int):
        self.index, self.die, self.purpose = index, die, purpose
        super().__init__(
            "dice", f"ran out of dice: roll {index + 1} is a {die.name} for {purpose}, but only {given} were given"
        )


class WrongFace(RulesInputError):
    """A die entered from the table shows a value its die does not have: ``index`` (from 0) says which."""

    def __init__(self, index: int, die: Die, purpose: str, value):
        self.index, self.die, self.purpose, self.value = index, die, purpose, value
        faces = ", ".join(str(f) for f in dict.fromkeys(die.faces))
        super().__init__(
            "dice",
            f"roll {index + 1} ({value}) is not a face of the {die.name} die rolled for {purpose}; it shows {faces}",
        )


class ScriptedDice(DiceSource):
    """Dice a player rolled at the table, used in the order given.

    Values are ints or the words ``jam``, ``misfire``, ``hit``, ``arrow`` for the special dice, and ``1a`` for
    the Firepower dice's Ammo face.
    Running out, or a value that the die cannot show, is a :class:`RulesInputError` on ``dice``.
    """

    def __init__(self, values: Iterable) -> None:
        super().__init__()
        self._values = list(values)
        self._next = 0

    @property
    def remaining(self) -> int:
        return len(self._values) - self._next

    def _face(self, die: Die, purpose: str):
        if self._next >= len(self._values):
            raise DiceNeeded(self._next, die, purpose, len(self._values))
        value = self._values[self._next]
        if is_whole_number(value):
            value = whole_number(value)
        elif isinstance(value, str):
            value = value.strip().lower()
        if value not in die.faces:
            raise WrongFace(self._next, die, purpose, value)
        self._next += 1
        return value


def entered_or_random(entered: Iterable | None) -> DiceSource:
    """The dice the players entered at the table, used in order, or the server's own rolls when they entered
    none (an empty entry means "roll for us")."""
    return ScriptedDice(entered) if entered else RandomDice()


class ReplayDice(DiceSource):
    """Dice already rolled, handed out again for the same purposes: each recorded roll answers the next
    request for the same die and purpose, in the order they were rolled. A request with no recorded roll
    left goes to ``fallback`` (the server's dice or the table's) and is recorded from then on.

    This is how a die stays final: going back to a step and choosing differently cannot roll a die again
    for a purpose it was already rolled for. ``kept()`` lists every roll known, the ones not asked for this
    time included, so going back again still finds them."""

    def __init__(self, recorded: Iterable[dict], fallback: DiceSource) -> None:
        super().__init__()
        self._recorded = [dict(r) for r in recorded]
        self._used = [False] * len(self._recorded)
        self.fallback = fallback
        self.fresh: list[dict] = []

    def _face(self, die: Die, purpose: str):
        for i, row in enumerate(self._recorded):
            if not self._used[i] and row["die"] == die.name and row["for"] == purpose:
                self._used[i] = True
                return row["value"]
        face = self.fallback.roll(die, purpose)
        self.fresh.append({"die": die.name, "for": purpose, "value": face})
        return face

    @property
    def replayed(self) -> int:
        return sum(self._used)

    def kept(self) -> list[dict]:
        return [*self._recorded, *self.fresh]


def parse_dice(text: str) -> list:
    """Parse ``"4,3,6"``, ``"2 jam 3"`` or ``"4,1a"`` into the list :class:`ScriptedDice` takes."""
    tokens = [t for t in text.replace(",", " ").split() if t]
    if not tokens:
        raise RulesInputError("dice", "give at least one die, e.g. --dice 4,3,6")
    # A die is a number or a face's word (``jam``, ``1a``), in plain ASCII: ``²`` or ``①`` is neither.
    for token in tokens:
        if not (token.isascii() and token.isalnum() or is_whole_number(token)):
            raise RulesInputError("dice", f"{token!r} is not a die: type numbers such as 4 3 6, or a face's word")
    return [whole_number(t) if is_whole_number(t) else t.lower() for t in tokens]
