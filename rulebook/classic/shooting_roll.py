"""One shot on a dice source: the ``roll`` side of ``classic shoot`` (docs/rulebook-cli.md).

The same rules as :mod:`rulebook.classic.shooting`, rolled in the order a player would: to hit
(and the 7+ second die), Sustained Fire dice, which fighter in a combat is struck, each hit's
wound, save, damage and injury, fighters under the marker, Ammo rolls and explosions, scatter
for a missed blast, and a stray shot. Every die is logged with what it was for. The answer's
``target_after`` is the target as the shot left him (wounds left, flesh wounds, down, out of action,
pinned), each hit applied in turn with :meth:`HitResult.target_after`.
"""

from __future__ import annotations

from rulebook.classic import ammo, blast
from rulebook.classic.resolution import DOWN, NO_WOUND, OUT_OF_ACTION, Target, hit_roll
from rulebook.classic.shooting import MISS, SHOT_OUTCOMES, Shot, read_shot
from rulebook.dice import JAM, SUSTAINED_FIRE
from rulebook.query import Query


def _roll_to_hit(shot: Shot, dice, steps: list) -> tuple[bool, int | None]:
    """The to-hit roll (and the 7+ second die): whether it hit and what the first die showed."""
    if shot.band == "template":
        if not shot.partial_template:
            steps.append({"step": "template", "result": "wholly under the template: hit"})
            return True, None
        roll = dice.d6("partly under the template (hit on 4+)")
        steps.append({"step": "template", "roll": roll, "needed": 4, "result": "hit" if roll >= 4 else "missed"})
        return roll >= 4, None
    needed = shot.to_hit
    label = "out of range: only the ammo check" if shot.band == "out_of_range" else f"to hit (needs {needed.needed}+)"
    first = dice.d6(label)
    step = {"step": "to hit", "needed": needed.needed, "roll": first}
    hit = needed.needed is not None and first >= needed.needed
    if hit and needed.then is not None:
        second = dice.d6(f"7+ to hit: second die (needs {needed.then}+)")
        step["then"], step["second_roll"] = needed.then, second
        hit = second >= needed.then
    step["result"] = "hit" if hit else "missed"
    steps.append(step)
    return hit, first


def shoot_roll(query: Query, dice) -> dict:
    shot = read_shot(query)
    steps: list = []
    hit, first = _roll_to_hit(shot, dice, steps)
    ammo_due = []
    if first == 6 and shot.profile.ammo_roll is not None:
        ammo_due.append("to-hit roll of 6")
    if shot.flamer_tests_ammo:
        ammo_due.append("flamers test after every shot")
    hits = 1 if hit else 0
    if hit and shot.sustained_dice:
        faces = [dice.roll(SUSTAINED_FIRE, f"sustained fire dice {i + 1}") for i in range(shot.sustained_dice)]
        hits = sum(f for f in faces if f != JAM)
        if shot.spread_hits:
            hits = min(hits, 1)  # the rest are spread to other fighters within 4"
        if shot.profile.ammo_roll is not None:
            ammo_due += ["sustained fire jam"] * faces.count(JAM)
        steps.append({"step": "sustained fire", "dice": faces, "hits": hits})
    if hits and shot.opponents:
        who = _roll_who_is_hit(shot.opponents + 1, dice)
        steps.append(
            {"step": "shooting into hand-to-hand", "roll": who, "result": "target" if who == 1 else "another fighter"}
        )
        if who != 1:
            hits = 0
    target, outcome = shot.target, (MISS if not hits else NO_WOUND)
    rank = {k: i for i, k in enumerate(SHOT_OUTCOMES)}
    for i in range(hits):
        if outcome == OUT_OF_ACTION:
            break
        result = hit_roll(shot.hit, target, dice, who=f"target (hit {i + 1} of {hits})")
        steps.extend(result.steps)
        target = result.target_after(target)
        outcome = max(outcome, result.outcome, key=rank.get)
    failed = exploded = False
    for why in ammo_due:
        step = ammo.ammo_roll(shot.profile, dice, why)
        steps.append(step)
        failed, exploded = failed or step["failed"], exploded or step["exploded"]
    answer = {
        "weapon": shot.weapon_name,
        "range": shot.band,
        "modifiers": [{"why": why, "value": v} for why, v in shot.modifiers],
        "to_hit": None if shot.band == "template" else shot.to_hit.as_json(),
        "hit": bool(hits),
        "hits": hits,
        "outcome": outcome,
        "pinned": bool(hits) and not shot.opponents and not target.down and outcome not in (DOWN, OUT_OF_ACTION),
        "weapon_fails": failed or shot.profile.one_shot,
        "weapon_explodes": exploded,
    }
    if shot.bystanders:
        placed = shot.band == "template" or hit
        answer["bystanders"] = [_roll_bystander(shot, t, wholly, placed, dice, steps) for t, wholly in shot.bystanders]
    if exploded and shot.shooter is not None:
        answer["explosion_on_shooter"] = hit_roll(shot.explosion, shot.shooter, dice, who="shooter").as_json()
    if not hit and shot.profile.template == "blast" and shot.band != "out_of_range":
        steps.append(blast.scatter_roll(dice, shot.distance, shot.thrown))
    if first == 1 and shot.friend_in_path:
        stray = dice.d6("stray shot: does it hit the friend in the way? (on a 1)")
        steps.append({"step": "stray shot", "roll": stray, "result": "friend hit" if stray == 1 else "no harm"})
        answer["stray_hit"] = stray == 1
    answer["target_after"] = target_after(target, outcome, answer["pinned"])
    answer["steps"] = steps
    return answer


def target_after(target: Target, outcome: str, pinned: bool) -> dict:
    """The target's state once every hit of the shot is resolved."""
    return {
        "wounds_left": target.wounds_left,
        "flesh_wounds": target.flesh_wounds,
        "down": outcome == DOWN or (target.down and outcome != OUT_OF_ACTION),
        "out_of_action": outcome == OUT_OF_ACTION,
        "pinned": pinned,
    }


def _roll_who_is_hit(fighters: int, dice) -> int:
    """Which of ``fighters`` equally likely models a shot into a combat strikes (1 is the target).

    A D6 split into equal runs (1-3/4-6 for two, 1-2/3-4/5-6 for three); the scores left over
    when six does not divide evenly are rolled again, as the rulebook reads a D4 from a D6.
    """
    span = 6 // fighters
    while True:
        roll = dice.d6(f"who is hit among {fighters} fighters in the combat (1-{span}: the target)")
        if roll <= span * fighters:
            return (roll - 1) // span + 1


def _roll_bystander(shot: Shot, target: Target, wholly: bool, placed: bool, dice, steps: list) -> str:
    if not placed:
        return MISS
    if not wholly:
        roll = dice.d6("bystander partly under the marker or template (hit on 4+)")
        steps.append({"step": "bystander", "roll": roll, "needed": 4, "result": "hit" if roll >= 4 else "missed"})
        if roll < 4:
            return MISS
    result = hit_roll(shot.hit, target, dice, who="bystander")
    steps.extend(result.steps)
    return result.outcome
