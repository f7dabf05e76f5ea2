"""The 1995 rulebook's Serious Injuries chart (D66), and the D6 for fighters still down at the end.

Sources (numbers and results are facts; the wording here is ours):

- S3: the classic rulebook (Living Rulebook text) p84, Serious Injuries chart, as scanned at
  https://www.yumpu.com/en/document/view/15156036/necromunda-rulebook-games-workshop/84
  (11-16 Dead; 21 Multiple Injuries: D6 further rolls re-rolling Dead and Full Recovery; 22-26).
- N3 in the project's content facts (section 2), which checked 31-66 against the Living Rulebook PDF,
  and S2 gregwoodio/Hivemind.NET ``Hivemind/Services/Implementation/InjuryService.cs`` (the same D66
  bands). One fan site (203.ip-92-222-88.eu) shows a variant with 11-15 Dead and 16 Multiple
  Injuries; we follow the scan.
- Down at the end of the game: a D6, 1-3 the fighter recovers, 4-6 goes out of action (S3 via the
  content facts; also https://talesofthesegmentumobscuras.obsidianportal.com/wikis/kia).

Readings of our own: a second Blinded in One Eye blinds the good eye and the fighter retires; a
second Impressive Scars is read as Full Recovery ("once only"); Arm Wound's -1 Strength applies only
with that arm, so the profile keeps its Strength and the injury (and the arm, rolled D6: 1-3 left,
4-6 right) is recorded.
"""

from __future__ import annotations

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

SCAN = "https://www.yumpu.com/en/document/view/15156036/necromunda-rulebook-games-workshop"
SOURCE = f"S3 classic rulebook p84 ({SCAN}/84); N3 content facts section 2; S2 Hivemind.NET InjuryService.cs"

CAPTURED = "captured"
RETIRED = "retired"
DEAD = "dead"
STATUSES = (ACTIVE, CAPTURED, RETIRED, DEAD)
STATUS_RANK = {status: rank for rank, status in enumerate(STATUSES)}
MULTIPLE_INJURIES_REROLL = ("dead", "full-recovery")


def characteristic_step(characteristic: str, change: str) -> int:
    """Classic characteristics are plain numbers: worse is lower."""
    return -1 if change == "worsen" else 1


SERIOUS_INJURY = Table(
    name="serious-injury",
    title="Serious Injuries",
    dice="D66",
    rows=(
        injury_row(
            11,
            16,
            "Dead",
            "dead",
            "Killed; the weapons and equipment carried are lost.",
            [status_effect(DEAD), note_effect("all weapons and equipment carried are lost")],
        ),
        injury_row(
            21,
            21,
            "Multiple Injuries",
            "multiple-injuries",
            "Roll D6 more times on this chart, re-rolling Dead and Full Recovery.",
            [{"kind": "roll_again", "dice": "D6", "reroll": list(MULTIPLE_INJURIES_REROLL)}],
        ),
        injury_row(22, 22, "Chest Wound", "chest-wound", "-1 Toughness.", worsen_effects("T"), record_injury=True),
        injury_row(23, 23, "Leg Wound", "leg-wound", "-1 Movement.", worsen_effects("M"), record_injury=True),
        injury_row(
            24,
            24,
            "Arm Wound",
            "arm-wound",
            "-1 Strength when using the hurt arm (rolled at random).",
            [
                {"kind": "sub_roll", "die": "D6", "for": "arm", "bands": {"1-3": "left arm", "4-6": "right arm"}},
                note_effect(
                    "-1 Strength with that arm, including close combat weapons that use the fighter's Strength"
                ),
            ],
            record_injury=True,
        ),
        injury_row(
            25,
            25,
            "Head Wound",
            "head-wound",
            "Before each game a D6: 1-3 stupidity, 4-6 frenzy for that game.",
            [note_effect("before each game D6: 1-3 subject to stupidity, 4-6 subject to frenzy")],
            record_injury=True,
        ),
        injury_row(
            26,
            26,
            "Blinded in One Eye",
            "blinded-in-one-eye",
            "-1 Ballistic Skill; a fighter blinded in the other eye too must retire.",
            worsen_effects("BS"),
            record_injury=True,
            repeat_effects=[status_effect(RETIRED), note_effect("blind in both eyes: retires")],
        ),
        injury_row(
            31,
            31,
            "Partially Deafened",
            "partially-deafened",
            "No effect the first time; -1 Leadership on a repeat.",
            [],
            record_injury=True,
            repeat_effects=worsen_effects("Ld"),
        ),
        injury_row(32, 32, "Shell Shock", "shell-shock", "-1 Initiative.", worsen_effects("I"), record_injury=True),
        injury_row(
            33,
            33,
            "Hand Injury",
            "hand-injury",
            "Loses D3 fingers; -1 Weapon Skill.",
            [
                {"kind": "sub_roll", "die": "D3", "for": "fingers lost", "bands": {"1": "1", "2": "2", "3": "3"}},
                *worsen_effects("WS"),
            ],
            record_injury=True,
        ),
        injury_row(
            34,
            36,
            "Old Battle Wound",
            "old-battle-wound",
            "Before each game a D6: on a 1 the fighter misses it.",
            [note_effect("before each game D6: on a 1 misses that game")],
            record_injury=True,
        ),
        injury_row(41, 55, "Full Recovery", "full-recovery", "No lasting effect.", []),
        injury_row(
            56,
            56,
            "Bitter Enmity",
            "bitter-enmity",
            "Hates, by a D6, whoever caused the injury or their own.",
            [
                {
                    "kind": "sub_roll",
                    "die": "D6",
                    "for": "hatred of",
                    "bands": {
                        "1-3": "the fighter who caused the injury",
                        "4": "the leader of that gang",
                        "5": "that whole gang",
                        "6": "every gang of that house",
                    },
                }
            ],
            record_injury=True,
        ),
        injury_row(
            61,
            63,
            "Captured",
            "captured",
            "Held by the enemy gang: ransomed, exchanged or sold.",
            [status_effect(CAPTURED)],
        ),
        injury_row(
            64,
            64,
            "Horrible Scars",
            "horrible-scars",
            "Causes fear from now on.",
            [{"kind": "skill", "skill": "Causes Fear"}],
            record_injury=True,
        ),
        injury_row(
            65,
            65,
            "Impressive Scars",
            "impressive-scars",
            "+1 Leadership, once only.",
            [{"kind": "characteristic", "characteristic": "Ld", "change": "improve"}],
            record_injury=True,
            treat_as={"slug": "full-recovery", "if": [{"has_injury": "impressive-scars"}]},
        ),
        injury_row(
            66,
            66,
            "Survives Against the Odds",
            "survives-against-the-odds",
            "+D6 experience.",
            [{"kind": "experience", "dice": "D6"}],
        ),
    ),
    source=SOURCE,
)

SERIOUS_INJURY_RULES = InjuryRules(table=SERIOUS_INJURY, step=characteristic_step, status_rank=STATUS_RANK)


def apply_serious_injury(fighter: FighterSnapshot, result, dice) -> InjuryOutcome:
    """Apply the Serious Injuries ``result`` (a D66 already rolled or entered) to ``fighter``; further
    dice (Multiple Injuries, the arm, Bitter Enmity's target, Survives Against the Odds) come from ``dice``."""
    return SERIOUS_INJURY_RULES.apply(fighter, result, dice)


def roll_serious_injury(fighter: FighterSnapshot, dice) -> InjuryOutcome:
    return SERIOUS_INJURY_RULES.roll(fighter, dice)


DOWN_AT_END = Table(
    name="down-at-end",
    title="Down at the end of the game",
    dice="D6",
    rows=(
        Row(1, 3, "Recovers", {"slug": "recovers", "serious_injury": False}),
        Row(4, 6, "Out of Action", {"slug": "out-of-action", "serious_injury": True}),
    ),
    source="S3 via content facts section 2; talesofthesegmentumobscuras.obsidianportal.com/wikis/kia",
)


def pre_battle_checks(fighter: FighterSnapshot, dice) -> list[dict]:
    """The rolls a fighter's old injuries ask for before each game: Old Battle Wound (D6, on a 1 he misses
    the game) and Head Wound (D6: 1-3 stupidity, 4-6 frenzy for the game), every die shown."""
    checks = []
    if fighter.has_injury("old-battle-wound"):
        face = dice.d6("Old Battle Wound (on a 1 misses this game)")
        checks.append({"injury": "Old Battle Wound", "roll": face, "misses_game": face == 1})
    if fighter.has_injury("head-wound"):
        face = dice.d6("Head Wound (1-3 stupidity, 4-6 frenzy)")
        checks.append({"injury": "Head Wound", "roll": face, "subject_to": "stupidity" if face <= 3 else "frenzy"})
    return checks
