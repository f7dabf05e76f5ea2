"""The 2018+ rules' queries: the ``n18`` shoot, fight and test actions built from the fighters.

Shooting and Fighting (the target's state, Flesh Wounds up to Toughness less one, the weapon it parries
and strikes back with, Reaction attacks), and the tests: Nerve and Rally on Cool (+2 within 6" of the
gang's own intact relic in the campaign guide's Border Dispute), Recovery, Willpower and Intelligence,
Reload (the weapon's Ammo), Agility, Falling and the Bottle test (two dice, the highest discarded, with Home Turf
Advantage; Rally +1 too), a bottled gang's Cool test to stay, Blaze (catching fire, the burn and putting it out),
and Coup de Grace. A fight may use two weapons and a Charge; a Prone target strikes back only when charged.
The warnings say what the rules forbid (activated already, Pinned, Broken, jammed or Out of Ammo weapons); the
players decide.
"""

from __future__ import annotations

from django.core.exceptions import ValidationError

from battles.models import Condition
from battles.rules import Offer, Plan, Prompt, fighting_weapons, weapon_query
from battles.rules import offered as shared_offered
from battles.rules import range_bands as shared_range_bands
from battles.rules.n18.effects import BLIND
from rulebook.errors import RulesInputError
from rulebook.n18 import armour as n18_armour
from rulebook.n18 import fighting, kit, shot, trading_post
from rulebook.n18.campaign.scenarios import SCENARIOS
from rulebook.n18.shot import range_bands as weapon_range_bands
from rulebook.n18.skills import FIGHT_SKILLS, IRON_WILL
from rulebook.query import Query

KINDS = {"shoot": "Shoot", "fight": "Fight", "coup-de-grace": "Coup de Grace", "test": "Test", "scenario": "Scenario"}
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
    "flee": "Cool test to stay (gang bottled out)",
    "blaze": "Blaze: burn and put the fire out",
    "chem": "Chem: its roll (wearing off, Kalma before an action, Ghast, Icrotic Slime)",
}
COVER = {"none": "In the open", "partial": "Partial cover (-1)", "full": "Full cover (-2)"}
FALL_CAUSES = {"fall": "Falls", "forced": "Forced off a ledge", "jump_down": "Jumps down"}
CHARACTERISTIC = {"willpower": "Wil", "intelligence": "Int"}
RELIC_BONUS = 2  # Border Dispute: Cool and Leadership tests within 6" of the gang's own relic


def _state(fighter) -> str:
    if fighter.condition == Condition.SERIOUSLY_INJURED:
        return "seriously_injured"
    if fighter.engaged:
        return "engaged"
    return "prone" if fighter.prone else "standing"


def target_query(fighter, front_arc: bool = False) -> dict:
    """The fighter as the engine reads a fighter who is hit: Toughness, Wounds, Flesh Wounds, state and armour."""
    toughness = fighter.stats["T"]
    return {
        "T": toughness,
        "W": fighter.wounds_left,
        "flesh_wounds": min(fighter.flesh_wounds, toughness - 1),
        "state": _state(fighter),
        **armour_query(fighter, front_arc),
    }


def armour_query(fighter, front_arc: bool = False) -> dict:
    """Everything the fighter wears that the engine's armour rules know, by name (``rulebook.n18.armour``: flak's
    5+ against Blasts and Flame templates, an undersuit's +1, a shield from the front), with ``front_arc`` when the
    attack comes from their front; the card's save as a number when they wear none of those (a house-rule armour)
    or for a battle started before the snapshot held them."""
    worn = fighter.profile.get("worn") or []
    suit = any(n18_armour.find(slug, "armour").is_suit for slug in worn)
    if worn and (suit or not fighter.profile.get("save")):
        return {"armour": list(worn), **({"front_arc": True} if front_arc else {})}
    return {"save": fighter.profile.get("save")}


def shoot_plan(params: dict, fighters: list) -> Plan:
    shooter, target = params["fighter"], params["target"]
    weapon, entry = weapon_query(shooter, params["weapon"])
    traits = weapon_traits(weapon)
    query = {
        "shooter": {"BS": shooter.stats["BS"], "S": shooter.stats["S"]},
        **weapon,
        "target": {**target_query(target, bool(params.get("front_arc"))), **_resisting(target, traits)},
        "distance": params["distance"],
        "cover": params.get("cover") or "none",
        "modifiers": [params["modifier"]] if params.get("modifier") else [],
    }
    summary = f'{shooter.name} shoots {target.name} with the {entry["name"]} at {params["distance"]}"'
    warnings = _activation_warnings(shooter)
    others = list(params.get("split_to") or [])
    if others:
        # Rapid Fire: the first hit on the target, one each on these fighters within 3" of it, any more on the
        # target again (``split_to``; the players allocate before any wound roll).
        query["split_to"] = [target_query(other) for other in others]
        summary += f", spare hits to {', '.join(other.name for other in others)}"
        warnings.append('Spare hits go only to fighters within 3" of the target and no harder to hit')
    if params.get("also_under"):
        # One more fighter under the Blast marker or Flame template of the shot just made: hit without a roll, no
        # Ammo test of its own (``also_under``), and the shooter's activation is not a new one.
        query["also_under"] = True
        if "Blast" in traits:
            query["target"]["under_marker"] = True
        summary = f"The {entry['name']}'s {area_word(query)} also hits {target.name}"
        warnings = []
    elif "Blast" in traits:
        query["scatter"] = True  # a miss scatters the marker: its Scatter dice and D6 are rolled with the shot
    if entry["key"] in shooter.jammed_weapons:
        warnings.append(f"The {entry['name']} cannot be used again this battle")
    elif entry["key"] in shooter.failed_weapons:
        warnings.append(f"The {entry['name']} is Out of Ammo")
    return Plan("shoot", "shoot", query, summary, shooter, target, others=others, params=params, warnings=warnings)


def _resisting(target, traits: set) -> dict:
    """What a special weapon's hit is tested against: Initiative for Flash, Strength for Graviton Pulse, and the
    wargear the target resists Gas and Flash with (the roster's ``wargear``: a respirator, photo-goggles...)."""
    out = {}
    if traits & {"Gas", "Flash"} and target.profile.get("wargear"):
        out["wargear"] = list(target.profile["wargear"])
    if "Flash" in traits:
        return {**out, "I": target.stats["I"]}
    if "Graviton Pulse" in traits:
        return {"S": target.stats["S"]}
    return out


def weapon_traits(query: dict) -> set:
    """The trait names of a shoot query's weapon (none when the profile cannot be read)."""
    try:
        profile = trading_post.read_profile(Query(dict(query)))
    except RulesInputError:
        return set()
    return trading_post.trait_names(profile)


def has_rapid_fire(fighter) -> bool:
    """Whether any weapon profile the fighter may shoot has Rapid Fire (its hits may be split)."""
    return any(
        "Rapid Fire" in weapon_traits(entry["profiles"][index]["query"])
        for entry, index in offered(fighter, "shoots").usable
    )


def area_traits(query: dict) -> set:
    """The Blast and Template traits of a shoot query's weapon."""
    return weapon_traits(query) & {"Blast", "Template"}


def area_word(query: dict) -> str:
    return "Blast marker" if "Blast" in area_traits(query) else "Flame template"


def area_prompt(action, by_pk: dict) -> Prompt | None:
    """After a shot with a Blast marker or a Flame template: every other fighter under it is hit too (2023 core
    rulebook, Shooting: Blast markers and templates), each resolved in turn from this prompt; a Blast marker that
    missed scattered where its Scatter dice and D6 say (rolled with the shot), or was a dud, or misfired onto the
    shooter, and a fighter it lands on is resolved the same way. Only the table knows who is under it. Smoke hits
    nobody."""
    query = action.query or {}
    shooter = by_pk.get(action.fighter_id)
    if action.kind != "shoot" or query.get("also_under") or shooter is None or not area_traits(query):
        return None
    scatter = (action.result or {}).get("scatter") or {}
    if scatter.get("lands") == "dud" or "Smoke" in weapon_traits(query):
        return None
    choice = next(
        (
            f"{entry['key']}:{index}"
            for entry in shooter.profile.get("weapons", [])
            for index, profile in enumerate(entry["profiles"])
            if all(query.get(name) == value for name, value in profile["query"].items())
        ),
        None,
    )
    if choice is None:
        return None
    what = f"the {area_word(query)}"
    if scatter.get("lands") == "scattered":
        what = f'the Blast marker (scattered {scatter["inches"]}" towards {scatter["direction"]})'
    elif scatter.get("lands") == "on_shooter":
        what = f"the Blast marker (misfired: centred on {shooter.name})"
    elif "blast_marker" in (action.result or {}):
        what = "the scattered Blast marker"
    params = {"fighter": shooter.pk, "shooter": f"{shooter.pk}:{choice}", "also_under": 1}
    return Prompt(f"Anyone (else) under {what}? Resolve each", "shoot", params, "hit without a roll", True)


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


def _close_combat_weapons(fighter) -> dict:
    """The weapons a fighter strikes back and parries with: up to two close combat weapons (then pistols) not
    failed, as the target's ``weapon`` and ``second_weapon`` (each Parry weapon re-rolls a hit; 2023 core
    rulebook, Close Combat: Choose Weapons). An Unwieldy weapon is used alone."""
    best = fighting_weapons(fighter, offered)
    out = {}
    for field, (entry, index) in zip(("weapon", "second_weapon"), best[:2], strict=False):
        query = entry["profiles"][index]["query"]
        if field == "second_weapon" and (_unwieldy(query) or _unwieldy(out)):
            break
        out[field] = query["weapon"]
        if "profile" in query:
            out[f"{field}_profile"] = query["profile"]
    return out


def _unwieldy(query: dict) -> bool:
    weapon = query.get("weapon")
    if weapon is None:
        return False
    try:
        profile = trading_post.read_profile(Query(dict(query)))
    except RulesInputError:
        return False
    return "Unwieldy" in trading_post.trait_names(profile)


def fight_plan(params: dict, fighters: list, session) -> Plan:
    attacker, target = params["fighter"], params["target"]
    query = {
        "attacker": {
            "WS": attacker.stats["WS"],
            "A": attacker.stats.get("A", 1),
            "S": attacker.stats["S"],
            "charging": bool(params.get("charging")),
            **fight_skills(attacker),
        },
        "target": {**target_query(target, bool(params.get("front_arc"))), **_close_combat_weapons(target)},
        "modifiers": [params["modifier"]] if params.get("modifier") else [],
    }
    if params.get("charging") and target.condition == Condition.PINNED:
        # A Prone and Pinned fighter who is charged stands up, Engaged (Fighter Actions: Charge).
        query["target"]["state"] = "engaged"
    if params.get("reaction") and query["target"]["state"] in ("standing", "engaged"):
        # The target, Standing and Engaged, strikes back if still Standing after the attacks (Close Combat step 7);
        # a Prone fighter makes no Reaction attacks.
        query["reaction"] = True
        query["attacker"].update(target_query(attacker))
        query["target"].update(WS=target.stats["WS"], A=target.stats.get("A", 1), S=target.stats["S"])
        if session is not None and target.pk in session.facts.get(BLIND, []):  # None: a plan outside a battle
            query["target"]["blind"] = True  # Flash: until activated, Reaction attacks hit only on natural 6s
    weapon_name = "bare hands"
    if params.get("weapon"):
        weapon, entry = weapon_query(attacker, params["weapon"])
        query.update(weapon)
        weapon_name = f"the {entry['name']}"
        if params.get("second_weapon"):
            second, other = weapon_query(attacker, params["second_weapon"])
            query["second_weapon"] = second["weapon"]
            if "profile" in second:
                query["second_profile"] = second["profile"]
            weapon_name += f" and the {other['name']}"
    summary = f"{attacker.name} fights {target.name} with {weapon_name}"
    return Plan(
        "fight", "fight", query, summary, attacker, target, params=params, warnings=_activation_warnings(attacker)
    )


def fight_skills(fighter) -> dict:
    """The fighter's skills a fight query takes (the roster's ``engine_skills``; ``rulebook.n18.skills``)."""
    sent = [s for s in fighter.profile.get("engine_skills", []) if s in FIGHT_SKILLS]
    return {"skills": sent} if sent else {}


def coup_de_grace_plan(params: dict, fighters: list) -> Plan:
    """A Coup de Grace (Simple): a Prone and Seriously Injured enemy within 1" goes Out of Action (2023 core
    rulebook, Fighter Actions; ``rulebook.n18.close_quarters``)."""
    attacker, target = params["fighter"], params["target"]
    query = {"target": target_query(target), "engaged_with_others": bool(params.get("engaged_with_others"))}
    warnings = _activation_warnings(attacker)
    summary = f"{attacker.name} makes a Coup de Grace on {target.name}"
    return Plan("coup-de-grace", "coup-de-grace", query, summary, attacker, target, params=params, warnings=warnings)


def home_turf(session, side: str) -> bool:
    """Whether this gang has the Home Turf Advantage: the scenario gives it to its attacker or defender (the
    campaign guide, The Trap: the defender)."""
    scenario = SCENARIOS.get(session.scenario or "")
    return bool(scenario and scenario.home_turf and scenario.home_turf == session.role(side))


def _relic_bonus(session, fighter, params) -> int:
    relic_intact = not session.facts.get("relics_defiled", {}).get(fighter.side)
    return RELIC_BONUS if params.get("near_relic") and relic_intact else 0


def test_plan(params: dict, fighters: list, session) -> Plan:
    test = params["test"]
    if test not in TESTS:
        raise ValidationError("No such test in this edition.")
    if test == "bottle":
        side = params["side"]
        mine = [f for f in fighters if f.side == side]
        query = {
            "kind": "bottle",
            "starting_crew": session.starting_crew(side) or len(mine),
            "reinforcements": max(len(mine) - session.starting_crew(side), 0),
            "seriously_injured": sum(f.condition == Condition.SERIOUSLY_INJURED for f in mine),
            "out_of_action": sum(f.out_of_action for f in mine),
            "home_turf": home_turf(session, side),
        }
        if any(IRON_WILL in f.profile.get("engine_skills", []) for f in mine if not f.is_casualty):
            query["iron_will"] = True
        return Plan("test", "test", query, f"Bottle test for {session.gang(side).name}", side=side, params=params)
    fighter = params["fighter"]
    rule, query = "test", {"kind": test}
    if test in ("nerve", "rally", "flee"):
        query.update(Cl=fighter.stats["Cl"], modifier=_relic_bonus(session, fighter, params))
        if test != "flee":
            query["friends_within_3"] = params.get("friends_within_3") or 0
        if test == "rally":
            query["home_turf"] = home_turf(session, fighter.side)
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
        query = {"kind": "ammo", "ammo": ammo_value(entry)}
        return Plan("test", "test", query, f"{fighter.name} reloads the {entry['name']}", fighter, params=params)
    elif test == "blaze":
        rule, step = "blaze", params.get("step") or "activation"
        query = {"step": step}
        if step == "activation":
            query.update(
                target=target_query(fighter),
                friends_within_1=params.get("friends_within_1") or 0,
                goes_prone=bool(params.get("goes_prone")),
            )
    elif test == "chem":
        rule, query = "chem", chem_query(fighter, params.get("chem") or "")
        words = f"{fighter.name}: {kit.CHEM_ROLLS[query['chem']]}"
        return Plan("test", rule, query, words, fighter, side=fighter.side, params=params)
    elif test == "agility":
        rule, query = "agility", {"modifier": params.get("modifier") or 0}
        if "escher" in fighter.profile.get("house_rules", []):
            query["escher"] = True
    elif test == "fall":
        rule = "fall"
        query = {
            "height": params.get("height") or 1,
            "cause": params.get("cause") or "fall",
            "target": target_query(fighter),
        }
    return Plan("test", rule, query, f"{fighter.name}: {TESTS[test]}", fighter, side=fighter.side, params=params)


def chem_query(fighter, slug: str) -> dict:
    """The ``chem`` query for a chem the fighter took before the battle: the roll to shake it off while it still
    works (Spur, Kalma, Obscura), or its roll on taking, once (Ghast, Icrotic Slime: the characteristics before the
    slime). Refused for a chem the fighter did not take, one worn off, or a roll made already."""
    if slug not in kit.CHEM_ROLLS:
        raise ValidationError("Choose the chem whose roll to make.")
    if slug not in fighter.chems_working():
        raise ValidationError(f"{fighter.name} is not under {kit.CHEM_NAMES[slug]} (not taken, or worn off).")
    if slug in kit.SHAKE_OFF:
        return {"chem": slug, "T": fighter.stats["T"]}
    if slug in (fighter.chem_state or {}).get("rolled", []):
        raise ValidationError(f"{fighter.name}'s {kit.CHEM_NAMES[slug]} roll is made already.")
    if slug == "icrotic-slime":
        return {"chem": slug, **{code: fighter.stats[code] for code in kit.ICROTIC_CHECKS}}
    return {"chem": slug}


def ammo_value(entry: dict) -> int:
    """The weapon's Ammo characteristic (4 for 4+), from its first profile that has one."""
    ammo = next((p["ammo"] for p in entry["profiles"] if p.get("ammo")), None)
    return int(str(ammo or "4+").rstrip("+"))


def profile_uses(entry: dict, query: dict) -> dict:
    """For each action one weapon profile is meant for (``"shoots"`` unless it is an Engagement range profile;
    ``"fights"`` for a pistol, a close combat weapon, or a Melee, Versatile or Sidearm profile): None when the
    rulebook resolves it, else the rulebook's reason it would refuse it."""
    try:
        profile = trading_post.read_profile(Query(dict(query)))
    except RulesInputError as exc:
        return {use: f"the rulebook cannot read its profile ({exc})" for use in ("shoots", "fights") if entry[use]}
    out = {}
    if entry["shoots"] and "E" not in (profile["long_range"], profile["short_range"]):  # E: a close combat profile
        out["shoots"] = shot.refusal(profile)
    if entry["fights"] or fighting.is_close_combat(profile):
        out["fights"] = fighting.refusal(profile)
    return out


def offered(fighter, use: str) -> Offer:
    """This edition's :func:`battles.rules.offered`."""
    return shared_offered(fighter, use, profile_uses)


def range_bands(fighter, choice: str) -> dict:
    """This edition's range bands of the chosen weapon (:func:`battles.rules.range_bands`)."""
    return shared_range_bands(fighter, choice, weapon_range_bands)
