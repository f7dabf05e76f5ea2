"""The 2018+ Shoot action against one fighter: range, the hit roll and its modifiers, then the hit resolved.

Sources: hit modifiers, the improbable shot and the Firepower dice's Ammo symbol from the project's content
facts section 3 (N1-N3); the Ammo symbol showing on one face in six and the Ammo test (a D6 below the Ammo
value fails) from goonhammer.com "Hammer of Math: Necromunda Ammo Checks"; weapon profiles from
``rulebook/data/n18/trading_post.json``.

Modelled: accuracy at short and long range, cover (partial -1, full -2), a Standing and Engaged target -1,
a Prone target at long range -1, other modifiers as numbers, template weapons hitting without a roll, the
Power, Rending, Shock and Melta traits. Not modelled (listed in each answer): extra hits from Rapid Fire,
Scattershot's extra wound rolls, other fighters under a Blast marker, and the other traits.
"""

from __future__ import annotations

from fractions import Fraction

from rulebook.dice import D6, DiceSource, map_dist, probability
from rulebook.errors import RulesInputError
from rulebook.n18 import trading_post
from rulebook.n18.resolution import (
    MISS,
    Attack,
    classify,
    fighter_json,
    hit_needed,
    read_fighter,
    read_modifiers,
    read_save,
    resolve,
    roll_attack,
    target_number,
)
from rulebook.output import dist, prob
from rulebook.query import Query

COVER = {"none": 0, "partial": -1, "full": -2}
MODELLED = {"Power", "Rending", "Shock", "Melta", "Template"}
NOT_MODELLED = {
    "Rapid Fire", "Scattershot", "Blast", "Knockback", "Blaze", "Toxin", "Gas", "Flash", "Smoke",
    "Unstable", "Pulverise", "Pulverize", "Disarm", "Backstab", "Parry", "Versatile", "Demolitions",
}  # fmt: skip
OUTCOMES = ("miss", "no_wound", "saved", "wound_lost", "flesh_wound", "seriously_injured", "out_of_action")
AMMO_SYMBOL = Fraction(1, 6)


def not_modelled(profile: dict) -> list:
    return sorted(trading_post.trait_names(profile) & NOT_MODELLED)


def read_shot(query: Query) -> tuple[Attack, dict, object, dict]:
    """Turn a shoot query into an :class:`Attack`, the range facts, the target and the profile."""
    shooter = query.sub("shooter")
    skill = target_number(shooter, "BS")
    user_strength = shooter.int("S", 1, 10, default=None)
    profile = trading_post.read_profile(query)
    if profile["long_range"] == "E":
        raise RulesInputError("weapon", f"{profile['weapon']} is a close combat weapon; use the fight action")
    if profile["strength"] is None or profile["damage"] is None:
        raise RulesInputError("weapon", f"{profile['weapon']} does not wound: its effect is a trait, not a hit")
    target = query.sub("target")
    fighter, state = read_fighter(target)
    save = read_save(target)
    distance = query.number("distance", 0, 200)
    cover = query.choice("cover", COVER, default="none")
    extra = read_modifiers(query)
    facts = _range_band(profile, distance, user_strength)
    template = facts["band"] == "template"
    modifier = COVER[cover] + extra
    if not template and facts["band"] != "out_of_range":
        modifier += profile["acc_short" if facts["band"] == "short" else "acc_long"] or 0
        if state == "engaged":
            modifier -= 1
        if state in ("prone", "seriously_injured") and facts["band"] == "long":
            modifier -= 1
    traits = trading_post.trait_names(profile)
    attack = Attack(
        skill=None if template else skill,
        hit_modifier=modifier,
        strength=trading_post.resolve_strength(profile["strength"], user_strength, "shooter.S"),
        ap=profile["ap"],
        damage=profile["damage"],
        save=save,
        traits=frozenset(traits & MODELLED),
        melta="Melta" in traits and facts["band"] == "short",
    )
    return attack, facts, fighter, profile


def _range_band(profile: dict, distance: float, user_strength: int | None) -> dict:
    long_range = profile["long_range"]
    if long_range == "T":
        return {"band": "template", "short_range": None, "long_range": None}
    if long_range in trading_post.GRENADE_RANGES:
        if user_strength is None:
            raise RulesInputError("shooter.S", f"a thrown weapon's range is {long_range}: give the thrower's S")
        long_range = user_strength * trading_post.GRENADE_RANGES[long_range]
    short = profile["short_range"]
    if distance > long_range:
        band = "out_of_range"
    elif short is not None and distance <= short:
        band = "short"
    else:
        band = "long"
    return {"band": band, "short_range": short, "long_range": long_range}


def _ammo(profile: dict) -> dict:
    if profile["ammo"] is None:
        return {**prob("p_ammo_check", Fraction(0)), **prob("p_out_of_ammo", Fraction(0))}
    fail = Fraction(int(profile["ammo"][:-1]) - 1, 6)
    return {**prob("p_ammo_check", AMMO_SYMBOL), **prob("p_out_of_ammo", AMMO_SYMBOL * fail)}


def odds(query: Query) -> dict:
    attack, facts, fighter, profile = read_shot(query)
    if facts["band"] == "out_of_range":
        results = {(MISS, 0, fighter): Fraction(1)}
        to_hit = {"needed": None, "then": None, "modifier": attack.hit_modifier}
    else:
        results = resolve(attack, fighter)
        to_hit = {"needed": None, "then": None, "modifier": 0} if attack.skill is None else None
        to_hit = to_hit or hit_needed(attack.skill, attack.hit_modifier)
    outcome = {name: Fraction(0) for name in OUTCOMES}
    for (step, _, after), p in results.items():
        outcome[step if step != "unsaved" else classify(fighter, after)] += p
    return {
        "weapon": profile["weapon"],
        "profile": profile.get("name", ""),
        "range": facts,
        "to_hit": {**to_hit, "template": attack.skill is None},
        **prob("p_hit", probability(results, lambda r: r[0] != MISS)),
        **prob("p_wound", probability(results, lambda r: r[0] in ("saved", "unsaved"))),
        **prob("p_unsaved", probability(results, lambda r: r[0] == "unsaved")),
        **dist("outcome", outcome),
        **dist("injury_dice", map_dist(results, lambda r: r[1])),
        **_ammo(profile),
        "traits_not_modelled": not_modelled(profile),
        "assumptions": "one Firepower dice (no extra Rapid Fire hits); the Ammo symbol shows on one face in six",
    }


def roll(query: Query, dice: DiceSource) -> dict:
    attack, facts, fighter, profile = read_shot(query)
    if facts["band"] == "out_of_range":
        step, injuries, after = MISS, 0, fighter
    else:
        step, injuries, after = roll_attack(attack, fighter, dice)
    ammo = None
    # The Firepower dice is read as a D6 whose 6 stands for the Ammo symbol (one face in six).
    if profile["ammo"] is not None and dice.roll(D6, "Firepower dice (6 stands for the Ammo symbol)") == 6:
        passed = dice.d6(f"Ammo test (needs {profile['ammo']})") >= int(profile["ammo"][:-1])
        ammo = "passed" if passed else "out_of_ammo"
    return {
        "weapon": profile["weapon"],
        "range": facts,
        "result": step,
        "outcome": step if step != "unsaved" else classify(fighter, after),
        "injury_dice": injuries,
        "ammo_test": ammo,
        "target_after": fighter_json(after),
        "traits_not_modelled": not_modelled(profile),
    }
