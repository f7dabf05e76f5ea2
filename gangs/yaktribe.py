"""Import a YakTribe gang (the 2018+ rules): read its JSON, place every name in the content, preview, create.

The format, as described from public samples (YakTribe serves each gang at ``/underhive/json/gang/<id>.json``):
one key ``gang`` holding the gang (``gang_name``, ``gang_type`` — the gang list's display name —, ``credits``,
``reputation``, ``stash``, ``gang_notes``, ``gangers``); each ganger has ``name``, ``type`` (the fighter type's
display name), the stat line ``m ws bs s t w i a ld cl wil int`` as whole numbers (targets as the bare number:
``ws: 3`` is 3+; 0 for a characteristic the fighter lacks), ``cost``, ``xp``, ``kills`` and ``advance_count`` as
strings of digits, ``equipment`` as ``{name, qty}`` (profile or ammo choices folded into the name: "Grenade
Launcher w/Frag+Krak"), ``skills`` and ``injuries`` as names, ``status`` ("Alive", "Recovery", "Dead") and
``notes``. Prices, profiles, how each advancement was bought and the XP history are not in the file.

So the import (docs/yaktribe-import.md):

1. :func:`parse_file` refuses a file that is not such a gang, whole, naming every problem (size, nesting, NUL,
   fractions, wrong types);
2. :func:`preview` places each name — the gang list, each fighter's type, items, skills and Lasting Injuries —
   ignoring case, spelling variants (armor/armour), plurals, punctuation and "w/" suffixes, and lists, fighter by
   fighter, every name it could not place with the nearest names to choose from, and the stat line as given
   with every difference from the type's line and its injuries, which nothing recorded explains;
3. :func:`yaktribe_import` writes the gang in bulk (:func:`gangs.exchange.import_rows`) with the player's
   choices, dead fighters dead, and one ledger entry naming the import and every flag, which the gang page and
   the cards show, and an arbitrator reads when the gang asks to join a campaign (gangs.selectors.import_flags).
"""

from __future__ import annotations

import difflib
import hashlib
import http.client
import re
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import transaction

from content.models import Edition, Equipment, FighterType, FighterTypeEquipment, House, HouseKind, Skill
from core.json_files import read_json_file
from gangs import exchange
from gangs.models import STATS_N18, FighterStatus, Gang, LedgerEntry
from gangs.selectors.record import INJURY_RULES
from gangs.services import TYPE_STAT_FIELDS
from rulebook.n18.campaign.lasting_injury import characteristic_text
from rulebook.numbers import whole_number

MAX_FILE_BYTES = 1024 * 1024
MAX_DEPTH = 7  # the file → gang → gangers → ganger → equipment → item → its name: 7 deep
MAX_GANGERS = exchange.MAX_FIGHTERS
MAX_ITEMS = exchange.MAX_ITEMS
MAX_QTY = 10
FETCH_SECONDS = 5
STATUSES = {"alive": FighterStatus.ACTIVE, "recovery": FighterStatus.RECOVERY, "dead": FighterStatus.DEAD}
# The file's stat keys, in the roster's order.
STAT_KEYS = dict(zip(("m", "ws", "bs", "s", "t", "w", "i", "a", "ld", "cl", "wil", "int"), STATS_N18, strict=True))
NOT_A_GANG = "This is not a YakTribe gang file"
# The form fields a preview's choices are posted in: "<what>-<fighter>-<position>" (gangs.views).
CHOICE_FIELDS = ("house", "type", "item", "skill", "injury", "stash")


# --- reading the file ---------------------------------------------------------------------------------


def parse_file(raw: bytes) -> dict:
    """The file's JSON, or a ``ValidationError`` naming every reason it is not a YakTribe gang."""
    too_large = f"{NOT_A_GANG}: it is larger than 1 MiB; a gang's file is a few kilobytes."
    data = read_json_file(raw, max_bytes=MAX_FILE_BYTES, too_large=too_large, not_what=NOT_A_GANG)
    problems = _hostile(data)
    if problems:
        raise ValidationError([f"{NOT_A_GANG}: {p}." for p in problems])
    return data


def _hostile(data) -> list[str]:
    """Every nesting, NUL or fraction problem, found without recursion."""
    problems: set[str] = set()
    stack = [(data, 1)]
    while stack:
        value, depth = stack.pop()
        if depth > MAX_DEPTH:
            problems.add(f"values are nested more than {MAX_DEPTH} deep")
            continue
        if isinstance(value, dict):
            stack.extend((k, depth) for k in value)
            stack.extend((v, depth + 1) for v in value.values())
        elif isinstance(value, list):
            stack.extend((v, depth + 1) for v in value)
        elif isinstance(value, str) and "\x00" in value:
            problems.add("a text holds a NUL character")
        elif isinstance(value, float):
            problems.add(f"{value!r} is not a whole number")
    return sorted(problems)


def _number(value, path: str, problems: list, *, most: int) -> int:
    """A count the file gives as a string of digits (or a whole number); "" reads as 0."""
    if isinstance(value, bool) or value is None:
        number = None
    elif isinstance(value, int):
        number = value
    elif isinstance(value, str):
        number = 0 if not value.strip() else whole_number(value)
    else:
        number = None
    if number is None or number < 0:
        problems.append(f"{path}: {value!r} is not a whole number of 0 or more")
        return 0
    if number > most:
        problems.append(f"{path}: {number:,} is more than a gang here holds (at most {most:,})")
        return 0
    return number


def _text(value, path: str, problems: list, *, most: int, required: bool = False) -> str:
    if value is None and not required:
        return ""
    if not isinstance(value, str):
        problems.append(f"{path}: must be text")
        return ""
    if required and not value.strip():
        problems.append(f"{path}: must not be empty")
    if len(value) > most:
        problems.append(f"{path}: is longer than {most:,} characters")
        return value[:most]
    return value


def _names(value, path: str, problems: list) -> list[tuple[str, int]]:
    """A list of names, as plain strings or ``{name, qty}`` objects: (name, qty) each."""
    if value is None:
        return []
    if not isinstance(value, list):
        problems.append(f"{path}: must be a list")
        return []
    if len(value) > MAX_ITEMS:
        problems.append(f"{path}: holds {len(value)}; at most {MAX_ITEMS}")
        return []
    found = []
    for index, item in enumerate(value):
        where = f"{path}[{index}]"
        if isinstance(item, str):
            name, qty = item, 1
        elif isinstance(item, dict):
            name = item.get("name")
            qty = _number(item.get("qty", "1"), f"{where}.qty", problems, most=MAX_QTY) if "qty" in item else 1
        else:
            problems.append(f"{where}: must be a name or {{name, qty}}")
            continue
        if not isinstance(name, str) or not name.strip() or len(name) > 120:
            problems.append(f"{where}: the name must be text of 1 to 120 characters")
            continue
        found.append((name.strip(), qty))
    return found


@dataclass
class Ganger:
    name: str
    type_name: str
    stats: dict[str, int]
    cost: int
    xp: int
    kills: int
    advance_count: int
    equipment: list[tuple[str, int]]
    skills: list[str]
    injuries: list[str]
    status: str
    notes: str

    @property
    def status_label(self) -> str:
        return FighterStatus(self.status).label


@dataclass
class GangFile:
    gang_id: str
    name: str
    gang_type: str
    credits: int
    reputation: int
    notes: str
    stash: list[tuple[str, int]]
    gangers: list[Ganger]


def read(data) -> GangFile:
    """The gang the parsed file describes, or a ``ValidationError`` naming every problem of its shape."""
    problems: list[str] = []
    gang = data.get("gang") if isinstance(data, dict) else None
    if not isinstance(gang, dict):
        raise ValidationError([f'{NOT_A_GANG}: it must hold one object with the key "gang".'])
    name = _text(gang.get("gang_name"), "gang_name", problems, most=80, required=True)
    gang_type = _text(gang.get("gang_type"), "gang_type", problems, most=120, required=True)
    gang_id = gang.get("gang_id", "")
    if not isinstance(gang_id, str | int) or isinstance(gang_id, bool) or not re.fullmatch(r"\d{0,12}", str(gang_id)):
        problems.append("gang_id: must be a string of digits")
        gang_id = ""
    credits = _number(gang.get("credits", "0"), "credits", problems, most=exchange.MOST["stash"])
    reputation = _number(gang.get("reputation", "0"), "reputation", problems, most=exchange.MOST["reputation"])
    notes = _text(gang.get("gang_notes"), "gang_notes", problems, most=10_000)
    stash = _names(gang.get("stash"), "stash", problems)
    raw_gangers = gang.get("gangers")
    gangers = []
    if not isinstance(raw_gangers, list):
        problems.append("gangers: must be a list")
    elif len(raw_gangers) > MAX_GANGERS:
        problems.append(f"gangers: the file holds {len(raw_gangers)}; a gang here has at most {MAX_GANGERS}")
    else:
        for index, raw in enumerate(raw_gangers):
            ganger = _ganger(raw, index, problems)
            if ganger:
                gangers.append(ganger)
    items = sum(qty for g in gangers for _, qty in g.equipment) + sum(qty for _, qty in stash)
    if items > exchange.MAX_ITEMS_IN_ALL:
        problems.append(f"equipment: the file holds {items:,} items; a gang here carries at most 400")
    if problems:
        raise ValidationError(problems)
    return GangFile(str(gang_id), name.strip(), gang_type.strip(), credits, reputation, notes, stash, gangers)


def _ganger(raw, index: int, problems: list) -> Ganger | None:
    if not isinstance(raw, dict):
        problems.append(f"gangers[{index}]: must be an object")
        return None
    given = raw.get("name")
    label = given.strip() if isinstance(given, str) and given.strip() and len(given) <= 80 else f"Ganger {index + 1}"
    before = len(problems)
    name = _text(given, f"{label}: name", problems, most=80, required=True)
    type_name = _text(raw.get("type"), f"{label}: type", problems, most=120, required=True)
    stats = {}
    for key, code in STAT_KEYS.items():
        value = raw.get(key, 0)
        number = value if isinstance(value, int) and not isinstance(value, bool) else None
        if isinstance(value, str):
            number = whole_number(value)
        if number is None or not 0 <= number <= 20:
            problems.append(f"{label}: {key}: {value!r} is not a characteristic from 0 to 20")
        else:
            stats[code] = number
    status = raw.get("status", "Alive")
    if not isinstance(status, str) or status.strip().lower() not in STATUSES:
        problems.append(f"{label}: status {status!r} is not one this site reads (Alive, Recovery or Dead)")
        status = "alive"
    ganger = Ganger(
        name=name.strip(),
        type_name=type_name.strip(),
        stats=stats,
        cost=_number(raw.get("cost", "0"), f"{label}: cost", problems, most=10_000),
        xp=_number(raw.get("xp", "0"), f"{label}: xp", problems, most=exchange.MOST["experience"]),
        kills=_number(raw.get("kills", "0"), f"{label}: kills", problems, most=exchange.MOST["kills"]),
        advance_count=_number(raw.get("advance_count", "0"), f"{label}: advance_count", problems, most=100),
        equipment=_names(raw.get("equipment"), f"{label}: equipment", problems),
        skills=[n for n, _ in _names(raw.get("skills"), f"{label}: skills", problems)],
        injuries=[n for n, _ in _names(raw.get("injuries"), f"{label}: injuries", problems)],
        status=STATUSES[status.strip().lower()],
        notes=_text(raw.get("notes"), f"{label}: notes", problems, most=10_000),
    )
    return ganger if len(problems) == before else None


# --- placing names --------------------------------------------------------------------------------


def name_key(name: str) -> str:
    """A name as it is matched: lower case, American spellings and punctuation gone, plurals singular, and a
    "w/..." suffix (a profile or ammo choice YakTribe folds into the name) left off."""
    name = re.split(r"\s+w/|\s+with\s", name.lower(), maxsplit=1)[0]
    name = name.replace("armor", "armour")
    words = re.findall(r"[a-z0-9]+", name)
    return " ".join(w[:-1] if len(w) > 3 and w.endswith("s") and not w.endswith("ss") else w for w in words)


def suffix(name: str) -> str:
    """The "w/..." part of a name, kept as a note on the purchase."""
    match = re.search(r"\s+(w/.*|with\s.*)$", name, flags=re.IGNORECASE)
    return match.group(1) if match else ""


class Catalogue:
    """Content rows by name key, with the nearest names for a key that matches none."""

    def __init__(self, rows, name=lambda row: row.name) -> None:
        rows = list(rows)
        # Exact names first; then each name without its bracketed qualifier, where no exact name has it.
        self.rows: dict[str, object] = {}
        for row in rows:
            self.rows.setdefault(name_key(name(row)), row)
        for row in rows:
            self.rows.setdefault(name_key(re.sub(r"\s*\(.*?\)", "", name(row))), row)

    def find(self, given: str):
        return self.rows.get(name_key(given))

    def nearest(self, given: str, most: int = 4) -> list:
        keys = difflib.get_close_matches(name_key(given), list(self.rows), n=most * 2, cutoff=0.5)
        return list({id(self.rows[k]): self.rows[k] for k in keys}.values())[:most]


@dataclass
class Placed:
    """A name from the file and what it was matched to (``match``), or the nearest choices (``options``)."""

    key: str  # the form field a choice for it is posted in
    given: str
    match: object | None
    options: list = field(default_factory=list)
    qty: int = 1
    note: str = ""

    @property
    def placed(self) -> bool:
        return self.match is not None

    @property
    def label(self) -> str:
        return _label(self.match) if self.match is not None else ""

    @property
    def choices(self) -> list[tuple[str, str]]:
        """The nearest names, as (posted value, name), for the player to choose from."""
        return [(choice_value(o), _label(o)) for o in self.options]


def _label(row) -> str:
    return row.result if hasattr(row, "result") else row.name


@dataclass
class StatRow:
    code: str
    given: int
    expected: int | None
    shown_given: str
    shown_expected: str

    @property
    def unexplained(self) -> bool:
        return self.expected is not None and self.given and self.given != self.expected


@dataclass
class FighterPreview:
    index: int
    ganger: Ganger
    fighter_type: Placed
    items: list[Placed]
    skills: list[Placed]
    injuries: list[Placed]
    left_out: list[str] = field(default_factory=list)

    def stat_rows(self) -> list[StatRow]:
        chosen = self.fighter_type.match
        expected = _expected_stats(chosen, [i.match for i in self.injuries if i.match]) if chosen else {}
        return [
            StatRow(code, given, expected.get(code), _shown(code, given), _shown(code, expected.get(code)))
            for code, given in self.ganger.stats.items()
        ]

    @property
    def differences(self) -> list[StatRow]:
        return [row for row in self.stat_rows() if row.unexplained]

    @property
    def unplaced(self) -> list[Placed]:
        return [p for p in [self.fighter_type, *self.items, *self.skills, *self.injuries] if not p.placed]


@dataclass
class Preview:
    file: GangFile
    house: Placed
    fighters: list[FighterPreview]
    stash: list[Placed]
    content: _Content | None = None

    @property
    def unplaced_count(self) -> int:
        return sum(len(f.unplaced) for f in self.fighters) + sum(1 for s in self.stash if not s.placed)


def _shown(code: str, value) -> str:
    if value is None:
        return "—"
    if not value:
        return "-"
    return characteristic_text(code, value)


def _injury_rows() -> list:
    """The Lasting Injury results a fighter carries (those the table records), as the rulebook has them."""
    return [row for row in INJURY_RULES[Edition.N18].table.rows if row.details.get("record_injury")]


def _injury_deltas(row) -> dict[str, int]:
    rules = INJURY_RULES[Edition.N18]
    deltas: dict[str, int] = {}
    for effect in row.details["effects"]:
        if effect["kind"] == "characteristic":
            deltas[effect["characteristic"]] = deltas.get(effect["characteristic"], 0) + rules.step(
                effect["characteristic"], effect["change"]
            )
    return deltas


def _base_stats(fighter_type: FighterType) -> dict[str, int]:
    return {code: getattr(fighter_type, TYPE_STAT_FIELDS[code]) or 0 for code in STATS_N18}


def _expected_stats(fighter_type: FighterType, injuries: list) -> dict[str, int]:
    stats = _base_stats(fighter_type)
    for row in injuries:
        for code, delta in _injury_deltas(row).items():
            stats[code] += delta
    return stats


class _Content:
    """The 2018+ content an import places names in, read once."""

    def __init__(self) -> None:
        self.houses = Catalogue(House.objects.active().filter(edition=Edition.N18, kind=HouseKind.GANG_LIST))
        self.equipment_rows = list(Equipment.objects.filter(edition=Edition.N18, is_active=True))
        self.skill_rows = list(Skill.objects.filter(edition=Edition.N18, is_active=True).select_related("table"))
        self.equipment = Catalogue(self.equipment_rows)
        self.skills = Catalogue(self.skill_rows)
        self.injuries = Catalogue(_injury_rows(), name=lambda row: row.result)
        self.all_injuries = Catalogue(INJURY_RULES[Edition.N18].table.rows, name=lambda row: row.result)

    def types(self, house: House) -> Catalogue:
        return Catalogue(exchange._importable_types(house).values())


def preview(gang_file: GangFile, choices: dict[str, str] | None = None) -> Preview:
    """Every name of the file placed in the content, or left with its nearest matches; ``choices`` (form field →
    the pk a player chose, or "" to leave the name out) settle the names the matching could not."""
    choices = choices or {}
    content = _Content()
    house = _place("house", gang_file.gang_type, content.houses, choices)
    if not house.placed:
        return Preview(gang_file, house, [], [], content)
    types = content.types(house.match)
    fighters = []
    for index, ganger in enumerate(gang_file.gangers):
        fighter = FighterPreview(
            index=index,
            ganger=ganger,
            fighter_type=_place(f"type-{index}", ganger.type_name, types, choices),
            items=[
                _place(f"item-{index}-{n}", name, content.equipment, choices, qty=qty, note=suffix(name))
                for n, (name, qty) in enumerate(ganger.equipment)
            ],
            skills=[
                _place(f"skill-{index}-{n}", name, content.skills, choices) for n, name in enumerate(ganger.skills)
            ],
            injuries=[],
        )
        for n, name in enumerate(ganger.injuries):
            if content.injuries.find(name) is None and content.all_injuries.find(name) is not None:
                fighter.left_out.append(f"{name} (no lasting effect to carry)")
            else:
                fighter.injuries.append(_place(f"injury-{index}-{n}", name, content.injuries, choices))
        fighters.append(fighter)
    stash = [
        _place(f"stash-{n}", name, content.equipment, choices, qty=qty) for n, (name, qty) in enumerate(gang_file.stash)
    ]
    return Preview(gang_file, house, fighters, stash, content)


def _place(key: str, given: str, catalogue: Catalogue, choices: dict, *, qty: int = 1, note: str = "") -> Placed:
    found = catalogue.find(given)
    if found is not None:
        return Placed(key, given, found, qty=qty, note=note)
    options = catalogue.nearest(given)
    chosen = choices.get(key, "")
    picked = next((o for o in options if choice_value(o) == chosen), None) if chosen else None
    return Placed(key, given, picked, options=options, qty=qty, note=note)


def choice_value(row) -> str:
    """What a choice among a name's nearest matches posts: a content row's pk, an injury's slug."""
    return str(row.pk) if hasattr(row, "pk") else row.details["slug"]


# --- creating the gang -------------------------------------------------------------------------------


def _price(fighter_type: FighterType, equipment: Equipment, lists: dict) -> int:
    listed = lists.get((fighter_type.pk, equipment.pk))
    if listed is not None:
        return 0 if listed[1] else listed[0]
    return equipment.cost or 0


def _flags(view: Preview) -> tuple[list[str], list[list[str]]]:
    """What the file brings that no record here explains, and what was left out: the gang's and each fighter's."""
    house = view.house.match
    gang = [
        "Imported from YakTribe: how each advancement was bought, the XP history and item prices are not in "
        "a YakTribe file."
    ]
    if view.file.credits:
        gang.append(
            f"The Stash holds {view.file.credits:,} credits as YakTribe gave them, from no battle recorded here."
        )
    if view.file.reputation:
        gang.append(f"Reputation {view.file.reputation}, from no battle recorded here.")
    gang += [f"The Stash: {s.given} was left out (no such item here)." for s in view.stash if not s.placed]
    fighters = []
    for fighter in view.fighters:
        name, ganger, flags = fighter.ganger.name, fighter.ganger, []
        if not fighter.fighter_type.placed:
            fighters.append([])
            gang.append(f"{name} ({ganger.type_name}) was left out: no {house.name} fighter type matches.")
            continue
        for row in fighter.differences:
            flags.append(
                f"{name}: {row.code} {row.shown_given} where a {fighter.fighter_type.match.name} with the recorded "
                f"injuries has {row.shown_expected}; no recorded advancement or injury explains it."
            )
        skills = [s.match.name for s in fighter.skills if s.placed]
        if skills:
            flags.append(f"{name}: {', '.join(skills)}, with no recorded advancement.")
        left = [p.given for p in fighter.unplaced] + fighter.left_out
        if left:
            flags.append(f"{name}: left out: {', '.join(left)}.")
        parts = []
        if ganger.xp:
            parts.append(f"{ganger.xp} XP")
        if ganger.advance_count:
            parts.append(f"{ganger.advance_count} advancements")
        if ganger.kills:
            parts.append(f"{ganger.kills} kills")
        if fighter.injuries:
            parts.append(", ".join(i.match.result for i in fighter.injuries if i.placed))
        if ganger.status != FighterStatus.ACTIVE:
            parts.append(f"status {ganger.status}")
        if parts:
            flags.append(f"{name}: {'; '.join(p for p in parts if p)}: from battles no record here shows.")
        fighters.append(flags)
    return gang, fighters


def _as_file(view: Preview, lists: dict) -> dict:
    """The gang in this site's own file format (docs/gang-export.md), for the bulk writer."""
    fighters = []
    for fighter in view.fighters:
        fighter_type = fighter.fighter_type.match
        if fighter_type is None:
            continue
        injuries = [row.match for row in fighter.injuries if row.placed]
        expected = _expected_stats(fighter_type, injuries)
        fighters.append(
            {
                "name": fighter.ganger.name,
                "type": fighter_type.slug,
                "cost": fighter_type.cost_for(view.house.match),
                "base_stats": _base_stats(fighter_type),
                "status": fighter.ganger.status,
                "experience": fighter.ganger.xp,
                "starting_experience": 0,
                "kills": fighter.ganger.kills,
                "notes": fighter.ganger.notes,
                "equipment": [
                    {"equipment": item.match.slug, "price": _price(fighter_type, item.match, lists)}
                    for item in fighter.items
                    if item.placed
                    for _ in range(item.qty)
                ],
                "advancements": [],
                "injuries": [
                    {
                        "code": row.details["slug"],
                        "name": row.result,
                        "roll": None,
                        "effects": {},
                        "stat_changes": [{"stat": s, "delta": d} for s, d in _injury_deltas(row).items() if d],
                        "skills": [],
                    }
                    for row in injuries
                ],
                "stat_changes": [
                    {"stat": row.code, "delta": row.given - expected[row.code]} for row in fighter.differences
                ],
                "skills": list(dict.fromkeys(s.match.slug for s in fighter.skills if s.placed)),
            }
        )
    stash = [
        {"equipment": s.match.slug, "price": s.match.cost or 0} for s in view.stash if s.placed for _ in range(s.qty)
    ]
    return {
        "name": view.file.name,
        "notes": view.file.notes,
        "stash": view.file.credits,
        "reputation": view.file.reputation,
        "stash_items": stash,
        "fighters": fighters,
    }


def import_token(raw: bytes, nonce: str) -> str:
    """One preview's confirmation: the same form posted twice creates the gang once."""
    return hashlib.sha256(raw + b"\0" + nonce.encode()).hexdigest()


@transaction.atomic
def yaktribe_import(*, owner, raw: bytes, choices: dict[str, str], token: str) -> Gang:
    """Create the gang the YakTribe file ``raw`` describes, with the player's ``choices`` for unplaced names.

    Refused whole (``ValidationError``, every problem named) when the file is not a YakTribe gang or its gang
    list matches none here. A name still unplaced is left out and named in the flags. Exactly once per
    ``token``: the owner's row is locked, and a second confirmation finds the first gang."""
    view = preview(read(parse_file(raw)), choices)
    if not view.house.placed:
        near = ", ".join(h.name for h in view.house.options) or "none"
        raise ValidationError([f"gang_type: no 2018+ gang list is called {view.file.gang_type!r} (nearest: {near})"])
    get_user_model().objects.select_for_update().filter(pk=owner.pk).first()
    done = LedgerEntry.objects.filter(gang__owner=owner, data__yaktribe_token=token).select_related("gang").first()
    if done is not None:
        return done.gang
    house = view.house.match
    types = exchange._importable_types(house)
    lists = {
        (e.fighter_type_id, e.equipment_id): (e.cost, e.is_included)
        for e in FighterTypeEquipment.objects.filter(fighter_type__in=types.values())
    }
    data = _as_file(view, lists)
    flags = _flags(view)
    placed = [f for f in view.fighters if f.fighter_type.placed]
    fighter_flags = [flags[1][f.index] for f in placed]
    content = {
        "house": house,
        "types": types,
        "equipment": {e.slug: e for e in view.content.equipment_rows},
        "skills": {s.slug: s for s in view.content.skill_rows},
    }
    gang = Gang.objects.create(
        owner=owner,
        edition=Edition.N18,
        house=house,
        name=data["name"],
        notes=data["notes"],
        stash=data["stash"],
        reputation=data["reputation"],
    )
    where = f"YakTribe gang {view.file.gang_id}" if view.file.gang_id else "a YakTribe file"
    exchange.import_rows(
        gang=gang,
        data=data,
        content=content,
        actor=owner,
        flags=(flags[0], fighter_flags),
        source=where,
        entry_data={"yaktribe_token": token},
    )
    return gang


# --- fetching a gang by its address ------------------------------------------------------------------


def gang_id_from_address(address: str) -> str | None:
    """YakTribe's gang id from a gang page's address (``.../gang/name.12345/``), its JSON address
    (``.../json/gang/12345.json``) or the bare id. Only the id is taken: the site fetches from YakTribe's own
    address (``settings.YAKTRIBE_URL``), never from an address a user typed."""
    address = address.strip()
    if re.fullmatch(r"\d{1,12}", address):
        return address
    match = re.search(r"(?:\.|/json/gang/)(\d{1,12})(?:\.json)?/?(?:[?#].*)?$", address)
    return match.group(1) if match else None


def fetch(gang_id: str) -> bytes:
    """The gang's file from YakTribe, read with a timeout and never more than 1 MiB (and a byte)."""
    if not settings.YAKTRIBE_URL:
        raise ValidationError(["This site does not fetch from YakTribe: upload the gang's file or paste its text."])
    url = f"{settings.YAKTRIBE_URL.rstrip('/')}/underhive/json/gang/{gang_id}.json"
    request = urllib.request.Request(url, headers={"User-Agent": "UnderhiveLedger/1 (gang import)"})
    deadline = time.monotonic() + FETCH_SECONDS
    slow = ValidationError([f"YakTribe did not answer within {FETCH_SECONDS} seconds; upload the file instead."])
    raw = b""
    try:
        with urllib.request.urlopen(request, timeout=FETCH_SECONDS) as response:  # noqa: S310 (a fixed base address)
            # In pieces, so a server that trickles its answer is cut off at the deadline, not at each read's.
            while len(raw) <= MAX_FILE_BYTES:
                piece = response.read(64 * 1024)
                if not piece:
                    break
                raw += piece
                if time.monotonic() > deadline:
                    raise slow
    except urllib.error.HTTPError as error:
        raise ValidationError([f"YakTribe answered {error.code} for gang {gang_id}: is the gang public?"]) from None
    except (urllib.error.URLError, TimeoutError, OSError, http.client.HTTPException, ValueError):
        raise slow from None
    if len(raw) > MAX_FILE_BYTES:
        raise ValidationError([f"{NOT_A_GANG}: it is larger than 1 MiB; a gang's file is a few kilobytes."])
    return raw
