"""The classic Armoury: weapon profiles, armour and wargear read from ``rulebook/data/classic/armoury.json``.

The data file follows the team's content format (see its ``sources`` and ``notes``); numbers come
from public references of the Living Rulebook (BSData necromunda, Hivemind.NET), recorded per
record. This module only reads it: :func:`weapon` looks a weapon up by slug or name
(``"laspistol"``, ``"Heavy bolter"``, ``"heavy-bolter"``), and :meth:`Weapon.profile` picks a
named profile (``"maximum power"``, ``"frag"``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources

from rulebook.errors import RulesInputError

CATEGORIES = ("pistol", "basic", "special", "heavy", "hand_to_hand", "grenade")
TEMPLATES = (None, "blast", "flamer")


@dataclass(frozen=True)
class Profile:
    """One way of firing or striking with a weapon (1995 rulebook, Armoury profile columns).

    ``strength`` is an int, or ``"user"``/``"user+1"``/``"user+2"`` for blows struck with the
    fighter's own Strength, or ``None`` for weapons that do not wound (web, gas, smoke).
    """

    name: str = ""
    short_range: int | None = None
    long_range: int | None = None
    hit_short: int = 0
    hit_long: int = 0
    strength: int | str | None = None
    damage: str | None = "1"
    save_mod: int = 0
    ammo_roll: str | None = None
    template: str | None = None
    sustained_fire: int = 0
    special_rules: tuple = ()

    @property
    def ammo_target(self) -> int | None:
        """The D6 score an Ammo roll needs (``"4+"`` → 4); ``None`` for none or ``"auto"``."""
        if self.ammo_roll in (None, "auto"):
            return None
        return int(self.ammo_roll.rstrip("+"))

    @property
    def one_shot(self) -> bool:
        return "One shot" in self.special_rules


@dataclass(frozen=True)
class Weapon:
    slug: str
    name: str
    category: str
    cost: int | None
    profiles: tuple[Profile, ...]
    special_rules: tuple = ()
    rarity: str | None = None
    rare_cost: str | None = None
    sources: tuple = ()
    notes: str | None = None

    @property
    def is_grenade(self) -> bool:
        return self.category == "grenade"

    def profile(self, name: str | None = None, field: str = "profile") -> Profile:
        """The named profile; with no name, the only one (a weapon with several needs a name)."""
        if name is None:
            if len(self.profiles) == 1:
                return self.profiles[0]
            names = ", ".join(p.name for p in self.profiles)
            raise RulesInputError(field, f"{self.name} has several profiles; choose one of: {names}")
        wanted = name.strip().lower()
        for p in self.profiles:
            if p.name.lower() == wanted:
                return p
        names = ", ".join(repr(p.name) for p in self.profiles)
        raise RulesInputError(field, f"{self.name} has no profile {name!r}; it has {names}")


def _profile(record: dict) -> Profile:
    fields = dict(record)
    fields["special_rules"] = tuple(fields.get("special_rules", ()))
    return Profile(**fields)


def _weapon(record: dict) -> Weapon:
    return Weapon(
        slug=record["slug"],
        name=record["name"],
        category=record["category"],
        cost=record.get("cost"),
        profiles=tuple(_profile(p) for p in record["profiles"]),
        special_rules=tuple(record.get("special_rules", ())),
        rarity=record.get("rarity"),
        rare_cost=record.get("rare_cost"),
        sources=tuple(record["sources"]),
        notes=record.get("notes"),
    )


@cache
def data() -> dict:
    """The raw armoury document."""
    text = resources.files("rulebook").joinpath("data/classic/armoury.json").read_text(encoding="utf-8")
    return json.loads(text)


def _key(text: str) -> str:
    return " ".join(text.lower().replace("-", " ").replace("_", " ").split())


@cache
def weapons() -> dict[str, Weapon]:
    return {record["slug"]: _weapon(record) for record in data()["weapons"]}


@cache
def _index() -> dict[str, Weapon]:
    index = {}
    for w in weapons().values():
        index[_key(w.slug)] = w
        index[_key(w.name)] = w
    return index


def weapon(name: str, field: str = "weapon") -> Weapon:
    """Look a weapon up by slug or name, ignoring case, hyphens and spacing."""
    found = _index().get(_key(name))
    if found is None:
        raise RulesInputError(field, f"unknown weapon {name!r}; known: {', '.join(sorted(weapons()))}")
    return found


def armour() -> dict[str, dict]:
    return {record["slug"]: record for record in data()["armour"]}


def wargear() -> dict[str, dict]:
    return {record["slug"]: record for record in data()["wargear"]}
