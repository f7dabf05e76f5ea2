"""The campaign guide's post-battle sequence: injuries, the Doc, the Home Settlement, actions.

Source: the club campaign guide "Playing Necromunda Games in Cycle 1 & 2", section Post-Battle
Sequence (Prone & Seriously Injured, Collect Income, Home Settlement, Post Battle Actions and the
Medical Escort table, Update Roster). Seed note 6: the unnamed D6 table after "Medical Escort"
(1 Complications, 2-5 Stabilised, 6 Full Recovery) is the Medical Escort result for a fighter with
a Critical Injury. Seed note 5: Recovery and Convalescence differ; only Recovery (and Captured)
stop a fighter from taking a post-battle action.
"""

from __future__ import annotations

from dataclasses import replace

from rulebook.dice import DiceSource
from rulebook.errors import RulesInputError
from rulebook.n18.campaign.lasting_injury import (
    CAPTURED,
    CONVALESCENCE,
    CRITICAL_INJURY,
    DEAD,
    LASTING_INJURY_RULES,
    RECOVERY,
    STABILISED_REROLL,
    STATUS_RANK,
)
from rulebook.roster import ACTIVE, Change, FighterSnapshot, InjuryOutcome, roll_amount
from rulebook.tables import Row, Table

GUIDE = "club campaign guide 'Playing Necromunda Games in Cycle 1 & 2'"

# --- Prone and Seriously Injured at the end of the battle ---------------------------------------

POST_BATTLE_INJURY = Table(
    name="post-battle-injury",
    title="Post-battle injury test (Prone or Seriously Injured at the end)",
    dice="D6",
    rows=(
        Row(1, 2, "Succumbs", {"slug": "succumbs", "effect": "roll on the Lasting Injury table"}),
        Row(3, 6, "Survives", {"slug": "survives", "effect": "no complications"}),
    ),
    source=f"{GUIDE}, Post-Battle Sequence: Prone & Seriously Injured",
)


def post_battle_injury_test(
    fighter: FighterSnapshot, dice: DiceSource, *, caused_by_attack_action: bool = False
) -> tuple[dict, InjuryOutcome]:
    """A fighter who ended the battle Prone or Seriously Injured (on the battlefield or fled): D6, 3+
    survives; on 1-2 they roll on the Lasting Injury table. Returns the test's row and the outcome."""
    face = dice.d6("Post-battle injury test (3+ survives)")
    test = POST_BATTLE_INJURY.lookup(face)
    if test["slug"] == "survives":
        return test, InjuryOutcome(fighter, (), ())
    return test, LASTING_INJURY_RULES.roll(fighter, dice, caused_by_attack_action=caused_by_attack_action)


def old_battle_wound_check(fighter: FighterSnapshot, dice: DiceSource) -> InjuryOutcome:
    """After each battle a fighter with an Old Battle Wound took part in: D6, on a 1 into Convalescence."""
    if not fighter.has_injury("old-battle-wound"):
        return InjuryOutcome(fighter, (), ())
    mark = len(dice.rolls)
    face = dice.d6("Old Battle Wound (on a 1 goes into Convalescence)")
    rolled = tuple(r.as_json() for r in dice.rolls[mark:])
    why = f"Old Battle Wound ({face})"
    if face != 1 or STATUS_RANK[fighter.status] >= STATUS_RANK[CONVALESCENCE]:
        effect = "no effect" if face != 1 else f"already {fighter.status.replace('_', ' ')}"
        return InjuryOutcome(fighter, (Change("note", None, effect, why, rolled),), ())
    change = Change("status", fighter.status, CONVALESCENCE, why, rolled)
    return InjuryOutcome(replace(fighter, status=CONVALESCENCE), (change,), ("Old Battle Wound",))


# --- Chems' side effects after the battle -------------------------------------------------------------
# Source: the 2023 Core Rulebook, Chems (the necrovox copy in yakuzadave/necroman_v2,
# ``necrovox_docs/Necromunda_Docs/12-armoury/17-chems.md``), in our words: after a battle in which a fighter used
# Ghast, a Willpower test; failed, Willpower one step worse; a natural 12, the mind is damaged for good and the
# fighter starts every battle Insane. After one with Icrotic Slime, 2D6: 2 the slime eats the brain (dead), 3-11 it
# comes off and the fighter goes Into Recovery, 12 it comes off with a Lasting Injury roll that re-rolls Bitter
# Enmity, Captured, Critical Injury and Memorable Death. At the Wrap-up a fighter who used 'Slaught, Frenzon or
# Obscura makes a Toughness check (Frenzon's with 2 added to the dice); failed, they are addicted. A dose of Stinger
# Mould used after a Lasting Injury roll sets aside any result but 66 Memorable Death (good ones too, such as 11
# Lesson Learned): the fighter is Out Cold instead.

ICROTIC_REROLL = ("bitter-enmity", "captured", "critical-injury", "memorable-death")
ADDICTIVE = {"slaught": 0, "frenzon": 2, "obscura": 0}  # the chem, what its Toughness check adds to the dice
GHAST_INSANE = "ghast-insane"


def ghast_willpower_test(fighter: FighterSnapshot, dice: DiceSource) -> InjuryOutcome:
    """Ghast's test after the battle: 2D6 reaching Willpower passes; a failure marks the fighter with Willpower one
    step worse (to 12+ at worst), a natural 12 with the Insane condition at the start of every battle."""
    willpower = fighter.characteristics["Wil"]
    mark = len(dice.rolls)
    total = sum(dice.two_d6(f"Ghast: Willpower test ({willpower}+)"))
    rolled = tuple(r.as_json() for r in dice.rolls[mark:])
    why = f"Ghast: Willpower test {total} against {willpower}+"
    if total == 12:
        result = Change("result", None, "Ghast: mind damaged", f"{why}: a natural 12", rolled, total, GHAST_INSANE)
        insane = Change("note", None, "begins every battle subject to the Insane condition", why)
        marked = Change("injuries", fighter.injuries, (*fighter.injuries, GHAST_INSANE), why)
        return InjuryOutcome(replace(fighter, injuries=marked.after), (result, marked, insane), ("Ghast",))
    if total >= willpower or willpower >= 12:
        return InjuryOutcome(fighter, (Change("note", None, f"{why}: no effect", why, rolled),), ())
    result = Change("result", None, "Ghast: Willpower worse", f"{why}: failed", rolled, total, "ghast-willpower")
    worse = Change("Wil", willpower, willpower + 1, why)
    after = replace(fighter, characteristics={**fighter.characteristics, "Wil": willpower + 1})
    return InjuryOutcome(after, (result, worse), ("Ghast",))


def icrotic_slime_removal(fighter: FighterSnapshot, dice: DiceSource) -> InjuryOutcome:
    """Icrotic Slime scraped off after the battle: 2D6, 2 dead, 3-11 Into Recovery, 12 a Lasting Injury roll with
    its re-rolls (:data:`ICROTIC_REROLL`); a fighter keeps the worse status."""
    mark = len(dice.rolls)
    total = sum(dice.two_d6("Icrotic Slime: 2 dead, 3-11 Into Recovery, 12 a Lasting Injury"))
    rolled = tuple(r.as_json() for r in dice.rolls[mark:])
    why = f"Icrotic Slime ({total})"
    if total == 12:
        injury = LASTING_INJURY_RULES.roll(fighter, dice, reroll=ICROTIC_REROLL, purpose=f"{why}: Lasting Injury")
        removed = Change("note", None, f"{why}: removed, with a Lasting Injury", why, rolled)
        return InjuryOutcome(injury.fighter, (removed, *injury.changes), injury.results, injury.attacker_xp)
    status = DEAD if total == 2 else RECOVERY
    if STATUS_RANK[fighter.status] >= STATUS_RANK[status]:
        return InjuryOutcome(fighter, (Change("note", None, f"already {fighter.status.replace('_', ' ')}", why),), ())
    change = Change("status", fighter.status, status, why, rolled)
    return InjuryOutcome(replace(fighter, status=status), (change,), ("Icrotic Slime",))


def stinger_mould(before: FighterSnapshot, injury: InjuryOutcome) -> InjuryOutcome | None:
    """A dose of Stinger Mould used on the Lasting Injury roll ``injury`` of the fighter ``before`` it: the fighter as
    before it, Out Cold, the roll said with its dice; None on a Memorable Death, which it cannot undo."""
    rolled = next((change for change in injury.changes if change.what == "result"), None)
    if rolled is None or rolled.code == "memorable-death":
        return None
    why = f"{rolled.why}: set aside by a dose of Stinger Mould, Out Cold instead"
    return InjuryOutcome(before, (Change("note", None, why, why, rolled.dice),), ("Out Cold",))


def addiction_check(slug: str, fighter: FighterSnapshot, dice: DiceSource) -> tuple[bool, list[dict]]:
    """The Wrap-up's Toughness check of a fighter who used an addictive chem (:data:`ADDICTIVE`): a D6, plus what the
    chem adds, equal to or under Toughness passes. Whether they are now addicted, and the die."""
    toughness = fighter.characteristics["T"]
    mark = len(dice.rolls)
    face = dice.d6(f"{slug}: Toughness check ({toughness} or under, {ADDICTIVE[slug]:+d} to the dice)")
    return face + ADDICTIVE[slug] > toughness, [r.as_json() for r in dice.rolls[mark:]]


# --- Medical Escort -------------------------------------------------------------------------------

MEDICAL_ESCORT = Table(
    name="medical-escort",
    title="Medical Escort (fighter with a Critical Injury)",
    dice="D6",
    rows=(
        Row(1, 1, "Complications", {"slug": "complications", "effect": "the fighter dies"}),
        Row(
            2,
            5,
            "Stabilised",
            {
                "slug": "stabilised",
                "effect": "roll on the Lasting Injury table re-rolling Captured, Critical Injury and Memorable Death, "
                "apply it, and the fighter goes into Recovery",
                "reroll": list(STABILISED_REROLL),
            },
        ),
        Row(6, 6, "Full Recovery", {"slug": "full-recovery", "effect": "goes into Recovery with no lasting effects"}),
    ),
    source=f"{GUIDE}, Post Battle Actions: Medical Escort; seed note 6",
)


def apply_medical_escort(fighter: FighterSnapshot, result, dice: DiceSource) -> InjuryOutcome:
    """Take a fighter with a Critical Injury to the Doc: the D6 ``result`` (rolled or entered) decides.

    The Critical Injury is settled either way, so the fighter leaves that status: dead, or in Recovery.
    """
    if fighter.status != CRITICAL_INJURY:
        raise RulesInputError("fighter.status", f"a Medical Escort treats a Critical Injury, not {fighter.status!r}")
    row = MEDICAL_ESCORT.row(result)
    why = f"Medical Escort: {row.result} ({MEDICAL_ESCORT.check_roll(result)})"
    entered = ({"die": "D6", "for": "Medical Escort (entered)", "value": MEDICAL_ESCORT.check_roll(result)},)
    if row.details["slug"] == "complications":
        return _settle(fighter, DEAD, why, entered, InjuryOutcome(fighter, (), (row.result,)))
    treated = replace(fighter, status=ACTIVE)
    if row.details["slug"] == "stabilised":
        injury = LASTING_INJURY_RULES.roll(treated, dice, reroll=STABILISED_REROLL, purpose=f"{why}: Lasting Injury")
        injury = InjuryOutcome(injury.fighter, injury.changes, (row.result, *injury.results), injury.attacker_xp)
    else:
        injury = InjuryOutcome(treated, (), (row.result,))
    return _settle(fighter, RECOVERY, why, entered, injury)


def _settle(before: FighterSnapshot, status: str, why: str, dice: tuple, injury: InjuryOutcome) -> InjuryOutcome:
    fighter = replace(injury.fighter, status=status)
    settled = Change("status", before.status, status, why, dice)
    # The settled status is the only move: a Lasting Injury's own status (Recovery, Convalescence) is the table's
    # result line, not a second change of a fighter who goes into Recovery anyway.
    changes = tuple(change for change in injury.changes if change.what != "status")
    return InjuryOutcome(fighter, (settled, *changes), injury.results, injury.attacker_xp)


def untreated_critical_injury(fighter: FighterSnapshot) -> InjuryOutcome:
    """A Critical Injury not treated by a Medical Escort in the post-battle sequence: the fighter dies."""
    if fighter.status != CRITICAL_INJURY:
        raise RulesInputError("fighter.status", f"only a Critical Injury goes untreated, not {fighter.status!r}")
    why = "Critical Injury not treated by the Doc"
    return InjuryOutcome(replace(fighter, status=DEAD), (Change("status", CRITICAL_INJURY, DEAD, why),), ("Dead",))


# --- Home Settlement ------------------------------------------------------------------------------

HOME_SETTLEMENT = {
    "income": "D6x10",
    "reputation": 1,
    "recruit": "after every battle the gang may roll two D6: a 6 on either gives a free Juve, a 6 on both a free "
    "Ganger (from the House List)",
    "sources": [f"{GUIDE}, Post-Battle Sequence: Collect Income, Home Settlement"],
}


def _recruit_rows() -> tuple[Row, ...]:
    """The two recruit dice read like a D66 (first die tens): any 6 a Juve, both 6 a Ganger."""
    nothing = {"slug": "nothing", "recruit": None}
    juve = {"slug": "juve", "recruit": "Juve"}
    rows = []
    for tens in range(1, 6):
        rows.append(Row(10 * tens + 1, 10 * tens + 5, "No recruit", nothing))
        rows.append(Row(10 * tens + 6, 10 * tens + 6, "Free Juve", juve))
    rows.append(Row(61, 65, "Free Juve", juve))
    rows.append(Row(66, 66, "Free Ganger", {"slug": "ganger", "recruit": "Ganger"}))
    return tuple(rows)


HOME_SETTLEMENT_RECRUIT = Table(
    name="home-settlement-recruit",
    title="Home Settlement recruit (two D6, read as first die then second)",
    dice="D66",
    rows=_recruit_rows(),
    source=f"{GUIDE}, Home Settlement: Recruit",
)


def recruit_table(territory: str) -> Table:
    """The Home Settlement's recruit roll as another territory grants it (the Settlement's boon): the same rows, its
    dice asked for in that territory's name, so that going back to the step never hands one territory's kept dice
    to the other (kept dice answer by die and purpose, :class:`rulebook.dice.ReplayDice`)."""
    slug = territory.lower().replace(" ", "-")
    return replace(
        HOME_SETTLEMENT_RECRUIT,
        name=f"{slug}-recruit",
        title=f"{territory} recruit (two D6, read as first die then second)",
    )


def roll_home_settlement(dice: DiceSource, *, recruit: bool = True) -> dict:
    """The Home Settlement after a battle: D6x10 credits income and, if the gang chooses, the recruit roll."""
    income = roll_amount(HOME_SETTLEMENT["income"], dice, "Home Settlement income")
    out = {"income": income, "reputation": HOME_SETTLEMENT["reputation"], "recruit": None}
    if recruit:
        out["recruit"] = HOME_SETTLEMENT_RECRUIT.roll(dice)
    return out


# --- post-battle actions ---------------------------------------------------------------------------

POST_BATTLE_ACTIONS = ("Trade", "Sell to Guilders", "Claim Bounties", "Dispose of Captives", "Medical Escort")


def post_battle_action_eligibility(fighter: FighterSnapshot, *, gang_hierarchy: bool) -> dict:
    """Whether ``fighter`` may take one post-battle action: fighters with the Gang Hierarchy (X) rule
    may, unless in Recovery or Captured (Convalescence does not stop them; nor does Out Cold)."""
    if not gang_hierarchy:
        reason = "only fighters with the Gang Hierarchy special rule take post-battle actions"
    elif fighter.status in (RECOVERY, CAPTURED, CRITICAL_INJURY, DEAD):
        reason = f"a fighter who is {fighter.status.replace('_', ' ')} takes no post-battle action"
    else:
        reason = None
    return {
        "may_act": reason is None,
        "reason": reason,
        "actions": list(POST_BATTLE_ACTIONS) if reason is None else [],
        "source": f"{GUIDE}, Post Battle Actions; seed note 5",
    }
