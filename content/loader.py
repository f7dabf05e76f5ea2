"""Load the rules data files (``rulebook/data/<edition>/*.json``) into the content models.

One source of truth: the rules engine reads the same files. ``load_content`` upserts every
record by (edition, slug) inside one transaction, so a malformed file rejects the whole load
and leaves the database as it was. It never changes or deletes house rules (rows with
``is_official=False``); official rows that left the files are deactivated, not deleted, because
gangs may own them.

File shapes (see docs/content.md and the files' own ``notes``):

- Armoury / Trading Post: ``weapons``, ``armour``, ``wargear`` lists (the team's weapons format).
- Houses: ``composition``, ``houses`` (each with ``fighter_types`` and, for n18, an
  ``equipment_list`` of ``{"item", "cost", "fighter_types"}``; an entry marked ``"optional": true``
  waits, reported, until its item exists), an optional ``equipment`` block
  (house-list items missing from the Trading Post, in the weapons format) and, for classic,
  ``fighter_types`` shared by every house with per-house ``skill_access``.
- Skills: ``skill_tables`` with their ``skills``.
- Territories: ``territories``.

Classic equipment lists are weapon-list categories; they are expanded into one row per Armoury
weapon of those categories at its Armoury price, leaving out rare items (which are bought at
the Trading Post only) and items without a fixed price.
"""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from django.conf import settings
from django.db import IntegrityError, models, transaction

from content.models import (
    Edition,
    Equipment,
    EquipmentCategory,
    EquipmentKind,
    FighterCategory,
    FighterType,
    FighterTypeEquipment,
    House,
    Skill,
    SkillAccess,
    SkillAccessLevel,
    SkillTable,
    Territory,
    WeaponProfile,
)

DATA_DIR = Path(settings.BASE_DIR) / "rulebook" / "data"

CLASSIC_STATS = {"M": "movement", "WS": "weapon_skill", "BS": "ballistic_skill", "S": "strength", "T": "toughness"}
CLASSIC_STATS |= {"W": "wounds", "I": "initiative", "A": "attacks", "Ld": "leadership"}
N18_STATS = CLASSIC_STATS | {"Cl": "cool", "Wil": "willpower", "Int": "intelligence"}
WEAPON_CATEGORIES = {
    Edition.CLASSIC: {"pistol", "basic", "special", "heavy", "hand_to_hand", "grenade"},
    Edition.N18: {"pistol", "basic", "special", "heavy", "close_combat", "grenade"},
}
SHARE_RULE_KINDS = {"max_share", "min_share"}


class ContentFileError(ValueError):
    """A data file the loader refuses, with the file and the dotted place inside it."""


@dataclass
class LoadReport:
    """What a load did, per model: added, changed, unchanged, deactivated, removed, kept (house rules)."""

    counts: dict[str, Counter] = field(default_factory=lambda: defaultdict(Counter))
    # Optional equipment list entries whose item is not in the data yet, as "edition/slug".
    waiting: set[str] = field(default_factory=set)
    # Data files that are not content (rules tables of the engine, say), as "edition/name".
    skipped_files: set[str] = field(default_factory=set)

    def note(self, model: type[models.Model], outcome: str) -> None:
        self.counts[model._meta.verbose_name_plural.capitalize()][outcome] += 1

    @property
    def changed_anything(self) -> bool:
        quiet = {"unchanged", "kept"}
        return any(n for counter in self.counts.values() for outcome, n in counter.items() if outcome not in quiet)

    def lines(self) -> list[str]:
        always, sometimes = ["added", "changed", "unchanged"], ["deactivated", "removed", "kept"]
        lines = [
            f"{label}: " + ", ".join(f"{counter[o]} {o}" for o in always + [o for o in sometimes if counter[o]])
            for label, counter in sorted(self.counts.items())
        ]
        if self.skipped_files:
            lines.append(f"Not content, left alone: {', '.join(sorted(self.skipped_files))}")
        if self.waiting:
            lines.append(
                f"Equipment list entries waiting for items not in the data yet: {', '.join(sorted(self.waiting))}"
            )
        return lines


def load_content(*, data_dir: Path = DATA_DIR) -> LoadReport:
    """Load every edition folder under ``data_dir``; all or nothing."""
    report = LoadReport()
    editions = sorted(p for p in Path(data_dir).iterdir() if p.is_dir() and p.name in Edition.values)
    with transaction.atomic():
        for folder in editions:
            documents = [_read(path, folder.name) for path in sorted(folder.glob("*.json"))]
            try:
                _EditionLoader(folder.name, documents, report).run()
            except IntegrityError as error:
                raise ContentFileError(f"{folder.name}: the data breaks a database rule: {error}") from error
    return report


def _read(path: Path, edition: str) -> tuple[Path, dict]:
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise ContentFileError(f"{path.name}: not readable JSON: {error}") from error
    if not isinstance(document, dict):
        raise ContentFileError(f"{path.name}: the top level must be an object")
    if document.get("edition") != edition:
        raise ContentFileError(f"{path.name}: edition is {document.get('edition')!r} but the file is in {edition}/")
    return path, document


class _Field:
    """Reads one record of a file, naming the file and dotted place in every refusal."""

    def __init__(self, path: Path, where: str, record: Any):
        self.path, self.where, self.record = path, where, record
        if not isinstance(record, dict):
            self.fail("", "must be an object")

    def fail(self, key: str, message: str):
        place = ".".join(part for part in (self.where, key) if part)
        raise ContentFileError(f"{self.path.name}: {place}: {message}" if place else f"{self.path.name}: {message}")

    def get(self, key: str, kind: type | tuple, *, required: bool = True, default: Any = None) -> Any:
        if key not in self.record or self.record[key] is None:
            if required:
                self.fail(key, "is required")
            return default
        value = self.record[key]
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            self.fail(key, f"has the wrong type ({type(value).__name__})")
        return value

    def count(self, key: str, *, required: bool = True) -> int | None:
        value = self.get(key, int, required=required)
        if value is not None and value < 0:
            self.fail(key, "must not be negative")
        return value

    def text(self, key: str, *, required: bool = False) -> str:
        return self.get(key, str, required=required, default="")

    def strings(self, key: str) -> list[str]:
        values = self.get(key, list, required=False, default=[])
        if not all(isinstance(v, str) for v in values):
            self.fail(key, "must be a list of strings")
        return values

    def identity(self) -> dict:
        slug = self.get("slug", str)
        if not slug or slug != slug.strip().lower() or " " in slug:
            self.fail("slug", f"{slug!r} is not a lower-case slug")
        return {
            "slug": slug,
            "name": self.get("name", str),
            "sources": self.strings("sources"),
            "notes": self.text("notes"),
        }

    def child(self, key: str, index: int, record: Any) -> _Field:
        return _Field(self.path, f"{self.where}.{key}[{index}]" if self.where else f"{key}[{index}]", record)

    def children(self, key: str, *, required: bool = False) -> list[_Field]:
        return [self.child(key, i, r) for i, r in enumerate(self.get(key, list, required=required, default=[]))]


def _text_or_blank(value: Any) -> str:
    return "" if value is None else str(value)


class _EditionLoader:
    """Loads one edition's documents: equipment first, then skills, houses, territories."""

    def __init__(self, edition: str, documents: list[tuple[Path, dict]], report: LoadReport):
        self.edition, self.documents, self.report = edition, documents, report
        self.seen: dict[type, set[int]] = defaultdict(set)
        self.existing = {
            model: {row.slug: row for row in model.objects.filter(edition=edition)}
            for model in (House, FighterType, Equipment, SkillTable, Skill, Territory)
        }
        # Child rows of the whole edition, read once per model: {parent id: {key: row}}.
        self.children: dict[type, dict[int, dict]] = {}
        self.to_create: dict[type, list] = defaultdict(list)
        self.to_delete: dict[type, list[int]] = defaultdict(list)

    def run(self) -> None:
        kinds = defaultdict(list)
        for path, document in self.documents:
            root = _Field(path, "", document)
            for kind, keys in (("houses", {"houses"}), ("skills", {"skill_tables"}), ("territories", {"territories"})):
                if keys & document.keys():
                    kinds[kind].append(root)
                    break
            else:
                if {"weapons", "armour", "wargear"} & document.keys():
                    kinds["equipment"].append(root)
                else:
                    # The rules engine keeps other tables beside the content; they are not ours to load.
                    self.report.skipped_files.add(f"{self.edition}/{path.name}")
        # Order matters: lists name equipment, access names skill tables, house tables name houses.
        for root in kinds["equipment"]:
            self.load_equipment(root)
        for root in kinds["houses"]:
            extras = root.get("equipment", dict, required=False, default={})
            self.load_equipment(_Field(root.path, "equipment", extras))
        houses = [house for root in kinds["houses"] for house in self.load_houses(root)]
        for root in kinds["skills"]:
            self.load_skills(root)
        for house_record, fighter_types in houses:
            self.load_skill_access(house_record, fighter_types)
            self.load_equipment_list(house_record, fighter_types)
        for root in kinds["territories"]:
            for record in root.children("territories", required=True):
                self.load_territory(record)
        self.flush_children()
        self.deactivate_missing()

    # --- rows -----------------------------------------------------------------------------------------------
    def upsert(self, model: type[models.Model], identity: dict, values: dict, place: _Field):
        """Create or update an official row; ``None`` when a house rule holds the slug."""
        slug = identity["slug"]
        row = self.existing[model].get(slug)
        if row is not None and row.pk in self.seen[model]:
            place.fail("slug", f"{slug!r} is defined twice in {self.edition}")
        values = identity | values | {"is_official": True, "is_active": True}
        _check_lengths(model, values, place)
        if row is None:
            row = model.objects.create(edition=self.edition, **values)
            self.existing[model][slug] = row
            self.report.note(model, "added")
        elif not row.is_official:
            self.report.note(model, "kept")
            self.seen[model].add(row.pk)
            return None
        else:
            self._update(row, values)
        self.seen[model].add(row.pk)
        return row

    def _update(self, row: models.Model, values: dict) -> None:
        changed = [name for name, value in values.items() if _field_value(row, name) != _comparable(value)]
        for name in changed:
            setattr(row, name, values[name])
        if changed:
            row.save(update_fields=changed)
        self.report.note(type(row), "changed" if changed else "unchanged")

    def sync_children(self, model: type[models.Model], parent_field: str, parent, key_field: str, wanted: dict) -> None:
        """Make the official child rows of ``parent`` exactly ``wanted`` ({key: values}); house rules stay.

        New rows and removals are batched (see :meth:`flush_children`); changes are saved at once.
        """
        official = {"is_official": True} if any(f.name == "is_official" for f in model._meta.fields) else {}
        if model not in self.children:
            by_parent = defaultdict(dict)
            parent_id = f"{parent_field}_id"
            for row in model.objects.filter(**{f"{parent_field}__edition": self.edition}):
                by_parent[getattr(row, parent_id)][_field_value(row, key_field)] = row
            self.children[model] = by_parent
        rows = self.children[model].pop(parent.pk, {})
        for key, values in wanted.items():
            row = rows.pop(key, None)
            if row is None:
                self.to_create[model].append(model(**{parent_field: parent, key_field: key}, **values, **official))
                self.report.note(model, "added")
            elif official and not row.is_official:
                self.report.note(model, "kept")
            else:
                self._update(row, values | official)
        for row in rows.values():
            if not official or row.is_official:
                self.to_delete[model].append(row.pk)
                self.report.note(model, "removed")

    def flush_children(self) -> None:
        for model, pks in self.to_delete.items():
            model.objects.filter(pk__in=pks).delete()
        for model, rows in self.to_create.items():
            model.objects.bulk_create(rows)

    def deactivate_missing(self) -> None:
        for model, rows in self.existing.items():
            for row in rows.values():
                if row.is_official and row.is_active and row.pk not in self.seen[model]:
                    row.is_active = False
                    row.save(update_fields=["is_active"])
                    self.report.note(model, "deactivated")

    def in_data(self, model: type[models.Model], slug: str) -> bool:
        """Loaded from the files in this run, or a house rule (never an official row the files dropped)."""
        row = self.existing[model].get(slug)
        return row is not None and (not row.is_official or row.pk in self.seen[model])

    def lookup(self, model: type[models.Model], slug: str, place: _Field, key: str):
        if not self.in_data(model, slug):
            place.fail(key, f"no {model._meta.verbose_name} {slug!r} in the {self.edition} data")
        return self.existing[model][slug]

    # --- equipment ------------------------------------------------------------------------------------------
    def load_equipment(self, root: _Field) -> None:
        for record in root.children("weapons"):
            category = record.get("category", str)
            if category not in WEAPON_CATEGORIES[self.edition]:
                record.fail("category", f"{category!r} is not a {self.edition} weapon category")
            row = self.upsert(
                Equipment, record.identity(), self.item_values(record, EquipmentKind.WEAPON, category), record
            )
            if row is not None:
                profiles = record.children("profiles", required=True)
                if not profiles:
                    record.fail("profiles", "a weapon needs at least one profile")
                wanted = {i: self.profile_values(p) for i, p in enumerate(profiles)}
                self.sync_children(WeaponProfile, "equipment", row, "order", wanted)
        for record in root.children("armour"):
            values = self.item_values(record, EquipmentKind.ARMOUR, EquipmentCategory.ARMOUR)
            values["armour_save"] = record.count("save", required=False)
            self.upsert(Equipment, record.identity(), values, record)
        for record in root.children("wargear"):
            self.upsert(
                Equipment,
                record.identity(),
                self.item_values(record, EquipmentKind.WARGEAR, EquipmentCategory.WARGEAR),
                record,
            )

    def item_values(self, record: _Field, kind: str, category: str) -> dict:
        return {
            "kind": kind,
            "category": category,
            "cost": record.count("cost", required=False),
            "rarity": record.text("rarity"),
            "rare_cost": record.text("rare_cost"),
            "armour_save": None,
            "special_rules": record.strings("special_rules"),
        }

    def profile_values(self, profile: _Field) -> dict:
        values = {
            "name": profile.text("name"),
            "strength": _text_or_blank(profile.record.get("strength")),
            "damage": _text_or_blank(profile.record.get("damage")),
            "special_rules": profile.strings("special_rules"),
            "traits": profile.strings("traits"),
        }
        codes = []
        for key in ("short_range", "long_range"):
            value = profile.record.get(key)
            if isinstance(value, str) and value.strip():
                codes.append(value.strip())
                value = None
            elif value is not None and (not isinstance(value, int) or isinstance(value, bool) or value < 0):
                profile.fail(key, 'must be inches or a code such as "E", "T", "Sx3"')
            values[key] = value
        values["range_code"] = "/".join(dict.fromkeys(codes))
        for key in ("hit_short", "hit_long", "acc_short", "acc_long", "save_mod", "ap"):
            values[key] = profile.get(key, int, required=False)
        for key in ("save_mod", "ap"):
            if values[key] is not None and values[key] > 0:
                profile.fail(key, "must be 0 or negative")
        values["ammo"] = _text_or_blank(profile.record.get("ammo_roll", profile.record.get("ammo")))
        values["template"] = profile.text("template")
        values["sustained_fire"] = profile.count("sustained_fire", required=False) or 0
        _check_lengths(WeaponProfile, values, profile)
        return values

    # --- skills ---------------------------------------------------------------------------------------------
    def load_skills(self, root: _Field) -> None:
        for record in root.children("skill_tables", required=True):
            house = self.lookup(House, record.text("house"), record, "house") if record.text("house") else None
            values = {"order": record.count("order", required=False) or 0, "house": house}
            table = self.upsert(SkillTable, record.identity(), values, record)
            if table is None:
                continue
            for order, skill in enumerate(record.children("skills", required=True)):
                values = {"table": table, "order": order, "description": skill.text("description")}
                self.upsert(Skill, skill.identity(), values, skill)

    # --- houses ---------------------------------------------------------------------------------------------
    def load_houses(self, root: _Field) -> list[tuple[_Field, dict]]:
        """Houses and their fighter types; returns what skill access and equipment lists still need."""
        loaded = []
        defaults = root.get("composition", dict, required=False, default={})
        shared_types = root.children("fighter_types")
        for record in root.children("houses", required=True):
            composition = _Field(
                record.path,
                f"{record.where}.composition",
                defaults | record.get("composition", dict, required=False, default={}),
            )
            house = self.upsert(House, record.identity(), self.composition_values(composition), record)
            if house is None:
                continue
            types = record.children("fighter_types") or shared_types
            fighter_types = {}
            for order, ft_record in enumerate(types):
                identity = ft_record.identity()
                local_slug = identity["slug"]
                identity["slug"] = f"{house.slug}-{local_slug}"
                fighter_type = self.upsert(
                    FighterType, identity, self.fighter_type_values(ft_record, house, order), ft_record
                )
                if fighter_type is not None:
                    fighter_types[local_slug] = (fighter_type, ft_record)
            loaded.append((record, fighter_types))
        return loaded

    def composition_values(self, composition: _Field) -> dict:
        rules = composition.get("rules", list, required=False, default=[])
        for i, rule in enumerate(rules):
            rule_field = composition.child("rules", i, rule)
            if rule_field.get("kind", str) not in SHARE_RULE_KINDS:
                rule_field.fail("kind", f"must be one of {sorted(SHARE_RULE_KINDS)}")
            for category in rule_field.strings("categories"):
                if category not in FighterCategory.values:
                    rule_field.fail("categories", f"{category!r} is not a fighter category")
            numerator, _, denominator = rule_field.get("share", str).partition("/")
            if not (numerator.isdigit() and denominator.isdigit() and 0 < int(numerator) <= int(denominator)):
                rule_field.fail("share", 'must be a fraction such as "1/2"')
        return {
            "starting_credits": composition.count("starting_credits"),
            "min_fighters": composition.count("min_fighters", required=False),
            "composition_rules": rules,
        }

    def fighter_type_values(self, record: _Field, house: House, order: int) -> dict:
        category = record.get("category", str)
        if category not in FighterCategory.values:
            record.fail("category", f"{category!r} is not a fighter category")
        stats = _Field(record.path, f"{record.where}.stats", record.get("stats", dict))
        names = N18_STATS if self.edition == Edition.N18 else CLASSIC_STATS
        unknown = set(stats.record) - set(names)
        if unknown:
            stats.fail("", f"unknown characteristics {sorted(unknown)}")
        values = {field_name: stats.count(stat) for stat, field_name in names.items()}
        weapon_categories = record.strings("weapon_categories")
        for category_name in weapon_categories:
            if category_name not in WEAPON_CATEGORIES[self.edition]:
                record.fail("weapon_categories", f"{category_name!r} is not a {self.edition} weapon category")
        return values | {
            "house": house,
            "category": category,
            "cost": record.count("cost"),
            "starting_xp": record.text("starting_xp"),
            "min_per_gang": record.count("min_per_gang", required=False) or 0,
            "max_per_gang": record.count("max_per_gang", required=False),
            "weapon_categories": weapon_categories,
            "special_rules": record.strings("special_rules"),
            "order": order,
        }

    def load_skill_access(self, house_record: _Field, fighter_types: dict) -> None:
        classic_access = house_record.get("skill_access", dict, required=False, default={})
        for local_slug, (fighter_type, record) in fighter_types.items():
            if self.edition == Edition.CLASSIC:
                levels = {SkillAccessLevel.PRIMARY: classic_access.get(local_slug, [])}
                place = house_record
            else:
                access = _Field(record.path, f"{record.where}.skill_access", record.get("skill_access", dict))
                levels = {level: access.strings(level) for level in SkillAccessLevel.values}
                place = access
            wanted = {}
            for level, table_slugs in levels.items():
                for slug in table_slugs:
                    table = self.lookup(SkillTable, slug, place, "skill_access")
                    if table.pk in wanted:
                        place.fail("skill_access", f"table {slug!r} is listed twice for {local_slug}")
                    wanted[table.pk] = {"level": level}
            self.sync_children(SkillAccess, "fighter_type", fighter_type, "table_id", wanted)

    def load_equipment_list(self, house_record: _Field, fighter_types: dict) -> None:
        wanted: dict[str, dict[int, dict]] = {slug: {} for slug in fighter_types}
        if self.edition == Edition.CLASSIC:
            for local_slug, (fighter_type, _record) in fighter_types.items():
                for item in self.existing[Equipment].values():
                    if (
                        item.pk in self.seen[Equipment]
                        and item.is_official
                        and item.kind == EquipmentKind.WEAPON
                        and item.category in fighter_type.weapon_categories
                        and item.rarity != "rare"
                        and item.cost is not None
                    ):
                        wanted[local_slug][item.pk] = {"cost": item.cost}
        for entry in house_record.children("equipment_list"):
            slug = entry.get("item", str)
            if entry.get("optional", bool, required=False, default=False) and not self.in_data(Equipment, slug):
                # A house-list item the Trading Post file does not sell yet: listed as soon as it does.
                self.report.waiting.add(f"{self.edition}/{slug}")
                continue
            item = self.lookup(Equipment, slug, entry, "item")
            cost = entry.count("cost")
            for local_slug in entry.strings("fighter_types"):
                if local_slug not in wanted:
                    entry.fail("fighter_types", f"{local_slug!r} is not a fighter type of this house")
                if item.pk in wanted[local_slug]:
                    entry.fail("item", f"{item.slug!r} is listed twice for {local_slug}")
                wanted[local_slug][item.pk] = {"cost": cost}
        for local_slug, (fighter_type, _record) in fighter_types.items():
            self.sync_children(FighterTypeEquipment, "fighter_type", fighter_type, "equipment_id", wanted[local_slug])

    # --- territories ----------------------------------------------------------------------------------------
    def load_territory(self, record: _Field) -> None:
        values = {
            "roll": record.text("roll"),
            "income": record.text("income"),
            "effects": record.text("effects"),
            "is_home_settlement": record.get("is_home_settlement", bool, required=False, default=False),
        }
        self.upsert(Territory, record.identity(), values, record)


def _check_lengths(model: type[models.Model], values: dict, place: _Field) -> None:
    """Refuse text longer than its column here, naming the file (SQLite would store it, PostgreSQL refuse)."""
    for name, value in values.items():
        limit = getattr(model._meta.get_field(name), "max_length", None)
        if isinstance(value, str) and limit and len(value) > limit:
            place.fail(name, f"{value!r} is longer than {limit} characters")


def _field_value(row: models.Model, name: str) -> Any:
    """The stored value to compare: primary keys for relations, plain values otherwise."""
    field_object = row._meta.get_field(name)
    if isinstance(field_object, models.ForeignKey):
        return getattr(row, field_object.attname)
    return getattr(row, name)


def _comparable(value: Any) -> Any:
    return value.pk if isinstance(value, models.Model) else value
