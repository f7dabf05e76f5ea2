"""Hand-to-hand combat in the 1995 rules: Attack dice, Combat Scores, winner, hits and what they do.

Sources: 1995 rulebook, Hand-to-Hand Combat ("Procedure", "Attack Dice", "Fighting with Two
Weapons", "Combat Score Modifiers", "Number of Hits", "Hits", "Armour Modifiers", "The Parry",
"Fumble", "Critical Hits", "Multiple Combats", "Follow-Up", "Fighters Down"); Leadership
("Combat with Broken Fighters"); Advanced Rules ("Stupidity", "Hatred", "Frenzy"); and
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

Exact odds enumerate the dice as multisets (126 for four dice, not 1296 ordered rolls), and
keep a fighter's dice as a multiset only while a parry may still re-roll them; otherwise only
the net counts. Wounds, saves and injuries come from :mod:`rulebook.classic.resolution`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import cache
from itertools import combinations_with_replacement
from math import factorial

from rulebook.classic import resolution
from rulebook.classic.resolution import DOWN, FLESH_WOUND, NO_WOUND, OUT_OF_ACTION, SAVED, WOUND_LOST, Hit, Target
from rulebook.output import dist, prob

ATTACKER = "attacker"
DEFENDER = "defender"
STANDOFF = "standoff"
NOT_HIT = "not_hit"
# A fight's outcome for one fighter, from the best to the worst.
FIGHT_OUTCOMES = (NOT_HIT, NO_WOUND, SAVED, WOUND_LOST, FLESH_WOUND, DOWN, OUT_OF_ACTION)

AUTO = "auto"
MAX_DICE = 12

PARRY_ASSUMPTION = (
    "a fighter with a parry uses it when, after both sides have rolled, his opponent would otherwise "
    "win (a higher score, or a tie won on Initiative); a second parry is used the same way"
)
HATE_ASSUMPTION = (
    "a fighter who hates his foe re-rolls all his Attack dice when he would otherwise not win "
    "(attacker first, before any parry)"
)
BROKEN_NOTE = (
    "a broken fighter who survives the phase breaks from combat even if he wins, "
    "taking one automatic hit as he turns (see the break-off action)"
)
ODD_HIT_ASSUMPTION = "with two weapons the hits alternate, the first listed weapon striking the odd hit"


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


@cache
def _multisets(n: int) -> tuple[tuple[tuple[int, ...], int], ...]:
    """Every roll of ``n`` D6 as a descending multiset and the number of ordered rolls giving it."""
    out = []
    for combo in combinations_with_replacement(range(6, 0, -1), n):
        ways = factorial(n)
        for face in set(combo):
            ways //= factorial(combo.count(face))
        out.append((combo, ways))
    return tuple(out)


@cache
def _fresh(n: int, keep_dice: bool) -> tuple[tuple[object, int], ...]:
    """A fresh roll of ``n`` dice, as multisets (when a parry may re-roll them) or nets, with counts."""
    if keep_dice:
        return _multisets(n)
    counts: dict[int, int] = {}
    for dice, ways in _multisets(n):
        counts[net(dice)] = counts.get(net(dice), 0) + ways
    return tuple(counts.items())


@cache
def _reroll_highest(dice: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """The six rolls that replacing the highest die can give (one per face)."""
    rest = dice[1:]
    return tuple(tuple(sorted((*rest, face), reverse=True)) for face in range(1, 7))


def _net_of(key) -> int:
    return key if isinstance(key, int) else net(key)


def verdict(score_diff: int, attacker_I: int, defender_I: int) -> tuple[str, int]:  # noqa: N803
    """Winner and hits from attacker's score minus defender's (Determine Winner, Number of Hits)."""
    if score_diff > 0:
        return ATTACKER, score_diff
    if score_diff < 0:
        return DEFENDER, -score_diff
    if attacker_I != defender_I:
        return (ATTACKER if attacker_I > defender_I else DEFENDER), 1
    return STANDOFF, 0


# --- exact odds -------------------------------------------------------------------------------


def winner_of(att: Combatant, dfn: Combatant, net_a: int, net_d: int) -> str:
    return verdict(att.base_score + net_a - dfn.base_score - net_d, att.I, dfn.I)[0]


def score_odds(att: Combatant, dfn: Combatant) -> dict[tuple[str, int], Fraction]:
    """Exact distribution of (winner, hits) for one bout, parries and hate re-rolls included."""
    n_a, n_d = att.dice, dfn.dice
    parries_a, parries_d = parries(att, dfn), parries(dfn, att)
    keep_a, keep_d = parries_d > 0, parries_a > 0
    states: dict[tuple, int] = {}
    for key_a, count_a in _fresh(n_a, keep_a):
        for key_d, count_d in _fresh(n_d, keep_d):
            states[key_a, key_d] = count_a * count_d
    denominator = 6 ** (n_a + n_d)

    # Hate re-rolls: the whole roll again when not winning (or always, when asked to).
    for side, fighter, n, keep in ((0, att, n_a, keep_a), (1, dfn, n_d, keep_d)):
        if not fighter.hates:
            continue
        fresh = _fresh(n, keep)
        scale = 6**n
        out: dict[tuple, int] = {}
        for pair, count in states.items():
            winner = winner_of(att, dfn, _net_of(pair[0]), _net_of(pair[1]))
            if fighter.hate_reroll is True or winner != (ATTACKER, DEFENDER)[side]:
                for key, ways in fresh:
                    new = (key, pair[1]) if side == 0 else (pair[0], key)
                    out[new] = out.get(new, 0) + count * ways
            else:
                out[pair] = out.get(pair, 0) + count * scale
        states = out
        denominator *= scale

    # Parries: the target re-rolls his highest die, once per parry.
    if parries_a or parries_d:
        target = 1 if parries_a else 0
        parrier = (att, dfn)[1 - target]
        for _ in range(max(parries_a, parries_d)):
            out = {}
            for pair, count in states.items():
                winner = winner_of(att, dfn, _net_of(pair[0]), _net_of(pair[1]))
                if parrier.parry is True or winner == (ATTACKER, DEFENDER)[target]:
                    for dice in _reroll_highest(pair[target]):
                        new = (pair[0], dice) if target == 1 else (dice, pair[1])
                        out[new] = out.get(new, 0) + count
                else:
                    out[pair] = out.get(pair, 0) + count * 6
            states = out
            denominator *= 6

    diffs: dict[int, int] = {}
    for (key_a, key_d), count in states.items():
        diff = _net_of(key_a) - _net_of(key_d)
        diffs[diff] = diffs.get(diff, 0) + count
    result: dict[tuple[str, int], Fraction] = {}
    offset = att.base_score - dfn.base_score
    for diff, count in diffs.items():
        key = verdict(offset + diff, att.I, dfn.I)
        result[key] = result.get(key, 0) + Fraction(count, denominator)
    return result


def struck_with(weapons: tuple[HandWeapon, ...], hits: int) -> list[HandWeapon]:
    """The weapon of each hit: two weapons alternate, the first weapon taking the odd one (Hits)."""
    return [weapons[i % len(weapons)] for i in range(hits)] if weapons else []


def strikes(fighter: Combatant) -> tuple[Hit, ...]:
    """The hit each of his weapons strikes, in the order his hits go round them."""
    return tuple(weapon.hit(fighter.S) for weapon in fighter.weapons)


_RANK = {outcome: i for i, outcome in enumerate(FIGHT_OUTCOMES)}


def worse(a: str, b: str) -> str:
    return a if _RANK[a] >= _RANK[b] else b


_SERIES: dict[tuple, list] = {}


def hits_odds(cycle: tuple[Hit, ...], target: Target, count: int) -> dict[tuple[str, Target], Fraction]:
    """Exact (worst outcome, fighter afterwards) once ``count`` hits have landed one after another.

    The hits go round ``cycle`` (one hit per weapon, see :func:`strikes`). Each meets the fighter
    as the earlier ones left him (:func:`resolution.hit_transitions`): fewer wounds, more flesh
    wounds; a Down fighter hit again rolls injury dice again. The series after 0, 1, 2 ... hits
    is kept, so asking for every count costs no more than asking for the largest.
    """
    if len(_SERIES) > 4096:
        _SERIES.clear()
    series = _SERIES.setdefault((cycle, target), [{(NOT_HIT, target): Fraction(1)}])
    while len(series) <= count:
        hit = cycle[(len(series) - 1) % len(cycle)]
        out: dict[tuple[str, Target], Fraction] = {}
        for (worst, now), p in series[-1].items():
            if worst == OUT_OF_ACTION:
                out[worst, now] = out.get((worst, now), 0) + p
                continue
            for (outcome, after), q in resolution.hit_transitions(hit, now).items():
                key = (worse(worst, outcome), after)
                out[key] = out.get(key, 0) + p * q
        series.append(out)
    return series[count]


def finished(worst: str, one_on_one: bool) -> str:
    """In a one-on-one fight a fighter who goes down is finished off: Out of Action (Fighters Down)."""
    return OUT_OF_ACTION if worst == DOWN and one_on_one else worst


def _blank_outcomes() -> dict[str, Fraction]:
    return {k: Fraction(0) for k in FIGHT_OUTCOMES}


def fight_odds(att: Combatant, dfn: Combatant, *, one_on_one: bool = True) -> dict:
    """Everything a one-on-one bout can lead to: winner, hits per side, each fighter's fate."""
    scores = score_odds(att, dfn)
    win = {ATTACKER: Fraction(0), DEFENDER: Fraction(0), STANDOFF: Fraction(0)}
    hits = {ATTACKER: {0: Fraction(0)}, DEFENDER: {0: Fraction(0)}}
    fate = {ATTACKER: _blank_outcomes(), DEFENDER: _blank_outcomes()}
    for (winner, count), p in scores.items():
        win[winner] += p
        for side in (ATTACKER, DEFENDER):
            struck = count if winner == side else 0
            hits[side][struck] = hits[side].get(struck, 0) + p
        if winner == STANDOFF:
            for side in (ATTACKER, DEFENDER):
                fate[side][NOT_HIT] += p
            continue
        striker, struck_fighter = (att, dfn) if winner == ATTACKER else (dfn, att)
        loser = DEFENDER if winner == ATTACKER else ATTACKER
        fate[winner][NOT_HIT] += p
        for (worst, _), q in hits_odds(strikes(striker), struck_fighter.as_target(), count).items():
            fate[loser][finished(worst, one_on_one)] += p * q
    return {"win": win, "hits": hits, "fate": fate}


def _assumptions(att: Combatant, dfn: Combatant) -> list[str]:
    notes = []
    if parries(att, dfn) or parries(dfn, att):
        notes.append(PARRY_ASSUMPTION)
    elif att.swords and dfn.swords:
        notes.append("both fighters carry swords, so the parries cancel out")
    if att.hates or dfn.hates:
        notes.append(HATE_ASSUMPTION)
    if len(att.weapons) == 2 or len(dfn.weapons) == 2:
        notes.append(ODD_HIT_ASSUMPTION)
    if att.broken or dfn.broken:
        notes.append(BROKEN_NOTE)
    return notes


def _describe(fighter: Combatant, opponent: Combatant) -> dict:
    return {
        "attack_dice": fighter.dice,
        "base_score": fighter.base_score,
        "modifiers": fighter.score_modifiers(),
        "weapons": [w.name for w in fighter.weapons],
        "parries": parries(fighter, opponent),
    }


def _win_json(win: dict) -> dict:
    return {
        **prob("p_attacker_wins", win[ATTACKER]),
        **prob("p_defender_wins", win[DEFENDER]),
        **prob("p_standoff", win[STANDOFF]),
    }


def _per_side(name: str, values: dict) -> dict:
    """``{name: {attacker: {...}, defender: {...}}, name_exact: {...}}`` from per-side distributions."""
    out: dict = {name: {}, f"{name}_exact": {}}
    for side, distribution in values.items():
        shown = dist("d", distribution)
        out[name][side] = shown["d"]
        out[f"{name}_exact"][side] = shown["d_exact"]
    return out


def fight_odds_json(att: Combatant, dfn: Combatant) -> dict:
    result = fight_odds(att, dfn)
    win, hits = result["win"], result["hits"]
    given = {}
    for side in (ATTACKER, DEFENDER):
        if win[side]:
            given[side] = {k: p / win[side] for k, p in hits[side].items() if k}
    return {
        ATTACKER: _describe(att, dfn),
        DEFENDER: _describe(dfn, att),
        **_win_json(win),
        **_per_side("hits", hits),
        **_per_side("hits_if_wins", given),
        **_per_side("outcome", result["fate"]),
        **prob("p_attacker_follow_up", result["fate"][DEFENDER][OUT_OF_ACTION]),
        **prob("p_defender_follow_up", result["fate"][ATTACKER][OUT_OF_ACTION]),
        "assumptions": _assumptions(att, dfn)
        + ["hits: the chance of each number of hits a fighter strikes (0 when he does not win)"],
    }


# --- multiple combats ------------------------------------------------------------------------


def multi_fight_odds(fighter: Combatant, opponents: Iterable[Combatant]) -> dict:
    """An outnumbered fighter against each opponent in turn (Multiple Combats).

    The k-th later opponent rolls k extra Attack dice and adds k to his score. The lone
    fighter fights on while he stands; his flesh wounds lower his WS for the next bout.
    When he goes down all his side is down, so he is out of combat (read as Out of Action).
    An opponent who goes down stays down while a friend fights on.
    """
    opponents = list(opponents)
    # The lone fighter while he stands, as the hits so far left him (flesh wounds counted from 0).
    standing = {fighter.as_target(): Fraction(1)}
    bouts = []
    fighter_out = Fraction(0)
    for k, opponent in enumerate(opponents):
        opponent = replace(opponent, extra_dice=opponent.extra_dice + k, bonus=opponent.bonus + k)
        bout = {ATTACKER: Fraction(0), DEFENDER: Fraction(0), STANDOFF: Fraction(0)}
        opp_fate = _blank_outcomes()
        p_fought = sum(standing.values(), Fraction(0))
        after: dict[Target, Fraction] = {}
        for now, p in standing.items():
            me = replace(fighter, WS=fighter.WS - now.flesh_wounds, wounds_left=now.wounds_left)
            for (winner, count), q in score_odds(opponent, me).items():
                bout[winner] += p * q
                if winner != ATTACKER:
                    after[now] = after.get(now, 0) + p * q
                if winner != DEFENDER:
                    opp_fate[NOT_HIT] += p * q
                if winner == ATTACKER:
                    for (worst, then), r in hits_odds(strikes(opponent), now, count).items():
                        if worst in (DOWN, OUT_OF_ACTION):
                            fighter_out += p * q * r
                        else:
                            after[then] = after.get(then, 0) + p * q * r
                elif winner == DEFENDER:
                    for (worst, _), r in hits_odds(strikes(me), opponent.as_target(), count).items():
                        opp_fate[worst] += p * q * r
        opp_fate[NOT_HIT] += 1 - p_fought  # no bout: the lone fighter was already out
        standing = after
        bouts.append(
            {
                "opponent": k + 1,
                "extra_dice": k,
                "bonus": k,
                **prob("p_fought", p_fought),
                **prob("p_opponent_wins", bout[ATTACKER]),
                **prob("p_fighter_wins", bout[DEFENDER]),
                **prob("p_standoff", bout[STANDOFF]),
                **dist("opponent_outcome", opp_fate),
            }
        )
    return {
        "bouts": bouts,
        **prob("p_fighter_out_of_action", fighter_out),
        **prob("p_fighter_standing", 1 - fighter_out),
        "assumptions": [
            "opponents fight in the order given; the k-th later one rolls k extra dice and adds k",
            "the lone fighter going down leaves all his side down: he counts as Out of Action",
        ],
    }


# --- breaking from combat ----------------------------------------------------------------------


def break_off_odds(opponent: Combatant, fleeing: Combatant) -> dict:
    """The one automatic hit a fighter takes as he breaks from combat (Breaking from Combat).

    It is struck with the opponent's first weapon. The fleeing fighter is no longer in the
    fight, so a Down result stays Down.
    """
    fate = _blank_outcomes()
    for (worst, _), p in hits_odds(strikes(opponent)[:1], fleeing.as_target(), 1).items():
        fate[worst] += p
    return {
        "why": ["a fighter breaking from hand-to-hand takes one automatic hit from his opponent before he runs"],
        **dist("outcome", {k: p for k, p in fate.items() if k != NOT_HIT}),
    }
