"""What a hit does to a fighter in the 1995 rules: wound, armour save, wounds lost and injuries.

Shooting, hand-to-hand, falls and exploding weapons all end the same way (1995 rulebook,
Shooting: "Wound", "Injuries", "Flesh Wound", "Multiple Wounds", "Armour"; Hand-to-Hand
Combat: "Armour Modifiers"; Advanced Rules: "Falling"). This module holds that shared chain
once; the callers only say what hit the fighter.

The chain for one hit:

1. **Wound roll**: one D6 against the Wound chart, Strength against Toughness
   (:func:`wound_needed`; ``None`` is an impossible cell, "N" on the chart).
2. **Armour save**: one D6 per wounding hit, needing the armour's save minus the save
   modifier (a -1 modifier turns a 5 save into a 6); above 6 there is no save
   (:func:`save_needed`). Hand-to-hand blows struck with the fighter's own Strength and falls
   take their modifier from :func:`strength_save_modifier`.
3. **Damage**: ``"1"``, ``"2"``, ``"D3"``, ``"D6"``, ``"2D6"`` wounds (:data:`DAMAGE`).
4. **Wounds and injuries**: each wound takes one from ``wounds_left``; while some are left the
   result is ``wound_lost``. The wound that takes the last one, and each wound beyond it,
   rolls one Injury die (a fighter with 1 wound left who takes 4 rolls four dice; a fighter
   already at 0, i.e. flesh-wounded, rolls one per wound). Injury D6: 1 Flesh Wound,
   2-5 Down, 6 Out of Action (:data:`INJURY`). Several dice: any 6 is Out of Action, else any
   Down is Down (extra Downs are ignored), and every 1 is a further Flesh Wound either way.
   A Flesh Wound takes 1 from WS and BS; when both are at 0 the fighter is Out of Action.
   That last check needs the target's WS and BS; leave them ``None`` to skip it.

API (all pure; dice only through a :class:`~rulebook.dice.DiceSource`):

- ``Hit(strength, damage="1", save_mod=0)`` and
  ``Target(T, wounds_left=1, save=None, flesh_wounds=0, WS=None, BS=None)`` — frozen inputs.
- ``hit_odds(hit, target) -> dict``: exact distribution over :data:`OUTCOMES`
  (``no_wound``, ``saved``, ``wound_lost``, ``flesh_wound``, ``down``, ``out_of_action``),
  Fractions summing to 1, every key present. ``hits_odds(hit, target, n)``: the same for n
  hits on one fighter in turn (the worst result counts); ``hits_series`` for 0..n at once.
  ``hit_transitions(hit, target)``: the (outcome, Target afterwards) distribution;
  ``chain_hits(cycle, start, most)`` chains hits in whole numbers for callers that need the fighter
  afterwards too (hand-to-hand).
- ``hit_roll(hit, target, dice, who="target") -> HitResult``: one resolution; ``HitResult``
  has ``outcome`` (one of :data:`OUTCOMES`), ``wounds_lost``, ``flesh_wounds`` (new ones),
  ``injury_rolls`` and ``steps`` (every die, what it needed and what followed);
  ``as_json()`` for the command line.
- ``wound_needed(S, T)``, ``save_needed(save, save_mod)``, ``strength_save_modifier(S)``,
  ``damage_distribution(damage)``, ``roll_damage(damage, dice, purpose)``,
  ``injury_dice(wounds, wounds_left)``, ``injuries_odds(target, count)`` and the
  :data:`INJURY` table.
- :data:`WOUND_CHART`: the chart as printed, for ``table classic wound-chart``.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import lru_cache
from math import comb, lcm

from rulebook.budget import spend
from rulebook.dice import D3, D6, Dist, certain, sum_of
from rulebook.errors import RulesInputError
from rulebook.tables import Row, Table

NO_WOUND = "no_wound"
SAVED = "saved"
WOUND_LOST = "wound_lost"
FLESH_WOUND = "flesh_wound"
DOWN = "down"
OUT_OF_ACTION = "out_of_action"
OUTCOMES = (NO_WOUND, SAVED, WOUND_LOST, FLESH_WOUND, DOWN, OUT_OF_ACTION)

SOURCE = "1995 rulebook, Shooting: Wound, Injuries, Multiple Wounds, Armour"

INJURY = Table(
    name="injury",
    title="Injury",
    dice="D6",
    rows=(
        Row(1, 1, "Flesh Wound", {"outcome": FLESH_WOUND, "effect": "-1 WS and -1 BS for the rest of the game"}),
        Row(2, 5, "Down", {"outcome": DOWN, "effect": 'lies face down; may only crawl 2"; rolls to recover'}),
        Row(6, 6, "Out of Action", {"outcome": OUT_OF_ACTION, "effect": "removed from play"}),
    ),
    source="1995 rulebook, Shooting: Injuries",
)


# --- the Wound chart --------------------------------------------------------------------


def wound_needed(strength: int, toughness: int) -> int | None:
    """The D6 score that turns a hit into a wound, or ``None`` where the chart says N.

    The printed chart (Strength and Toughness 1-10) follows one pattern: 4 when equal, one
    easier per point of Strength above Toughness down to 2, one harder per point below up
    to 6, then a second 6, then impossible. Falls reach Strength 12, so the pattern is
    extended past the printed rows; Strength 0 (an exploding Strength 1 weapon) never wounds.
    """
    if strength < 1:
        return None
    need = 4 + toughness - strength
    if need <= 2:
        return 2
    if need <= 6:
        return need
    return 6 if need == 7 else None


WOUND_CHART = {s: {t: wound_needed(s, t) for t in range(1, 11)} for s in range(1, 11)}


# --- armour ------------------------------------------------------------------------------


def save_needed(save: int | None, save_mod: int) -> int | None:
    """The D6 score that saves a wound, or ``None`` when no save is possible.

    ``save`` is the armour's D6 save (flak 6, mesh 5, carapace 4); the weapon's modifier
    (<= 0) raises the score needed; past 6 the armour cannot help.
    """
    if save is None:
        return None
    need = max(2, save - save_mod)
    return need if need <= 6 else None


def strength_save_modifier(strength: int) -> int:
    """Save modifier for a blow struck with the fighter's own Strength, and for falls.

    1995 rulebook, Hand-to-Hand Combat, "Armour Modifiers": S3 or less 0, S4 -1, S5 -2 ...
    S9 or more -6 (Falling uses the same chart).
    """
    return -min(6, max(0, strength - 3))


# --- damage and injuries --------------------------------------------------------------------

DAMAGE = {
    "1": certain(1),
    "2": certain(2),
    "D3": D3.distribution(),
    "D6": D6.distribution(),
    "2D6": sum_of(D6, 2),
}


def damage_distribution(damage: str) -> Dist:
    if damage not in DAMAGE:
        raise RulesInputError("damage", f"must be one of {', '.join(DAMAGE)}; got {damage!r}")
    return DAMAGE[damage]


def roll_damage(damage: str, dice, purpose: str = "wounds inflicted") -> int:
    damage_distribution(damage)
    if damage == "D3":
        return dice.d3(purpose)
    if damage == "D6":
        return dice.d6(purpose)
    if damage == "2D6":
        return sum(dice.two_d6(purpose))
    return int(damage)


def injury_dice(wounds: int, wounds_left: int) -> int:
    """How many Injury dice ``wounds`` wounds cause on a fighter with ``wounds_left`` left.

    The wound that takes the last one rolls the first die and each further wound one more;
    a fighter already at 0 (flesh-wounded) rolls for every wound (Multiple Wounds, Flesh Wound).
    """
    return max(0, wounds - max(wounds_left, 1) + 1)


@dataclass(frozen=True)
class Hit:
    """One hit: the Strength it strikes with, its damage and the save modifier it imposes."""

    strength: int
    damage: str = "1"
    save_mod: int = 0


@dataclass(frozen=True)
class Target:
    """The fighter hit. ``WS``/``BS`` are his profile values, only needed for the 0/0 rule."""

    T: int
    wounds_left: int = 1
    save: int | None = None
    flesh_wounds: int = 0
    WS: int | None = None
    BS: int | None = None
    # Already down (face down): further wounds roll on the Injury table again, a further Down is ignored, and
    # a hit does not pin him (1995 rulebook, Shooting: "Shooting at a Fighter Who is Down").
    down: bool = False

    def bled_out(self, flesh_wounds: int) -> bool:
        """True when this many flesh wounds in all bring both WS and BS to 0."""
        if self.WS is None or self.BS is None:
            return False
        return self.WS - flesh_wounds <= 0 and self.BS - flesh_wounds <= 0


def _injury_outcome(target: Target, sixes: bool, downs: bool, ones: int) -> str:
    if sixes or target.bled_out(target.flesh_wounds + ones):
        return OUT_OF_ACTION
    return DOWN if downs else FLESH_WOUND


@lru_cache(maxsize=1024)
def _injuries(target: Target, count: int) -> Dist:
    """Exact result of ``count`` Injury dice rolled together, as (outcome, flesh wounds taken)."""
    den = 6**count
    out: Dist = {(OUT_OF_ACTION, 0): Fraction(den - 5**count, den)}
    # No 6 among the dice: k ones and the rest Down results (four faces each).
    for ones in range(count + 1):
        key = (_injury_outcome(target, False, ones < count, ones), ones)
        out[key] = out.get(key, 0) + Fraction(comb(count, ones) * 4 ** (count - ones), den)
    return out


def injuries_odds(target: Target, count: int) -> Dist:
    """Exact outcome of ``count`` Injury dice rolled together (count >= 1), e.g. for recovery."""
    out: Dist = {}
    for (outcome, _), p in _injuries(target, count).items():
        out[outcome] = out.get(outcome, 0) + p
    return out


@lru_cache(maxsize=4096)
def hit_transitions(hit: Hit, target: Target) -> Dist:
    """Exact distribution of (outcome, target afterwards) for one hit: the state a further hit meets."""
    out: Dist = {}

    def add(key, p):
        out[key] = out.get(key, 0) + p

    wound = wound_needed(hit.strength, target.T)
    if wound is None:
        return {(NO_WOUND, target): Fraction(1)}
    p_wound = Fraction(7 - wound, 6)
    save = save_needed(target.save, hit.save_mod)
    p_saved = Fraction(0) if save is None else Fraction(7 - save, 6)
    add((NO_WOUND, target), 1 - p_wound)
    add((SAVED, target), p_wound * p_saved)
    p_through = p_wound * (1 - p_saved)
    for wounds, p in damage_distribution(hit.damage).items():
        lost = min(wounds, target.wounds_left)
        count = injury_dice(wounds, target.wounds_left)
        if count == 0:
            add((WOUND_LOST, replace(target, wounds_left=target.wounds_left - lost)), p_through * p)
            continue
        for (outcome, ones), q in _injuries(target, count).items():
            after = replace(target, wounds_left=0, flesh_wounds=target.flesh_wounds + ones)
            add((outcome, after), p_through * p * q)
    return out


def _blank() -> dict:
    return {k: Fraction(0) for k in OUTCOMES}


def hit_odds(hit: Hit, target: Target) -> dict:
    """Exact distribution over :data:`OUTCOMES` for one hit on ``target``."""
    out = _blank()
    for (outcome, _), p in hit_transitions(hit, target).items():
        out[outcome] += p
    return out


def _relevant(target: Target, keep_flesh_wounds: bool = False) -> Target:
    """The fighter with only what can change what follows, so that fewer states are chained: flesh wounds
    count only for the 0/0 rule, unless ``keep_flesh_wounds`` (a hand-to-hand fighter's next bout reads them off
    his WS), and even then only until they bring both WS and BS to 0 (WS counts as 0 below that)."""
    if keep_flesh_wounds:
        most = max(target.WS or 0, target.BS or 0)
        return target if target.flesh_wounds <= most else replace(target, flesh_wounds=most)
    return target if target.WS is not None and target.BS is not None else replace(target, flesh_wounds=0)


@lru_cache(maxsize=4096)
def scaled_transitions(hit: Hit, target: Target, keep_flesh_wounds: bool = False) -> tuple[int, tuple]:
    """:func:`hit_transitions` as whole numbers over one denominator: chaining many hits in integers is far
    quicker than in Fractions and just as exact. The fighter afterwards keeps only what can still matter
    (:func:`_relevant`)."""
    dist = hit_transitions(hit, target)
    den = lcm(*(p.denominator for p in dist.values()))
    return den, tuple(
        ((outcome, _relevant(after, keep_flesh_wounds)), p.numerator * (den // p.denominator))
        for (outcome, after), p in dist.items()
    )


def chain_hits(
    cycle: tuple[Hit, ...],
    start: dict[tuple[str, Target], int],
    most: int,
    *,
    order: tuple[str, ...] = OUTCOMES,
    keep_flesh_wounds: bool = False,
) -> list[tuple[int, dict[tuple[str, Target], int]]]:
    """Hits landed one after another, going round ``cycle``, on fighters weighted by ``start``: entry ``n`` is
    ``(scale, weights)`` after ``n`` hits, each weight over ``scale`` times the start's own denominator the
    chance of (the worst result so far, the fighter afterwards).

    Each hit meets the fighter as the earlier ones left him (fewer wounds, more flesh wounds); ``order`` ranks
    the results from the best to the worst (a Down fighter who takes a Flesh Wound stays Down). Out of Action
    ends it: no further hit is resolved.
    """
    rank = {k: i for i, k in enumerate(order)}
    states, scale = start, 1
    series = [(scale, states)]
    for n in range(most):
        hit = cycle[n % len(cycle)]
        spend(len(states))
        steps = {
            state: scaled_transitions(hit, state, keep_flesh_wounds)
            for worst, state in states
            if worst != OUT_OF_ACTION
        }
        step = lcm(*(d for d, _ in steps.values())) if steps else 1
        nxt: dict = {}
        for (worst, state), w in states.items():
            if worst == OUT_OF_ACTION:
                nxt[worst, state] = nxt.get((worst, state), 0) + w * step
                continue
            d, moves = steps[state]
            for (outcome, after), q in moves:
                key = (max(worst, outcome, key=rank.__getitem__), after)
                nxt[key] = nxt.get(key, 0) + w * q * (step // d)
        states, scale = nxt, scale * step
        series.append((scale, states))
    return series


def hits_series(hit: Hit, target: Target, most: int) -> list[dict]:
    """Exact distributions over :data:`OUTCOMES` for 0, 1, ... ``most`` hits on one fighter in turn.

    Each hit meets the fighter as the earlier ones left him (fewer wounds, more flesh wounds);
    the answer is the worst result he suffers (a Down fighter who takes a Flesh Wound stays Down).
    """
    series = []
    for scale, states in chain_hits((hit,), {(NO_WOUND, _relevant(target)): 1}, most):
        totals = dict.fromkeys(OUTCOMES, 0)
        for (worst, _), w in states.items():
            totals[worst] += w
        series.append({k: Fraction(w, scale) for k, w in totals.items()})
    return series


def hits_odds(hit: Hit, target: Target, count: int) -> dict:
    """Exact distribution over :data:`OUTCOMES` for ``count`` hits on one fighter in turn."""
    return hits_series(hit, target, count)[count]


# --- one resolution on dice ---------------------------------------------------------------------


@dataclass(frozen=True)
class HitResult:
    outcome: str
    wounds_lost: int = 0
    flesh_wounds: int = 0
    injury_rolls: tuple = ()
    steps: tuple = field(default_factory=tuple)

    def target_after(self, target: Target) -> Target:
        """The fighter as this hit left him, ready for the next hit."""
        return replace(
            target,
            wounds_left=target.wounds_left - self.wounds_lost,
            flesh_wounds=target.flesh_wounds + self.flesh_wounds,
        )

    def as_json(self) -> dict:
        return {
            "outcome": self.outcome,
            "wounds_lost": self.wounds_lost,
            "new_flesh_wounds": self.flesh_wounds,
            "injury_rolls": list(self.injury_rolls),
            "steps": list(self.steps),
        }


def hit_roll(hit: Hit, target: Target, dice, who: str = "target") -> HitResult:
    """Resolve one hit on ``dice``: wound roll, save, damage, injuries, each as a step."""
    steps = []
    wound = wound_needed(hit.strength, target.T)
    if wound is None:
        steps.append({"step": "wound", "needed": None, "result": f"S{hit.strength} cannot wound T{target.T}"})
        return HitResult(NO_WOUND, steps=tuple(steps))
    roll = dice.d6(f"to wound {who} (S{hit.strength} vs T{target.T}, needs {wound}+)")
    wounded = roll >= wound
    steps.append({"step": "wound", "needed": wound, "roll": roll, "result": "wounded" if wounded else "no wound"})
    if not wounded:
        return HitResult(NO_WOUND, steps=tuple(steps))
    save = save_needed(target.save, hit.save_mod)
    if save is not None:
        roll = dice.d6(f"armour save for {who} (needs {save}+)")
        saved = roll >= save
        steps.append({"step": "save", "needed": save, "roll": roll, "result": "saved" if saved else "failed"})
        if saved:
            return HitResult(SAVED, steps=tuple(steps))
    elif target.save is not None:
        steps.append({"step": "save", "needed": None, "result": "save modifier leaves no save"})
    wounds = roll_damage(hit.damage, dice, f"wounds inflicted on {who} ({hit.damage})")
    steps.append({"step": "damage", "damage": hit.damage, "wounds": wounds})
    count = injury_dice(wounds, target.wounds_left)
    lost = min(wounds, target.wounds_left)
    if count == 0:
        steps.append({"step": "wounds", "lost": lost, "wounds_left": target.wounds_left - lost})
        return HitResult(WOUND_LOST, wounds_lost=lost, steps=tuple(steps))
    rolls = tuple(dice.d6(f"injury for {who} ({i + 1} of {count})") for i in range(count))
    ones = rolls.count(1)
    outcome = _injury_outcome(target, 6 in rolls, any(2 <= r <= 5 for r in rolls), ones)
    steps.append(
        {
            "step": "injury",
            "rolls": list(rolls),
            "results": [INJURY.row(r).result for r in rolls],
            "flesh_wounds_in_all": target.flesh_wounds + ones,
            "result": outcome,
        }
    )
    return HitResult(outcome, wounds_lost=lost, flesh_wounds=ones, injury_rolls=rolls, steps=tuple(steps))
