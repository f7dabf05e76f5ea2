"""The Lasting Injury table (D66) of the campaign guide, with each row's effects as data.

Source: the club campaign guide "Playing Necromunda Games in Cycle 1 & 2" (GUIDE below), section
"Lasting Injury Table", read with the project's seed notes:

- the rows are D66 (tens die then units die): 15-26 is 15, 16, 21 ... 26, and 17 or 70 do not exist;
- 13 Horrid Scars is cut off after "If they": read like its neighbours 12 and 14, a fighter who
  already has Fearsome takes it as Out Cold;
- Recovery and Convalescence are different statuses: a fighter in Recovery (or Captured) takes no
  post-battle action, one in Convalescence still may; both miss the next battle.

Readings of our own, said where they matter: a result that is "treated as Out Cold" (a second
Impressive Scars ...) counts as Out Cold, so Multiple Injuries re-rolls it like an Out Cold; a
characteristic step follows the 2018+ convention, so a worse BS is a higher target number (4+ to
5+) while a worse M, S, T, W or A is a lower number; nothing is clamped, the guide sets no floor.
"""

from __future__ import annotations

from dataclasses import dataclass

from rulebook.roster import (
    ACTIVE,
    FighterSnapshot,
    InjuryOutcome,
    InjuryRules,
    injury_row,
    note_effect,
    status_effect,
    worsen_effects,
)
from rulebook.tables import Row, Table

GUIDE = "club campaign guide 'Playing Necromunda Games in Cycle 1 & 2'"
SOURCE = f"{GUIDE}, Lasting Injury Table; seed notes 3-5 (D66 rows, Horrid Scars, Recovery vs Convalescence)"

# Statuses a fighter can have between battles, mildest first: a fighter keeps the worst.
CONVALESCENCE = "convalescence"
RECOVERY = "recovery"
CRITICAL_INJURY = "critical_injury"
CAPTURED = "captured"
DEAD = "dead"
STATUSES = (ACTIVE, CONVALESCENCE, RECOVERY, CRITICAL_INJURY, CAPTURED, DEAD)
STATUS_RANK = {status: rank for rank, status in enumerate(STATUSES)}

# 2018+ target-number characteristics (BS 4+): a worse one is a higher number.
TARGET_NUMBER_CHARACTERISTICS = frozenset({"WS", "BS", "I", "Ld", "Cl", "Wil", "Int"})


def characteristic_text(code: str, value: int) -> str:
    """A 2018+ characteristic as the game writes it: a target number with its plus (WS 4+), others bare (S 3)."""
    return f"{value}+" if code in TARGET_NUMBER_CHARACTERISTICS else str(value)


def characteristic_change_text(code: str, before: int, after: int) -> str:
    """A change of a 2018+ characteristic the game's way, ``WS 4+ → 5+`` (a higher target number is worse)."""
    return f"{code} {characteristic_text(code, before)} → {characteristic_text(code, after)}"


# What Multiple Injuries re-rolls, and what the Doc's Stabilised result re-rolls (Medical Escort).
MULTIPLE_INJURIES_REROLL = ("captured", "multiple-injuries", "memorable-death", "critical-injury", "out-cold")
STABILISED_REROLL = ("captured", "critical-injury", "memorable-death")


def characteristic_step(characteristic: str, change: str) -> int:
    """How far one step of ``change`` (``worsen``/``improve``) moves a characteristic's number."""
    worse = 1 if characteristic in TARGET_NUMBER_CHARACTERISTICS else -1
    return worse if change == "worsen" else -worse


def _maimed(low: int, name: str, slug: str, *names: str) -> Row:
    """The rows that put a fighter into Recovery and lower one or two characteristics."""
    lowered = f"{names[0]} gets" if len(names) == 1 else f"{' and '.join(names)} each get"
    summary = f"Goes into Recovery; {lowered} one step worse."
    return injury_row(
        low, low, name, slug, summary, [status_effect(RECOVERY), *worsen_effects(*names)], record_injury=True
    )


LASTING_INJURY = Table(
    name="lasting-injury",
    title="Lasting Injury",
    dice="D66",
    rows=(
        injury_row(
            11,
            11,
            "Lesson Learned",
            "lesson-learned",
            "Goes into Convalescence and gains D3 experience.",
            [status_effect(CONVALESCENCE), {"kind": "experience", "dice": "D3"}],
        ),
        injury_row(
            12,
            12,
            "Impressive Scars",
            "impressive-scars",
            "Cool improves by one step. Only once: a fighter who already has these scars takes Out Cold.",
            [{"kind": "characteristic", "characteristic": "Cl", "change": "improve"}],
            record_injury=True,
            treat_as={"slug": "out-cold", "if": [{"has_injury": "impressive-scars"}]},
        ),
        injury_row(
            13,
            13,
            "Horrid Scars",
            "horrid-scars",
            "Gains the Fearsome skill; a fighter who already has Fearsome takes Out Cold (seed note 3).",
            [{"kind": "skill", "skill": "Fearsome"}],
            record_injury=True,
            treat_as={"slug": "out-cold", "if": [{"has_skill": "Fearsome"}]},
        ),
        injury_row(
            14,
            14,
            "Bitter Enmity",
            "bitter-enmity",
            "Has Berserker in battles against the gang that caused the injury. A fighter who already has "
            "Berserker, or rolls this a second time, takes Out Cold.",
            [note_effect("Berserker when fighting the gang that inflicted this injury")],
            record_injury=True,
            treat_as={"slug": "out-cold", "if": [{"has_skill": "Berserker"}, {"has_injury": "bitter-enmity"}]},
        ),
        injury_row(
            15,
            26,
            "Out Cold",
            "out-cold",
            "Misses the rest of the battle only; no lasting harm, and may take post-battle actions.",
            [],
        ),
        injury_row(
            31, 36, "Convalescence", "convalescence", "Goes into Convalescence.", [status_effect(CONVALESCENCE)]
        ),
        injury_row(
            41,
            41,
            "Old Battle Wound",
            "old-battle-wound",
            "After each battle the fighter takes part in, a D6 roll of 1 sends them into Convalescence.",
            [note_effect("after each battle fought, D6: on a 1 goes into Convalescence")],
            record_injury=True,
        ),
        injury_row(
            42,
            42,
            "Partially Deafened",
            "partially-deafened",
            "No penalty the first time; each further time, Leadership gets one step worse.",
            [],
            record_injury=True,
            repeat_effects=worsen_effects("Ld"),
        ),
        injury_row(
            43,
            43,
            "Humiliated",
            "humiliated",
            "Goes into Convalescence; Leadership and Cool each get one step worse.",
            [status_effect(CONVALESCENCE), *worsen_effects("Ld", "Cl")],
            record_injury=True,
        ),
        _maimed(44, "Eye Injury", "eye-injury", "BS"),
        _maimed(45, "Hand Injury", "hand-injury", "WS"),
        _maimed(46, "Hobbled", "hobbled", "M"),
        _maimed(51, "Spinal Injury", "spinal-injury", "S"),
        _maimed(52, "Enfeebled", "enfeebled", "T"),
        _maimed(53, "Head Injury", "head-injury", "Int", "Wil"),
        injury_row(
            54,
            54,
            "Multiple Injuries",
            "multiple-injuries",
            "Not dead, but badly hurt: roll D3 more times on this table, re-rolling Captured, Multiple "
            "Injuries, Memorable Death, Critical Injury and Out Cold.",
            [{"kind": "roll_again", "dice": "D3", "reroll": list(MULTIPLE_INJURIES_REROLL)}],
        ),
        injury_row(
            55,
            56,
            "Captured",
            "captured",
            "The fighter may be Captured by the enemy gang (the campaign decides who holds them).",
            [status_effect(CAPTURED)],
        ),
        injury_row(
            61,
            65,
            "Critical Injury",
            "critical-injury",
            "In a critical condition: dies unless a Medical Escort to the Doc treats them in the post-battle sequence.",
            [status_effect(CRITICAL_INJURY)],
        ),
        injury_row(
            66,
            66,
            "Memorable Death",
            "memorable-death",
            "Killed outright; no Doc can help. If an Attack action caused it, the attacker gains 1 more XP.",
            [
                status_effect(DEAD),
                {"kind": "attacker_experience", "amount": 1, "condition": "the injury was caused by an Attack action"},
            ],
        ),
    ),
    source=SOURCE,
)

LASTING_INJURY_RULES = InjuryRules(table=LASTING_INJURY, step=characteristic_step, status_rank=STATUS_RANK)


def apply_lasting_injury(
    fighter: FighterSnapshot, result, dice, *, caused_by_attack_action: bool = False
) -> InjuryOutcome:
    """Apply the Lasting Injury ``result`` (a D66 already rolled or entered) to ``fighter``.

    Further dice (Lesson Learned's D3, Multiple Injuries' rolls) come from ``dice``. Returns the new
    snapshot, every change with its reason and dice, and any experience owed to the attacker.
    """
    return LASTING_INJURY_RULES.apply(fighter, result, dice, caused_by_attack_action=caused_by_attack_action)


def roll_lasting_injury(
    fighter: FighterSnapshot, dice, *, reroll=(), caused_by_attack_action: bool = False
) -> InjuryOutcome:
    """Roll the Lasting Injury table for ``fighter`` (re-rolling ``reroll`` slugs) and apply the result."""
    return LASTING_INJURY_RULES.roll(fighter, dice, reroll=reroll, caused_by_attack_action=caused_by_attack_action)


WEBBED_SOURCE = "2023 Core Rulebook, Conditions: Webbed (necrovox, 4-general-principles/10-conditions.md)"
OUT_COLD = "out-cold"


@dataclass(frozen=True)
class WebbedResult:
    """What became of a fighter who succumbed to the web: the D6 and its Lasting Injury row (Out Cold or Captured)."""

    roll: int
    result: str  # OUT_COLD or CAPTURED


def roll_webbed(dice) -> WebbedResult:
    """A fighter taken Out of Action by the web's sedative (a Recovery test failed while Webbed) rolls no Lasting
    Injury: a D6, on 1-4 the Out Cold result (no lasting harm), on 5-6 the Captured result (WEBBED_SOURCE)."""
    roll = dice.d6("Webbed when taken Out of Action: 1-4 Out Cold, 5-6 Captured")
    return WebbedResult(roll, CAPTURED if roll >= 5 else OUT_COLD)
