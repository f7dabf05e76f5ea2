"""Falling, jumping and attacking structures in the 1995 rules (Advanced Game Rules).

Sources: 1995 rulebook, Advanced Game Rules: "Falling" ("Test to Fall", "Damage", "Falling onto
Another Model"), "Jumping", "Attacking Structural Features" ("Toughness and Wounds",
"Hand-to-Hand").

- **Test to fall**: a fighter pinned or going down within 1" of an edge falls on a D6 above his
  Initiative; one who loses a hand-to-hand fight within 1" of an edge falls on a D6 above his
  Initiative or on a 6.
- **Damage**: one hit with Strength equal to the height in inches; 1 wound up to 3", D6 wounds
  above 3"; above 12" he is out of action with no dice. Armour saves take the Strength-based
  modifiers of hand-to-hand (S4 -1, S5 -2 ...). A faller who is neither down nor out of
  action is pinned. A fighter beneath him is struck on a D6 of 4+ by the same hit.
- **Jumping**: a jump down is a fall; a jump across a gap covers D6" and a short one falls.
- **Structures**: Toughness and wounds like a fighter, no armour; a fighter in base contact
  strikes one automatic hit per Attack in the hand-to-hand phase.

Wounds, saves and injuries come from :mod:`rulebook.classic.resolution`.
"""

from __future__ import annotations

from fractions import Fraction

from rulebook.classic import resolution
from rulebook.classic.combat import NOT_HIT, struck_with
from rulebook.classic.combat_actions import combatant
from rulebook.classic.resolution import DOWN, OUT_OF_ACTION, Hit, Target
from rulebook.dice import DiceSource, combine, d6_at_least
from rulebook.errors import RulesInputError
from rulebook.output import dist, prob
from rulebook.query import Query

ONE_WOUND_UP_TO = 3  # inches: a longer fall does D6 wounds
CERTAIN_OUT_ABOVE = 12  # inches: a longer fall is out of action without dice
VICTIM_HIT_ON = 4  # a fighter beneath the faller is struck on 4+
EDGE_TESTS = {
    "pinned_or_down": 'pinned or down within 1" of an edge: falls on a D6 above I',
    "lost_combat": 'lost a hand-to-hand fight within 1" of an edge: falls on a D6 above I, or a 6',
}
STAYS = "stays_put"


def fall_hit(height: int) -> Hit:
    """The hit a fall of ``height`` inches strikes (Falling: Damage)."""
    damage = "1" if height <= ONE_WOUND_UP_TO else "D6"
    return Hit(height, damage, resolution.strength_save_modifier(height))


def falls_chance(edge: str, initiative: int) -> Fraction:
    """Chance that a fighter near an edge goes over it (Test to Fall)."""
    survives = Fraction(max(0, min(6, initiative)), 6)
    if edge == "lost_combat":
        survives = min(survives, Fraction(5, 6))  # a 6 always falls
    return 1 - survives


def _target(q: Query) -> Target:
    """The fighter who falls (or is fallen on); ``down``: already down, with no wounds left, so a wound rolls on
    the Injury table again and he is not pinned (as when shot while down)."""
    down, wounds_left = q.bool("down"), q.int("wounds_left", 0, 10, default=1)
    return Target(
        T=q.int("T", 1, 10, default=3),
        wounds_left=0 if down else wounds_left,
        down=down,
        save=q.int("save", 2, 6, default=None),
        flesh_wounds=q.int("flesh_wounds", 0, 10, default=0),
        WS=q.int("WS", 0, 10, default=None),
        BS=q.int("BS", 0, 10, default=None),
    )


def landing_odds(height: int, target: Target) -> dict:
    """What a fall of ``height`` inches does to the fighter who falls."""
    if height > CERTAIN_OUT_ABOVE:
        return {OUT_OF_ACTION: Fraction(1)}
    return resolution.hit_odds(fall_hit(height), target)


def _weighted(into: dict, weight: Fraction, outcomes: dict) -> None:
    for key, p in outcomes.items():
        into[key] = into.get(key, 0) + weight * p


def _pinned_note(outcomes: dict, target: Target) -> Fraction:
    """A faller left neither down nor out of action is pinned (one already down stays down)."""
    return Fraction(0) if target.down else 1 - outcomes.get(DOWN, 0) - outcomes.get(OUT_OF_ACTION, 0)


def _read_fall(q: Query) -> tuple[int, Target, str | None, int | None]:
    height = q.int("height", 1, 100)
    edge = q.choice("edge", EDGE_TESTS, default=None) if q.has("edge") else None
    initiative = q.int("I", 0, 10) if edge else None
    return height, _target(q), edge, initiative


def fall_odds(q: Query) -> dict:
    height, target, edge, initiative = _read_fall(q)
    p_fall = falls_chance(edge, initiative) if edge else Fraction(1)
    landing = landing_odds(height, target)
    outcome = {STAYS: 1 - p_fall} if edge else {}
    _weighted(outcome, p_fall, landing)
    answer = {
        "kind": "fall",
        "why": _fall_why(height, edge),
        **prob("p_falls", p_fall),
        **prob("p_pass", 1 - p_fall if edge else _pinned_note(landing, target)),
        **dist("outcome", outcome),
        **prob("p_pinned", p_fall * _pinned_note(landing, target)),
    }
    if q.has("onto"):
        victim = _target(q.sub("onto"))
        struck = {NOT_HIT: 1 - d6_at_least(VICTIM_HIT_ON)}
        _weighted(struck, d6_at_least(VICTIM_HIT_ON), resolution.hit_odds(fall_hit(height), victim))
        beneath = {NOT_HIT: 1 - p_fall}
        _weighted(beneath, p_fall, struck)
        answer["victim"] = dist("outcome", beneath)
    return answer


def _fall_why(height: int, edge: str | None) -> list[str]:
    why = [EDGE_TESTS[edge]] if edge else []
    if height > CERTAIN_OUT_ABOVE:
        why.append(f'a fall of more than {CERTAIN_OUT_ABOVE}": out of action, no dice')
    else:
        wounds = "1 wound" if height <= ONE_WOUND_UP_TO else "D6 wounds"
        why.append(f'a fall of {height}": a Strength {height} hit doing {wounds}; a faller left standing is pinned')
    return why


def _land_roll(height: int, target: Target, dice: DiceSource, who: str) -> dict:
    # The fighter beneath takes the faller's hit; the 12" rule is the faller's alone.
    if who == "faller" and height > CERTAIN_OUT_ABOVE:
        return {
            "outcome": OUT_OF_ACTION,
            "wounds_lost": target.wounds_left,
            "new_flesh_wounds": 0,
            "injury_rolls": [],
            "steps": [],
            "why": f'more than {CERTAIN_OUT_ABOVE}": no dice',
        }
    result = resolution.hit_roll(fall_hit(height), target, dice, who=who).as_json()
    result["pinned"] = not target.down and result["outcome"] not in (DOWN, OUT_OF_ACTION)
    return result


def fall_roll(q: Query, dice: DiceSource) -> dict:
    height, target, edge, initiative = _read_fall(q)
    answer: dict = {"kind": "fall", "why": _fall_why(height, edge)}
    if edge:
        rolled = dice.d6(f"test to fall (I {initiative})")
        falls = rolled > initiative or (edge == "lost_combat" and rolled == 6)
        answer["edge_roll"] = rolled
        answer["falls"] = falls
        if not falls:
            answer["outcome"] = STAYS
            return answer
    answer["landing"] = _land_roll(height, target, dice, "faller")
    answer["outcome"] = answer["landing"]["outcome"]
    if q.has("onto"):
        rolled = dice.d6(f"does the faller strike the fighter beneath ({VICTIM_HIT_ON}+)")
        victim: dict = {"roll": rolled, "struck": rolled >= VICTIM_HIT_ON}
        if victim["struck"]:
            victim.update(_land_roll(height, _target(q.sub("onto")), dice, "fighter beneath"))
        answer["victim"] = victim
    return answer


# --- jumping -------------------------------------------------------------------------------------


def _read_jump(q: Query) -> int | None:
    return q.int("gap", 1, 12) if q.has("gap") else None


def jump_odds(q: Query) -> dict:
    """A jump down is a fall; a jump across ``gap`` inches covers D6" and falls ``height`` if short."""
    gap = _read_jump(q)
    if gap is None:
        return {**fall_odds(q), "kind": "jump", "jump": "down: worked out as a fall"}
    height = q.int("height", 1, 100)
    target = _target(q)
    p_clear = d6_at_least(gap)
    outcome = {"clears": p_clear}
    _weighted(outcome, 1 - p_clear, landing_odds(height, target))
    return {
        "kind": "jump",
        "why": [f'jumps D6" across a {gap}" gap; short of it, falls {height}"'],
        **prob("p_pass", p_clear),
        **dist("outcome", outcome),
    }


def jump_roll(q: Query, dice: DiceSource) -> dict:
    gap = _read_jump(q)
    if gap is None:
        return {**fall_roll(q, dice), "kind": "jump", "jump": "down: worked out as a fall"}
    height = q.int("height", 1, 100)
    target = _target(q)
    rolled = dice.d6(f'jump distance (needs {gap}")')
    answer: dict = {"kind": "jump", "jumped": rolled, "passed": rolled >= gap}
    if rolled >= gap:
        answer["outcome"] = "clears"
        return answer
    answer["landing"] = _land_roll(height, target, dice, "faller")
    answer["outcome"] = answer["landing"]["outcome"]
    return answer


# --- structures ------------------------------------------------------------------------------------


def _read_structure(q: Query) -> tuple[int, int, list[Hit]]:
    toughness = q.int("T", 1, 10)
    wounds = q.int("wounds", 1, 20)
    if q.has("fighter"):
        fighter = combatant(q.sub("fighter"))
        return toughness, wounds, [weapon.hit(fighter.S) for weapon in struck_with(fighter.weapons, fighter.A)]
    if not q.has("hits"):
        raise RulesInputError("fighter", 'give the fighter striking it, or "hits" with "strength" and "damage"')
    count = q.int("hits", 1, 20)
    hit = Hit(q.int("strength", 1, 10), q.str("damage", default="1"), 0)
    resolution.damage_distribution(hit.damage)
    return toughness, wounds, [hit] * count


def _structure_why(toughness: int, wounds: int, hits: list[Hit]) -> list[str]:
    return [f"{len(hits)} automatic hits on a T{toughness} structure that takes {wounds} wounds; no armour save"]


def structure_odds(q: Query) -> dict:
    toughness, wounds, hits = _read_structure(q)
    total = {0: Fraction(1)}
    for hit in hits:
        need = resolution.wound_needed(hit.strength, toughness)
        p = d6_at_least(need) if need else Fraction(0)
        one = {0: 1 - p}
        for amount, q_amount in resolution.damage_distribution(hit.damage).items():
            one[amount] = one.get(amount, 0) + p * q_amount
        total = combine(total, one, lambda a, b: min(wounds, a + b))
    return {
        "kind": "structure",
        "why": _structure_why(toughness, wounds, hits),
        **prob("p_pass", total.get(wounds, Fraction(0))),
        **prob("p_destroyed", total.get(wounds, Fraction(0))),
        **dist("wounds_inflicted", total),
    }


def structure_roll(q: Query, dice: DiceSource) -> dict:
    toughness, wounds, hits = _read_structure(q)
    inflicted = 0
    steps = []
    for i, hit in enumerate(hits):
        need = resolution.wound_needed(hit.strength, toughness)
        if need is None:
            steps.append({"hit": i + 1, "needed": None, "result": f"S{hit.strength} cannot wound T{toughness}"})
            continue
        rolled = dice.d6(f"to wound the structure, hit {i + 1} (needs {need}+)")
        step = {"hit": i + 1, "needed": need, "roll": rolled}
        if rolled >= need:
            step["wounds"] = resolution.roll_damage(hit.damage, dice, "wounds on the structure")
            inflicted += step["wounds"]
        steps.append(step)
    inflicted = min(inflicted, wounds)
    return {
        "kind": "structure",
        "why": _structure_why(toughness, wounds, hits),
        "hits": steps,
        "wounds_inflicted": inflicted,
        "destroyed": inflicted >= wounds,
        "passed": inflicted >= wounds,
    }


KINDS = {
    "fall": (fall_odds, fall_roll),
    "jump": (jump_odds, jump_roll),
    "structure": (structure_odds, structure_roll),
}
