"""2018+ tests: characteristic tests, Nerve, Rally, Bottle, Recovery and Ammo tests.

Sources (content facts section 3, from N1 the 2023 core rulebook text, N2 necrodamus.org / necrovox.org and
N3 a research note; the Bottle formula also in a 2021 rpol.net N18 summary):

- WS, BS and I are target numbers: a D6 plus modifiers must reach them. Ld, Cl, Wil and Int are target
  numbers for 2D6 plus modifiers. S and T are tested by rolling a D6 equal to or under the value. No
  natural-roll rule is applied to these tests (the sources name none).
- Nerve test: a Cool test when a friend nearby is Seriously Injured or taken Out of Action; failing it
  Breaks the fighter. Rally: a Cool test in the End phase for a Broken fighter. Both add 1 for each friendly
  fighter within 3" who is neither Broken nor Prone and Seriously Injured (``friends_within_3``; 2023 core
  rulebook pp. 128 and 141, as summarised at
  https://bluetablewargaming.blogspot.com/2026/02/friends-with-benefits-reasons-to-keep.html).
- Bottle test: D6 plus the crew's Seriously Injured and Out of Action fighters; a total above the starting
  crew bottles the gang out.
- Iron Will (``iron_will``): 1 off the Bottle roll while a fighter with the skill is in play and not Seriously
  Injured (:mod:`rulebook.n18.skills`).
- Home Turf Advantage (the campaign guide, Scenario Rules): the gang rolls two D6 for its Bottle test and
  discards the highest, and adds 1 to its Rally tests (``home_turf``).
- Fleeing the battlefield: once a gang has bottled out, each of its fighters makes a Cool test in every End
  phase, and one who fails flees (goes Out of Action): ``kind`` ``flee``, the Cool test with its modifier.
- Recovery test: one Injury dice for a Seriously Injured fighter. Out of Action removes them; Seriously
  Injured adds a Flesh Wound and they stay down; a Flesh Wound adds a Flesh Wound and they stand up Prone
  and Pinned. A Standing, Active friend within 1" may assist: roll one more Injury dice, keep the better,
  and take no Flesh Wound.
- Ammo test: a D6 equal to or above the weapon's Ammo value (goonhammer.com "Hammer of Math: Necromunda
  Ammo Checks").
"""

from __future__ import annotations

from fractions import Fraction

from rulebook.dice import D6, TWO_D6, DiceSource, Dist, combine, map_dist, probability
from rulebook.errors import RulesInputError
from rulebook.n18 import skills
from rulebook.n18.damage import FLESH_WOUND, INJURY_DIE, OUT_OF_ACTION, SERIOUSLY_INJURED, roll_injury_die
from rulebook.n18.resolution import target_number
from rulebook.output import dist, prob
from rulebook.query import Query

D6_TARGETS = ("WS", "BS", "I")
TWO_D6_TARGETS = ("Ld", "Cl", "Wil", "Int")
ROLL_UNDER = ("S", "T")
KINDS = ("characteristic", "nerve", "rally", "flee", "bottle", "recovery", "ammo")
HOME_TURF_RALLY = 1


# --- characteristic tests -----------------------------------------------------------------


def d6_test(target: int, modifier: int = 0) -> Fraction:
    """D6 + modifier reaching a target number (WS, BS, I, Ammo)."""
    return Fraction(sum(1 for face in range(1, 7) if face + modifier >= target), 6)


def two_d6_test(target: int, modifier: int = 0) -> Fraction:
    """2D6 + modifier reaching a target number (Ld, Cl, Wil, Int)."""
    return probability(TWO_D6, lambda total: total + modifier >= target)


def roll_under_test(value: int, modifier: int = 0) -> Fraction:
    """A D6 equal to or under the characteristic (S, T), the modifier added to the characteristic."""
    return Fraction(sum(1 for face in range(1, 7) if face <= value + modifier), 6)


def _characteristic(query: Query) -> tuple[str, int, int]:
    name = query.choice("characteristic", D6_TARGETS + TWO_D6_TARGETS + ROLL_UNDER)
    modifier = query.int("modifier", -6, 6, default=0)
    if name in D6_TARGETS:
        return name, target_number(query, "value", 2, 6), modifier
    if name in TWO_D6_TARGETS:
        return name, target_number(query, "value", 2, 12), modifier
    return name, query.int("value", 1, 10), modifier


def p_characteristic(name: str, value: int, modifier: int) -> Fraction:
    if name in D6_TARGETS:
        return d6_test(value, modifier)
    if name in TWO_D6_TARGETS:
        return two_d6_test(value, modifier)
    return roll_under_test(value, modifier)


def roll_characteristic(name: str, value: int, modifier: int, dice: DiceSource) -> tuple[int, bool]:
    if name in TWO_D6_TARGETS:
        total = sum(dice.two_d6(f"{name} test ({value}+ on 2D6, modifier {modifier:+d})"))
        return total, total + modifier >= value
    face = dice.d6(f"{name} test")
    passed = face <= value + modifier if name in ROLL_UNDER else face + modifier >= value
    return face, passed


# --- Bottle and Recovery ---------------------------------------------------------------------


def bottle_die(home_turf: bool) -> Dist:
    """The Bottle test's die: one D6, or with Home Turf Advantage the lower of two D6."""
    if home_turf:
        return combine(D6.distribution(), D6.distribution(), min)
    return D6.distribution()


def bottle(
    seriously_injured: int, out_of_action: int, starting_crew: int, modifier: int = 0, home_turf: bool = False
) -> Fraction:
    """Chance the gang bottles out: the die + SI + OOA (+ modifier) above the starting crew."""
    return probability(
        bottle_die(home_turf), lambda face: face + seriously_injured + out_of_action + modifier > starting_crew
    )


RECOVERY_PREFERENCE = {FLESH_WOUND: 0, SERIOUSLY_INJURED: 1, OUT_OF_ACTION: 2}  # the fighter keeps the lowest


def recovery_result(result: str, toughness: int, flesh_wounds: int, assisted: bool) -> str:
    """What one kept Injury dice does in a Recovery test: ``recovers``, ``stays_down`` or ``out_of_action``."""
    if result == OUT_OF_ACTION:
        return OUT_OF_ACTION
    if not assisted and flesh_wounds + 1 >= toughness:
        return OUT_OF_ACTION  # the Flesh Wound taken brings Toughness to 0
    return "recovers" if result == FLESH_WOUND else "stays_down"


def recovery(toughness: int, flesh_wounds: int, assisted: bool) -> Dist:
    kept = INJURY_DIE
    if assisted:
        kept = combine(INJURY_DIE, INJURY_DIE, lambda a, b: min(a, b, key=RECOVERY_PREFERENCE.get))
    return map_dist(kept, lambda r: recovery_result(r, toughness, flesh_wounds, assisted))


# --- the action -------------------------------------------------------------------------------


def _bottle_inputs(query: Query) -> tuple[int, int, int, int]:
    crew = query.int("starting_crew", 1, 30)
    # Reinforcements (Border Dispute, Search & Destroy) join the gang on the table: its casualties may outnumber the
    # starting crew, while the test still reads the starting crew (2023 core rulebook, Bottle Tests).
    fielded = crew + query.int("reinforcements", 0, 30, default=0)
    si = query.int("seriously_injured", 0, fielded)
    ooa = query.int("out_of_action", 0, fielded)
    if si + ooa > fielded:
        raise RulesInputError(
            "out_of_action", "Seriously Injured and Out of Action fighters exceed the fighters fielded"
        )
    # Iron Will: a fighter of the gang with the skill, in play and not Seriously Injured (rulebook.n18.skills).
    modifier = query.int("modifier", -6, 6, default=0) + skills.IRON_WILL_MODIFIER * query.bool("iron_will")
    return si, ooa, crew, modifier, query.bool("home_turf")


def _recovery_inputs(query: Query) -> tuple[int, int, bool]:
    toughness = query.int("T", 1, 10)
    return toughness, query.int("flesh_wounds", 0, toughness - 1, default=0), query.bool("assisted")


def _cool(query: Query, kind: str) -> tuple[int, int]:
    """The Cool target and the modifier: the query's own, +1 per steady friend within 3" (Nerve, Rally) and
    +1 with Home Turf Advantage (Rally)."""
    modifier = query.int("modifier", -6, 6, default=0)
    if kind in ("nerve", "rally"):
        modifier += query.int("friends_within_3", 0, 20, default=0)
    if kind == "rally" and query.bool("home_turf"):
        modifier += HOME_TURF_RALLY
    return target_number(query, "Cl", 2, 12), modifier


def _ammo(query: Query) -> tuple[int, int]:
    return target_number(query, "ammo", 2, 6), query.int("modifier", -6, 6, default=0)


def odds(query: Query) -> dict:
    kind = query.choice("kind", KINDS)
    if kind == "characteristic":
        name, value, modifier = _characteristic(query)
        return {"kind": kind, "characteristic": name, **prob("p_pass", p_characteristic(name, value, modifier))}
    if kind in ("nerve", "rally", "flee"):
        cool, modifier = _cool(query, kind)
        return {"kind": kind, "modifier": modifier, **prob("p_pass", two_d6_test(cool, modifier))}
    if kind == "bottle":
        p = bottle(*_bottle_inputs(query))
        return {"kind": kind, **prob("p_bottled", p), **prob("p_pass", 1 - p)}
    if kind == "recovery":
        outcome = recovery(*_recovery_inputs(query))
        return {"kind": kind, **dist("outcome", outcome), **prob("p_recovers", outcome.get("recovers", 0))}
    return {"kind": kind, **prob("p_pass", d6_test(*_ammo(query)))}


def roll(query: Query, dice: DiceSource) -> dict:
    kind = query.choice("kind", KINDS)
    if kind == "characteristic":
        name, value, modifier = _characteristic(query)
        score, passed = roll_characteristic(name, value, modifier, dice)
        return {"kind": kind, "characteristic": name, "score": score, "passed": passed}
    if kind in ("nerve", "rally", "flee"):
        cool, modifier = _cool(query, kind)
        score, passed = roll_characteristic("Cl", cool, modifier, dice)
        return {"kind": kind, "score": score, "modifier": modifier, "passed": passed}
    if kind == "bottle":
        si, ooa, crew, modifier, home_turf = _bottle_inputs(query)
        if home_turf:
            faces = [dice.d6("Bottle test, Home Turf: first die"), dice.d6("Bottle test, Home Turf: second die")]
        else:
            faces = [dice.d6("Bottle test")]
        total = min(faces) + si + ooa + modifier
        return {"kind": kind, "kept": min(faces), "total": total, "bottled": total > crew, "passed": total <= crew}
    if kind == "recovery":
        toughness, flesh, assisted = _recovery_inputs(query)
        results = [roll_injury_die(dice, "Recovery test: Injury dice")]
        if assisted:
            results.append(roll_injury_die(dice, "Recovery test: assisting friend's extra Injury dice"))
        kept = min(results, key=RECOVERY_PREFERENCE.get)
        return {
            "kind": kind,
            "injury_dice": results,
            "kept": kept,
            "outcome": recovery_result(kept, toughness, flesh, assisted),
        }
    ammo, modifier = _ammo(query)
    face = dice.d6(f"Ammo test (needs {ammo}+)")
    return {"kind": kind, "score": face, "passed": face + modifier >= ammo}
