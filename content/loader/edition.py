"""Loading one edition's content files: equipment first, then skills, houses (with fighter types, skill access
and equipment lists) and territories, each record checked and turned into the content models' values.

Part of :mod:`content.loader`, whose docstring gives the file shapes; the rows are written by
:class:`content.loader.rows.RowWriter`. Classic equipment lists are weapon-list categories, expanded into one row
per Armoury weapon of those categories at its Armoury price, leaving out rare items (bought at the Trading Post
only) and items without a fixed price. A 2018+ ``trading_post_allowance`` expands the same way, into the Trading Post
items up to a Rarity that :func:`rulebook.n18.trading_post.hire_allowance` takes.
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

from content.loader.reading import Field, check_lengths
from content.loader.rows import LoadReport, RowWriter
from content.models import (
    WARGEAR_CATEGORIES,
    Edition,
    Equipment,
    EquipmentCategory,
    EquipmentKind,
    FighterCategory,
    FighterType,
    FighterTypeEquipment,
    House,
    HouseKind,
    Rule,
    RuleKind,
    Skill,
    SkillAccess,
    SkillAccessLevel,
    SkillTable,
    Territory,
    WeaponProfile,
)
from rulebook.n18 import trading_post

CLASSIC_STATS = {"M": "movement", "WS": "weapon_skill", "BS": "ballistic_skill", "S": "strength", "T": "toughness"}
CLASSIC_STATS |= {"W": "wounds", "I": "initiative", "A": "attacks", "Ld": "leadership"}
N18_STATS = CLASSIC_STATS | {"Cl": "cool", "Wil": "willpower", "Int": "intelligence"}
WEAPON_CATEGORIES = {
    Edition.CLASSIC: {"pistol", "basic", "special", "heavy", "hand_to_hand", "grenade"},
    Edition.N18: {"pistol", "basic", "special", "heavy", "close_combat", "grenade", "ammo"},
}
SHARE_RULE_KINDS = {"max_share", "min_share"}
COUNT_RULE_KINDS = {"max_count", "min_count"}
# A rule's second group of fighters: whom ``not_fewer`` compares with, whom ``max_per`` counts per.
SECOND_GROUP = {"not_fewer": "than_", "max_per": "per_"}
# Whom a rule waits for: it holds only while the gang has one of them (a new Enforcer patrol's Captain).
CONDITION = "when_"
RULE_KINDS = SHARE_RULE_KINDS | COUNT_RULE_KINDS | set(SECOND_GROUP)


class EditionLoader(RowWriter):
    """Loads one edition's documents: equipment first, then skills, houses, territories."""

    def __init__(self, edition: str, documents: list[tuple[Path, dict]], report: LoadReport):
        super().__init__(edition, report, (House, FighterType, Equipment, SkillTable, Skill, Territory, Rule))
        self.documents = documents
        self._trading_post_items: list[dict] | None = None

    def run(self) -> None:
        kinds = defaultdict(list)
        for path, document in self.documents:
            root = Field(path, "", document)
            if "rules" in document:
                # Rule summaries may sit in any file, beside the records that name them (a house's own rules).
                kinds["rules"].append(root)
            for kind, keys in (("houses", {"houses"}), ("skills", {"skill_tables"}), ("territories", {"territories"})):
                if keys & document.keys():
                    kinds[kind].append(root)
                    break
            else:
                if {"weapons", "armour", "wargear"} & document.keys():
                    kinds["equipment"].append(root)
                elif "rules" not in document:
                    # The rules engine keeps other tables beside the content; they are not ours to load.
                    self.report.skipped_files.add(f"{self.edition}/{path.name}")
        # Order matters: lists name equipment, access names skill tables, house tables name houses.
        self.ammunition: list[tuple[Field, list[str]]] = []
        for root in kinds["equipment"]:
            self.load_equipment(root)
        for root in kinds["houses"]:
            extras = root.get("equipment", dict, required=False, default={})
            self.load_equipment(Field(root.path, "equipment", extras))
        self.check_ammunition()
        houses = [house for root in kinds["houses"] for house in self.load_houses(root)]
        for root in kinds["skills"]:
            self.load_skills(root)
        for house_record, fighter_types in houses:
            self.load_skill_access(house_record, fighter_types)
            self.load_equipment_list(house_record, fighter_types)
        for root in kinds["territories"]:
            for record in root.children("territories", required=True):
                self.load_territory(record)
        for root in kinds["rules"]:
            for record in root.children("rules", required=True):
                self.load_rule(record)
        self.flush_children()
        self.deactivate_missing()

    # --- equipment ------------------------------------------------------------------------------------------
    def load_equipment(self, root: Field) -> None:
        for record in root.children("weapons"):
            category = record.get("category", str)
            if category not in WEAPON_CATEGORIES[self.edition]:
                record.fail("category", f"{category!r} is not a {self.edition} weapon category")
            values = self.item_values(record, EquipmentKind.WEAPON, category)
            values["fits"] = record.strings("fits")
            if values["fits"]:
                self.ammunition.append((record, values["fits"]))
            row = self.upsert(Equipment, record.identity(), values, record)
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
            category = record.get("category", str, required=False) or EquipmentCategory.WARGEAR
            if category not in WARGEAR_CATEGORIES or (self.edition == Edition.CLASSIC and category != "wargear"):
                record.fail("category", f"{category!r} is not a {self.edition} wargear category")
            values = self.item_values(record, EquipmentKind.WARGEAR, category)
            values["beast"] = self.beast_card(record, category)
            self.upsert(Equipment, record.identity(), values, record)

    def beast_card(self, record: Field, category: str) -> dict:
        """An Exotic Beast's card: its stat line (a characteristic printed "-" is null), weapons and rules, as text
        shown under its owner. Only an exotic beast has one."""
        card = record.get("beast", dict, required=False)
        if card is None:
            return {}
        if category != EquipmentCategory.EXOTIC_BEAST:
            record.fail("beast", "only an exotic_beast has a beast card")
        place = Field(record.path, f"{record.where}.beast", card)
        stats = place.get("stats", dict)
        codes = list(N18_STATS if self.edition == Edition.N18 else CLASSIC_STATS)
        if set(stats) != set(codes) or not all(v is None or (type(v) is int and 0 < v < 100) for v in stats.values()):
            place.fail("stats", f"must give {', '.join(codes)}, each a number or null")
        return {
            "stats": {code: stats[code] for code in codes},
            "weapons": place.strings("weapons"),
            "rules": place.strings("rules"),
        }

    def check_ammunition(self) -> None:
        """Special ammunition names the weapons it is fired from: each must be a weapon of the edition."""
        weapons = {slug for slug, row in self.existing[Equipment].items() if row.kind == EquipmentKind.WEAPON}
        for record, fits in self.ammunition:
            unknown = [slug for slug in fits if slug not in weapons]
            if unknown:
                record.fail("fits", f"names no weapon of {self.edition}: {', '.join(unknown)}")

    def item_values(self, record: Field, kind: str, category: str) -> dict:
        return {
            "kind": kind,
            "category": category,
            "cost": record.count("cost", required=False),
            "rarity": record.text("rarity"),
            "rare_cost": record.text("rare_cost"),
            "armour_save": None,
            "special_rules": record.strings("special_rules"),
        }

    def profile_values(self, profile: Field) -> dict:
        values = {
            "name": profile.text("name"),
            "strength": profile.code("strength"),
            "damage": profile.code("damage"),
            "special_rules": profile.strings("special_rules"),
            "traits": profile.strings("traits"),
        }
        codes = []
        for key in ("short_range", "long_range"):
            value = profile.get(key, (str, int), required=False)
            if isinstance(value, str) and value.strip():
                codes.append(value.strip())
                value = None
            elif value is not None and (not isinstance(value, int) or isinstance(value, bool) or value < 0):
                profile.fail(key, 'must be inches or a code such as "E", "T", "Sx3"')
            values[key] = value
        values["range_code"] = "/".join(dict.fromkeys(codes))
        for key in ("hit_short", "hit_long", "acc_short", "acc_long", "save_mod", "ap"):
            values[key] = profile.get(key, int, required=False)
        if values["save_mod"] is not None and values["save_mod"] > 0:
            profile.fail("save_mod", "must be 0 or negative")
        # AP helps the attacker; only the 2023 maul's AP +1 helps the target's save.
        if values["ap"] is not None and values["ap"] > 1:
            profile.fail("ap", "must be +1 or less")
        values["ammo"] = profile.code("ammo_roll") or profile.code("ammo")
        values["template"] = profile.text("template")
        values["sustained_fire"] = profile.count("sustained_fire", required=False) or 0
        check_lengths(WeaponProfile, values, profile)
        return values

    # --- skills ---------------------------------------------------------------------------------------------
    def load_skills(self, root: Field) -> None:
        for record in root.children("skill_tables", required=True):
            house = self.lookup(House, record.text("house"), record, "house") if record.text("house") else None
            values = {"order": record.count("order", required=False) or 0, "house": house}
            table = self.upsert(SkillTable, record.identity(), values, record)
            if table is None:
                continue
            for order, skill in enumerate(record.children("skills", required=True)):
                values = {"table": table, "order": order, "summary": skill.text("summary")}
                self.upsert(Skill, skill.identity(), values, skill)

    # --- houses ---------------------------------------------------------------------------------------------
    def load_houses(self, root: Field) -> list[tuple[Field, dict]]:
        """Houses and their fighter types; returns what skill access and equipment lists still need."""
        loaded = []
        defaults = root.get("composition", dict, required=False, default={})
        shared_types = root.children("fighter_types")
        for record in root.children("houses", required=True):
            composition = Field(
                record.path,
                f"{record.where}.composition",
                defaults
                | record.get("composition", dict, required=False, default={})
                | ({"kind": record.record["kind"]} if "kind" in record.record else {}),
            )
            types = record.children("fighter_types") or shared_types
            identity = record.identity()
            local_slugs = {t.get("slug", str) for t in types}
            values = self.composition_values(composition, identity["slug"], local_slugs)
            values["gang_rules"] = self.gang_rules(record)
            house = self.upsert(House, identity, values, record)
            if house is None:
                continue
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

    def composition_values(self, composition: Field, house_slug: str, type_slugs: set[str]) -> dict:
        """The house's composition; rules naming fighter ``types`` get the loader's full slugs (``<house>-<slug>``)."""
        rules = []
        for i, rule in enumerate(composition.get("rules", list, required=False, default=[])):
            rule_field = composition.child("rules", i, rule)
            kind = rule_field.get("kind", str)
            if kind not in RULE_KINDS:
                rule_field.fail("kind", f"must be one of {sorted(RULE_KINDS)}")
            stored = dict(rule)
            prefixes = ["", *([SECOND_GROUP[kind]] if kind in SECOND_GROUP else [])]
            if f"{CONDITION}categories" in rule or f"{CONDITION}types" in rule:
                prefixes.append(CONDITION)
            for prefix in prefixes:
                for category in rule_field.strings(f"{prefix}categories"):
                    if category not in FighterCategory.values:
                        rule_field.fail(f"{prefix}categories", f"{category!r} is not a fighter category")
                local = rule_field.strings(f"{prefix}types")
                for slug in local:
                    if slug not in type_slugs:
                        rule_field.fail(f"{prefix}types", f"{slug!r} is not a fighter type of this house")
                if not local and not rule_field.strings(f"{prefix}categories"):
                    rule_field.fail(f"{prefix}categories", "names no fighter category or type")
                if local:
                    stored[f"{prefix}types"] = [f"{house_slug}-{slug}" for slug in local]
            if kind in COUNT_RULE_KINDS:
                rule_field.count("count")
            if kind == "max_per":
                if not rule_field.count("per"):
                    rule_field.fail("per", "must be at least 1")
                rule_field.count("at_least", required=False)
            if kind in SHARE_RULE_KINDS:
                numerator, _, denominator = rule_field.get("share", str).partition("/")
                if not (numerator.isdigit() and denominator.isdigit() and 0 < int(numerator) <= int(denominator)):
                    rule_field.fail("share", 'must be a fraction such as "1/2"')
            rules.append(stored)
        house_kind = composition.record.get("kind", HouseKind.GANG_LIST)
        if house_kind not in HouseKind.values:
            composition.fail("kind", f"must be one of {sorted(HouseKind.values)}")
        return {
            "kind": house_kind,
            "starting_credits": composition.count("starting_credits"),
            "min_fighters": composition.count("min_fighters", required=False),
            "composition_rules": rules,
        }

    def gang_rules(self, record: Field) -> list[dict]:
        """A house's own rules of play as ``{"name", "summary"}`` (our words), shown with its list."""
        return [
            {"name": rule.get("name", str), "summary": rule.get("summary", str)}
            for rule in record.children("gang_rules")
        ]

    def fighter_type_values(self, record: Field, house: House, order: int) -> dict:
        category = record.get("category", str)
        if category not in FighterCategory.values:
            record.fail("category", f"{category!r} is not a fighter category")
        stats = Field(record.path, f"{record.where}.stats", record.get("stats", dict))
        names = N18_STATS if self.edition == Edition.N18 else CLASSIC_STATS
        unknown = set(stats.record) - set(names)
        if unknown:
            stats.fail("", f"unknown characteristics {sorted(unknown)}")
        values = {field_name: stats.count(stat) for stat, field_name in names.items()}
        weapon_categories = record.strings("weapon_categories")
        for category_name in weapon_categories:
            if category_name not in WEAPON_CATEGORIES[self.edition]:
                record.fail("weapon_categories", f"{category_name!r} is not a {self.edition} weapon category")
        house_costs = record.get("house_costs", dict, required=False, default={})
        for slug, cost in house_costs.items():
            if not isinstance(cost, int) or isinstance(cost, bool) or cost < 0:
                record.fail(f"house_costs.{slug}", "must be a number of credits")
        return values | {
            "house": house,
            "category": category,
            "recruited_by": record.strings("recruited_by"),
            "house_costs": house_costs,
            "cost": record.count("cost"),
            "starting_xp": record.text("starting_xp"),
            "min_per_gang": record.count("min_per_gang", required=False) or 0,
            "max_per_gang": record.count("max_per_gang", required=False),
            "weapon_categories": weapon_categories,
            "special_rules": record.strings("special_rules"),
            "recruited_by_rule": record.text("recruited_by_rule"),
            "order": order,
        }

    def load_skill_access(self, house_record: Field, fighter_types: dict) -> None:
        classic_access = house_record.get("skill_access", dict, required=False, default={})
        for local_slug, (fighter_type, record) in fighter_types.items():
            if self.edition == Edition.CLASSIC:
                levels = {SkillAccessLevel.PRIMARY: classic_access.get(local_slug, [])}
                place = house_record
            else:
                access = Field(record.path, f"{record.where}.skill_access", record.get("skill_access", dict))
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

    def load_equipment_list(self, house_record: Field, fighter_types: dict) -> None:
        derived = self.allowance_lists(house_record, fighter_types)
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
            included = entry.get("included", bool, required=False, default=False)
            for local_slug in entry.strings("fighter_types"):
                if local_slug not in wanted:
                    entry.fail("fighter_types", f"{local_slug!r} is not a fighter type of this house")
                if item.pk in wanted[local_slug]:
                    entry.fail("item", f"{item.slug!r} is listed twice for {local_slug}")
                wanted[local_slug][item.pk] = {"cost": cost, "is_included": included}
        for local_slug, (fighter_type, _record) in fighter_types.items():
            # An entry the list writes out keeps its own price over the allowance's Trading Post price.
            rows = derived.get(local_slug, {}) | wanted[local_slug]
            self.sync_children(FighterTypeEquipment, "fighter_type", fighter_type, "equipment_id", rows)

    def allowance_lists(self, house_record: Field, fighter_types: dict) -> dict[str, dict[int, dict]]:
        """The lists of fighter types that take Trading Post items up to a Rarity when hired (Venators, Outcast
        Leaders and Champions): ``trading_post_allowance`` entries ``{"up_to_rarity", "fighter_types"}``, each
        type listing every such item of the edition's data at its Trading Post price (``rulebook.n18.trading_post
        .hire_allowance`` decides which), so the lists follow the Trading Post as it grows."""
        allowances = house_record.children("trading_post_allowance")
        if allowances and self.edition != Edition.N18:
            house_record.fail("trading_post_allowance", "only a 2018+ list takes Trading Post items by Rarity")
        derived: dict[str, dict[int, dict]] = {}
        for allowance in allowances:
            up_to = allowance.count("up_to_rarity")
            local_slugs = allowance.strings("fighter_types")
            if not local_slugs:
                allowance.fail("fighter_types", "names no fighter type")
            for local_slug in local_slugs:
                if local_slug not in fighter_types:
                    allowance.fail("fighter_types", f"{local_slug!r} is not a fighter type of this house")
                if local_slug in derived:
                    allowance.fail("fighter_types", f"{local_slug!r} has two allowances")
                fighter_type = fighter_types[local_slug][0]
                slugs = trading_post.hire_allowance(
                    self.trading_post_items(),
                    up_to=up_to,
                    weapon_categories=fighter_type.weapon_categories,
                    hierarchy=fighter_type.category in (FighterCategory.LEADER, FighterCategory.CHAMPION),
                )
                items = self.existing[Equipment]
                derived[local_slug] = {items[s].pk: {"cost": items[s].cost, "is_included": False} for s in slugs}
        return derived

    def trading_post_items(self) -> list[dict]:
        """The official items of this load, as :func:`rulebook.n18.trading_post.hire_allowance` reads them (read
        once: every list is loaded after the equipment)."""
        if self._trading_post_items is None:
            self._trading_post_items = [
                {f: getattr(row, f) for f in ("slug", "kind", "category", "rarity", "cost", "fits")}
                for row in self.existing[Equipment].values()
                if row.is_official and row.pk in self.seen[Equipment]
            ]
        return self._trading_post_items

    # --- territories ----------------------------------------------------------------------------------------
    def load_territory(self, record: Field) -> None:
        values = {
            "roll": record.text("roll"),
            "income": record.text("income"),
            "effects": record.text("effects"),
            "is_home_settlement": record.get("is_home_settlement", bool, required=False, default=False),
        }
        self.upsert(Territory, record.identity(), values, record)

    # --- rule summaries -------------------------------------------------------------------------------------
    def load_rule(self, record: Field) -> None:
        kind = record.get("kind", str)
        if kind not in RuleKind.values:
            record.fail("kind", f"must be one of {RuleKind.values}")
        summary = record.text("summary", required=True).strip()
        if not summary or "\n" in summary:
            record.fail("summary", "must be one line of text, not empty")
        values = {"kind": kind, "summary": summary, "aliases": record.strings("aliases")}
        self.upsert(Rule, record.identity(), values, record)
