"""The 2018+ Trading Post: common weapons, armour, grenades and wargear, read from
``rulebook/data/n18/trading_post.json``.

The file's ``sources`` map names where each record's numbers come from (BSData necromunda-gang-war for
profiles and rarity, gyrinx content for list prices). Look-ups accept a slug (``plasma-pistol``) or a
name in any case (``Plasma pistol``), and a profile by its name (``maximal power``).

What a fighter hired with a Rarity allowance takes from the Trading Post (:func:`hire_allowance`) follows the
necrovox gang pages in yakuzadave/necroman_v2 (``necrovox_docs/gang-docs/gang-lists/venators.md``: "When hired,
choose Common and Rare equipment up to Rarity value 11" for a Hunt Leader, 10 for a Champion, 8 for a Hunter, whose
weapons are Basic, Pistol and Close Combat; ``outcasts/outcasts.md``: "Choose any Common and Rare equipment up to
Rare (9)" for an Outcast Leader, 8 for a Champion) and the 2023 Armoury's Status Items page
(``necrovox_docs/Necromunda_Docs/12-armoury/19-status-items.md``): Extravagant Goods and servo-skulls go only to
Leaders, Champions and fighters with Gang Hierarchy, each Exotic Beast is "available to any Gang Leader or
Champion", and grenades are Wargear, not weapons.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Iterable, Mapping
from functools import cache
from pathlib import Path

from rulebook.errors import RulesInputError
from rulebook.n18.campaign.trading import availability
from rulebook.numbers import is_whole_number, whole_number

DATA = Path(__file__).resolve().parent.parent / "data" / "n18" / "trading_post.json"
KINDS = ("weapons", "armour", "wargear")


@cache
def data() -> dict:
    with DATA.open(encoding="utf-8") as fh:
        return json.load(fh)


def _key(text: str) -> str:
    return " ".join(text.lower().replace("-", " ").replace("_", " ").split())


@cache
def _index(kind: str) -> dict:
    index = {}
    for item in data()[kind]:
        index[_key(item["slug"])] = item
        index[_key(item["name"])] = item
        # "flak" for "Flak armour": players name armour without the word
        index.setdefault(_key(item["name"]).removesuffix(" armour"), item)
    return index


def find(kind: str, name: str, field: str = "name") -> dict:
    """The record of ``kind`` (weapons, armour, wargear) whose slug or name is ``name``."""
    item = _index(kind).get(_key(name))
    if item is None:
        known = ", ".join(sorted(i["slug"] for i in data()[kind]))
        raise RulesInputError(field, f"unknown {kind[:-1] if kind != 'armour' else kind} {name!r}; known: {known}")
    return item


def weapon(name: str, field: str = "weapon") -> dict:
    return find("weapons", name, field)


def profile(item: dict, name: str | None, field: str = "profile") -> dict:
    """One profile of a weapon: the only one, or the one named (``"krak"``, ``"low power"``)."""
    profiles = item["profiles"]
    if name is None:
        if len(profiles) > 1:
            names = ", ".join(p["name"] for p in profiles)
            raise RulesInputError(field, f"{item['name']} has several profiles; choose one of: {names}")
        return profiles[0]
    for candidate in profiles:
        if _key(candidate["name"]) == _key(name):
            return candidate
    names = ", ".join(repr(p["name"]) for p in profiles)
    raise RulesInputError(field, f"{item['name']} has no profile {name!r}; its profiles: {names}")


# --- a weapon profile in a query: a Trading Post name, or the profile written out --------------

RANGE_WORDS = ("E", "T")
# Thrown ranges, a multiple of the thrower's Strength (throwing knives reach Sx2 short and Sx4 long)
GRENADE_RANGES = {"Sx2": 2, "Sx3": 3, "Sx4": 4}


def read_profile(query, field: str = "weapon", profile_field: str = "profile") -> dict:
    """The weapon profile a query names (``"lasgun"``) or spells out (an object in the n18 profile format)."""
    raw = query.raw(field)
    if isinstance(raw, str):
        item = weapon(raw, field)
        return profile(item, query.raw(profile_field, None), profile_field) | {"weapon": item["name"]}
    spec = query.sub(field)
    out = {
        "weapon": spec.str("name", default="(profile given)"),
        "short_range": _range(spec, "short_range", required=False),
        "long_range": _range(spec, "long_range", required=True),
        "acc_short": spec.int("acc_short", -3, 3, default=None),
        "acc_long": spec.int("acc_long", -3, 3, default=None),
        "strength": _strength(spec),
        "ap": spec.int("ap", -6, 1, default=0),  # +1: the 2023 maul's AP helps the save
        "damage": _damage(spec),
        "ammo": _ammo(spec),
        "traits": _traits(spec),
    }
    versatile = out["short_range"] == "E" and "Versatile" in trait_names(out)
    if isinstance(out["long_range"], int) and not isinstance(out["short_range"], (int, type(None))) and not versatile:
        raise RulesInputError(
            spec.field("short_range"),
            'must be inches (or null) when the long range is inches, or "E" for a Versatile weapon\'s reach',
        )
    return out


def reach(profile: dict) -> int:
    """How far a Versatile weapon reaches in close combat: printed "E" under Short range and its reach in inches
    under Long range (2023 core rulebook, Weapon Traits: Versatile, necrovox copy in yakuzadave/necroman_v2,
    ``necrovox_docs/Necromunda_Docs/3-gang-fighters-and-their-weaponry/6-weapon-traits.md``); 0 for any other
    weapon, which fights in base contact."""
    long_range = profile["long_range"]
    if profile.get("short_range") == "E" and isinstance(long_range, int) and "Versatile" in trait_names(profile):
        return long_range
    return 0


def _range(spec, name: str, required: bool):
    """Inches, or a word: ``E`` (close combat), ``T`` (template), ``Sx2``/``Sx3`` (thrown)."""
    raw = spec.raw(name) if required else spec.raw(name, None)
    if raw is None and not required:
        return None
    if isinstance(raw, str) and (raw in RANGE_WORDS or raw in GRENADE_RANGES):
        return raw
    return spec.int(name, 0, 120)


# A profile cell printed "-" has no value: Gas and Toxin weapons print their Strength and Damage so (the gang
# lists' weapons keep the dash; the Trading Post's own records store null).
PRINTED_NONE = "-"


def _strength(spec):
    raw = spec.raw("strength", None)
    if raw == PRINTED_NONE:
        return None
    if raw is None or isinstance(raw, int) and not isinstance(raw, bool):
        return spec.int("strength", 1, 12, default=None)
    if isinstance(raw, str) and (raw == "S" or raw.startswith("S+") and is_whole_number(raw[2:])):
        return raw
    raise RulesInputError(spec.field("strength"), f"must be a number or 'S', 'S+1'...; got {raw!r}")


def _damage(spec):
    raw = spec.raw("damage", 1)
    if raw == PRINTED_NONE:
        return None
    if raw in ("D3", "D6") or raw is None:
        return raw
    return spec.int("damage", 1, 10, default=1)


def _ammo(spec):
    raw = spec.raw("ammo", None)
    if raw is None:
        return None
    text = str(raw).strip().rstrip("+")
    if whole_number(text) is None or not 2 <= int(text) <= 6:
        raise RulesInputError(spec.field("ammo"), f"must be an Ammo value 2+ to 6+, or null; got {raw!r}")
    return f"{text}+"


def _traits(spec) -> list:
    raw = spec.raw("traits", [])
    if not isinstance(raw, list) or not all(isinstance(t, str) for t in raw):
        raise RulesInputError(spec.field("traits"), "must be a list of trait names")
    return raw


def trait_names(profile: dict) -> set:
    """Trait names without their values: ``Rapid Fire (1)`` → ``Rapid Fire``."""
    return {t.split("(")[0].strip() for t in profile["traits"]}


def trait_value(profile: dict, name: str, most: int) -> int:
    """The number of a trait such as ``Rapid Fire (2)`` (0 when the profile lacks it), at most ``most``."""
    for trait in profile["traits"]:
        if trait.split("(")[0].strip() == name:
            text = trait.partition("(")[2].rstrip(")").strip()
            if whole_number(text) is None or not 1 <= int(text) <= most:
                raise RulesInputError("weapon.traits", f"{trait!r} needs a whole number from 1 to {most}")
            return int(text)
    return 0


# Traits whose effect takes the place of the hit's wound (rules.json words each): the Shoot action resolves them
# (``rulebook.n18.shooting``), a fight does not.
EFFECT_TRAITS = ("Graviton Pulse", "Web", "Smoke", "Flash")


def unresolved_effect(profile: dict, poisons: set, resolved: frozenset = frozenset()) -> str | None:
    """Why the assistant cannot resolve this profile's attack, or None: a trait in :data:`EFFECT_TRAITS` that is
    not ``resolved`` decides what it does, or it lacks a Strength or Damage without one of the ``poisons`` (Gas,
    Toxin, or an effect that needs neither: the traits the action resolves without them). The Shoot and Fight
    actions refuse such a profile with these words, and the battle assistant shows them where it leaves the
    profile out."""
    traits = trait_names(profile)
    effects = [t for t in EFFECT_TRAITS if t in traits and t not in resolved]
    if effects:
        rules = " and ".join(effects)
        verb = "rules are" if len(effects) > 1 else "rule is"
        return f"its {rules} {verb} not resolved by the assistant yet; roll it at the table"
    missing = [name.title() for name in ("strength", "damage") if profile[name] is None]
    if missing and not traits & poisons:
        return f"its profile has no {' or '.join(missing)}, so there is no hit to resolve; roll it at the table"
    return None


def unmodelled(profile: dict, modelled: frozenset) -> list:
    """The profile's traits that the answer does not work into its odds, to be listed beside them."""
    return sorted(trait_names(profile) - modelled)


def resolve_strength(value, user_strength: int | None, field: str) -> int:
    """A profile's Strength as a number: ``S+1`` needs the user's Strength; none (Gas, Toxin) is 0."""
    if value is None:
        return 0
    if isinstance(value, int):
        return value
    if user_strength is None:
        raise RulesInputError(field, f"the weapon's Strength is {value!r}: give the fighter's S")
    return user_strength + (int(value[2:]) if value.startswith("S+") else 0)


# --- what a fighter hired with a Rarity allowance takes from the Trading Post ------------------------------------

# The weapon categories a fighter's weapon restriction speaks of ("Basic, Pistol & Close Combat weapons"): grenades
# are Wargear, and special ammunition goes with the weapon it is fired from.
RESTRICTED_WEAPONS = frozenset({"pistol", "basic", "special", "heavy", "close_combat"})
# Kinds sold only to Leaders, Champions and fighters with Gang Hierarchy: status items and Exotic Beasts.
HIERARCHY_ONLY = frozenset({"status", "exotic_beast"})


def hire_allowance(
    items: Iterable[Mapping], *, up_to: int, weapon_categories: Collection[str], hierarchy: bool
) -> list[str]:
    """The slugs of the Trading Post items a fighter may take when hired with "Common and Rare equipment up to
    Rarity ``up_to``" (Venators, Underhive Outcast Leaders and Champions), in the order of ``items``.

    ``items`` are mappings with ``slug``, ``kind`` (weapon, armour, wargear), ``category``, ``rarity`` as the data
    writes it (``Common``, ``R9``, ``I8``), ``cost`` and ``fits`` (the weapons a special ammunition is fired from).
    Taken: every Common item and every Rare one up to the allowance, but no Illegal one and none the Trading Post
    does not sell (no price or no availability); weapons only of the fighter's ``weapon_categories``; status items
    and Exotic Beasts only for a Leader or Champion (``hierarchy``); special ammunition only for a weapon taken here.
    """

    def allowed(item: Mapping) -> bool:
        if item["cost"] is None:
            return False
        try:
            kind, level = availability(item["rarity"])
        except RulesInputError:
            return False  # no availability: an item of a list, not of the Trading Post
        return kind == "common" or (kind == "rare" and level <= up_to)

    offered = [item for item in items if allowed(item)]
    taken = {
        item["slug"]
        for item in offered
        if (
            item["kind"] != "weapon"
            or item["category"] not in RESTRICTED_WEAPONS
            or item["category"] in weapon_categories
        )
        and (item["category"] not in HIERARCHY_ONLY or hierarchy)
        and not item["fits"]
    }
    return [item["slug"] for item in offered if item["slug"] in taken or set(item["fits"]) & taken]
