"""The 2018+ rules at the table: queries for ``n18`` shoot, fight, test, agility, fall and the campaign
guide's scenario actions, and their effects.

States follow the project's content facts (section 3): a fighter is Active, Pinned, Seriously Injured or
Out of Action, and apart from that Standing or Prone, Broken or not, Ready or already activated this
round; a Standing fighter who is hit becomes Prone and Pinned. Prompts: Nerve tests for friends of a
fighter who is Seriously Injured or taken Out of Action, and in the End phase the Bottle test, Recovery
tests for Seriously Injured fighters and Rally tests for Broken ones. Scenario actions follow the club
campaign guide (seed ``n18-campaign-cycles-1-2``): opening loot caskets, ransacking an ammo cache and
defiling an enemy gang's relic (Border Dispute; no dice).
"""

from __future__ import annotations

from django.core.exceptions import ValidationError

from battles.models import Condition, Phase, other_side
from battles.rules import Plan, Prompt, friends_test, next_phase, weapon_query
from rulebook.n18 import trading_post
from rulebook.n18.shooting import NOT_RELOADED
from rulebook.query import Query

KINDS = {"shoot": "Shoot", "fight": "Fight", "test": "Test", "scenario": "Scenario"}
TESTS = {
    "nerve": "Nerve test",
    "rally": "Rally test",
    "bottle": "Bottle test",
    "recovery": "Recovery test",
    "agility": "Agility test",
    "fall": "Falling",
    "willpower": "Willpower test",
    "intelligence": "Intelligence test",
    "reload": "Reload (Ammo test)",
}
SCENARIO_ACTIONS = {
    "loot-casket": "Open a loot casket",
    "ammo-cache": "Ransack the ammo cache",
    "defile-relic": "Defile the enemy relic",
    "search-cache": "Search for the weapon cache",
    "destroy-cache": "Destroy a weapon cache",
    "recover-cache": "Carry a weapon cache off",
}
# Which scenario actions each scenario has (every battle of the guide has loot caskets and the ammo cache).
SCENARIO_ONLY = {
    "defile-relic": "border-dispute",
    "search-cache": "search-and-destroy",
    "destroy-cache": "search-and-destroy",
    "recover-cache": "search-and-destroy",
}
SEARCH_RULE = "cache-search"  # the guide's End phase D6 (5+) for a searching fighter
COVER = {"none": "In the open", "partial": "Partial cover (-1)", "full": "Full cover (-2)"}
FALL_CAUSES = {"fall": "Falls", "forced": "Forced off a ledge", "jump_down": "Jumps down"}
CHARACTERISTIC = {"willpower": "Wil", "intelligence": "Int"}
RELIC_BONUS = 2  # Border Dispute: Cool and Leadership tests within 6" of the gang's own relic


def fresh_state(profile: dict) -> dict:
    return {"wounds_left": profile["stats"].get("W", 1), "condition": Condition.ACTIVE, "ready": True}


# --- queries -------------------------------------------------------------------------------


def _state(fighter) -> str:
    if fighter.condition == Condition.SERIOUSLY_INJURED:
        return "seriously_injured"
    if fighter.engaged:
        return "engaged"
    return "prone" if fighter.prone else "standing"


def target_query(fighter) -> dict:
    toughness = fighter.stats["T"]
    return {
        "T": toughness,
        "W": fighter.wounds_left,
        "flesh_wounds": min(fighter.flesh_wounds, toughness - 1),
        "state": _state(fighter),
        "save": fighter.profile.get("save"),
    }


def shoot_plan(params: dict, fighters: list) -> Plan:
    shooter, target = params["fighter"], params["target"]
    weapon, entry = weapon_query(shooter, params["weapon"])
    query = {
        "shooter": {"BS": shooter.stats["BS"], "S": shooter.stats["S"]},
        **weapon,
        "target": target_query(target),
        "distance": params["distance"],
        "cover": params.get("cover") or "none",
        "modifiers": [params["modifier"]] if params.get("modifier") else [],
    }
    summary = f'{shooter.name} shoots {target.name} with the {entry["name"]} at {params["distance"]}"'
    warnings = _activation_warnings(shooter)
    if entry["key"] in shooter.jammed_weapons:
        warnings.append(f"The {entry['name']} cannot be used again this battle")
    elif entry["key"] in shooter.failed_weapons:
        warnings.append(f"The {entry['name']} is Out of Ammo")
    return Plan("shoot", "shoot", query, summary, shooter, target, params=params, warnings=warnings)


def _activation_warnings(fighter) -> list[str]:
    """Why the fighter might not act now (activated already, Pinned, Seriously Injured, Broken); not enforced."""
    out = []
    if not fighter.ready:
        out.append(f"{fighter.name} has been activated this round already")
    if fighter.condition != Condition.ACTIVE:
        out.append(f"{fighter.name} is {fighter.get_condition_display()}")
    if fighter.broken:
        out.append(f"{fighter.name} is Broken")
    return out


def _close_combat_weapon(fighter) -> dict:
    """The weapon a fighter strikes back and parries with: the first close combat weapon (else pistol) not failed."""
    usable = [w for w in fighter.profile.get("weapons", []) if w["fights"] and w["key"] not in fighter.failed_weapons]
    best = sorted(usable, key=lambda w: w["category"] != "close_combat")
    if not best:
        return {}
    query = best[0]["profiles"][0]["query"]
    return {"weapon": query["weapon"], **({"weapon_profile": query["profile"]} if "profile" in query else {})}


def fight_plan(params: dict, fighters: list) -> Plan:
    attacker, target = params["fighter"], params["target"]
    query = {
        "attacker": {"WS": attacker.stats["WS"], "A": attacker.stats.get("A", 1), "S": attacker.stats["S"]},
        "target": {**target_query(target), **_close_combat_weapon(target)},
        "modifiers": [params["modifier"]] if params.get("modifier") else [],
    }
    if params.get("reaction"):
        # The target, if still Standing after the attacks, strikes back at the attacker.
        query["reaction"] = True
        query["attacker"].update(target_query(attacker))
        query["target"].update(WS=target.stats["WS"], A=target.stats.get("A", 1), S=target.stats["S"])
    weapon_name = "bare hands"
    if params.get("weapon"):
        weapon, entry = weapon_query(attacker, params["weapon"])
        query.update(weapon)
        weapon_name = f"the {entry['name']}"
    summary = f"{attacker.name} fights {target.name} with {weapon_name}"
    return Plan(
        "fight", "fight", query, summary, attacker, target, params=params, warnings=_activation_warnings(attacker)
    )


def _relic_bonus(battle, fighter, params) -> int:
    relic_intact = not battle.facts.get("relics_defiled", {}).get(fighter.side)
    return RELIC_BONUS if params.get("near_relic") and relic_intact else 0


def test_plan(params: dict, fighters: list, battle) -> Plan:
    test, fighter = params["test"], params.get("fighter")
    if test == "bottle":
        side = params["side"]
        mine = [f for f in fighters if f.side == side]
        query = {
            "kind": "bottle",
            "starting_crew": battle.starting_crew(side) or len(mine),
            "seriously_injured": sum(f.condition == Condition.SERIOUSLY_INJURED for f in mine),
            "out_of_action": sum(f.out_of_action for f in mine),
        }
        return Plan("test", "test", query, f"Bottle test for {battle.gang(side).name}", side=side, params=params)
    rule, query = "test", {"kind": test}
    if test in ("nerve", "rally"):
        query.update(Cl=fighter.stats["Cl"], modifier=_relic_bonus(battle, fighter, params))
    elif test == "recovery":
        toughness = fighter.stats["T"]
        query.update(T=toughness, flesh_wounds=min(fighter.flesh_wounds, toughness - 1))
        query["assisted"] = bool(params.get("assisted"))
    elif test in CHARACTERISTIC:
        name = CHARACTERISTIC[test]
        query = {"kind": "characteristic", "characteristic": name, "value": fighter.stats[name]}
    elif test == "reload":
        _, entry = weapon_query(fighter, params["weapon"])
        if entry["key"] in fighter.jammed_weapons:
            raise ValidationError(f"The {entry['name']} cannot be reloaded this battle (jammed, or no reload).")
        query = {"kind": "ammo", "ammo": _ammo_value(entry)}
        return Plan("test", "test", query, f"{fighter.name} reloads the {entry['name']}", fighter, params=params)
    elif test == "agility":
        rule, query = "agility", {"modifier": params.get("modifier") or 0}
    elif test == "fall":
        rule = "fall"
        query = {"height": params.get("height") or 1, "cause": params.get("cause") or "fall",
                 "target": target_query(fighter)}  # fmt: skip
    return Plan("test", rule, query, f"{fighter.name}: {TESTS[test]}", fighter, side=fighter.side, params=params)


def _ammo_value(entry: dict) -> int:
    """The weapon's Ammo characteristic (4 for 4+), from its first profile that has one."""
    ammo = next((p["ammo"] for p in entry["profiles"] if p.get("ammo")), None)
    return int(str(ammo or "4+").rstrip("+"))


def scenario_actions(battle) -> dict:
    """The scenario actions this battle offers: every battle's, and its scenario's own."""
    out = {}
    for key, words in SCENARIO_ACTIONS.items():
        only = SCENARIO_ONLY.get(key)
        if only and battle.scenario and battle.scenario != only:
            continue
        out[key] = words
    return out


def scenario_plan(params: dict, fighters: list, battle) -> Plan:
    action, fighter = params["action"], params["fighter"]
    summary = f"{fighter.name}: {SCENARIO_ACTIONS[action].lower()}"
    if action == "search-cache":
        warnings = (
            []
            if fighter.condition == Condition.ACTIVE
            else [f"{fighter.name} is not Active: only an Active fighter finds the cache"]
        )
        return Plan("scenario", SEARCH_RULE, {}, summary, fighter, side=fighter.side, params=params, warnings=warnings)
    if action == "destroy-cache":
        # A Double action in base contact: an Intelligence test, +1 for each friend within 2".
        query = {"kind": "characteristic", "characteristic": "Int", "value": fighter.stats["Int"],
                 "modifier": params.get("friends_near") or 0}  # fmt: skip
        return Plan("scenario", "test", query, summary, fighter, side=fighter.side, params=params)
    if action == "loot-casket":
        query = {"smash_and_grab": battle.scenario == "smash-and-grab"}
        return Plan("scenario", "loot-casket", query, summary, fighter, side=fighter.side, params=params)
    if action == "ammo-cache":
        _, entry = weapon_query(fighter, params["weapon"])
        query = {"ammo": _ammo_value(entry)}
        return Plan("scenario", "ammo-cache", query, summary, fighter, side=fighter.side, params=params)
    return Plan("scenario", "", {}, summary, fighter, side=fighter.side, params=params)


PLANS = {"shoot": shoot_plan, "fight": fight_plan}


def plan(kind: str, params: dict, fighters: list, battle) -> Plan:
    if kind == "test":
        return test_plan(params, fighters, battle)
    if kind == "scenario":
        return scenario_plan(params, fighters, battle)
    return PLANS[kind](params, fighters)


# --- effects ----------------------------------------------------------------------------------


def harm(fighter, after: dict, by) -> list[str]:
    """The rulebook's ``target_after`` written onto the fighter."""
    changes = []
    lost = fighter.wounds_left - after["wounds"]
    if lost > 0:
        changes.append(f"{fighter.name} loses {lost} wound{'s' * (lost > 1)}")
    fighter.wounds_left = after["wounds"]
    new_flesh = after["flesh_wounds"] - min(fighter.flesh_wounds, fighter.stats["T"] - 1)
    if new_flesh > 0:
        fighter.flesh_wounds += new_flesh
        changes.append(f"{fighter.name} takes {new_flesh} Flesh Wound{'s' * (new_flesh > 1)}")
    if after["out_of_action"] and not fighter.out_of_action:
        fighter.condition, fighter.engaged, fighter.ready = Condition.OUT_OF_ACTION, False, False
        fighter.taken_out_by = by
        changes.append(f"{fighter.name} is Out of Action")
    elif after["seriously_injured"] and fighter.condition != Condition.SERIOUSLY_INJURED:
        fighter.condition, fighter.prone = Condition.SERIOUSLY_INJURED, True
        fighter.seriously_injured_by = by
        changes.append(f"{fighter.name} is Seriously Injured")
    return changes


def _pin(fighter) -> list[str]:
    """A Standing fighter who is hit becomes Prone and Pinned."""
    if fighter.condition != Condition.ACTIVE:
        return []
    fighter.condition, fighter.prone = Condition.PINNED, True
    return [f"{fighter.name} is Prone and Pinned"]


def _activated(fighter) -> None:
    fighter.ready = False


def apply_shoot(plan: Plan, result: dict, battle) -> list[str]:
    shooter, target = plan.fighter, plan.target
    hits = result.get("hits", 0)
    changes = [f"{target.name} takes {hits} hits"] if hits > 1 else []  # Rapid Fire: each resolved in turn
    changes += harm(target, result["target_after"], by=shooter)
    if result.get("pins"):
        changes += _pin(target)
    changes += _weapon_fails(shooter, plan, result)
    _activated(shooter)
    return changes or ["No effect"]


def _weapon_fails(shooter, plan: Plan, result: dict) -> list[str]:
    """A failed Ammo test leaves the weapon Out of Ammo until reloaded; two failures jam it, and a grenade, Scarce
    or Limited weapon Out of Ammo stays so, for the rest of the battle (``jammed_weapons``: no reload)."""
    if not (result.get("jammed") or result.get("ammo_test") == "out_of_ammo"):
        return []
    key = plan.params["weapon"].partition(":")[0]
    name = shooter.weapon(key)["name"]
    if key not in shooter.failed_weapons:
        shooter.failed_weapons = [*shooter.failed_weapons, key]
    for_good = trading_post.trait_names(trading_post.read_profile(Query(plan.query))) & NOT_RELOADED
    if result.get("jammed") or for_good:
        shooter.jammed_weapons = [*shooter.jammed_weapons, key]
        words = "jams" if result.get("jammed") else "is Out of Ammo"
        return [f"{shooter.name}'s {name} {words} for the rest of the battle"]
    return [f"{shooter.name}'s {name} is Out of Ammo"]


def apply_fight(plan: Plan, result: dict, battle) -> list[str]:
    attacker, target = plan.fighter, plan.target
    changes = harm(target, result["target_after"], by=attacker)
    if result.get("hits"):
        changes += _pin(target)
    reaction = result.get("reaction") or {}
    if reaction.get("made"):
        changes += harm(attacker, reaction["attacker_after"], by=target)
        if reaction["hits"]:
            changes += _pin(attacker)
    for fighter in (attacker, target):
        fighter.engaged = not fighter.out_of_action
    _activated(attacker)
    return changes or ["No effect"]


RECOVERY_WORDS = {"recovers": "recovers: Prone and Pinned", "stays_down": "stays Seriously Injured"}


def apply_test(plan: Plan, result: dict, battle) -> list[str]:
    kind, fighter = plan.params["test"], plan.fighter
    if kind == "bottle":
        if result.get("bottled"):
            setattr(battle, f"bottled_{plan.side}", True)
            return [f"{battle.gang(plan.side).name} bottles out"]
        return [f"{battle.gang(plan.side).name} holds"]
    if kind == "nerve" and not result["passed"]:
        fighter.broken = True
        return [f"{fighter.name} is Broken"]
    if kind == "rally" and result["passed"]:
        fighter.broken = False
        return [f"{fighter.name} rallies"]
    if kind == "recovery":
        return _recovery(fighter, result["outcome"], plan.query["assisted"])
    if kind == "reload":
        key = plan.params["weapon"].partition(":")[0]
        if not result["passed"]:
            return [f"{fighter.name} fails to reload the {fighter.weapon(key)['name']}"]
        fighter.failed_weapons = [k for k in fighter.failed_weapons if k != key]
        return [f"{fighter.name} reloads the {fighter.weapon(key)['name']}"]
    if kind == "fall":
        changes = harm(fighter, result["target_after"], by=None)
        if result["outcome"] not in ("stays_put", "no_fall"):
            changes += _pin(fighter)
        return changes or [f"{fighter.name}: {result['outcome'].replace('_', ' ')}"]
    return [f"{fighter.name} {'passes' if result.get('passed') else 'fails'}"]


def _recovery(fighter, outcome: str, assisted: bool) -> list[str]:
    if outcome == "out_of_action":
        fighter.condition, fighter.ready = Condition.OUT_OF_ACTION, False
        return [f"{fighter.name} is Out of Action"]
    if not assisted:
        fighter.flesh_wounds += 1
    if outcome == "recovers":
        fighter.condition, fighter.prone = Condition.PINNED, True
    words = f"{fighter.name} {RECOVERY_WORDS[outcome]}"
    return [words + ("" if assisted else ", with a Flesh Wound")]


def apply_scenario(plan: Plan, result: dict, battle) -> list[str]:
    action, fighter = plan.params["action"], plan.fighter
    facts = dict(battle.facts)
    if action == "loot-casket":
        record = {"side": fighter.side, "fighter": fighter.pk, "result": result.get("result"),
                  "credits": result.get("credits_gained", 0)}  # fmt: skip
        facts["caskets"] = [*facts.get("caskets", []), record]
        words = [f"{fighter.name} opens a loot casket: {result.get('result')}"]
        if record["credits"]:
            words.append(f"{record['credits']} credits for {battle.gang(fighter.side).name}'s Stash after the battle")
    elif action == "ammo-cache":
        exhausted = result["cache_exhausted"]
        facts["ammo_cache_exhausted"] = bool(facts.get("ammo_cache_exhausted") or exhausted)
        words = [f"{fighter.name} ransacks the ammo cache: {'passed' if result['passed'] else 'failed'}"]
        if exhausted:
            words.append("The ammo cache is exhausted")
    elif action == "defile-relic":
        enemy = other_side(fighter.side)
        defiled = dict(facts.get("relics_defiled", {}))
        defiled[enemy] = {"fighter": fighter.pk, "name": fighter.name}
        facts["relics_defiled"] = defiled
        words = [f"{fighter.name} defiles {battle.gang(enemy).name}'s relic"]
    else:
        words = _cache(facts, action, fighter, result)
    battle.facts = facts
    _activated(fighter)
    return words


CACHE_FACTS = {"search-cache": "caches_found", "destroy-cache": "caches_destroyed", "recover-cache": "caches_recovered"}
CACHE_WORDS = {"search-cache": "finds a weapon cache", "destroy-cache": "destroys a weapon cache",
               "recover-cache": "carries a weapon cache off the battlefield"}  # fmt: skip


def _cache(facts: dict, action: str, fighter, result: dict) -> list[str]:
    """Search & Destroy's weapon caches: found on the search roll, destroyed on a passed Int test, or recovered."""
    succeeded = result.get("found", result.get("passed", True)) if result else True
    if not succeeded:
        return [f"{fighter.name} fails to {CACHE_WORDS[action].split(' ', 1)[0].rstrip('s')} it"]
    name = CACHE_FACTS[action]
    facts[name] = [*facts.get(name, []), {"side": fighter.side, "fighter": fighter.pk, "name": fighter.name}]
    return [f"{fighter.name} {CACHE_WORDS[action]}"]


APPLY = {"shoot": apply_shoot, "fight": apply_fight, "test": apply_test, "scenario": apply_scenario}


def apply(plan: Plan, result: dict, battle) -> list[str]:
    return APPLY[plan.kind](plan, result, battle)


def casualties(plan: Plan) -> list:
    """Fighters Seriously Injured or taken Out of Action by this action: their friends take Nerve tests."""
    involved = [f for f in (plan.fighter, plan.target) if f is not None]
    harmful = (Condition.SERIOUSLY_INJURED, Condition.OUT_OF_ACTION)
    return [f for f in dict.fromkeys(involved) if f.condition in harmful]


# --- prompts and the round ----------------------------------------------------------------------


def prompts(battle, fighters: list, last_casualties: list, taken: set) -> list[Prompt]:
    steady = (Condition.ACTIVE, Condition.PINNED)
    out = friends_test(fighters, last_casualties, taken, "nerve", 'Nerve test if within 3"', steady, _is)
    if battle.phase != Phase.END:
        return out
    for side in ("a", "b"):
        mine = [f for f in fighters if f.side == side]
        hurt = sum(f.is_casualty for f in mine)
        if hurt and not battle.bottled(side) and ("bottle", side) not in taken:
            text = f"Bottle test for {battle.gang(side).name}"
            out.append(Prompt(text, "test", {"test": "bottle", "side": side}, f"{hurt} Seriously Injured or out"))
    out += _reinforcements(battle, taken)
    for f in fighters:
        if f.condition == Condition.SERIOUSLY_INJURED and ("recovery", f.pk) not in taken:
            out.append(Prompt(f"{f.name}: Recovery test", "test", {"test": "recovery", "fighter": f.pk}))
        if f.broken and not f.out_of_action and ("rally", f.pk) not in taken:
            out.append(Prompt(f"{f.name}: Rally test", "test", {"test": "rally", "fighter": f.pk}))
    return out


def _reinforcements(battle, taken: set) -> list[Prompt]:
    """Border Dispute: both gangs, every End phase; Search & Destroy: the defender, from round 2."""
    if battle.scenario == "border-dispute":
        sides = ("a", "b")
    elif battle.scenario == "search-and-destroy" and battle.round >= 2:
        sides = tuple(s for s in ("a", "b") if battle.role(s) == "defender")
    else:
        return []
    return [
        Prompt(f"Reinforcements for {battle.gang(side).name}", "reinforce", {"side": side})
        for side in sides
        if ("reinforce", side) not in taken and not battle.bottled(side)
    ]


def _is(casualty) -> str:
    return f"{casualty.name} is {casualty.get_condition_display()}"


def advance(battle, fighters: list) -> list[str]:
    """The next phase; after the End phase a new round begins and every fighter still in play is Ready."""
    return next_phase(battle, fighters, _new_round)


def _new_round(battle, fighters: list) -> list[str]:
    battle.round += 1
    for f in fighters:
        f.ready = f.condition in (Condition.ACTIVE, Condition.PINNED)
    return [f"Round {battle.round}: fighters in play are Ready"]
