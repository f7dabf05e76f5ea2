"""A roster entry as it goes into battle: stat line, weapons with their profiles, armour save and skills.

Taken once when the battle starts and stored on the :class:`battles.models.BattleFighter`, so every rules
query of the battle reads the fighter as the players saved them, and the battle page needs no query per
fighter. A weapon names itself to the rulebook the way the command line does: by its content slug and
profile name when it is official content (the rulebook holds the same record), or spelled out from the
saved profile when it is a house rule.
"""

from __future__ import annotations

from content.models import Edition, EquipmentCategory, EquipmentKind
from gangs.models import Fighter
from gangs.stats import current_stats
from rulebook.errors import RulesInputError
from rulebook.n18 import kit
from rulebook.numbers import is_whole_number, whole_number

# The profile columns the rulebook reads when a weapon is spelled out, by edition.
CLASSIC_SPELLED = ("short_range", "long_range", "hit_short", "hit_long", "damage", "save_mod", "sustained_fire")
N18_SPELLED = ("short_range", "acc_short", "acc_long", "ap", "damage", "traits")
CLOSE_COMBAT = ("hand_to_hand", "close_combat")


def fighter_prefetch() -> tuple[str, ...]:
    """What :func:`snapshot` reads, for the caller's ``prefetch_related``."""
    return ("stat_changes", "skills__skill", "purchases__equipment__profiles")


def _int_or_text(value: str):
    value = (value or "").strip()
    return whole_number(value) if is_whole_number(value) else value or None


def _spelled_out(edition: str, equipment, profile) -> dict:
    """A house-rule weapon profile written out in the rulebook's query format."""
    if edition == Edition.CLASSIC:
        out = {field: getattr(profile, field) for field in CLASSIC_SPELLED}
        out.update(
            name=equipment.name,
            strength=_int_or_text(profile.strength),
            ammo_roll=profile.ammo or None,
            template=profile.template or None,
            grenade=equipment.category == "grenade",
            parry="Parry" in (profile.special_rules or []) + (equipment.special_rules or []),
        )
        return {k: v for k, v in out.items() if v is not None}
    out = {field: getattr(profile, field) for field in N18_SPELLED}
    out.update(
        name=equipment.name,
        long_range=profile.range_code or profile.long_range,
        strength=_int_or_text(profile.strength),
        damage=_int_or_text(profile.damage),
        ammo=profile.ammo or None,
    )
    if profile.range_code == "E" and profile.long_range:
        # A Versatile weapon: "E" under short range and its reach in inches under long (content.printed).
        out.update(short_range="E", long_range=profile.long_range)
    return {k: v for k, v in out.items() if v is not None}


def _rulebook_knows(edition: str, slug: str, profile_name: str) -> bool:
    """Whether the rulebook's own data holds this weapon and profile (official content that it has)."""
    from rulebook.classic import armoury
    from rulebook.n18 import trading_post

    try:
        if edition == Edition.CLASSIC:
            armoury.weapon(slug).profile(profile_name or None)
        else:
            trading_post.profile(trading_post.weapon(slug), profile_name or None)
    except RulesInputError:
        return False
    return True


def weapon_entry(edition: str, purchase) -> dict:
    equipment = purchase.equipment
    profiles = []
    for profile in equipment.profiles.all():
        if equipment.is_official and _rulebook_knows(edition, equipment.slug, profile.name):
            query = {"weapon": equipment.slug, **({"profile": profile.name} if profile.name else {})}
        else:
            query = {"weapon": _spelled_out(edition, equipment, profile)}
        profiles.append({"name": profile.name, "query": query, "ammo": profile.ammo or None})
    return {
        "key": f"p{purchase.pk}",
        "name": equipment.name,
        "slug": equipment.slug,
        "category": equipment.category,
        "shoots": equipment.category not in CLOSE_COMBAT,
        "fights": equipment.category in (*CLOSE_COMBAT, "pistol"),
        "profiles": profiles,
    }


def snapshot(fighter: Fighter) -> dict:
    """Everything the battle needs to know about a fighter, as JSON."""
    edition = fighter.gang.edition
    weapons, save, armour, chems = [], None, "", []
    for purchase in fighter.purchases.all():
        equipment = purchase.equipment
        if equipment.category == EquipmentCategory.CHEM:
            chems.append(equipment)  # a chem the fighter carries is taken before the battle begins
        elif equipment.kind == EquipmentKind.WEAPON and equipment.profiles.all():
            weapons.append(weapon_entry(edition, purchase))
        elif equipment.kind == EquipmentKind.ARMOUR and equipment.armour_save and (save or 7) > equipment.armour_save:
            # The best armour counts: saves are never combined.
            save, armour = equipment.armour_save, equipment.name
    stats, skills = current_stats(fighter), [fs.skill.name for fs in fighter.skills.all()]
    out = {"type": fighter.fighter_type.name, "category": fighter.fighter_type.category}
    if chems:
        # For this battle the fighter is under its chems: their effect is in the stat line every query reads.
        stats, given, notes = kit.under_chems(stats, [c.slug for c in chems])
        skills += [s for s in given if s not in skills]
        out["chems"] = {"taken": [c.name for c in chems], "notes": notes}
    return out | {"stats": stats, "weapons": weapons, "save": save, "armour": armour, "skills": skills}
