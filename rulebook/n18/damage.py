"""The 2018+ Damage step: the Injury dice, Flesh Wounds and what an unsaved hit leaves of a fighter.

Sources (numbers are facts; the wording here is ours):

- N1 a copy of the 2023 core rulebook text, N2 necrodamus.org / necrovox.org ("Resolve Hits"), N3 a research
  note that checked both against the 2023 book; compiled in the project's content facts, section 3.
- The Injury dice read as a D6 (1-2 Flesh Wound, 3-5 Seriously Injured, 6 Out of Action): a Discord rules bot
  citing "Necromunda Rulebook (2018) p.71", a 2021 rpol.net N18 campaign summary, and Goonhammer's
  "Hammer of Math: Necromath... da" (a third Flesh Wound, half Seriously Injured, a sixth Out of Action).
- Melta and Pulverise on the Injury dice: BSData necromunda-gang-war ``Necromunda-Gang-War.gst`` shared rules
  (https://github.com/BSData/necromunda-gang-war) and necrovox's weapon traits page.
- A Flesh Wound lowers Toughness, so later wound rolls are made against the lowered value
  (https://necrovox.org/docs/the-rules/resolve-hits, "Injury Dice").

The hit, wound and save rolls that come before are :mod:`rulebook.n18.resolution`. Each Injury dice result is
applied by one function of the face (``apply_injury``), shared by the exact odds and a roll on a dice source.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction

from rulebook.dice import D6, DiceSource, Dist, certain, chain, combine, map_dist, mix
from rulebook.query import Query
from rulebook.tables import Row, Table

FLESH_WOUND = "flesh_wound"
SERIOUSLY_INJURED = "seriously_injured"
OUT_OF_ACTION = "out_of_action"

INJURY_SOURCE = (
    "Injury dice read as a D6: Discord rules bot citing Necromunda Rulebook (2018) p.71; 2021 rpol.net N18 "
    "campaign summary; goonhammer.com Hammer of Math: Necromath... da (1/3, 1/2, 1/6); content facts section 3"
)

INJURY_DICE = Table(
    name="injury-dice",
    title="Injury dice",
    dice="D6",
    rows=(
        Row(1, 2, "Flesh Wound", {"key": FLESH_WOUND, "effects": ["-1 Toughness; at Toughness 0 Out of Action"]}),
        Row(3, 5, "Seriously Injured", {"key": SERIOUSLY_INJURED, "effects": ["Prone and Seriously Injured"]}),
        Row(6, 6, "Out of Action", {"key": OUT_OF_ACTION, "effects": ["removed from the battle"]}),
    ),
    source=INJURY_SOURCE,
)

INJURY_PURPOSE = "Injury dice (1-2 Flesh Wound, 3-5 Seriously Injured, 6 Out of Action)"


def injury_result(face: int) -> str:
    """The Injury dice result (``FLESH_WOUND`` ...) that a D6 reading ``face`` stands for."""
    return INJURY_DICE.row(face).details["key"]


INJURY_DIE: Dist = map_dist(D6.distribution(), injury_result)


def roll_injury_die(dice: DiceSource, purpose: str = INJURY_PURPOSE) -> str:
    return injury_result(dice.d6(purpose))


# --- a fighter's condition --------------------------------------------------------------


@dataclass(frozen=True)
class Fighter:
    """What the resolution needs to know about the fighter being hit."""

    toughness: int
    wounds: int  # wounds left; 0 once the last went (Seriously Injured, or standing with Flesh Wounds)
    flesh_wounds: int = 0
    seriously_injured: bool = False
    out_of_action: bool = False

    @property
    def current_toughness(self) -> int:
        """Toughness after Flesh Wounds, which later wound rolls are made against."""
        return self.toughness - self.flesh_wounds


def apply_injury(fighter: Fighter, result: str, melta: bool = False) -> Fighter:
    """One Injury dice result applied to a fighter (content facts section 3).

    A Flesh Wound lowers Toughness by one and Toughness 0 means Out of Action; a second Seriously Injured
    result on a fighter already Seriously Injured counts as a Flesh Wound. A Melta hit at short range
    takes the fighter Out of Action instead of an Injury roll (BSData gst, Melta trait).
    """
    if fighter.out_of_action:
        return fighter
    if melta or result == OUT_OF_ACTION:
        return replace(fighter, out_of_action=True)
    if result == SERIOUSLY_INJURED and not fighter.seriously_injured:
        return replace(fighter, seriously_injured=True)
    flesh = fighter.flesh_wounds + 1
    return replace(fighter, flesh_wounds=flesh, out_of_action=flesh >= fighter.toughness)


def injury_dice_count(fighter: Fighter, damage: int) -> int:
    """Each point of Damage removes a Wound; the point that reaches 0 and every point beyond is an Injury dice."""
    return max(0, damage - fighter.wounds + 1) if fighter.wounds else damage


def lose_wounds(fighter: Fighter, damage: int) -> Fighter:
    return replace(fighter, wounds=max(0, fighter.wounds - damage))


def damage_outcomes(fighter: Fighter, damage: int, melta: bool = False, pulverise: bool = False) -> Dist:
    """Exact distribution of the fighter after an unsaved hit of ``damage``."""
    dice = injury_dice_count(fighter, damage)
    if pulverise and not melta:
        results = _injury_results(dice)
        toughness = fighter.current_toughness
        results = chain(results, lambda r: _pulverised(r, toughness))
        return map_dist(results, lambda r: apply_injuries(lose_wounds(fighter, damage), r))
    states: Dist = certain(lose_wounds(fighter, damage))
    for _ in range(dice):
        states = chain(states, lambda f: map_dist(INJURY_DIE, lambda r, f=f: apply_injury(f, r, melta)))
    return states


def _injury_results(dice: int) -> Dist:
    """The Injury dice results of one roll as a sorted tuple (the order they are applied in does not matter)."""
    results: Dist = certain(())
    for _ in range(dice):
        results = combine(results, INJURY_DIE, lambda rs, r: tuple(sorted((*rs, r))))
    return results


def pulverise_takes(face: int, toughness: int) -> bool:
    """Pulverise: after the Injury roll, a D6 at or above the target's Toughness, or a 6, turns one Flesh Wound
    into Seriously Injured (https://necrovox.org/docs/gang-fighters-and-their-weaponry/weapon-traits)."""
    return face == 6 or face >= toughness


def _pulverised(results: tuple, toughness: int) -> Dist:
    if FLESH_WOUND not in results:
        return certain(results)
    changed = list(results)
    changed[changed.index(FLESH_WOUND)] = SERIOUSLY_INJURED
    p = Fraction(sum(pulverise_takes(face, toughness) for face in D6.faces), 6)
    return mix([(p, certain(tuple(sorted(changed)))), (1 - p, certain(results))])


def apply_injuries(fighter: Fighter, results) -> Fighter:
    for result in results:
        fighter = apply_injury(fighter, result)
    return fighter


def roll_damage(fighter: Fighter, damage: int, dice: DiceSource, melta: bool = False, pulverise: bool = False):
    """The same as :func:`damage_outcomes`, rolled on a dice source."""
    dice_count = injury_dice_count(fighter, damage)
    toughness = fighter.current_toughness
    fighter = lose_wounds(fighter, damage)
    if pulverise and not melta:
        results = [roll_injury_die(dice) for _ in range(dice_count)]
        wanted = FLESH_WOUND in results and OUT_OF_ACTION not in results
        if wanted and pulverise_takes(dice.d6(f"Pulverise (needs {toughness}+ or a 6)"), toughness):
            results[results.index(FLESH_WOUND)] = SERIOUSLY_INJURED
        return apply_injuries(fighter, results)
    for _ in range(dice_count):
        if fighter.out_of_action:
            break
        fighter = apply_injury(fighter, roll_injury_die(dice), melta)
    return fighter


def classify(before: Fighter, after: Fighter) -> str:
    """Name what an unsaved hit did, worst first."""
    if after.out_of_action:
        return OUT_OF_ACTION
    if after.seriously_injured and not before.seriously_injured:
        return SERIOUSLY_INJURED
    if after.flesh_wounds > before.flesh_wounds:
        return FLESH_WOUND
    return "wound_lost"


# --- reading and showing a fighter ------------------------------------------------------------


STATES = ("standing", "engaged", "prone", "seriously_injured")


def read_fighter(query: Query) -> tuple[Fighter, str]:
    """The target of an attack: ``T``, ``W`` (wounds left), ``flesh_wounds``, ``state``.

    ``W`` 0 is a fighter whose last Wound went but whose Injury dice gave only Flesh Wounds: still on their
    feet, and every point of Damage from a further hit is an Injury dice (content facts section 3).
    """
    toughness = query.int("T", 1, 10)
    state = query.choice("state", STATES, default="standing")
    seriously_injured = state == "seriously_injured"
    query.accept("W")  # a Seriously Injured fighter has no Wounds left, whatever the query says
    wounds = 0 if seriously_injured else query.int("W", 0, 10, default=1)
    flesh = query.int("flesh_wounds", 0, toughness - 1, default=0)
    return Fighter(toughness, wounds, flesh, seriously_injured), state


def fighter_json(fighter: Fighter) -> dict:
    return {
        "wounds": fighter.wounds,
        "flesh_wounds": fighter.flesh_wounds,
        "toughness": fighter.toughness - fighter.flesh_wounds,
        "seriously_injured": fighter.seriously_injured,
        "out_of_action": fighter.out_of_action,
    }
