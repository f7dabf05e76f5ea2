"""Ammo rolls and exploding weapons (1995 rulebook, Shooting: "Ammo Rolls", "Ammo Jams", "Flamers",
"Grenades", "Out of Range"; Advanced Rules: "Exploding Weapons").

When an Ammo roll is due (a 6 on the to-hit die, each Jam on a Sustained Fire dice, every shot
of a flamer) the weapon's rating is rolled on a D6; less fails and the weapon is useless for the
rest of the game. A rating of ``auto`` (grenades, missiles) fails without a roll. An Ammo die of
1 may also make the weapon explode: roll another D6, and it explodes below the rating; an
``auto`` weapon rolls that die anyway and explodes on a 1. The explosion is a hit on the firer
with the weapon's Strength less 1, no template.
"""

from __future__ import annotations

from fractions import Fraction

from rulebook.classic.armoury import Profile


def fail_chance(profile: Profile) -> Fraction:
    """Chance that one Ammo roll fails."""
    if profile.ammo_roll == "auto":
        return Fraction(1)
    return Fraction(profile.ammo_target - 1, 6)


def explode_chance(profile: Profile) -> Fraction:
    """Chance that one Ammo roll ends in an explosion."""
    if profile.ammo_roll == "auto":
        return Fraction(1, 6)
    return Fraction(1, 6) * Fraction(profile.ammo_target - 1, 6)


def ammo_odds(profile: Profile, rolls: dict) -> dict:
    """Chances of an Ammo roll, a failure and an explosion, given the distribution of rolls due."""
    if profile.ammo_roll is None:
        return {"p_ammo_roll": Fraction(0), "p_weapon_fails": Fraction(1 if profile.one_shot else 0), "p_explodes": 0}
    fail, explode = fail_chance(profile), explode_chance(profile)
    return {
        "p_ammo_roll": sum((p for n, p in rolls.items() if n), Fraction(0)),
        "p_weapon_fails": 1 - sum(p * (1 - fail) ** n for n, p in rolls.items()),
        "p_explodes": 1 - sum(p * (1 - explode) ** n for n, p in rolls.items()),
    }


def ammo_roll(profile: Profile, dice, why: str) -> dict:
    """One Ammo roll on ``dice``: what was rolled, whether the weapon fails and whether it explodes."""
    step = {"step": "ammo roll", "why": why, "rating": profile.ammo_roll}
    if profile.ammo_roll == "auto":
        step["failed"] = True
        roll = dice.d6(f"explosion check ({why}; auto weapon explodes on a 1)")
        step["explosion_roll"] = roll
        step["exploded"] = roll == 1
        return step
    roll = dice.d6(f"ammo roll ({why}; needs {profile.ammo_roll})")
    step["roll"] = roll
    step["failed"] = roll < profile.ammo_target
    step["exploded"] = False
    if roll == 1:
        check = dice.d6(f"explosion check (explodes below {profile.ammo_target})")
        step["explosion_roll"] = check
        step["exploded"] = check < profile.ammo_target
    return step
