"""The 2018+ close combat attacks of one fighter against one enemy: Attack dice, hit rolls against WS, then
each hit resolved in turn against the enemy's changing condition.

Sources: hit rolls against WS with "a 1 always misses" and the wound, save, Damage and Injury steps from the
project's content facts section 3 (N1-N3); weapon profiles from ``rulebook/data/n18/trading_post.json``;
an unarmed attack is the fighter's own Strength, AP -, Damage 1. Modelled traits: Power, Rending, Shock.
Not modelled (listed in each answer): Parry, reaction attacks, Backstab, Knockback and the other traits.
"""

from __future__ import annotations

from rulebook.dice import DiceSource, Die, Dist, certain, chain, map_dist, sum_of
from rulebook.errors import RulesInputError
from rulebook.n18 import trading_post
from rulebook.n18.resolution import (
    MISS,
    Attack,
    classify,
    fighter_json,
    hit_face_result,
    hit_needed,
    read_fighter,
    read_modifiers,
    read_save,
    resolve,
    roll_attack,
    target_number,
)
from rulebook.n18.shooting import MODELLED, not_modelled
from rulebook.output import dist, prob
from rulebook.query import Query

UNARMED = {"weapon": "Unarmed", "name": "", "strength": "S", "ap": 0, "damage": 1, "traits": ["Melee"]}
OUTCOMES = ("unharmed", "wound_lost", "flesh_wound", "seriously_injured", "out_of_action")


def read_fight(query: Query) -> tuple[Attack, int, object, dict]:
    attacker = query.sub("attacker")
    skill = target_number(attacker, "WS")
    attacks = attacker.int("A", 1, 10)
    strength = attacker.int("S", 1, 10)
    profile = trading_post.read_profile(query) if query.has("weapon") else UNARMED
    if profile.get("long_range") not in ("E", None) and "Pistol" not in trading_post.trait_names(profile):
        raise RulesInputError("weapon", f"{profile['weapon']} is not a Melee weapon or a pistol")
    target = query.sub("target")
    fighter, _ = read_fighter(target)
    attack = Attack(
        skill=skill,
        hit_modifier=read_modifiers(query),
        strength=trading_post.resolve_strength(profile["strength"], strength, "attacker.S"),
        ap=profile["ap"],
        damage=profile["damage"],
        save=read_save(target),
        traits=frozenset(trading_post.trait_names(profile) & MODELLED),
    )
    return attack, attacks, fighter, profile


def hits_distribution(attack: Attack, attacks: int) -> Dist:
    """How many of the Attack dice hit."""
    faces = tuple(int(hit_face_result(face, attack.skill, attack.hit_modifier)) for face in range(1, 7))
    return sum_of(Die("hits", faces), attacks)


def odds(query: Query) -> dict:
    attack, attacks, fighter, profile = read_fight(query)
    states: Dist = certain(fighter)
    for _ in range(attacks):
        states = chain(states, lambda f: map_dist(resolve(attack, f), lambda r: r[2]))
    outcome = dict.fromkeys(OUTCOMES, 0)
    for after, p in states.items():
        outcome["unharmed" if after == fighter else classify(fighter, after)] += p
    hits = hits_distribution(attack, attacks)
    return {
        "weapon": profile["weapon"],
        "to_hit": hit_needed(attack.skill, attack.hit_modifier),
        "attack_dice": attacks,
        **dist("hits", hits),
        **prob("p_any_hit", 1 - hits.get(0, 0)),
        **dist("outcome", outcome),
        "traits_not_modelled": not_modelled(profile),
        "assumptions": "the attacker's Attack dice only: no Parry re-rolls and no reaction attacks",
    }


def roll(query: Query, dice: DiceSource) -> dict:
    attack, attacks, fighter, profile = read_fight(query)
    before, steps = fighter, []
    for number in range(1, attacks + 1):
        if fighter.out_of_action:
            break
        step, injuries, fighter = roll_attack(attack, fighter, dice)
        steps.append({"attack": number, "result": step, "injury_dice": injuries})
    return {
        "weapon": profile["weapon"],
        "attacks": steps,
        "hits": sum(s["result"] != MISS for s in steps),
        "outcome": "unharmed" if fighter == before else classify(before, fighter),
        "target_after": fighter_json(fighter),
        "traits_not_modelled": not_modelled(profile),
    }
