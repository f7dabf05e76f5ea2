"""Export a gang as JSON and import it back (format described in docs/gang-export.md).

The file names content by slug (house, fighter types, equipment, skills), so it moves between
sites that loaded the same content. An import is checked whole before anything is written: a
bad file gives every problem with the path of the field (``fighters[2].equipment[0]``) and
creates nothing. The Stash, Reputation and experience arrive as ledger entries of kind
``credits``/``reputation``/``experience`` saying they were imported, so the totals still equal
the ledger. Exporting an imported gang gives the same file.
"""

from __future__ import annotations

import json

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.crypto import constant_time_compare, salted_hmac

from content.models import Edition, Equipment, FighterCategory, FighterType, House, HouseKind, Skill
from core.json_files import read_json_file
from gangs import import_rules
from gangs.models import (
    STATS_BY_EDITION,
    Advancement,
    Fighter,
    FighterSkill,
    FighterStatus,
    Gang,
    Injury,
    LedgerEntry,
    LedgerKind,
    Purchase,
    StatChange,
    StatChangeSource,
)

FORMAT = "underhive-ledger/gang"
VERSION = 1
MAX_FIGHTERS = 60
OVERRIDE_PRICE = "list price, by override"  # the reason gangs.services.purchase_buy gives an override purchase


# --- export ------------------------------------------------------------------------------------


def _changes(changes) -> list[dict]:
    return [{"stat": c.stat, "delta": c.delta} for c in changes]


def _skills(skills) -> list[str]:
    return [fs.skill.slug for fs in skills]


def _item(purchase: Purchase, overridden: set[int]) -> dict:
    item = {"equipment": purchase.equipment.slug, "price": purchase.price}
    if purchase.pk in overridden:
        item["override"] = "bought by an arbitrator's override"
    return item


def _overridden(gang: Gang) -> set[int]:
    """Purchases bought by an arbitrator's override: the file says so, and an import records it again."""
    entries = gang.ledger.filter(kind=LedgerKind.PURCHASE, reason=OVERRIDE_PRICE).values_list("data", flat=True)
    return {data.get("purchase") for data in entries}


def _fighter_export(fighter: Fighter, overridden: set[int]) -> dict:
    changes = list(fighter.stat_changes.all())
    skills = list(fighter.skills.all())
    return {
        "name": fighter.name,
        "type": fighter.fighter_type.slug,
        "cost": fighter.cost,
        "base_stats": dict(fighter.base_stats),
        "status": fighter.status,
        "experience": fighter.experience,
        "starting_experience": fighter.starting_experience,
        "kills": fighter.kills,
        "notes": fighter.notes,
        "equipment": [_item(p, overridden) for p in fighter.purchases.all()],
        "advancements": [
            {
                "kind": a.kind,
                "description": a.description,
                "xp_cost": a.xp_cost,
                "value": a.value,
                "dice": a.dice,
                "stat_changes": _changes(c for c in changes if c.advancement_id == a.pk),
                "skills": _skills(s for s in skills if s.advancement_id == a.pk),
            }
            for a in fighter.advancements.all()
        ],
        "injuries": [
            {
                "code": i.code,
                "name": i.name,
                "roll": i.roll,
                "effects": i.effects,
                "stat_changes": _changes(c for c in changes if c.injury_id == i.pk),
                "skills": _skills(s for s in skills if s.injury_id == i.pk),
            }
            for i in fighter.injuries.all()
        ],
        "stat_changes": _changes(c for c in changes if not c.advancement_id and not c.injury_id),
        "skills": _skills(s for s in skills if not s.advancement_id and not s.injury_id),
    }


def _importable_types(house: House) -> dict[str, FighterType]:
    """The house list and the Hangers-on and Brutes the house may recruit. Hired Guns are left out: they
    are hired for one battle of a campaign on this site, not carried in a gang's file."""
    additions = FighterType.objects.filter(house__kind=HouseKind.ADDITIONS, edition=house.edition).exclude(
        category=FighterCategory.HIRED_GUN
    )
    types = {t.slug: t for t in FighterType.objects.filter(house=house)}
    return types | {t.slug: t for t in additions if t.recruitable_by(house)}


def gang_export(gang: Gang) -> dict:
    overridden = _overridden(gang)
    # Hired Guns are not on the roster (each is hired for one battle here), so the file leaves them out, as it
    # leaves out fighters taken back at founding.
    fighters = (
        gang.fighters.exclude(fighter_type__category=FighterCategory.HIRED_GUN)
        .exclude(status=FighterStatus.REMOVED)
        .select_related("fighter_type")
        .prefetch_related("stat_changes", "skills__skill", "advancements", "injuries", "purchases__equipment")
    )
    data = {
        "format": FORMAT,
        "version": VERSION,
        "edition": gang.edition,
        "house": gang.house.slug,
        "name": gang.name,
        "notes": gang.notes,
        "stash": gang.stash,
        "reputation": gang.reputation,
        "stash_items": [
            _item(p, overridden) for p in gang.purchases.filter(fighter__isnull=True).select_related("equipment")
        ],
        "fighters": [_fighter_export(f, overridden) for f in fighters],
    }
    return data | {"signature": file_signature(data)}


# --- validation --------------------------------------------------------------------------------

MAX_FILE_BYTES = 1024 * 1024
MAX_ITEMS = 40  # a fighter's equipment, and the Stash
MAX_ADVANCEMENTS = 30  # a 2018+ fighter with 30 advancements spent over 300 XP; classic has 20 thresholds
MAX_INJURIES = 20
MAX_ITEMS_IN_ALL = 400  # every item of the gang together: a gang carries a few each, not 40 on each of 60
# Tighter than MAX_NUMBER, for the totals a forged file inflates (issue 26: a Stash of 1,000,000); above these
# the file is refused, below them what no recorded history explains is flagged (import_rules.roster_flags).
MOST = {"stash": 100_000, "reputation": 100, "experience": 1_000, "starting_experience": 1_000, "kills": 500}
MAX_DEPTH = 10  # an export nests 6 deep (fighters → injuries → effects); anything deeper is not ours
MAX_NUMBER = 1_000_000  # credits, experience and counts above this are not a gang's


class _Checker:
    """Collects every problem in plain words; a fighter's problems start with the fighter's name."""

    def __init__(self) -> None:
        self.errors: list[str] = []

    def fail(self, path: str, message: str) -> None:
        self.errors.append(f"{path}: {message}")

    def kind(self, data: dict, key: str, types, path: str, *, required: bool = True):
        if key not in data:
            if required:
                self.fail(f"{path}{key}", "is missing")
            return None
        value = data[key]
        if isinstance(value, bool) or not isinstance(value, types):
            self.fail(f"{path}{key}", f"must be {_names(types)}")
            return None
        return value

    def count(self, data: dict, key: str, path: str, *, low: int | None = 0, required: bool = True) -> int | None:
        value = self.kind(data, key, int, path, required=required)
        if value is not None and low is not None and value < low:
            self.fail(f"{path}{key}", f"must be {low} or more")
            return None
        if value is not None and abs(value) > MAX_NUMBER:
            self.fail(f"{path}{key}", f"must be at most {MAX_NUMBER:,}")
            return None
        if value is not None and key in MOST and value > MOST[key]:
            self.fail(f"{path}{key}", f"{value:,} is more than any gang here holds (at most {MOST[key]:,})")
            return None
        return value

    def text(self, data: dict, key: str, path: str, *, max_length: int, blank: bool = True) -> str | None:
        value = self.kind(data, key, str, path, required=not blank)
        if value is None:
            return None
        if not blank and not value.strip():
            self.fail(f"{path}{key}", "must not be empty")
        if len(value) > max_length:
            self.fail(f"{path}{key}", f"is longer than {max_length} characters")
        return value

    def items(self, data: dict, key: str, path: str, *, required: bool = False, most: int | None = None) -> list:
        value = self.kind(data, key, list, path, required=required)
        if value is None:
            return []
        if most is not None and len(value) > most:
            self.fail(f"{path}{key}", f"holds {len(value)}; at most {most}")
            return []
        good = []
        for index, item in enumerate(value):
            if isinstance(item, dict):
                good.append((f"{path}{key}[{index}].", item))
            else:
                self.fail(f"{path}{key}[{index}]", "must be an object")
        return good


def _names(types) -> str:
    names = {int: "a whole number", str: "text", list: "a list", dict: "an object"}
    types = types if isinstance(types, tuple) else (types,)
    return " or ".join(names.get(t, t.__name__) for t in types)


def _shape_problem(data, *, max_depth: int = MAX_DEPTH) -> str | None:
    """A file too deep, or holding a character the database refuses, is not a gang export (checked
    without recursion, so no file can exhaust the stack). The campaign export, which nests a gang's
    records in a campaign, reads its files with this too (``max_depth``)."""
    stack = [(data, 1)]
    while stack:
        value, depth = stack.pop()
        if depth > max_depth:
            return f"values are nested more than {max_depth} deep; a gang export is not"
        if isinstance(value, dict):
            stack.extend((k, depth) for k in value)
            stack.extend((v, depth + 1) for v in value.values())
        elif isinstance(value, list):
            stack.extend((v, depth + 1) for v in value)
        elif isinstance(value, str) and "\x00" in value:
            return "a text holds a NUL character, which no gang's text does"
        elif isinstance(value, float):
            return f"{value!r}: numbers in a gang export are whole numbers"
    return None


def _check_changes(check: _Checker, data: dict, path: str, codes: tuple) -> None:
    for where, change in check.items(data, "stat_changes", path, most=len(codes)):
        if _slug(change.get("stat")) not in codes:
            check.fail(f"{where}stat", f"must be one of {', '.join(codes)}")
        delta = check.count(change, "delta", where, low=None)
        if delta == 0:
            check.fail(f"{where}delta", "must not be 0")
        elif delta is not None and abs(delta) > 20:
            check.fail(f"{where}delta", "must be between -20 and 20")


def _check_skills(check: _Checker, data: dict, path: str, skills: dict) -> None:
    value = check.kind(data, "skills", list, path, required=False) or []
    for index, slug in enumerate(value):
        if not isinstance(slug, str) or slug not in skills:
            check.fail(f"{path}skills[{index}]", f"unknown skill {slug!r}")


def _check_dice(check: _Checker, data: dict, path: str) -> None:
    for where, die in check.items(data, "dice", path, required=False, most=10):
        if not isinstance(die.get("die"), str) or not isinstance(die.get("for", ""), str):
            check.fail(f"{where[:-1]}", 'must be a die: {"die": "D6", "for": "...", "value": 3}')
        value = die.get("value")
        if isinstance(value, bool) or not isinstance(value, int | str):
            check.fail(f"{where}value", "must be a face of the die (a whole number or a word)")


def _check_effects(check: _Checker, data: dict, path: str) -> None:
    effects = data.get("effects", {})
    if effects == []:  # older files wrote an empty list
        return
    if not isinstance(effects, dict) or any(
        isinstance(v, bool) or not isinstance(v, int | str) for v in effects.values()
    ):
        check.fail(f"{path}effects", "must be an object of characteristic changes and notes")


def _check_equipment(check: _Checker, data: dict, key: str, path: str, equipment: dict) -> None:
    for where, item in check.items(data, key, path, most=MAX_ITEMS):
        if _slug(item.get("equipment")) not in equipment:
            check.fail(f"{where}equipment", f"unknown equipment {item.get('equipment')!r}")
        check.count(item, "price", where)
        if "override" in item:
            check.text(item, "override", where, max_length=300, blank=False)


def _slug(value) -> str | None:
    """A slug as a lookup key: text only (a list or an object in its place is refused, never hashed)."""
    return value if isinstance(value, str) else None


def _fighter_label(index: int, data: dict) -> str:
    name = data.get("name")
    if isinstance(name, str) and name.strip() and len(name) <= 80:
        return f"{name.strip()}: "
    return f"Fighter {index + 1}: "


def _check_fighter(check: _Checker, path: str, data: dict, types: dict, content: dict, codes: tuple) -> None:
    check.text(data, "name", path, max_length=80, blank=False)
    if _slug(data.get("type")) not in types:
        check.fail(
            f"{path}type", f"{data.get('type')!r} is not a fighter type of the {content['house'].name} house list"
        )
    check.count(data, "cost", path)
    stats = check.kind(data, "base_stats", dict, path)
    if stats is not None:
        if set(stats) != set(codes):
            check.fail(f"{path}base_stats", f"must give exactly {', '.join(codes)}")
        for code, value in stats.items():
            if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 20:
                check.fail(f"{path}base_stats.{code}", "must be a whole number from 0 to 20")
    if _slug(data.get("status")) not in FighterStatus.values:
        check.fail(f"{path}status", f"must be one of {', '.join(FighterStatus.values)}")
    for key in ("experience", "starting_experience", "kills"):
        check.count(data, key, path)
    check.text(data, "notes", path, max_length=10_000)
    _check_equipment(check, data, "equipment", path, content["equipment"])
    for where, advancement in check.items(data, "advancements", path, most=MAX_ADVANCEMENTS):
        if _slug(advancement.get("kind")) not in Advancement.Kind.values:
            check.fail(f"{where}kind", f"must be one of {', '.join(Advancement.Kind.values)}")
        check.text(advancement, "description", where, max_length=200, blank=False)
        check.count(advancement, "xp_cost", where)
        check.count(advancement, "value", where, low=None)
        _check_dice(check, advancement, where)
        _check_changes(check, advancement, where, codes)
        _check_skills(check, advancement, where, content["skills"])
    for where, injury in check.items(data, "injuries", path, most=MAX_INJURIES):
        check.text(injury, "code", where, max_length=60, blank=False)
        check.text(injury, "name", where, max_length=80, blank=False)
        if injury.get("roll") is not None:
            check.count(injury, "roll", where, low=1)
        _check_effects(check, injury, where)
        _check_changes(check, injury, where, codes)
        _check_skills(check, injury, where, content["skills"])
    _check_changes(check, data, path, codes)
    _check_skills(check, data, path, content["skills"])


def gang_import_check(data) -> tuple[list[str], dict]:
    """Every problem in ``data`` (a parsed file), and the content rows it refers to.

    First the shape (every field of the right kind, within the limits), then, for a well-formed file,
    the rules (:func:`gangs.import_rules.roster_problems`): the gang must be one that could have been
    built here.
    """
    check = _Checker()
    if not isinstance(data, dict):
        return ["This is not a gang export: the file must hold one JSON object."], {}
    shape = _shape_problem(data)
    if shape:
        return [f"This is not a gang export: {shape}."], {}
    if data.get("format") != FORMAT:
        check.fail("format", f"must be {FORMAT!r}; is this a gang export?")
    if data.get("version") != VERSION:
        check.fail("version", f"version {data.get('version')!r} is not supported; this site reads version {VERSION}")
    edition = data.get("edition")
    if _slug(edition) not in Edition.values:
        check.fail("edition", f"must be one of {', '.join(Edition.values)}")
        return check.errors, {}
    house = (
        House.objects.active()
        .filter(edition=edition, slug=_slug(data.get("house")) or "", kind=HouseKind.GANG_LIST)
        .first()
    )
    if house is None:
        check.fail("house", f"unknown {edition} house {data.get('house')!r}")
        return check.errors, {}
    content = {
        "house": house,
        "types": _importable_types(house),
        "equipment": {e.slug: e for e in Equipment.objects.filter(edition=edition)},
        "skills": {s.slug: s for s in Skill.objects.filter(edition=edition).select_related("table")},
    }
    check.text(data, "name", "", max_length=80, blank=False)
    check.text(data, "notes", "", max_length=10_000)
    check.count(data, "stash", "")
    check.count(data, "reputation", "")
    before = len(check.errors)
    _check_equipment(check, data, "stash_items", "", content["equipment"])
    stash_ok = len(check.errors) == before
    fighters = check.kind(data, "fighters", list, "")
    if fighters is not None and len(fighters) > MAX_FIGHTERS:
        check.fail("fighters", f"the file holds {len(fighters)} fighters; a gang here has at most {MAX_FIGHTERS}")
        return check.errors, content
    lists = [f.get("equipment") for f in fighters or [] if isinstance(f, dict)] + [data.get("stash_items")]
    items = sum(len(held) for held in lists if isinstance(held, list))
    if items > MAX_ITEMS_IN_ALL:
        check.fail("equipment", f"the file holds {items:,} items; a gang here carries at most {MAX_ITEMS_IN_ALL}")
        return check.errors, content
    well_formed = []
    for index, fighter in enumerate(fighters or []):
        if not isinstance(fighter, dict):
            check.fail(f"fighters[{index}]", "must be an object")
            continue
        before = len(check.errors)
        label = _fighter_label(index, fighter)
        _check_fighter(check, label, fighter, content["types"], content, STATS_BY_EDITION[edition])
        if len(check.errors) == before:
            well_formed.append(fighter)
    # The rules read every part whose shape is right, so one typo does not hide a forged stat line;
    # the composition needs the whole roster.
    whole = fighters is not None and len(well_formed) == len(fighters)
    readable = {"fighters": well_formed, "stash_items": data.get("stash_items", []) if stash_ok else []}
    check.errors.extend(import_rules.roster_problems(readable, content, composition=whole))
    return check.errors, content


NOT_AN_EXPORT = "This is not a gang export from Underhive Ledger"


def parse_gang_file(raw: bytes) -> dict:
    """The parsed file, or a ``ValidationError`` that says in plain words why it is not a gang export."""
    too_large = "The file is larger than 1 MiB; a gang export is at most 1 MiB."
    return read_json_file(raw, max_bytes=MAX_FILE_BYTES, too_large=too_large, not_what=NOT_AN_EXPORT)


# --- import ------------------------------------------------------------------------------------

SIGNATURE_SALT = "gangs.exchange.gang-file"


def file_signature(data: dict) -> str:
    """This site's mark on a file it exported: an HMAC of the file without its ``signature`` under the site's
    secret key. An import checks it to tell an untouched export from an edited one (or another site's); the
    same roster gives the same signature, so an export of an import is still the same file."""
    body = json.dumps({k: v for k, v in data.items() if k != "signature"}, sort_keys=True, separators=(",", ":"))
    return salted_hmac(SIGNATURE_SALT, body, algorithm="sha256").hexdigest()


def signed(data: dict) -> bool:
    mark = data.get("signature")
    return isinstance(mark, str) and constant_time_compare(mark, file_signature(data))


class _Rows:
    """The rows of an import, written in bulk: one INSERT per table, not a save (and a version bump) per row."""

    def __init__(self) -> None:
        self.purchases: list[tuple[Purchase, dict]] = []
        self.advancements: list[tuple[Advancement, dict]] = []
        self.injuries: list[tuple[Injury, dict]] = []
        self.changes: list[StatChange] = []
        self.skills: list[FighterSkill] = []
        self.entries: list[LedgerEntry] = []

    def linked(self, fighter: Fighter, part: dict, content: dict, source: str, **link) -> None:
        for change in part.get("stat_changes", []):
            self.changes.append(
                StatChange(fighter=fighter, stat=change["stat"], delta=change["delta"], source=source, **link)
            )
        self.skills += [
            FighterSkill(fighter=fighter, skill=content["skills"][s], **link) for s in part.get("skills", [])
        ]


def _fighter_rows(gang: Gang, data: dict, content: dict) -> list[Fighter]:
    return [
        Fighter(
            gang=gang,
            fighter_type=content["types"][f["type"]],
            name=f["name"].strip(),
            cost=f["cost"],
            base_stats=f["base_stats"],
            status=f["status"],
            experience=f["experience"],
            starting_experience=f["starting_experience"],
            kills=f["kills"],
            notes=f.get("notes", ""),
            order=order,
        )
        for order, f in enumerate(data["fighters"], start=1)
    ]


def import_rows(
    *,
    gang: Gang,
    data: dict,
    content: dict,
    actor,
    flags: tuple[list, list],
    source: str,
    entry_data: dict | None = None,
) -> None:
    """Write the roster ``data`` describes (already checked) into the new ``gang``, in bulk, with the ledger
    entries that say it was imported from ``source`` and every flag. The gang was created with the file's Stash
    and Reputation, and each fighter is created with its experience: the entries written here add up to them,
    so the totals equal the ledger as :func:`gangs.ledger.ledger_record` keeps them elsewhere. Bulk writes send
    no signals: the gang's roster version moved once, when it was created in this transaction."""
    gang_flags, fighter_flags = flags
    rows = _Rows()
    fighters = Fighter.objects.bulk_create(_fighter_rows(gang, data, content))
    held = [(None, item) for item in data.get("stash_items", [])]
    for fighter, f in zip(fighters, data["fighters"], strict=True):
        held += [(fighter, item) for item in f.get("equipment", [])]
        rows.advancements += [
            (
                Advancement(
                    fighter=fighter,
                    kind=a["kind"],
                    description=a["description"],
                    xp_cost=a["xp_cost"],
                    value=a["value"],
                    dice=a.get("dice", []),
                ),
                a,
            )
            for a in f.get("advancements", [])
        ]
        rows.injuries += [
            (
                Injury(
                    fighter=fighter,
                    code=i["code"],
                    name=i["name"],
                    roll=i.get("roll"),
                    effects=Injury.notes_only(i.get("effects")),
                ),
                i,
            )
            for i in f.get("injuries", [])
        ]
        rows.linked(fighter, f, content, StatChangeSource.OTHER)
    purchases = Purchase.objects.bulk_create(
        [
            Purchase(gang=gang, fighter=fighter, equipment=content["equipment"][item["equipment"]], price=item["price"])
            for fighter, item in held
        ]
    )
    Advancement.objects.bulk_create([a for a, _ in rows.advancements])
    Injury.objects.bulk_create([i for i, _ in rows.injuries])
    for advancement, part in rows.advancements:
        rows.linked(advancement.fighter, part, content, StatChangeSource.ADVANCEMENT, advancement=advancement)
    for injury, part in rows.injuries:
        rows.linked(injury.fighter, part, content, StatChangeSource.INJURY, injury=injury)
    StatChange.objects.bulk_create(rows.changes)
    FighterSkill.objects.bulk_create(rows.skills)
    reason = f"Imported from {source}"
    entry = {"gang": gang, "actor": actor, "reason": reason}
    rows.entries.append(
        LedgerEntry(
            kind=LedgerKind.CREDITS,
            credits=data["stash"],
            reputation=data["reputation"],
            description=f"Imported with {data['stash']} credits in the Stash and {data['reputation']} Reputation",
            data={"imported": source, "flags": gang_flags, **(entry_data or {})},
            **entry,
        )
    )
    for purchase, (fighter, item) in zip(purchases, held, strict=True):
        if item.get("override"):  # off the list or at another price: the ledger says so, and it is flagged
            rows.entries.append(
                LedgerEntry(
                    kind=LedgerKind.PURCHASE,
                    fighter=fighter,
                    gang=gang,
                    actor=actor,
                    reason=OVERRIDE_PRICE,
                    description=f"Imported {purchase.equipment.name} for {fighter.name if fighter else 'the Stash'} "
                    f"({purchase.price} credits) by an arbitrator's override: {item['override'].strip()}",
                    data={
                        "purchase": purchase.pk,
                        "equipment": purchase.equipment.slug,
                        "price": purchase.price,
                        "imported": True,
                    },
                )
            )
    for fighter, own_flags in zip(fighters, fighter_flags, strict=True):
        if fighter.experience or own_flags:
            rows.entries.append(
                LedgerEntry(
                    kind=LedgerKind.EXPERIENCE if fighter.experience else LedgerKind.OTHER,
                    fighter=fighter,
                    experience=fighter.experience,
                    data={"imported": source, "flags": own_flags},
                    description=f"{fighter.name} imported"
                    + (f" with {fighter.experience} XP" if fighter.experience else ""),
                    **entry,
                )
            )
    LedgerEntry.objects.bulk_create(rows.entries)


@transaction.atomic
def gang_import(*, owner, data, actor=None) -> Gang:
    """Create the gang ``data`` describes for ``owner``; ``ValidationError`` listing every problem, nothing created.

    A player's file carries no arbitrator's decision: what it claims beyond what a new gang could have (an
    ``override``, a Stash, experience, injuries) is kept as flags (:func:`gangs.import_rules.roster_flags`) on
    the gang page and cards, for an arbitrator to accept when the gang joins a campaign."""
    errors, content = gang_import_check(data)
    if errors:
        raise ValidationError(errors)
    flags = import_rules.roster_flags(data, content, signed=signed(data))
    gang = Gang.objects.create(
        owner=owner,
        edition=data["edition"],
        house=content["house"],
        name=data["name"].strip(),
        notes=data.get("notes", ""),
        stash=data["stash"],
        reputation=data["reputation"],
    )
    import_rows(gang=gang, data=data, content=content, actor=actor or owner, flags=flags, source="a file")
    return gang
