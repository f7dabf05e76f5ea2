"""Hand-to-hand combat in the 1995 rules, up to the winner: the fighters, their Attack dice, Combat Scores,
the winner and the number of hits.

Sources: 1995 rulebook, Hand-to-Hand Combat ("Procedure", "Attack Dice", "Fighting with Two Weapons",
"Combat Score Modifiers", "Number of Hits", "The Parry", "Fumble", "Critical Hits", "Multiple Combats");
Leadership ("Combat with Broken Fighters"); Advanced Rules ("Stupidity", "Hatred", "Frenzy"); and
seed-notes 9 and 10 on when a parry is used and how frenzy meets it.

How a combat is scored here:

- Each fighter rolls Attacks dice (doubled when frenzied), one more for a weapon in each
  hand (not when he also carries a basic, special or heavy weapon), plus the extra dice of
  a later opponent in a multiple combat; a stupefied fighter rolls none.
- His Combat Score is his highest die, plus his WS (0 while broken), plus 1 for each further
  6 (critical hits), plus 1 for each 1 his opponent rolled (fumbles), plus charging +1,
  higher up +1, encumbered -1, obstacle -1 and the multiple-combat bonus. Only the difference
  of the two scores matters, so each roll is reduced to its *net*: highest die + extra 6s -
  own 1s (a fumble giving the opponent +1 is the same as taking 1 off the fumbler).
- Higher score wins and strikes the difference in hits; a tie goes to the higher Initiative
  (1 hit); equal Initiative is a stand-off.
- A sword (any weapon with the parry rule) forces the opponent to re-roll his highest die
  after both have rolled; swords on both sides cancel one for one; a frenzied fighter
  cannot parry but his sword still cancels (seed-note 10). In odds the sword-bearer parries
  while his opponent would otherwise win (seed-note 9); ``parry`` may say ``true`` or
  ``false`` instead.
- A fighter who hates his foe may re-roll Attack dice in the first turn of the fight. The
  odds assume he re-rolls all of them when he would otherwise not win, attacker first;
  hate re-rolls come before parries, so the sword-bearer has the last word.

Exact odds count the dice by dynamic programming, keeping of a fighter's roll only what the rules
may still read: its net, or, while a parry may re-roll it, its 6s, 1s and highest dice (``KeptRoll``). What the hits do is :mod:`rulebook.classic.combat`.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cache, lru_cache
from typing import NamedTuple

from rulebook.budget import spend
from rulebook.classic import resolution
from rulebook.classic.resolution import Hit, Target

ATTACKER = "attacker"
DEFENDER = "defender"
STANDOFF = "standoff"

AUTO = "auto"
MAX_DICE = 12


# --- the fighters ---------------------------------------------------------------------------


@dataclass(frozen=True)
class HandWeapon:
    """A weapon as it strikes in hand-to-hand: Strength (a number, or the user's plus a bonus)."""

    name: str
    strength: int | None = None  # a fixed Strength, or None when the user's own is used
    user_bonus: int = 0  # "user+1" is None with a bonus of 1
    damage: str = "1"
    save_mod: int = 0
    parry: bool = False

    def hit(self, user_strength: int) -> Hit:
        """The hit it strikes: a blow with the user's own Strength takes the Armour Modifiers chart."""
        if self.strength is None:
            strength = user_strength + self.user_bonus
            return Hit(strength, self.damage, self.save_mod + resolution.strength_save_modifier(strength))
        return Hit(self.strength, self.damage, self.save_mod)


# Every fighter carries a knife at the least (Hand-to-Hand Combat: Weapons): a blow with his own Strength.
KNIFE = HandWeapon("Knife")


@dataclass(frozen=True)
class Combatant:
    """A fighter in a hand-to-hand fight: his current profile (flesh wounds already taken off WS
    and BS), his weapons, and what this turn adds (charging, higher up, frenzy, a later opponent's
    ``extra_dice`` and ``bonus`` in a multiple combat...)."""

    WS: int
    A: int = 1
    I: int = 3  # noqa: E741 - the game's name for Initiative
    S: int = 3
    weapons: tuple[HandWeapon, ...] = (KNIFE,)
    T: int = 3
    wounds_left: int = 1
    save: int | None = None
    BS: int | None = None
    charging: bool = False
    higher_up: bool = False
    encumbered: bool = False
    obstacle: bool = False
    carries_basic_weapon: bool = False
    frenzied: bool = False
    hatred: bool = False
    broken: bool = False
    no_attack_dice: bool = False
    extra_dice: int = 0
    bonus: int = 0
    parry: bool | str = AUTO  # True, False or "auto"
    hate_reroll: bool | str | tuple = AUTO  # True (all), False, "auto" or die positions (roll only)

    @property
    def dice(self) -> int:
        if self.no_attack_dice:
            return 0
        attacks = self.A * 2 if self.frenzied else self.A
        two_weapons = len(self.weapons) == 2 and not self.carries_basic_weapon
        return attacks + int(two_weapons) + self.extra_dice

    @property
    def base_score(self) -> int:
        """WS (0 while broken) and the Combat Score modifiers that do not depend on the dice."""
        ws = 0 if self.broken else max(0, self.WS)
        return ws + int(self.charging) + int(self.higher_up) - int(self.encumbered) - int(self.obstacle) + self.bonus

    @property
    def swords(self) -> int:
        return sum(w.parry for w in self.weapons)

    @property
    def hates(self) -> bool:
        # Frenzied fighters are not affected by hatred.
        return self.hatred and not self.frenzied and self.dice > 0 and self.hate_reroll is not False

    def score_modifiers(self) -> list[str]:
        named = [
            ("charging", self.charging, "+1"),
            ("higher_up", self.higher_up, "+1"),
            ("encumbered", self.encumbered, "-1"),
            ("obstacle", self.obstacle, "-1"),
        ]
        out = [f"{name} {sign}" for name, on, sign in named if on]
        if self.bonus:
            out.append(f"multiple combat +{self.bonus}")
        if self.broken:
            out.append("broken: WS counts as 0")
        return out

    def as_target(self) -> Target:
        """The fighter as hits meet him; WS and BS are his current values, flesh wounds counted from here."""
        return Target(self.T, self.wounds_left, self.save, 0, self.WS, self.BS)


def parries(fighter: Combatant, opponent: Combatant) -> int:
    """How many parries ``fighter`` may force on ``opponent`` (The Parry; seed-note 10)."""
    if fighter.frenzied or fighter.parry is False or opponent.dice == 0:
        return 0
    return max(0, fighter.swords - opponent.swords)


# --- the dice -------------------------------------------------------------------------------


def net(dice: tuple[int, ...]) -> int:
    """Highest die + each further 6 (critical hits) - each 1 (fumbles); 0 without dice."""
    if not dice:
        return 0
    sixes = dice.count(6)
    return max(dice) + max(0, sixes - 1) - dice.count(1)


# A roll is kept as small as the rules that may still change it allow. Without a parry against it only its net
# matters. A parry re-rolls the highest die, so against ``p`` parries the roll is kept as its count of 6s, its
# count of 1s and its ``p + 1`` highest dice: replacing the highest die with a new face leaves the ``p`` highest
# of the rest plus that face, which is all the next parry needs. Rolls are built one die at a time (dynamic
# programming over the dice), so ``n`` dice cost a few hundred states, not every multiset (3,003 for ten dice,
# a million pairs of them for two fighters) - the same exact counts, in a fraction of the time.


class KeptRoll(NamedTuple):
    """A roll as a parry sees it: how many 6s and 1s, and its ``keep`` highest dice, highest first (fewer when
    fewer were rolled). A tuple: millions are hashed in a large fight."""

    sixes: int
    ones: int
    top: tuple[int, ...]
    keep: int

    @property
    def net(self) -> int:
        return self.top[0] + max(0, self.sixes - 1) - self.ones if self.top else 0


def _add_die(roll: KeptRoll, face: int) -> KeptRoll:
    top = tuple(sorted((*roll.top, face), reverse=True)[: roll.keep])
    return KeptRoll(roll.sixes + (face == 6), roll.ones + (face == 1), top, roll.keep)


@cache
def _kept_rolls(n: int, keep: int) -> tuple[tuple[KeptRoll, int], ...]:
    """Every roll of ``n`` D6 as a :class:`KeptRoll` keeping ``keep`` highest dice, with the number of ordered
    rolls giving it (they add up to 6**n)."""
    states = {KeptRoll(0, 0, (), keep): 1}
    for _ in range(n):
        grown: dict[KeptRoll, int] = {}
        for roll, ways in states.items():
            for face in range(1, 7):
                key = _add_die(roll, face)
                grown[key] = grown.get(key, 0) + ways
        states = grown
    return tuple(sorted(states.items()))


@cache
def _fresh(n: int, parries_against: int) -> tuple[tuple[object, int], ...]:
    """A fresh roll of ``n`` dice with counts: as kept rolls when parries may re-roll it, else as nets."""
    if parries_against:
        return _kept_rolls(n, parries_against + 1)
    counts: dict[int, int] = {}
    for roll, ways in _kept_rolls(n, 1):
        counts[roll.net] = counts.get(roll.net, 0) + ways
    return tuple(counts.items())


@cache
def _reroll_highest(roll: KeptRoll) -> tuple[KeptRoll, ...]:
    """The six rolls that replacing the highest die can give (one per face); one fewer high die is kept."""
    highest = roll.top[0]
    rest = KeptRoll(roll.sixes - (highest == 6), roll.ones - (highest == 1), roll.top[1:], max(1, roll.keep - 1))
    return tuple(_add_die(rest, face) for face in range(1, 7))


def verdict(score_diff: int, attacker_I: int, defender_I: int) -> tuple[str, int]:  # noqa: N803
    """Winner and hits from attacker's score minus defender's (Determine Winner, Number of Hits)."""
    if score_diff > 0:
        return ATTACKER, score_diff
    if score_diff < 0:
        return DEFENDER, -score_diff
    if attacker_I != defender_I:
        return (ATTACKER if attacker_I > defender_I else DEFENDER), 1
    return STANDOFF, 0


# --- exact odds of one bout -------------------------------------------------------------------


def winner_of(att: Combatant, dfn: Combatant, net_a: int, net_d: int) -> str:
    return verdict(att.base_score + net_a - dfn.base_score - net_d, att.I, dfn.I)[0]


# The same two fighters come back often (a page asks the odds, then the roll's page shows them again; the
# multiple combat asks each pair for each count of hits): the last answers are kept, keyed on the fighters.
ODDS_CACHE_SIZE = 512


def score_odds(att: Combatant, dfn: Combatant) -> dict[tuple[str, int], Fraction]:
    """Exact distribution of (winner, hits) for one bout, parries and hate re-rolls included."""
    denominator, counts = score_counts(att, dfn)
    return {key: Fraction(count, denominator) for key, count in counts}


@lru_cache(maxsize=ODDS_CACHE_SIZE)
def score_counts(att: Combatant, dfn: Combatant) -> tuple[int, tuple[tuple[tuple[str, int], int], ...]]:
    """:func:`score_odds` as whole numbers over one denominator (the number of ways the dice can fall), for
    callers that go on counting in integers (multiple combats)."""
    n_a, n_d = att.dice, dfn.dice
    parries_a, parries_d = parries(att, dfn), parries(dfn, att)
    keep_a, keep_d = parries_d, parries_a  # how many parries each roll must still answer
    states: dict[tuple, int] = {}
    for key_a, count_a in _fresh(n_a, keep_a):
        for key_d, count_d in _fresh(n_d, keep_d):
            states[key_a, key_d] = count_a * count_d
    spend(len(states))
    denominator = 6 ** (n_a + n_d)
    # The winner of a pair of rolls, from their nets (the loops below ask it for every pair: kept local).
    offset, att_wins_ties = att.base_score - dfn.base_score, att.I > dfn.I
    tie = STANDOFF if att.I == dfn.I else (ATTACKER if att_wins_ties else DEFENDER)
    nets: dict = {}

    def net_of(key) -> int:
        if type(key) is int:
            return key
        found = nets.get(key)
        if found is None:
            found = nets[key] = key.net
        return found

    def winner(pair) -> str:
        diff = offset + net_of(pair[0]) - net_of(pair[1])
        return ATTACKER if diff > 0 else DEFENDER if diff < 0 else tie

    # Hate re-rolls: the whole roll again when not winning (or always, when asked to).
    for side, fighter, n, keep in ((0, att, n_a, keep_a), (1, dfn, n_d, keep_d)):
        if not fighter.hates:
            continue
        scale = 6**n
        out: dict[tuple, int] = {}
        # The new roll does not depend on the old one: add up, for each roll of the other side, the count of
        # the pairs re-rolled, then spread that over the fresh rolls once (not once per pair).
        rerolled: dict[object, int] = {}
        always, hater = fighter.hate_reroll is True, (ATTACKER, DEFENDER)[side]
        for pair, count in states.items():
            if always or winner(pair) != hater:
                rerolled[pair[1 - side]] = rerolled.get(pair[1 - side], 0) + count
            else:
                out[pair] = out.get(pair, 0) + count * scale
        spend(len(states) + len(rerolled) * len(_fresh(n, keep)))
        for other, count in rerolled.items():
            for key, ways in _fresh(n, keep):
                new = (key, other) if side == 0 else (other, key)
                out[new] = out.get(new, 0) + count * ways
        states = out
        denominator *= scale

    # Parries: the target re-rolls his highest die, once per parry.
    if parries_a or parries_d:
        target = 1 if parries_a else 0
        parrier = (att, dfn)[1 - target]
        always, target_side = parrier.parry is True, (ATTACKER, DEFENDER)[target]
        for _ in range(max(parries_a, parries_d)):
            spend(len(states))
            out = {}
            for pair, count in states.items():
                if always or winner(pair) == target_side:
                    for dice in _reroll_highest(pair[target]):
                        new = (pair[0], dice) if target == 1 else (dice, pair[1])
                        out[new] = out.get(new, 0) + count
                else:
                    out[pair] = out.get(pair, 0) + count * 6
            states = out
            denominator *= 6

    diffs: dict[int, int] = {}
    for (key_a, key_d), count in states.items():
        diff = net_of(key_a) - net_of(key_d)
        diffs[diff] = diffs.get(diff, 0) + count
    result: dict[tuple[str, int], int] = {}
    for diff, count in diffs.items():
        key = verdict(offset + diff, att.I, dfn.I)
        result[key] = result.get(key, 0) + count
    return denominator, tuple(result.items())
