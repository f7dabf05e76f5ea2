"""The 2018+ core resolution: hit, wound and save rolls, Damage and the Injury dice.

Sources (numbers are facts; the wording here is ours):

- N1 a copy of the 2023 core rulebook text, N2 necrodamus.org / necrovox.org, N3 a research note
  that checked both against the 2023 book (compiled in the project's content facts, section 3).
- The Injury dice read as a D6 (1-2 Flesh Wound, 3-5 Seriously Injured, 6 Out of Action): a Discord
  rules bot citing "Necromunda Rulebook (2018) p.71" and a 2021 rpol.net N18 campaign summary
  (secondary evidence: the physical die has two Flesh Wound faces, three Seriously Injured faces and
  one Out of Action face).
"""

from __future__ import annotations

from fractions import Fraction

from rulebook.dice import D6, DiceSource, Dist, certain, chain, combine, d6_at_least, map_dist
from rulebook.tables import Row, Table

FLESH_WOUND = "flesh_wound"
SERIOUSLY_INJURED = "seriously_injured"
OUT_OF_ACTION = "out_of_action"
INJURY_NAMES = {FLESH_WOUND: "Flesh Wound", SERIOUSLY_INJURED: "Seriously Injured", OUT_OF_ACTION: "Out of Action"}
# Worse results rank higher: several Injury dice resolve to the worst of them (plus every Flesh Wound).
INJURY_RANK = {FLESH_WOUND: 0, SERIOUSLY_INJURED: 1, OUT_OF_ACTION: 2}

INJURY_SOURCE = (
    "Injury dice read as a D6: Discord rules bot citing Necromunda Rulebook (2018) p.71; "
    "2021 rpol.net N18 campaign summary; content facts section 3 (N1-N3)"
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


def injury_result(face: int) -> str:
    """The Injury dice result (``FLESH_WOUND`` ...) that a D6 reading ``face`` stands for."""
    return INJURY_DICE.row(face).details["key"]


INJURY_DIE: Dist = map_dist(D6.distribution(), injury_result)


def roll_injury_die(dice: DiceSource, purpose: str = "Injury dice") -> str:
    """Roll one Injury dice on a D6 (1-2 Flesh Wound, 3-5 Seriously Injured, 6 Out of Action)."""
    return injury_result(dice.d6(f"{purpose} (1-2 Flesh Wound, 3-5 Seriously Injured, 6 Out of Action)"))


def injury_dice(count: int) -> Dist:
    """The distribution of ``count`` Injury dice as (worst result, number of Flesh Wounds)."""
    total: Dist = certain((FLESH_WOUND, 0)) if count else {}
    for _ in range(count):
        total = combine(total, INJURY_DIE, _add_injury)
    return total


def _add_injury(state: tuple[str, int], result: str) -> tuple[str, int]:
    worst, flesh_wounds = state
    if INJURY_RANK[result] > INJURY_RANK[worst]:
        worst = result
    return worst, flesh_wounds + (result == FLESH_WOUND)


def injury_outcome(worst: str, new_flesh_wounds: int, toughness: int, flesh_wounds: int = 0) -> str:
    """What a set of Injury dice does to a fighter.

    Out of Action if any die says so, or if the Flesh Wounds (old and new) bring Toughness to 0;
    otherwise Seriously Injured if any die says so; otherwise a Flesh Wound.
    """
    if worst == OUT_OF_ACTION or flesh_wounds + new_flesh_wounds >= toughness:
        return OUT_OF_ACTION
    return worst


def injuries(count: int, toughness: int, flesh_wounds: int = 0) -> Dist:
    """Outcome distribution (Flesh Wound / Seriously Injured / Out of Action) of ``count`` Injury dice."""
    return map_dist(injury_dice(count), lambda s: injury_outcome(s[0], s[1], toughness, flesh_wounds))


# --- hit, wound and save rolls ----------------------------------------------------------


def target_roll(needed: int) -> Fraction:
    """Chance of a D6 roll of ``needed`` or more where a natural 1 always fails."""
    return d6_at_least(max(2, needed))


def wound_target(strength: int, toughness: int) -> int:
    """The D6 score a hit needs to wound: Strength against Toughness (content facts section 3)."""
    if strength >= 2 * toughness:
        return 2
    if strength > toughness:
        return 3
    if strength == toughness:
        return 4
    if 2 * strength <= toughness:
        return 6
    return 5


def save_target(save: int | None, ap: int = 0, modifier: int = 0) -> int | None:
    """The D6 score a save needs after AP (``ap`` <= 0) and other modifiers; None when none is left."""
    if save is None:
        return None
    needed = save - ap - modifier
    return needed if needed <= 6 else None


def p_save(save: int | None, ap: int = 0, modifier: int = 0) -> Fraction:
    needed = save_target(save, ap, modifier)
    return Fraction(0) if needed is None else target_roll(needed)


def damage_outcome(damage: int, wounds: int, toughness: int, flesh_wounds: int = 0) -> Dist:
    """What an unsaved hit of ``damage`` does to a fighter with ``wounds`` left.

    Each point of Damage removes a Wound; the point that takes the fighter to 0 Wounds, and each point
    beyond it, is an Injury dice (content facts section 3). Outcomes: ``wound_lost`` or an injury result.
    """
    if damage < wounds:
        return certain("wound_lost")
    return injuries(damage - wounds + 1, toughness, flesh_wounds)


def damage_distribution(damage: Dist, wounds: int, toughness: int, flesh_wounds: int = 0) -> Dist:
    return chain(damage, lambda d: damage_outcome(d, wounds, toughness, flesh_wounds))
