"""How content reads on a roster, a fighter page and a card: weapon profiles in the printed convention, and every
named rule (weapon trait, classic weapon special rule, fighter rule, skill) with its one-line summary.

The printed convention, as the books' profile tables and fighter cards print it:

- One row of eight columns per profile, the same eight for every weapon of an edition, so the columns line up
  (:data:`PROFILE_HEADINGS`). 2018+: Rng S/L, Acc S/L, Str, AP, D, Am. Classic: Range S/L, To hit S/L, Str, Dam,
  Save, Am.
- A close combat weapon shows "E" (engagement) under long range and "-" under short; a template weapon "T", a
  grenade its thrown range ("Sx3") or, in classic, "Thr". 2018+ Versatile weapons print "E" under short range
  and their reach in inches under long. Any other missing value is "-", and so is a zero modifier.
- The rules a profile carries go with it: 2018+ traits, and for classic the weapon's special rules, the
  profile's own, its sustained fire dice and its template, each once. Rules every profile of a weapon
  shares are printed once, beside the weapon's name (:class:`PrintedWeapon`).

Rules are stored on the records that carry them as the names the books print ("Rapid Fire (2)"); a
:class:`Glossary` of one edition's :class:`~content.models.Rule` rows (one query) gives each its summary.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, replace

from django.core.cache import cache

from content.models import Edition, Equipment, EquipmentCategory, Rule, WeaponProfile

DASH = "-"
#: Summaries cached under a content version live a day at most; a version that moved leaves its keys to expire.
GLOSSARY_SECONDS = 24 * 60 * 60
# The eight columns under six headings, as the books head them: (heading, what it means, its S/L sub-columns).
PROFILE_HEADINGS = {
    Edition.N18: (
        ("Rng", "Range in inches, short and long", ("S", "L")),
        ("Acc", "Accuracy modifier at short and long range", ("S", "L")),
        ("Str", "Strength", ()),
        ("AP", "Armour Piercing", ()),
        ("D", "Damage", ()),
        ("Am", "Ammo check", ()),
    ),
    Edition.CLASSIC: (
        ("Range", "Short and long range in inches", ("S", "L")),
        ("To hit", "To hit modifier at short and long range", ("S", "L")),
        ("Str", "Strength", ()),
        ("Dam", "Damage", ()),
        ("Save", "Save modifier", ()),
        ("Am", "Ammo roll", ()),
    ),
}
CLASSIC_TEMPLATES = {"blast": "Blast marker", "flamer": "Flamer template"}
_PARAMETER = re.compile(r"\s*\([^)]*\)\s*$")


def rule_key(name: str) -> str:
    """The name a rule is looked up by: lower case, without a parameter in brackets ("Blast (3\")" is Blast)."""
    return _PARAMETER.sub("", name).strip().casefold()


def _exact_key(name: str) -> str:
    """A rule's whole name, parameter and all ("mask (butcher)"), for rules whose variants differ."""
    return name.strip().casefold()


@dataclass(frozen=True)
class Term:
    """A rule as printed ("Rapid Fire (2)") with its one-line summary ("" when the content has none)."""

    name: str
    summary: str = ""


class Glossary:
    """The one-line summaries of one edition's rules, by name (see :func:`rule_key`).

    A rule is found without its parameter ("Rapid Fire (2)" is Rapid Fire), unless a record is named with that very
    parameter: "Mask (Butcher)" and "Mask (Cutter)" do different things, so each has its own record, and one of them
    is found before a bare "Mask"."""

    def __init__(self, rules: Iterable[Rule] = (), *, summaries: dict[str, str] | None = None):
        self.summaries: dict[str, str] = dict(summaries or {})
        for rule in rules:
            for name in (rule.name, *rule.aliases):
                self.summaries[_exact_key(name) if _PARAMETER.search(name) else rule_key(name)] = rule.summary

    def term(self, name: str) -> Term:
        summary = self.summaries.get(_exact_key(name)) or self.summaries.get(rule_key(name), "")
        head, colon, tail = name.partition(": ")
        if not summary and colon:  # a record that explains its own rule: "Ammo Hoppers: re-rolls failed Ammo..."
            return Term(head, tail)
        return Term(name, summary)

    def terms(self, names: Iterable[str]) -> list[Term]:
        return [self.term(name) for name in names]


def glossary_for(edition: str, *, content_version: int | None = None) -> Glossary:
    """Every active rule summary of the edition: one query, or none when the content's version is known (a page
    whose gang query annotates it, :func:`content.versioning.content_version_subquery`), since every change to
    the content moves that version and the summaries are then cached under it."""
    if content_version is None:
        return Glossary(Rule.objects.active().filter(edition=edition).only("name", "aliases", "summary"))
    key = f"rule-summaries:{edition}:{content_version}"
    summaries = cache.get(key)
    if summaries is None:
        summaries = glossary_for(edition).summaries
        cache.set(key, summaries, GLOSSARY_SECONDS)
    return Glossary(summaries=summaries)


@dataclass(frozen=True)
class PrintedProfile:
    """One profile row: its name ("" for a weapon's only profile), the eight cells and the rules it carries."""

    name: str
    cells: tuple[str, ...]
    rules: tuple[Term, ...]


def signed(value: int | None) -> str:
    return DASH if not value else f"{value:+d}"


def inches(value: int | None) -> str:
    return DASH if value is None else f'{value}"'


def text(value) -> str:
    return DASH if value in (None, "") else str(value)


def _n18_range(profile: WeaponProfile) -> tuple[str, str]:
    codes = [code for code in profile.range_code.split("/") if code]
    if profile.short_range is None and profile.long_range is None:
        if len(codes) >= 2:
            return codes[0], codes[1]
        return DASH, codes[0] if codes else DASH
    if profile.short_range is None:  # Versatile: "E" under short, the reach under long
        return (codes[0] if codes else DASH), inches(profile.long_range)
    return inches(profile.short_range), inches(profile.long_range) if profile.long_range is not None else text(
        profile.range_code
    )


def _classic_range(equipment: Equipment, profile: WeaponProfile) -> tuple[str, str]:
    if profile.short_range is not None and profile.long_range is not None:
        return f"0-{profile.short_range}", f"{profile.short_range}-{profile.long_range}"
    if equipment.category == EquipmentCategory.GRENADE:
        return DASH, "Thr"
    if profile.template == "flamer":
        return DASH, "T"
    if equipment.category == EquipmentCategory.HAND_TO_HAND:
        return DASH, "E"
    return inches(profile.short_range), inches(profile.long_range)


def _classic_rules(equipment: Equipment, profile: WeaponProfile) -> list[str]:
    names = list(dict.fromkeys([*equipment.special_rules, *profile.special_rules]))
    keys = {rule_key(name) for name in names}
    if profile.sustained_fire and not any(key.startswith("sustained fire") for key in keys):
        names.append(f"Sustained fire {profile.sustained_fire} dice")
    template = CLASSIC_TEMPLATES.get(profile.template, profile.template.capitalize())
    if template and not any(key.startswith(template.casefold()) for key in keys):
        names.append(template)
    return names


def printed_profile(equipment: Equipment, profile: WeaponProfile, glossary: Glossary) -> PrintedProfile:
    if equipment.edition == Edition.N18:
        cells = (
            *_n18_range(profile),
            signed(profile.acc_short),
            signed(profile.acc_long),
            text(profile.strength),
            signed(profile.ap),
            text(profile.damage),
            text(profile.ammo),
        )
        names = profile.traits
    else:
        cells = (
            *_classic_range(equipment, profile),
            signed(profile.hit_short),
            signed(profile.hit_long),
            text(profile.strength),
            text(profile.damage),
            signed(profile.save_mod),
            text(profile.ammo),
        )
        names = _classic_rules(equipment, profile)
    return PrintedProfile(profile.name, cells, tuple(glossary.terms(names)))


@dataclass(frozen=True)
class PrintedWeapon:
    """A weapon's profiles; the rules every profile shares are printed once, beside its name."""

    name: str
    rules: tuple[Term, ...]
    profiles: tuple[PrintedProfile, ...]


def printed_weapon(equipment: Equipment, glossary: Glossary) -> PrintedWeapon:
    """Every profile of a weapon (``profiles`` prefetched), in order, each left with only its own rules."""
    profiles = [printed_profile(equipment, profile, glossary) for profile in equipment.profiles.all()]
    if not profiles:
        return PrintedWeapon(equipment.name, tuple(equipment_rules(equipment, glossary)), ())
    shared = tuple(term for term in profiles[0].rules if all(term in p.rules for p in profiles))
    own = tuple(replace(p, rules=tuple(t for t in p.rules if t not in shared)) for p in profiles)
    return PrintedWeapon(equipment.name, shared, own)


def equipment_rules(equipment: Equipment, glossary: Glossary) -> list[Term]:
    """The special rules of armour or wargear (a weapon's go with its profiles)."""
    return glossary.terms(equipment.special_rules)
