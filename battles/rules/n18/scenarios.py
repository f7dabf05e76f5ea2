"""The 2018+ club campaign guide's scenario actions (seed ``n18-campaign-cycles-1-2``): queries and effects.

Every battle has loot caskets and an ammo cache to ransack; Border Dispute adds defiling the enemy
gang's relic (no dice); Search & Destroy the weapon caches: searched for in the End phase (D6, 5+),
destroyed with an Intelligence test (+1 for each friend within 2"), or carried off. What they change is
kept in the battle's ``facts`` for the post-battle sequence.
"""

from __future__ import annotations

from django.core.exceptions import ValidationError

from battles.models import Condition
from battles.rules import Plan, weapon_query
from battles.rules.n18.effects import _pin, activated, harm
from battles.rules.n18.queries import _activation_warnings, ammo_value, target_query
from campaigns.models import other_side
from rulebook.errors import RulesInputError
from rulebook.n18.campaign.record import Casket, casket_rules, check_casket
from rulebook.n18.campaign.scenarios import SCENARIOS

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


def scenario_actions(session) -> dict:
    """The scenario actions this battle offers: every battle's, and its scenario's own."""
    out = {}
    for key, words in SCENARIO_ACTIONS.items():
        only = SCENARIO_ONLY.get(key)
        if only and session.scenario and session.scenario != only:
            continue
        out[key] = words
    return out


# The scenario actions only some roles may take, and the deed each is (rulebook.n18.campaign.scenarios' Scenario.deeds).
ACTION_DEEDS = {
    "defile-relic": "relic_defiled",
    "destroy-cache": "caches_destroyed",
    "recover-cache": "caches_recovered",
}


def may_take(session, action: str, fighter) -> bool:
    """Whether the scenario lets the fighter's side take the action at all (Smash & Grab's caskets are the
    attacker's, a cache is destroyed by the attacker and carried off by the defender): the action's form offers
    only those fighters, and the plan still refuses the others with the rule's words."""
    role = role_of(session, fighter.side)
    if action == "loot-casket":
        return role in casket_rules(session.scenario).openers
    found = SCENARIOS.get(session.scenario)
    if action not in ACTION_DEEDS or found is None or not found.deeds:
        return True
    return role in dict(found.deeds).get(ACTION_DEEDS[action], ())


def scenario_plan(params: dict, fighters: list, session) -> Plan:
    action, fighter = params["action"], params["fighter"]
    if action not in SCENARIO_ACTIONS:
        raise ValidationError("No such scenario action here.")
    summary = f"{fighter.name}: {SCENARIO_ACTIONS[action].lower()}"
    # Opening a casket, defiling a relic and a cache's Double actions are the fighter's own action: the same
    # warnings as Shoot and Fight (activated already, Pinned, Broken), so a fighter left Prone and Pinned by a
    # Booby Trapped casket is not seen opening the next one without a word. Ransacking the ammo cache is part of
    # a shot's Ammo test, and the search has its own warning.
    warnings = _activation_warnings(fighter)
    if action == "search-cache":
        warnings = (
            []
            if fighter.condition == Condition.ACTIVE
            else [f"{fighter.name} is not Active: only an Active fighter finds the cache"]
        )
        return Plan("scenario", SEARCH_RULE, {}, summary, fighter, side=fighter.side, params=params, warnings=warnings)
    if action == "destroy-cache":
        # A Double action in base contact: an Intelligence test, +1 for each friend within 2".
        query = {
            "kind": "characteristic",
            "characteristic": "Int",
            "value": fighter.stats["Int"],
            "modifier": params.get("friends_near") or 0,
        }
        return Plan("scenario", "test", query, summary, fighter, side=fighter.side, params=params, warnings=warnings)
    if action == "loot-casket":
        _casket_allowed(session, fighter)
        query = {"smash_and_grab": session.scenario == "smash-and-grab", "opener": target_query(fighter)}
        return Plan(
            "scenario", "loot-casket", query, summary, fighter, side=fighter.side, params=params, warnings=warnings
        )
    if action == "ammo-cache":
        _, entry = weapon_query(fighter, params["weapon"])
        query = {"ammo": ammo_value(entry)}
        return Plan("scenario", "ammo-cache", query, summary, fighter, side=fighter.side, params=params)
    return Plan("scenario", "", {}, summary, fighter, side=fighter.side, params=params, warnings=warnings)


def role_of(session, side: str) -> str:
    """The side's role in the scenario; when the scenario names none, the side's own name (the first gang is the
    attacker side, :class:`campaigns.models.Side`)."""
    return session.role(side) or side


def _casket_allowed(session, fighter) -> None:
    """The scenario's casket rules (rulebook.n18.campaign.record): who may open one, and how many there are."""
    rules = casket_rules(session.scenario)
    opened = len(session.facts.get("caskets", []))
    try:
        check_casket(session.scenario, Casket(role_of(session, fighter.side)), opened + 1, None)
    except RulesInputError as err:
        raise ValidationError(f"{fighter.name}: {err.message.split(': ', 1)[1]}") from err
    if opened >= rules.count:
        raise ValidationError(f"Every loot casket is open: this battle has {rules.count} ({rules.source}).")


def apply_scenario(plan: Plan, result: dict, session) -> list[str]:
    action, fighter = plan.params["action"], plan.fighter
    facts = dict(session.facts)
    if action == "loot-casket":
        record = {
            "side": fighter.side,
            "fighter": fighter.pk,
            "result": result.get("result"),
            "credits": result.get("credits_gained", 0),
        }
        facts["caskets"] = [*facts.get("caskets", []), record]
        words = [f"{fighter.name} opens a loot casket: {result.get('result')}"]
        if result.get("trap"):
            # The Booby Trapped blast hits the fighter who opened it (Smash & Grab's casket table).
            trap = result["trap"]
            words += harm(fighter, trap["target_after"], by=None) or [f"{fighter.name} shrugs off the blast"]
            if trap.get("pins"):
                words += _pin(fighter)
        if record["credits"]:
            words.append(f"{record['credits']} credits for {session.gang(fighter.side).name}'s Stash after the battle")
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
        words = [f"{fighter.name} defiles {session.gang(enemy).name}'s relic"]
    else:
        words = _cache(facts, action, fighter, result)
    session.facts = facts
    activated(fighter, session)
    return words


CACHE_FACTS = {"search-cache": "caches_found", "destroy-cache": "caches_destroyed", "recover-cache": "caches_recovered"}
CACHE_WORDS = {
    "search-cache": "finds a weapon cache",
    "destroy-cache": "destroys a weapon cache",
    "recover-cache": "carries a weapon cache off the battlefield",
}


def _cache(facts: dict, action: str, fighter, result: dict) -> list[str]:
    """Search & Destroy's weapon caches: found on the search roll, destroyed on a passed Int test, or recovered."""
    succeeded = result.get("found", result.get("passed", True)) if result else True
    if not succeeded:
        return [f"{fighter.name} fails to {CACHE_WORDS[action].split(' ', 1)[0].rstrip('s')} it"]
    name = CACHE_FACTS[action]
    facts[name] = [*facts.get(name, []), {"side": fighter.side, "fighter": fighter.pk, "name": fighter.name}]
    return [f"{fighter.name} {CACHE_WORDS[action]}"]
