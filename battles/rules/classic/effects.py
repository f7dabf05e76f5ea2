"""The 1995 rules' effects: a ``classic`` answer written onto the fighters and the battle, in words.

Shooting (Pinning, Flesh Wounds, Down, Out of Action; Ammo rolls and exploding weapons), Hand-to-Hand
Combat (the loser takes the hits; fighters stay locked in combat), Leadership (broken, recovering the
nerve), Escape from Pinning, the recovery roll of a fighter who is down, Falling, Jumping, Stray Shots and the
Bottle Test.
"""

from __future__ import annotations

from battles.models import FRESH_CONDITION, Condition
from battles.rules import Plan, bottle_outcome, counted, lock_in_combat, weapon_fails
from battles.rules import casualties as casualties_among


def fresh_state(profile: dict) -> dict:
    return {"wounds_left": profile["stats"].get("W", 1), "condition": FRESH_CONDITION["classic"]}


def harm(fighter, outcome: str, wounds_lost: int, new_flesh: int, by) -> list[str]:
    """What a hit's outcome does to the fighter, in the rulebook's own outcome words."""
    before = fighter.condition
    fighter.wounds_left = max(0, fighter.wounds_left - wounds_lost)
    fighter.flesh_wounds += new_flesh
    changes = []
    if wounds_lost:
        changes.append(f"{fighter.name} loses {counted(wounds_lost, 'wound')}")
    if new_flesh:
        changes.append(f"{fighter.name} takes {counted(new_flesh, 'flesh wound')}")
    if outcome == "out_of_action":
        fighter.condition, fighter.engaged = Condition.OUT_OF_ACTION, False
        fighter.taken_out_by = by or fighter.taken_out_by
        changes.append(f"{fighter.name} is Out of Action")
    elif outcome == "down" and before != Condition.DOWN:
        fighter.condition = Condition.DOWN
        fighter.taken_out_by = by or fighter.taken_out_by
        changes.append(f"{fighter.name} goes down")
    return changes


def _beaten(loser, winner, wounds: dict) -> list[str]:
    """The hits the winner of a bout scores on the loser."""
    hits = wounds["hits"]
    lost, new_flesh = sum(h.get("wounds_lost", 0) for h in hits), sum(h.get("new_flesh_wounds", 0) for h in hits)
    return harm(loser, wounds["outcome"], lost, new_flesh, by=winner)


def _pin(fighter) -> list[str]:
    """A standing fighter who is hit (and neither down nor out of action) is pinned."""
    if fighter.condition != Condition.STANDING:
        return []
    fighter.condition = Condition.PINNED
    return [f"{fighter.name} is pinned"]


def apply_shoot(plan: Plan, result: dict, session) -> list[str]:
    shooter, target = plan.fighter, plan.target
    after = result["target_after"]
    lost, new_flesh = target.wounds_left - after["wounds_left"], after["flesh_wounds"] - target.flesh_wounds
    changes = harm(target, result["outcome"], lost, new_flesh, by=shooter)
    if after["pinned"]:
        changes += _pin(target)
    if result.get("weapon_fails") or result.get("weapon_explodes"):
        key = weapon_fails(shooter, plan)
        changes.append(f"{shooter.name}'s {shooter.weapon(key)['name']} fails")
    blast = result.get("explosion_on_shooter")
    if blast:
        changes += harm(shooter, blast["outcome"], blast["wounds_lost"], blast["new_flesh_wounds"], by=None)
    changes += _scatter_words(result)
    if result.get("stray_hit"):
        changes.append(f"A stray shot from {shooter.name} hits the friend in the line of fire: resolve that hit on him")
    shooter.hidden = False
    if shooter.overwatch:
        # Overwatch is one shot, taken in the enemy's turn (Overwatch): it ends with it.
        shooter.overwatch = False
        changes.append(f"{shooter.name} is no longer on overwatch")
    return changes


def _scatter_words(result: dict) -> list[str]:
    """Where a missed blast landed: the Scatter and Artillery dice were rolled with the shot (``rulebook.classic.blast``;
    the server's dice, or the table's entered in the order asked)."""
    step = next((s for s in result.get("steps", []) if s.get("step") == "scatter"), None)
    if step is None:
        return []
    if "inches" in step:
        towards = "the Hit symbol's small arrow" if step["scatter_dice"] == "hit" else "the arrow"
        where = f'{step["inches"]}" from the target, towards {towards}'
        return [f"The blast scatters {where}: wholly under it is hit, partly under on a 4+"]
    return [f"The blast scatters: {step['result']}"]


def apply_fight(plan: Plan, result: dict, session) -> list[str]:
    sides = {"attacker": plan.fighter, "defender": plan.target}
    changes = []
    if result.get("loser"):
        changes += _beaten(sides[result["loser"]], sides[result["winner"]], result["wounds"])
    else:
        changes.append("A stand-off: no blows struck")
    lock_in_combat(*sides.values())
    for fighter in sides.values():
        fighter.hidden = False
    return changes + _escape_pinning_in_combat(*sides.values())


def _escape_pinning_in_combat(*fighters) -> list[str]:
    """A pinned fighter engaged in hand-to-hand combat escapes pinning at once (Escape from Pinning)."""
    changes = []
    for fighter in fighters:
        if fighter.condition == Condition.PINNED and fighter.engaged:
            fighter.condition = Condition.STANDING
            changes.append(f"{fighter.name} escapes pinning (in hand-to-hand combat)")
    return changes


def apply_multi_fight(plan: Plan, result: dict, session) -> list[str]:
    lone, changes = plan.fighter, []
    for bout in result["bouts"]:
        opponent = plan.others[bout["opponent"] - 1]
        if not bout.get("loser"):
            changes.append(f"{opponent.name} and {lone.name}: a stand-off")
            continue
        loser, winner = (opponent, lone) if bout["loser"] == "attacker" else (lone, opponent)
        changes += _beaten(loser, winner, bout["wounds"])
    if result.get("fighter") == "out_of_action" and not lone.out_of_action:
        # The engine's verdict on the lone fighter: down in a combat with no friend fighting on is finished off
        # (Fighters Down).
        beaten_by = [plan.others[b["opponent"] - 1] for b in result["bouts"] if b.get("loser") == "defender"]
        changes += harm(lone, "out_of_action", 0, 0, by=(beaten_by or plan.others)[-1])
    lock_in_combat(lone, *plan.others)
    return changes + _escape_pinning_in_combat(lone, *plan.others)


TEST_EFFECTS = {
    # (test, outcome): (field, value, words)
    ("leadership", "broken"): ("broken", True, "is broken"),
    ("fear", "broken"): ("broken", True, "is broken"),
    ("terror", "broken"): ("broken", True, "is broken and runs for cover"),
    ("nerve", "recovered"): ("broken", False, "recovers his nerve"),
    ("escape_pinning", "escapes"): ("condition", Condition.STANDING, "escapes pinning"),
}


def apply_test(plan: Plan, result: dict, session) -> list[str]:
    test, fighter, outcome = plan.query["kind"], plan.fighter, result.get("outcome")
    if test == "bottle":
        return bottle_outcome(session, plan.side, outcome == "bottles_out", "fights on")
    if test == "recovery":
        if outcome == "flesh_wound":
            fighter.condition, fighter.flesh_wounds = Condition.PINNED, fighter.flesh_wounds + 1
            return [f"{fighter.name} recovers with a flesh wound and is pinned"]
        if outcome == "out_of_action":
            return harm(fighter, "out_of_action", 0, 0, by=None)
        return [f"{fighter.name} stays down"]
    if test in ("fall", "jump"):
        landing = result.get("landing")
        if result.get("outcome") == "clears":
            return [f'{fighter.name} clears the gap ({result["jumped"]}")']
        if not landing:
            return [f"{fighter.name} keeps his footing"]
        changes = harm(fighter, landing["outcome"], landing["wounds_lost"], landing["new_flesh_wounds"], by=None)
        if landing.get("pinned"):
            changes += _pin(fighter)
        return changes or [f"{fighter.name} falls unhurt"]
    effect = TEST_EFFECTS.get((test, outcome))
    if effect is None:
        return [f"{fighter.name}: {str(outcome).replace('_', ' ')}"]
    name, value, words = effect
    if name == "condition" and fighter.condition != Condition.PINNED:
        return [f"{fighter.name}: {words}"]
    setattr(fighter, name, value)
    return [f"{fighter.name} {words}"]


def casualties(plan: Plan) -> list:
    """Fighters this action put down or out of action: their friends within 2" must test."""
    return casualties_among(plan, (Condition.DOWN, Condition.OUT_OF_ACTION))
