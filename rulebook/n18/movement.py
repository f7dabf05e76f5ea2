"""2018+ movement: Agility tests, the cost of a move over terrain, falling and jumping down.

Source: the core rules' Movement chapter (the project's seed ``n18-core-movement.txt``), read as follows.

- Agility test: a D6 scoring 4 or more passes, whatever the fighter's characteristics; modifiers (all Escher
  fighters +1, railings +1 against being forced off a ledge) apply to the roll; a natural 1 always fails and
  a natural 6 always passes.
- Difficult terrain: each 1" counts as 2". Dangerous terrain counts as difficult, and after moving through it
  the model rolls a D6: on a 1 it suffers a hit that wounds automatically and ignores all saves, Damage 1
  (the seed's profile is cut off; read per seed-notes 7).
- Obstacles (at most 2" high and 2" across) cost their height in inches. Opening or closing a door costs
  2" each time. Climbing counts each vertical inch as 2"; ladders and stairs cost no more than their
  height. Stepping up or down at most 1/2" is free; a larger difference must be climbed or jumped down.
- Gaps of 2" or less are crossed without a roll (their width is moved); a wider gap needs an Agility test,
  and a failed leap falls from the near edge.
- Forced off a ledge: an Agility test (railings +1) keeps the fighter in place, else they fall. Jumping down
  is a fall with no test to avoid it, but an Agility test to land: a pass lowers the Falling table one band
  (3"-6" becomes under 3", and under 3" is no fall at all).
- A falling fighter who would land on another rolls a D6: on 4+ they land on them and both count as falling
  the same distance.

The Falling table itself is cut off in the seed. Its rows are taken from the 2023 core rulebook as
necrovox.org publishes it (https://necrovox.org/docs/the-rules/resolve-hits, "Falling"; read through the
copy in the public repository yakuzadave/necroman_v2, ``necrovox_docs_flat/6-the-rules/14-resolve-hits.md``):
a fall of 3" or more is an automatic hit whose profile depends on the distance fallen, rounded up to the
nearest inch: 3"-5" S3 AP- D1, 6"-7" S5 AP-1 D1, 8"-9" S7 AP-2 D2, 10" or more S9 AP-3 D3. A shorter fall
is no hit; the fighter is still Pinned and their activation ends (the seed's jumping-down text). The same
page's terrain section (https://necrovox.org/docs/the-rules/terrain, "Falling") gives the rounding. The
seed's own example names a 3"-6" band, which does not match the 2023 rows exactly: the published rows are
used and the seed's rule (a good landing lowers the fall one row) is applied to them.
How far a jump down costs in Movement is not in the seed; the Catfall skill's wording in BSData
necromunda-gang-war (a faller "counts as having moved half the vertical distance") implies the full
vertical distance normally counts, which is what :func:`segment_cost` charges.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

from rulebook.dice import D6, DiceSource, Dist, certain, map_dist, mix
from rulebook.errors import RulesInputError
from rulebook.n18.armour import Defence
from rulebook.n18.damage import Fighter, classify, fighter_json, read_fighter
from rulebook.n18.resolution import Attack, resolve, roll_attack
from rulebook.output import dist, prob
from rulebook.query import Query

AGILITY_TARGET = 4
ESCHER_BONUS = 1
RAILINGS_BONUS = 1
LANDING_ON_TARGET = 4
FREE_STEP = Fraction(1, 2)
FREE_GAP = 2
OBSTACLE_MAX = 2
DOOR_COST = 2


# --- Agility tests ---------------------------------------------------------------------------


def agility_passes(face: int, modifier: int = 0) -> bool:
    """One Agility test die: 4+ with modifiers, a natural 1 always fails and a natural 6 always passes."""
    if face in (1, 6):
        return face == 6
    return face + modifier >= AGILITY_TARGET


def p_agility(modifier: int = 0) -> Fraction:
    return Fraction(sum(agility_passes(face, modifier) for face in D6.faces), 6)


def roll_agility(dice: DiceSource, modifier: int, purpose: str) -> bool:
    return agility_passes(dice.d6(f"Agility test: {purpose} (4+, modifier {modifier:+d})"), modifier)


def agility_modifier(query: Query, railings: bool = False) -> int:
    """Modifiers to an Agility test: ``modifier`` (a number), ``escher`` (+1), railings (+1) when they apply."""
    modifier = query.int("modifier", -5, 5, default=0)
    return modifier + ESCHER_BONUS * query.bool("escher") + RAILINGS_BONUS * railings


def agility_odds(query: Query) -> dict:
    modifier = agility_modifier(query, query.bool("railings"))
    return {"target": AGILITY_TARGET, "modifier": modifier, **prob("p_pass", p_agility(modifier))}


def agility_roll(query: Query, dice: DiceSource) -> dict:
    modifier = agility_modifier(query, query.bool("railings"))
    return {"target": AGILITY_TARGET, "modifier": modifier, "passed": roll_agility(dice, modifier, "as asked")}


# --- the cost of a move ------------------------------------------------------------------------

SEGMENTS = ("open", "difficult", "dangerous", "obstacle", "door", "climb", "ladder", "step", "gap", "jump_down")


@dataclass(frozen=True)
class Segment:
    kind: str
    length: Fraction  # distance, height or width in inches (0 for a door)
    field: str


def read_segment(query: Query) -> Segment:
    kind = query.choice("kind", SEGMENTS)
    if kind == "door":
        return Segment(kind, Fraction(0), query.path)
    name = {"obstacle": "height", "climb": "height", "ladder": "height", "step": "height", "jump_down": "height"}
    name = name.get(kind, "width" if kind == "gap" else "distance")
    length = Fraction(str(query.number(name, 0, 100)))
    if kind == "obstacle" and length > OBSTACLE_MAX:
        raise RulesInputError(query.field(name), 'an obstacle is at most 2" high; taller terrain is climbed')
    if kind == "step" and length > FREE_STEP:
        raise RulesInputError(query.field(name), 'a step up or down is at most 1/2"; climb or jump down instead')
    return Segment(kind, length, query.path)


def segment_cost(segment: Segment) -> Fraction:
    """Inches of Movement a segment uses."""
    if segment.kind in ("difficult", "dangerous", "climb"):
        return 2 * segment.length
    if segment.kind == "door":
        return Fraction(DOOR_COST)
    if segment.kind == "step":
        return Fraction(0)
    return segment.length


def segment_test(segment: Segment) -> str | None:
    """The roll a segment asks for, if any."""
    if segment.kind == "dangerous":
        return "dangerous terrain D6 (a 1 is an automatic wound, no save, Damage 1)"
    if segment.kind == "gap" and segment.length > FREE_GAP:
        return f'Agility test to leap a {float(segment.length):g}" gap (a failure falls)'
    return None


def _inches(value: Fraction):
    return int(value) if value.denominator == 1 else float(value)


def move_cost_odds(query: Query) -> dict:
    movement = Fraction(str(query.number("movement", 0, 30))) if query.has("movement") else None
    segments = [read_segment(q) for q in query.items("path")]
    modifier = agility_modifier(query)
    steps, p_all = [], Fraction(1)
    for segment in segments:
        test = segment_test(segment)
        step = {"kind": segment.kind, "cost": _inches(segment_cost(segment)), "test": test}
        if test:
            p_ok = Fraction(5, 6) if segment.kind == "dangerous" else p_agility(modifier)
            step.update(prob("p_pass", p_ok))
            p_all *= p_ok
        steps.append(step)
    total = sum((segment_cost(s) for s in segments), Fraction(0))
    answer = {"cost": _inches(total), "steps": steps, **prob("p_all_tests_pass", p_all)}
    if movement is not None:
        answer.update({"movement": _inches(movement), "enough_movement": total <= movement})
        answer["remaining"] = _inches(max(Fraction(0), movement - total))
    return answer


def move_cost_roll(query: Query, dice: DiceSource) -> dict:
    segments = [read_segment(q) for q in query.items("path")]
    modifier = agility_modifier(query)
    steps, moved = [], Fraction(0)
    for segment in segments:
        moved += segment_cost(segment)
        step = {"kind": segment.kind, "cost": _inches(segment_cost(segment))}
        steps.append(step)
        if segment.kind == "dangerous":
            hurt = dice.d6("dangerous terrain (a 1 is an automatic wound, no save, Damage 1)") == 1
            step["automatic_wound"] = hurt
        elif segment_test(segment):
            step["leap"] = "crossed" if roll_agility(dice, modifier, "leap a gap") else "falls"
            if step["leap"] == "falls":
                break
    return {"moved": _inches(moved), "steps": steps}


# --- falling -----------------------------------------------------------------------------------

FALL_BANDS = (
    {"band": 0, "distance": 'under 3"', "hit": None, "effects": ["Pinned (Suppressed) and the activation ends"]},
    {"band": 1, "distance": '3"-5"', "hit": {"strength": 3, "ap": 0, "damage": 1}, "effects": ["Pinned"]},
    {"band": 2, "distance": '6"-7"', "hit": {"strength": 5, "ap": -1, "damage": 1}, "effects": ["Pinned"]},
    {"band": 3, "distance": '8"-9"', "hit": {"strength": 7, "ap": -2, "damage": 2}, "effects": ["Pinned"]},
    {"band": 4, "distance": '10" or more', "hit": {"strength": 9, "ap": -3, "damage": 3}, "effects": ["Pinned"]},
)
FALL_BAND_FROM = (3, 6, 8, 10)  # the whole inches at which each row with a hit starts
FALLING_TABLE_SOURCE = (
    "2023 core rulebook, Falling (https://necrovox.org/docs/the-rules/resolve-hits); distance rounded up to the inch"
)
NO_FALL = {"band": None, "distance": "no fall", "hit": None, "effects": []}
FALL_CAUSES = ("fall", "forced", "jump_down")
ASSUMED_TARGET = {"T": 3, "W": 1}


def fall_band(height: Fraction) -> int:
    """The Falling table row for a fall of ``height`` inches, rounded up to the nearest inch first."""
    inches = math.ceil(height)
    return sum(inches >= start for start in FALL_BAND_FROM)


def band_after_landing(band: int, landed_well: bool) -> int | None:
    """A good landing from a jump down lowers the band one step; from the lowest band it is no fall."""
    if not landed_well:
        return band
    return band - 1 if band > 0 else None


def band_outcome(band: int | None, fighter: Fighter, save: Defence) -> Dist:
    """Distribution of what a fall of ``band`` does: ``no_fall``, ``pinned`` or the hit's outcome."""
    if band is None:
        return certain("no_fall")
    hit = FALL_BANDS[band]["hit"]
    if hit is None:
        return certain("pinned")
    return map_dist(resolve(_fall_attack(hit, save), fighter), lambda r: _fall_result(r, fighter))


def _fall_attack(hit: dict, defence: Defence) -> Attack:
    save, save_modifier = defence.against(hit["ap"])
    return Attack(skill=None, hit_modifier=0, save=save, save_modifier=save_modifier, **hit)


def _fall_result(result: tuple, fighter: Fighter) -> str:
    step, _, after = result
    return "pinned" if step in ("no_wound", "saved") else classify(fighter, after)


def _read_fall(query: Query):
    height = Fraction(str(query.number("height", 0, 100)))
    cause = query.choice("cause", FALL_CAUSES, default="fall")
    # Without a target the hit is worked out against a T3, 1-Wound fighter with no save, and the answer says so.
    target = query.sub("target") if query.has("target") else Query(ASSUMED_TARGET, "target")
    fighter, _ = read_fighter(target)
    save = Defence(target)
    railings = query.bool("railings")
    if railings and cause != "forced":
        raise RulesInputError("railings", "railings only help a fighter forced off a ledge (cause 'forced')")
    return height, cause, fighter, save, agility_modifier(query, railings), query.bool("lands_on_fighter")


def fall_odds(query: Query) -> dict:
    height, cause, fighter, save, modifier, lands_on = _read_fall(query)
    band = fall_band(height)
    p_test = p_agility(modifier)
    if cause == "forced":
        outcome = mix([(p_test, certain("stays_put")), (1 - p_test, band_outcome(band, fighter, save))])
    elif cause == "jump_down":
        outcome = mix(
            [
                (p_test, band_outcome(band_after_landing(band, True), fighter, save)),
                (1 - p_test, band_outcome(band, fighter, save)),
            ]
        )
    else:
        outcome = band_outcome(band, fighter, save)
    answer = {
        "cause": cause,
        "falling_table": FALL_BANDS[band],
        "agility_modifier": modifier,
        **dist("outcome", outcome),
        "falling_table_source": FALLING_TABLE_SOURCE,
        "target": query.raw("target", None) or {**ASSUMED_TARGET, "assumed": True},
    }
    if cause != "fall":
        answer.update(prob("p_agility", p_test))
    if lands_on:
        answer.update(prob("p_lands_on_fighter", Fraction(7 - LANDING_ON_TARGET, 6)))
    return answer


def fall_roll(query: Query, dice: DiceSource) -> dict:
    height, cause, fighter, save, modifier, lands_on = _read_fall(query)
    band, answer = fall_band(height), {"cause": cause}
    if cause == "forced" and roll_agility(dice, modifier, "stay on the ledge"):
        return {**answer, "outcome": "stays_put", "target_after": fighter_json(fighter)}
    if cause == "jump_down":
        band = band_after_landing(band, roll_agility(dice, modifier, "land well"))
    answer["falling_table"] = NO_FALL if band is None else FALL_BANDS[band]
    if lands_on and band is not None:
        answer["lands_on_fighter"] = dice.d6("lands on the fighter below on 4+") >= LANDING_ON_TARGET
    hit = None if band is None else FALL_BANDS[band]["hit"]
    if hit is None:
        return {**answer, "outcome": "no_fall" if band is None else "pinned", "target_after": fighter_json(fighter)}
    result = roll_attack(_fall_attack(hit, save), fighter, dice)
    return {**answer, "outcome": _fall_result(result, fighter), "target_after": fighter_json(result[2])}
