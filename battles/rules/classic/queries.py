"""The 1995 rules' queries: the ``classic`` shoot, fight, multi-fight and test actions built from the fighters.

Shooting (Flesh Wound: WS and BS lose 1 each), Hand-to-Hand Combat (up to two weapons, charging, higher up,
obstacles), Multiple Combats, the Advanced Rules' Stray Shots, and the tests of Leadership (Leader within 6", the
Bottle Test), Shooting (Escape from Pinning, Down: the recovery roll), Fear, Falling and Jumping. The warnings say what the rules forbid;
the players decide.
"""

from __future__ import annotations

from django.core.exceptions import ValidationError

from battles.models import Condition
from battles.rules import Offer, Plan, fighting_weapons, weapon_query
from battles.rules import offered as shared_offered
from battles.rules import range_bands as shared_range_bands
from rulebook.classic import shooting
from rulebook.classic.combat_actions import hand_weapon_refusal
from rulebook.classic.shooting import range_bands as weapon_range_bands
from rulebook.errors import RulesInputError
from rulebook.query import Query

KINDS = {"shoot": "Shoot", "fight": "Fight", "multi-fight": "Multiple combat", "test": "Test"}
TESTS = {
    "leadership": "Leadership test",
    "nerve": "Recovering his nerve",
    "bottle": "Bottle test",
    "escape_pinning": "Escaping pinning",
    "fear": "Fear test",
    "recovery": "Recovery roll (down)",
    "fall": "Falling",
    "terror": "Terror test",
    "stupidity": "Stupidity test",
    "frenzy": "Frenzy: test to keep control",
    "hatred": "Hatred test",
    "jump": "Jumping (down, or across a gap)",
}
TERROR_SITUATIONS = {
    "charged_by": "Charged by a terrifying foe",
    "wants_to_charge": "Wants to charge a terrifying foe",
    "within_8": 'Within 8" of a terrifying foe at the start of the turn',
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
FALL_EDGES = {
    "": "Falls (no test)",
    "pinned_or_down": 'Pinned or down within 1" of an edge',
    "lost_combat": 'Lost a fight within 1" of an edge',
}
BASIC_CATEGORIES = ("basic", "special", "heavy")
ADVANCED_TESTS = ("terror", "stupidity", "frenzy", "hatred")


def current(fighter, stat: str) -> int:
    """WS and BS lose 1 for each flesh wound; the others are as saved."""
    value = fighter.stats.get(stat, 0)
    return max(0, value - fighter.flesh_wounds) if stat in ("WS", "BS") else value


def _target(fighter) -> dict:
    down = fighter.condition == Condition.DOWN
    return {
        "T": fighter.stats["T"],
        "wounds_left": 0 if down else fighter.wounds_left,
        "down": down,
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
    if params.get("friend_in_path"):
        # Stray Shots (Advanced Rules): a to-hit roll of 1 may hit a friend within 1/2" of the line of fire.
        query["friend_in_path"] = True
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
    weapons = fighting_weapons(fighter, offered)
    out = {
        "WS": current(fighter, "WS"),
        "BS": current(fighter, "BS"),
        "A": fighter.stats.get("A", 1),
        "I": fighter.stats["I"],
        "S": fighter.stats["S"],
        "T": fighter.stats["T"],
        "wounds_left": fighter.wounds_left,
        "save": fighter.profile.get("save"),
        "weapons": [_hand_weapon(entry, index) for entry, index in weapons[:2]],
        "broken": fighter.broken,
        "carries_basic_weapon": any(w["category"] in BASIC_CATEGORIES for w in fighter.profile.get("weapons", [])),
    }
    out.update({name: True for name, on in flags.items() if on})
    return out


def _hand_weapon(entry: dict, index: int):
    return _as_hand_weapon(entry["profiles"][index]["query"])


def _as_hand_weapon(query: dict):
    """A profile's query in the shape the fight action reads a hand weapon."""
    if isinstance(query["weapon"], dict):
        return query["weapon"]
    return {"name": query["weapon"], **({"profile": query["profile"]} if "profile" in query else {})}


def profile_uses(entry: dict, query: dict) -> dict:
    """For each action one weapon profile is meant for (its weapon's: ``"shoots"`` unless a hand-to-hand weapon,
    ``"fights"`` for a pistol or hand-to-hand weapon): None when the rulebook resolves it, else the rulebook's
    reason it would refuse it."""
    out = {}
    if entry["shoots"]:
        try:
            out["shoots"] = shooting.weapon_refusal(Query(dict(query)))
        except RulesInputError as exc:
            out["shoots"] = f"the rulebook cannot read its profile ({exc})"
    if entry["fights"]:
        try:
            out["fights"] = hand_weapon_refusal(_as_hand_weapon(query))
        except RulesInputError as exc:
            out["fights"] = f"the rulebook cannot read its profile ({exc})"
    return out


def offered(fighter, use: str) -> Offer:
    """This edition's :func:`battles.rules.offered`."""
    return shared_offered(fighter, use, profile_uses)


def _refuse_down(fighter) -> None:
    """A fighter who is down may do nothing but crawl (Down): he cannot fight."""
    if fighter.condition == Condition.DOWN:
        raise ValidationError(f"{fighter.name} is down: a fighter who is down cannot fight, only crawl.")


def fight_plan(params: dict) -> Plan:
    attacker, defender = params["fighter"], params["target"]
    _refuse_down(attacker)
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
    warnings = []
    if defender.condition == Condition.DOWN:
        warnings.append(f"{defender.name} is down: in a one-on-one fight he is finished off, Out of Action")
    return Plan("fight", "fight", query, summary, attacker, defender, params=params, warnings=warnings)


def multi_fight_plan(params: dict) -> Plan:
    lone, opponents = params["fighter"], list(params["opponents"])
    _refuse_down(lone)
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
    if test not in TESTS:
        raise ValidationError("No such test in this edition.")
    if test == "bottle":
        return _bottle_plan(params["side"], fighters, params)
    fighter = params["fighter"]
    query: dict = {"kind": test}
    if test in ("leadership", "nerve", "fear", *ADVANCED_TESTS):
        query["Ld"] = fighter.stats["Ld"]
        query.update(_leader_query(fighter, fighters, bool(params.get("leader_near"))))
    if test in ADVANCED_TESTS:
        # The Advanced Rules' psychology, as ``python -m rulebook odds classic test`` answers it.
        if test == "terror":
            query["situation"] = params.get("situation") or "within_8"
        if test == "frenzy":
            query["broken"] = fighter.broken
        if test == "stupidity":
            query["in_hand_to_hand"] = fighter.engaged
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
    elif test == "jump":
        # Jumping (Advanced Rules): a jump down is a fall; across a gap he covers D6" and falls if short.
        query.update(_target(fighter), height=params.get("height") or 1)
        if params.get("gap"):
            query["gap"] = params["gap"]
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


def range_bands(fighter, choice: str) -> dict:
    """This edition's range bands of the chosen weapon (:func:`battles.rules.range_bands`)."""
    return shared_range_bands(fighter, choice, weapon_range_bands)
