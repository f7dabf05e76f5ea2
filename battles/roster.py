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
from rulebook.n18 import armour as n18_armour
from rulebook.n18 import kit
from rulebook.n18 import skills as n18_skills
from rulebook.n18 import wargear as n18_wargear
from rulebook.numbers import is_whole_number, whole_number

# The profile columns the rulebook reads when a weapon is spelled out, by edition.
CLASSIC_SPELLED = ("short_range", "long_range", "hit_short", "hit_long", "damage", "save_mod", "sustained_fire")
N18_SPELLED = ("short_range", "acc_short", "acc_long", "ap", "damage", "traits")
CLOSE_COMBAT = ("hand_to_hand", "close_combat")
NOT_APPLIED_ARMOUR = "a house-rule armour: its save is sent as a number, any other rule it has is not"
CLASSIC_SKILLS_NOT_MODELLED = "the engine models no 1995 skill: play it at the table"
CLASSIC_WARGEAR_NOT_MODELLED = "the engine models no 1995 wargear: play it at the table"
HOUSE_RULE_WARGEAR = "a house-rule item: the engine applies only the rulebook's own wargear"
# 2018+ wargear that changes a save in ways the engine does not resolve: the players roll it at the table.
SAVES_NOT_MODELLED = {
    "refractor-field": "field armour: roll its save at the table before the armour save",
    "conversion-field": "field armour: roll its save at the table before the armour save",
    "displacer-field": "field armour: roll its save at the table before the armour save",
}


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
    return snapshot_of(
        edition=fighter.gang.edition,
        fighter_type=fighter.fighter_type,
        stats=current_stats(fighter),
        purchases=list(fighter.purchases.all()),
        skills=[fs.skill.name for fs in fighter.skills.all()],
    )


def snapshot_of(*, edition: str, fighter_type, stats: dict, purchases: list, skills: list[str]) -> dict:
    """The snapshot of a fighter of ``fighter_type`` carrying the equipment of ``purchases`` (each with ``pk`` and
    ``equipment``): its weapons, its armour as the rules read it (:func:`armour_entry`), its wargear likewise
    (:func:`wargear_entry`), and the house rules that change a roll the rulebook resolves. 2018+: ``engine_skills``,
    the skills the engine models (sent in the queries they change: ``rulebook.n18.skills``), every other skill in
    ``not_applied`` with the reason, and ``group_activation``, how many friends the fighter may bring in a Group
    Activation. Classic: the engine models no skill, so each is in ``not_applied``."""
    carried = {p.equipment.slug for p in purchases if p.equipment.kind == EquipmentKind.WEAPON}
    weapons = [
        weapon_entry(edition, purchase)
        for purchase in purchases
        if purchase.equipment.kind == EquipmentKind.WEAPON
        and purchase.equipment.profiles.all()
        # Special ammunition is fired from its weapon: without one it stays out of the Shoot menu.
        and (not purchase.equipment.fits or carried & set(purchase.equipment.fits))
    ]
    out = {"type": fighter_type.name, "category": fighter_type.category, "group_activation": 0}
    # One dose of each chem carried is taken before the battle (a second dose of it waits for another battle);
    # Stinger Mould is kept for after a Lasting Injury roll.
    carried_chems = {p.equipment.slug: p.equipment for p in purchases if p.equipment.category == EquipmentCategory.CHEM}
    chems = [item for slug, item in carried_chems.items() if kit.taken_before_battle(slug)]
    chem_not_applied = [
        {"name": item.name, "reason": kit.CHEMS[slug].not_modelled}
        for slug, item in carried_chems.items()
        if slug in kit.CHEMS and kit.CHEMS[slug].not_modelled
    ]
    if chems:
        # A chem the fighter carries is taken before the battle begins: for this battle its effect is in the stat
        # line every query reads; ``base`` and ``slugs`` let it wear off (BattleFighter.stats).
        slugs = [c.slug for c in chems]
        base = dict(stats)
        stats, given, notes = kit.under_chems(stats, slugs)
        skills = skills + [s for s in given if s not in skills]
        out["chems"] = {
            "taken": [c.name for c in chems],
            "slugs": slugs,
            "base": base,
            "notes": notes,
            "side_effects": kit.side_effects(slugs),
        }
    armour = armour_entry(edition, [p.equipment for p in purchases])
    carried_wargear = wargear_entry(edition, [p.equipment for p in purchases])
    armour["not_applied"] += carried_wargear["not_applied"] + chem_not_applied
    if edition == Edition.N18:
        out["group_activation"] = n18_skills.group_activation(fighter_type.special_rules or [], skills)
        out["engine_skills"] = [s for s in skills if s in n18_skills.MODELLED]
        armour["not_applied"] += [
            {"name": s, "reason": n18_skills.NOT_MODELLED} for s in n18_skills.not_modelled(skills)
        ]
    else:
        armour["not_applied"] += [{"name": s, "reason": CLASSIC_SKILLS_NOT_MODELLED} for s in skills]
    return out | {
        "stats": stats,
        "weapons": weapons,
        **armour,
        "house_rules": house_rules(edition, fighter_type),
        "skills": skills,
        "wargear": carried_wargear["wargear"],
    }


def house_rules(edition: str, fighter_type) -> list[str]:
    """The house rules of this fighter that the rulebook applies: ``escher`` (+1 to Agility tests for every Escher
    fighter, the movement chapter's Agility tests; fighters of House Escher's own list, not hangers-on)."""
    return ["escher"] if edition == Edition.N18 and fighter_type.house.slug == "escher" else []


def armour_entry(edition: str, equipment: list) -> dict:
    """What the fighter wears, as the rules read it.

    ``save`` and ``armour`` (its name) are the best suit's save, as shown on the card. 2018+: ``worn`` holds every
    item the rulebook's armour rules know (a suit, an armoured undersuit, a shield: ``rulebook.n18.armour``), sent to
    the engine by name so flak's 5+ against Blasts, an undersuit's +1 and a shield count; ``not_applied`` names, with
    the reason, what the fighter wears that the engine does not take. Classic armour is one suit (the best save)."""
    save, name, worn, not_applied = None, "", [], []
    for item in equipment:
        if item.kind == EquipmentKind.ARMOUR and item.armour_save and (save or 7) > item.armour_save:
            # The best suit's save is the card's: saves are never combined.
            save, name = item.armour_save, item.name
    if edition == Edition.N18:
        for item in equipment:
            if n18_armour.is_known(item.slug) and item.is_official:
                worn.append(item.slug)
            elif item.kind == EquipmentKind.ARMOUR:
                not_applied.append({"name": item.name, "reason": NOT_APPLIED_ARMOUR})
            elif item.slug in SAVES_NOT_MODELLED:
                not_applied.append({"name": item.name, "reason": SAVES_NOT_MODELLED[item.slug]})
        suits = [n18_armour.find(slug, "armour") for slug in worn if n18_armour.find(slug, "armour").is_suit]
        # One suit at a time (the Armour page): the best one counts, the others do not.
        for item in sorted(suits, key=lambda suit: suit.save)[1:]:
            worn.remove(item.slug)
            not_applied.append({"name": item.name, "reason": "one suit of armour at a time: the best one counts"})
    return {"save": save, "armour": name, "worn": worn, "not_applied": not_applied}


def wargear_entry(edition: str, equipment: list) -> dict:
    """The fighter's wargear as the rules read it, other than armour (:func:`armour_entry`), chems (taken before the
    battle, in the stat line) and bionics (their restored characteristic is in the stat line).

    2018+: ``wargear`` names the items the engine applies (``rulebook.n18.wargear``: a respirator, filter plugs or an
    industrial respirator against Gas, photo-goggles against Flash), sent in the Shoot queries they change;
    ``not_applied`` lists every other item, and what a sent item does beyond that roll, with the reason. Classic:
    the engine models no wargear, so each item is in ``not_applied``."""
    sent, not_applied = [], []
    for item in {item.slug: item for item in equipment if _is_plain_wargear(edition, item)}.values():
        if edition == Edition.CLASSIC:
            reason = CLASSIC_WARGEAR_NOT_MODELLED
        elif not item.is_official:
            reason = HOUSE_RULE_WARGEAR
        else:
            if n18_wargear.is_modelled(item.slug):
                sent.append(item.slug)
            reason = n18_wargear.not_applied(item.slug, item.category)
        if reason:
            not_applied.append({"name": item.name, "reason": reason})
    return {"wargear": sent, "not_applied": not_applied}


def _is_plain_wargear(edition: str, item) -> bool:
    """Wargear that neither :func:`armour_entry` reads (2018+: what changes a save) nor the stat line holds (chems,
    2018+ bionics)."""
    if item.kind != EquipmentKind.WARGEAR or item.category == EquipmentCategory.CHEM:
        return False
    if edition == Edition.N18:
        armour = n18_armour.is_known(item.slug) and item.is_official
        return not (armour or item.slug in SAVES_NOT_MODELLED or item.category == EquipmentCategory.BIONIC)
    return True
