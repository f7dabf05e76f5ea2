"""The 1995 rules at the table: queries for ``classic`` shoot, fight, multi-fight and test, and their effects.

States follow the 1995 rulebook: a fighter is standing, pinned, down or out of action; apart from that
broken, hidden or on overwatch; flesh wounds take 1 from WS and BS each (Shooting: Flesh Wound), so the
queries carry the current WS and BS. Prompts follow Leadership ("The Bottle Test" at the start of the
turn once a quarter of the gang is down or out of action; "When to Test": friends within 2" of a fighter
who goes down or out of action), Shooting ("Escape from Pinning" at the start of the turn, "Down": the
recovery roll in the recovery phase) and "Recovering Your Nerve" for broken fighters.
"""

from __future__ import annotations

from battles.models import FRESH_CONDITION, Condition, Phase, Side, other_side
from battles.rules import Plan, Prompt, friends_test, next_phase, weapon_query

KINDS = {"shoot": "Shoot", "fight": "Fight", "multi-fight": "Multiple combat", "test": "Test"}
TESTS = {
    "leadership": "Leadership test",
    "nerve": "Recovering his nerve",
    "bottle": "Bottle test",
    "escape_pinning": "Escaping pinning",
    "fear": "Fear test",
    "recovery": "Recovery roll (down)",
    "fall": "Falling",
}
COVER = {"none": "In the open", "partial": "Partial cover (-1)", "cover": "In cover (-2)"}
SHOOT_MODIFIERS = {
    "overwatch_fleeting": "Overwatch: appearing or disappearing",
    "overwatch_charging": "Overwatch: charging",
    "rapid_moving": "Rapid moving target",
    "small_target": "Small target",
    "large_target": "Large target",
}
FEAR_SITUATIONS = {"charged_by": "Charged by a fearsome foe", "wants_to_charge": "Wants to charge a fearsome foe"}
FALL_EDGES = {"": "Falls (no test)", "pinned_or_down": 'Pinned or down within 1" of an edge',
              "lost_combat": 'Lost a fight within 1" of an edge'}  # fmt: skip
BASIC_CATEGORIES = ("basic", "special", "heavy")


def fresh_state(profile: dict) -> dict:
    return {"wounds_left": profile["stats"].get("W", 1), "condition": FRESH_CONDITION["classic"]}


def current(fighter, stat: str) -> int:
    """WS and BS lose 1 for each flesh wound; the others are as saved."""
    value = fighter.stats.get(stat, 0)
    return max(0, value - fighter.flesh_wounds) if stat in ("WS", "BS") else value


# --- queries -------------------------------------------------------------------------------


def _target(fighter) -> dict:
    return {
        "T": fighter.stats["T"],
        "wounds_left": fighter.wounds_left,
        "save": fighter.profile.get("save"),
        "flesh_wounds": fighter.flesh_wounds,
        "WS": fighter.stats["WS"],
        "BS": fighter.stats["BS"],
    }


def shoot_plan(params: dict) -> Plan:
    shooter, target = params["fighter"], params["target"]
    weapon, entry = weapon_query(shooter, params["weapon"])
    query = {
        "shooter": {
            "BS": current(shooter, "BS"),
            "S": shooter.stats["S"],
            "T": shooter.stats["T"],
            "wounds_left": shooter.wounds_left,
            "save": shooter.profile.get("save"),
        },
        **weapon,
        "target": _target(target),
        "distance": params["distance"],
        "cover": params.get("cover") or "none",
        "modifiers": list(params.get("modifiers") or []),
    }
    if params.get("in_combat_with"):
        query["hand_to_hand_opponents"] = params["in_combat_with"]
    summary = f'{shooter.name} shoots {target.name} with the {entry["name"]} at {params["distance"]}"'
    return Plan(
        "shoot",
        "shoot",
        query,
        summary,
        shooter,
        target,
        params=params,
        warnings=_shot_warnings(shooter, target, entry, params),
    )


def _shot_warnings(shooter, target, entry: dict, params: dict) -> list[str]:
    """Why the 1995 rules might not allow this shot (Pinned, Down, Broken Fighters, Hiding, Shooting into
    Hand-to-Hand Combat); shown beside the odds, not enforced."""
    out = []
    if shooter.condition != Condition.STANDING or shooter.broken:
        state = "broken" if shooter.broken else shooter.get_condition_display().lower()
        out.append(f"{shooter.name} is {state}: he may not shoot")
    if shooter.engaged:
        out.append(f"{shooter.name} is in hand-to-hand combat: he fights rather than shoots")
    if entry["key"] in shooter.failed_weapons:
        out.append(f"The {entry['name']} has failed its Ammo roll")
    if target.hidden:
        out.append(f"{target.name} is hidden: he cannot be shot at")
    if target.engaged and not params.get("in_combat_with"):
        out.append(f"{target.name} is in hand-to-hand combat: say how many fighters he is fighting")
    return out


def combatant(fighter, **flags) -> dict:
    """A fighter as the classic fight action reads him: current WS/BS, up to two weapons, his flags."""
    weapons = [w for w in fighter.profile.get("weapons", []) if w["fights"] and w["key"] not in fighter.failed_weapons]
    out = {
        "WS": current(fighter, "WS"),
        "BS": current(fighter, "BS"),
        "A": fighter.stats.get("A", 1),
        "I": fighter.stats["I"],
        "S": fighter.stats["S"],
        "T": fighter.stats["T"],
        "wounds_left": fighter.wounds_left,
        "save": fighter.profile.get("save"),
        "weapons": [_hand_weapon(w) for w in weapons[:2]],
        "broken": fighter.broken,
        "carries_basic_weapon": any(w["category"] in BASIC_CATEGORIES for w in fighter.profile.get("weapons", [])),
    }
    out.update({name: True for name, on in flags.items() if on})
    return out


def _hand_weapon(weapon: dict):
    query = weapon["profiles"][0]["query"]
    if isinstance(query["weapon"], dict):
        return query["weapon"]
    return {"name": query["weapon"], **({"profile": query["profile"]} if "profile" in query else {})}


def fight_plan(params: dict) -> Plan:
    attacker, defender = params["fighter"], params["target"]
    query = {
        "attacker": combatant(
            attacker,
            charging=params.get("charging"),
            higher_up=params.get("higher_up"),
            obstacle=params.get("obstacle"),
        ),
        "defender": combatant(defender, higher_up=params.get("defender_higher_up")),
    }
    summary = f"{attacker.name} fights {defender.name}" + (" (charging)" if params.get("charging") else "")
    return Plan("fight", "fight", query, summary, attacker, defender, params=params)


def multi_fight_plan(params: dict) -> Plan:
    lone, opponents = params["fighter"], list(params["opponents"])
    query = {"fighter": combatant(lone), "opponents": [combatant(o) for o in opponents]}
    names = ", ".join(o.name for o in opponents)
    summary = f"{lone.name} fights {len(opponents)} at once: {names}"
    return Plan("multi-fight", "multi-fight", query, summary, lone, opponents[0], opponents, params=params)


def _leader(fighters, side: str):
    return next((f for f in fighters if f.side == side and f.profile.get("category") == "leader"), None)


def _leader_query(fighter, fighters, near: bool) -> dict:
    leader = _leader(fighters, fighter.side)
    if leader is None or leader.pk == fighter.pk or leader.out_of_action:
        return {}
    down = leader.condition == Condition.DOWN
    return {"leader": {"Ld": leader.stats["Ld"], "within_6": near, "down": down, "broken": leader.broken}}


def test_plan(params: dict, fighters: list) -> Plan:
    test = params["test"]
    fighter = params.get("fighter")
    if test == "bottle":
        return _bottle_plan(params["side"], fighters, params)
    query: dict = {"kind": test}
    if test in ("leadership", "nerve", "fear"):
        query["Ld"] = fighter.stats["Ld"]
        query.update(_leader_query(fighter, fighters, bool(params.get("leader_near"))))
    if test == "nerve":
        query["broken_this_turn"] = bool(params.get("broken_this_turn"))
        query["in_cover_unseen"] = bool(params.get("in_cover_unseen"))
    elif test == "fear":
        query["situation"] = params.get("situation") or "charged_by"
    elif test == "escape_pinning":
        query.update(I=fighter.stats["I"], friend_within_2=bool(params.get("friend_within_2")))
        query["in_hand_to_hand"] = fighter.engaged
    elif test == "recovery":
        query.update(flesh_wounds=fighter.flesh_wounds, WS=fighter.stats["WS"], BS=fighter.stats["BS"])
    elif test == "fall":
        query.update(_target(fighter), height=params.get("height") or 1)
        if params.get("edge"):
            query.update(edge=params["edge"], I=fighter.stats["I"])
    summary = f"{fighter.name}: {TESTS[test]}"
    return Plan("test", "test", query, summary, fighter, side=fighter.side, params=params)


def _bottle_plan(side: str, fighters: list, params: dict) -> Plan:
    mine = [f for f in fighters if f.side == side]
    leader = _leader(fighters, side)
    leader_out = leader is None or leader.condition in (Condition.DOWN, Condition.OUT_OF_ACTION)
    query = {
        "kind": "bottle",
        "gang_size": len(mine),
        "down_or_out": sum(f.is_casualty for f in mine),
        "leader": {"Ld": leader.stats["Ld"] if leader else 7, "down_or_out": leader_out},
    }
    if leader_out:
        query["fighters_Ld"] = [f.stats["Ld"] for f in mine if not f.is_casualty] or [2]
    return Plan("test", "test", query, "Bottle test", side=side, params=params)


PLANS = {"shoot": shoot_plan, "fight": fight_plan, "multi-fight": multi_fight_plan}


def plan(kind: str, params: dict, fighters: list, battle=None) -> Plan:
    return test_plan(params, fighters) if kind == "test" else PLANS[kind](params)


# --- effects ----------------------------------------------------------------------------------


def harm(fighter, outcome: str, wounds_lost: int, new_flesh: int, by) -> list[str]:
    """What a hit's outcome does to the fighter, in the rulebook's own outcome words."""
    before = fighter.condition
    fighter.wounds_left = max(0, fighter.wounds_left - wounds_lost)
    fighter.flesh_wounds += new_flesh
    changes = []
    if wounds_lost:
        changes.append(f"{fighter.name} loses {wounds_lost} wound{'s' * (wounds_lost > 1)}")
    if new_flesh:
        changes.append(f"{fighter.name} takes {new_flesh} flesh wound{'s' * (new_flesh > 1)}")
    if outcome == "out_of_action":
        fighter.condition, fighter.engaged = Condition.OUT_OF_ACTION, False
        fighter.taken_out_by = by or fighter.taken_out_by
        changes.append(f"{fighter.name} is Out of Action")
    elif outcome == "down" and before != Condition.DOWN:
        fighter.condition = Condition.DOWN
        fighter.taken_out_by = by or fighter.taken_out_by
        changes.append(f"{fighter.name} goes down")
    return changes


def _hits_harm(hits: list) -> tuple[int, int]:
    return sum(h.get("wounds_lost", 0) for h in hits), sum(h.get("new_flesh_wounds", 0) for h in hits)


def _pin(fighter) -> list[str]:
    """A standing fighter who is hit (and neither down nor out of action) is pinned."""
    if fighter.condition != Condition.STANDING:
        return []
    fighter.condition = Condition.PINNED
    return [f"{fighter.name} is pinned"]


def apply_shoot(plan: Plan, result: dict, battle) -> list[str]:
    shooter, target = plan.fighter, plan.target
    after = result["target_after"]
    lost, new_flesh = target.wounds_left - after["wounds_left"], after["flesh_wounds"] - target.flesh_wounds
    changes = harm(target, result["outcome"], lost, new_flesh, by=shooter)
    if after["pinned"]:
        changes += _pin(target)
    if result.get("weapon_fails") or result.get("weapon_explodes"):
        key = plan.params["weapon"].partition(":")[0]
        if key not in shooter.failed_weapons:
            shooter.failed_weapons = [*shooter.failed_weapons, key]
        changes.append(f"{shooter.name}'s {shooter.weapon(key)['name']} fails")
    blast = result.get("explosion_on_shooter")
    if blast:
        changes += harm(shooter, blast["outcome"], blast["wounds_lost"], blast["new_flesh_wounds"], by=None)
    shooter.hidden = False
    return changes


def apply_fight(plan: Plan, result: dict, battle) -> list[str]:
    sides = {"attacker": plan.fighter, "defender": plan.target}
    changes = []
    if result.get("loser"):
        loser, winner = sides[result["loser"]], sides[result["winner"]]
        wounds = result["wounds"]
        changes += harm(loser, wounds["outcome"], *_hits_harm(wounds["hits"]), by=winner)
    else:
        changes.append("A stand-off: no blows struck")
    for fighter in sides.values():
        fighter.engaged = not fighter.out_of_action
        fighter.hidden = False
    return changes


def apply_multi_fight(plan: Plan, result: dict, battle) -> list[str]:
    lone, changes = plan.fighter, []
    for bout in result["bouts"]:
        opponent = plan.others[bout["opponent"] - 1]
        if not bout.get("loser"):
            changes.append(f"{opponent.name} and {lone.name}: a stand-off")
            continue
        loser, winner = (opponent, lone) if bout["loser"] == "attacker" else (lone, opponent)
        changes += harm(loser, bout["wounds"]["outcome"], *_hits_harm(bout["wounds"]["hits"]), by=winner)
    for fighter in (lone, *plan.others):
        fighter.engaged = not fighter.out_of_action
    return changes


TEST_EFFECTS = {
    # (test, outcome): (field, value, words)
    ("leadership", "broken"): ("broken", True, "is broken"),
    ("fear", "broken"): ("broken", True, "is broken"),
    ("nerve", "recovered"): ("broken", False, "recovers his nerve"),
    ("escape_pinning", "escapes"): ("condition", Condition.STANDING, "escapes pinning"),
}


def apply_test(plan: Plan, result: dict, battle) -> list[str]:
    test, fighter, outcome = plan.query["kind"], plan.fighter, result.get("outcome")
    if test == "bottle":
        if outcome == "bottles_out":
            setattr(battle, f"bottled_{plan.side}", True)
            return [f"{battle.gang(plan.side).name} bottles out"]
        return [f"{battle.gang(plan.side).name} fights on"]
    if test == "recovery":
        if outcome == "flesh_wound":
            fighter.condition, fighter.flesh_wounds = Condition.PINNED, fighter.flesh_wounds + 1
            return [f"{fighter.name} recovers with a flesh wound and is pinned"]
        if outcome == "out_of_action":
            return harm(fighter, "out_of_action", 0, 0, by=None)
        return [f"{fighter.name} stays down"]
    if test == "fall":
        landing = result.get("landing")
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


APPLY = {"shoot": apply_shoot, "fight": apply_fight, "multi-fight": apply_multi_fight, "test": apply_test}


def apply(plan: Plan, result: dict, battle) -> list[str]:
    return APPLY[plan.kind](plan, result, battle)


def casualties(plan: Plan) -> list:
    """Fighters this action put down or out of action: their friends within 2" must test."""
    involved = [f for f in (plan.fighter, plan.target, *plan.others) if f is not None]
    return [f for f in dict.fromkeys(involved) if f.condition in (Condition.DOWN, Condition.OUT_OF_ACTION)]


# --- prompts and the turn -----------------------------------------------------------------------


def prompts(battle, fighters: list, last_casualties: list, taken: set) -> list[Prompt]:
    """What the rules require now. ``taken``: (test, fighter id or side) already taken this phase."""
    side, out = battle.turn_side, []
    mine = [f for f in fighters if f.side == side]
    if battle.phase == Phase.MOVEMENT:
        down = sum(f.is_casualty for f in mine)
        if not battle.bottled(side) and mine and 4 * down >= len(mine) and ("bottle", side) not in taken:
            out.append(
                Prompt(
                    f"Bottle test for {battle.gang(side).name}",
                    "test",
                    {"test": "bottle", "side": side},
                    f"{down} of {len(mine)} down or out of action",
                )
            )
        for f in mine:
            if f.condition == Condition.PINNED and ("escape_pinning", f.pk) not in taken:
                out.append(Prompt(f"{f.name}: escape pinning", "test", {"test": "escape_pinning", "fighter": f.pk}))
    if battle.phase == Phase.RECOVERY:
        for f in mine:
            if f.condition == Condition.DOWN and ("recovery", f.pk) not in taken:
                out.append(Prompt(f"{f.name}: recovery roll", "test", {"test": "recovery", "fighter": f.pk}))
            if f.broken and not f.out_of_action and ("nerve", f.pk) not in taken:
                out.append(Prompt(f"{f.name}: recover nerve", "test", {"test": "nerve", "fighter": f.pk}))
    return out + friends_test(
        fighters, last_casualties, taken, "leadership", 'Leadership test if within 2"', _can_panic, _went
    )


def _went(casualty) -> str:
    return f"{casualty.name} went {'down' if casualty.condition == Condition.DOWN else 'out of action'}"


def _can_panic(fighter) -> bool:
    return fighter.condition in (Condition.STANDING, Condition.PINNED) and not fighter.broken


def advance(battle, fighters: list) -> list[str]:
    """The next phase; after the recovery phase the other player's turn begins."""
    if not next_phase(battle):
        return [f"{battle.get_phase_display()} phase"]
    battle.turn_side = other_side(battle.turn_side)
    if battle.turn_side == Side.A:
        battle.round += 1
    changes = [f"Turn {battle.round}: {battle.gang(battle.turn_side).name}'s turn"]
    for f in fighters:
        # Overwatch lasts until the start of the fighter's next turn.
        if f.side == battle.turn_side and f.overwatch:
            f.overwatch = False
            changes.append(f"{f.name} is no longer on overwatch")
    return changes
