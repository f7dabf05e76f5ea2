"""Import a campaign export (docs/campaign-export.md): checked whole, then restored in one transaction.

:func:`campaign_import_check` reads the parsed file and lists every problem, each with the place in the file
(``gangs[2].fighters[0].status``); nothing is written unless there is none. It checks the shape (every field
present and of its kind, within the limits), the content slugs against this site's content, every reference
between rows (a battle's gangs, a fighter's captors, a ledger entry's fighter, the ids inside recorded data)
and that each gang's Stash, Reputation and every fighter's experience equal what its ledger adds up to.

:func:`campaign_import` then makes the rows in the file's order and writes their recorded times back, so the
log, the charts and the ledgers read as they did. The importing user becomes the campaign's arbitrator; people
are matched by username (docs/campaign-export.md, *Who owns what*).
"""

from __future__ import annotations

import json
from collections import Counter, defaultdict

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import DatabaseError, IntegrityError, transaction
from django.utils.dateparse import parse_datetime

from campaigns.models import (
    Battle,
    BattleFighterResult,
    BattleOrigin,
    BattleStatus,
    Campaign,
    CampaignArbitrator,
    CampaignGang,
    CampaignStatus,
    CampaignTerritory,
    Cycle,
    HouseRules,
    IncomeVariant,
    Outcome,
    Side,
    StandingSnapshot,
)
from campaigns.services.house_rules import RULE_FIELDS
from content.models import Edition, Equipment, FighterType, House, HouseKind, Skill, Territory
from gangs.exchange import _Checker, _no_constant, _shape_problem
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
from postbattle.models import Application, Sequence, SequenceState

from . import ids
from .export import FORMAT, VERSION

MAX_FILE_BYTES = 32 * 1024 * 1024
MAX_GANGS = 64
MAX_FIGHTERS = 200  # a gang's fighters over a whole campaign, the dead and retired too
MAX_LEDGER = 20_000  # a gang's ledger entries
MAX_BATTLES = 5_000
MAX_DEPTH = 16  # a post-battle draft nests 9 deep under the file's top level
NOT_AN_EXPORT = "This is not a campaign export from Underhive Ledger"
IMPORTED = "Imported from a campaign export"


def parse_campaign_file(raw: bytes) -> dict:
    """The parsed file, or a ``ValidationError`` saying in plain words why it is not a campaign export."""
    if len(raw) > MAX_FILE_BYTES:
        raise ValidationError([f"The file is larger than {MAX_FILE_BYTES // 2**20} MiB; a campaign export is not."])
    try:
        data = json.loads(raw.decode("utf-8"), parse_constant=_no_constant)
    except UnicodeDecodeError:
        raise ValidationError([f"{NOT_AN_EXPORT}: it is not text (UTF-8)."]) from None
    except json.JSONDecodeError:
        raise ValidationError([f"{NOT_AN_EXPORT}: it is not JSON, or it is cut short."]) from None
    except (RecursionError, ValueError):
        raise ValidationError([f"{NOT_AN_EXPORT}: its values are nested too deep or too long to read."]) from None
    if not isinstance(data, dict):
        raise ValidationError([f"{NOT_AN_EXPORT}: the file must hold one JSON object."])
    shape = _shape_problem(data, max_depth=MAX_DEPTH)
    if shape:
        raise ValidationError([f"{NOT_AN_EXPORT}: {shape.replace('a gang export', 'a campaign export')}."])
    return data


# --- checking ----------------------------------------------------------------------------------


class _Check(_Checker):
    """The gang import's checker, plus times, choices, usernames and references to rows of the file."""

    def __init__(self) -> None:
        super().__init__()
        self.declared: dict[str, set[int]] = defaultdict(set)

    def moment(self, data: dict, key: str, path: str, *, required: bool = True):
        value = data.get(key)
        if value is None and not required:
            return None
        parsed = parse_datetime(value) if isinstance(value, str) else None
        if parsed is None or parsed.tzinfo is None:
            self.fail(f"{path}{key}", "must be a date and time with its zone (ISO 8601)")
        return parsed

    def choice(self, data: dict, key: str, path: str, values) -> None:
        if data.get(key) not in values:
            self.fail(f"{path}{key}", f"must be one of {', '.join(map(str, values))}")

    def flag(self, data: dict, key: str, path: str) -> None:
        if not isinstance(data.get(key), bool):
            self.fail(f"{path}{key}", "must be true or false")

    def username(self, data: dict, key: str, path: str, *, required: bool = False) -> None:
        value = data.get(key)
        if (value is None and not required) or (isinstance(value, str) and 0 < len(value) <= 150):
            return
        self.fail(f"{path}{key}", "must be a username" + ("" if required else " or null"))

    def declare(self, kind: str, data: dict, path: str) -> None:
        number = self.count(data, "id", path, low=1)
        if number is None:
            return
        if number in self.declared[kind]:
            self.fail(f"{path}id", f"{kind} {number} appears twice in the file")
        self.declared[kind].add(number)

    def ref(self, data: dict, key: str, path: str, kind: str, *, required: bool = False, within=None) -> None:
        value = data.get(key)
        if value is None:
            if required:
                self.fail(f"{path}{key}", "is missing")
            return
        if isinstance(value, bool) or not isinstance(value, int) or value not in (within or self.declared[kind]):
            where = "" if within is None else " of this gang"
            self.fail(f"{path}{key}", f"names {kind} {value!r}, which the file does not hold{where}")


def _content(edition: str) -> dict:
    return {
        "house": {h.slug: h for h in House.objects.filter(edition=edition, kind=HouseKind.GANG_LIST)},
        "type": {t.slug: t for t in FighterType.objects.filter(edition=edition)},
        "equipment": {e.slug: e for e in Equipment.objects.filter(edition=edition)},
        "skill": {s.slug: s for s in Skill.objects.filter(edition=edition)},
        "territory": {t.slug: t for t in Territory.objects.filter(edition=edition)},
    }


def _slug(check: _Check, data: dict, key: str, path: str, content: dict, kind: str) -> None:
    value = data.get(key)
    if not isinstance(value, str) or value not in content[kind]:
        check.fail(f"{path}{key}", f"unknown {kind} {value!r} (is this site's content loaded?)")


def _declare_all(check: _Check, data: dict) -> None:
    """Every row's number first, so references may point forward (a fighter captured by a later gang)."""
    for gi, gang in check.items(data, "gangs", "", required=True, most=MAX_GANGS):
        check.declare(ids.GANG, gang, gi)
        for fi, fighter in check.items(gang, "fighters", gi, required=True, most=MAX_FIGHTERS):
            check.declare(ids.FIGHTER, fighter, fi)
            for where, row in check.items(fighter, "advancements", fi, required=True, most=200):
                check.declare(ids.ADVANCEMENT, row, where)
            for where, row in check.items(fighter, "injuries", fi, required=True, most=200):
                check.declare(ids.INJURY, row, where)
        for where, row in check.items(gang, "purchases", gi, required=True, most=MAX_FIGHTERS * 40):
            check.declare(ids.PURCHASE, row, where)
        for where, row in check.items(gang, "ledger", gi, required=True, most=MAX_LEDGER):
            check.declare("ledger", row, where)
    for key, kind, most in (("cycles", ids.CYCLE, 500), ("territories", ids.TERRITORY, 1000),
                            ("battles", ids.BATTLE, MAX_BATTLES), ("sequences", ids.SEQUENCE, MAX_BATTLES * 4)):  # fmt: skip
        for where, row in check.items(data, key, "", required=True, most=most):
            check.declare(kind, row, where)
    check.declared[ids.CAMPAIGN] = {1}


def _check_data(check: _Check, value, rules: ids.Rules, path: str, content: dict) -> None:
    """Every id inside recorded data names a row of the file (an undo's equipment: a slug of this site)."""

    def lookup(kind: str, found):
        if kind == ids.EQUIPMENT:
            if found not in content["equipment"]:
                check.fail(path, f"names equipment {found!r}, unknown here")
            return found
        if int(found) not in check.declared[kind]:
            check.fail(path, f"names {kind} {found!r}, which the file does not hold")
        return found

    ids.walk(value, rules, lookup)


def _check_fighter(check: _Check, f: dict, path: str, content: dict, codes: tuple) -> None:
    check.text(f, "name", path, max_length=80, blank=False)
    _slug(check, f, "type", path, content, "type")
    for key in ("cost", "experience", "starting_experience", "kills", "order"):
        check.count(f, key, path)
    stats = check.kind(f, "base_stats", dict, path)
    if stats is not None and (set(stats) != set(codes) or any(
        isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= 20 for v in stats.values())):  # fmt: skip
        check.fail(f"{path}base_stats", f"must give exactly {', '.join(codes)}, each a whole number from 0 to 20")
    check.choice(f, "status", path, FighterStatus.values)
    check.ref(f, "captured_by", path, ids.GANG)
    check.ref(f, "hired_for", path, ids.BATTLE)
    check.text(f, "notes", path, max_length=10_000)
    check.moment(f, "created_at", path)
    own_advancements, own_injuries = set(), set()
    for where, a in check.items(f, "advancements", path):
        own_advancements.add(a.get("id"))
        check.choice(a, "kind", where, Advancement.Kind.values)
        check.text(a, "description", where, max_length=10_000, blank=False)
        check.count(a, "xp_cost", where)
        check.count(a, "value", where, low=None)
        check.kind(a, "dice", list, where)
        check.moment(a, "created_at", where)
    for where, i in check.items(f, "injuries", path):
        own_injuries.add(i.get("id"))
        check.text(i, "code", where, max_length=60, blank=False)
        check.text(i, "name", where, max_length=80, blank=False)
        if i.get("roll") is not None:
            check.count(i, "roll", where, low=0)
        check.kind(i, "effects", (list, dict), where)
        check.moment(i, "created_at", where)
    for where, s in check.items(f, "stat_changes", path, required=True, most=200):
        check.choice(s, "stat", where, codes)
        delta = check.count(s, "delta", where, low=None)
        if delta == 0:
            check.fail(f"{where}delta", "must not be 0")
        check.choice(s, "source", where, StatChangeSource.values)
        check.ref(s, "advancement", where, ids.ADVANCEMENT, within=own_advancements)
        check.ref(s, "injury", where, ids.INJURY, within=own_injuries)
    skills = Counter()
    for where, s in check.items(f, "skills", path, required=True, most=200):
        _slug(check, s, "skill", where, content, "skill")
        skills[s.get("skill")] += 1
        check.ref(s, "advancement", where, ids.ADVANCEMENT, within=own_advancements)
        check.ref(s, "injury", where, ids.INJURY, within=own_injuries)
    for slug, times in skills.items():
        if times > 1:
            check.fail(f"{path}skills", f"{slug!r} appears {times} times; a fighter knows a skill once")


def _check_gang(check: _Check, g: dict, path: str, content: dict, codes: tuple) -> None:
    check.username(g, "player", path, required=True)
    _slug(check, g, "house", path, content, "house")
    check.text(g, "name", path, max_length=80, blank=False)
    check.text(g, "notes", path, max_length=10_000)
    stash = check.count(g, "stash", path)
    reputation = check.count(g, "reputation", path, low=None)
    check.moment(g, "created_at", path)
    membership = check.kind(g, "membership", dict, path)
    if membership is not None:
        check.flag(membership, "wants_to_play", f"{path}membership.")
        check.moment(membership, "joined_at", f"{path}membership.")
        check.moment(membership, "removed_at", f"{path}membership.", required=False)
    fighters = {}
    for where, f in check.items(g, "fighters", path):
        fighters[f.get("id")] = f
        _check_fighter(check, f, where, content, codes)
    for where, p in check.items(g, "purchases", path):
        check.ref(p, "fighter", where, ids.FIGHTER, within=set(fighters))
        _slug(check, p, "equipment", where, content, "equipment")
        check.count(p, "price", where)
        check.moment(p, "created_at", where)
    totals, seen = Counter(), set()
    for where, e in check.items(g, "ledger", path):
        check.ref(e, "fighter", where, ids.FIGHTER, within=set(fighters))
        check.choice(e, "kind", where, LedgerKind.values)
        amounts = {key: check.count(e, key, where, low=None) or 0 for key in ("credits", "experience", "reputation")}
        if amounts["experience"] and e.get("fighter") is None:
            check.fail(f"{where}experience", "belongs to a fighter; the entry names none")
        totals["credits"] += amounts["credits"]
        totals["reputation"] += amounts["reputation"]
        totals[("xp", e.get("fighter"))] += amounts["experience"]
        check.text(e, "description", where, max_length=10_000, blank=False)
        check.text(e, "reason", where, max_length=10_000)
        check.kind(e, "dice", list, where)
        if check.kind(e, "data", dict, where) is not None:
            _check_data(check, e["data"], ids.LEDGER, f"{where}data", content)
        check.username(e, "actor", where)
        if e.get("reverses") is not None and e.get("reverses") not in seen:
            check.fail(f"{where}reverses", "must name an earlier entry of this gang's ledger")
        seen.add(e.get("id"))
        check.ref(e, "battle", where, ids.BATTLE)
        check.moment(e, "created_at", where)
    name = g.get("name") if isinstance(g.get("name"), str) else path
    if stash is not None and stash != totals["credits"]:
        check.fail(
            f"{path}stash", f"{name}: {stash} credits in the Stash, but the ledger adds up to {totals['credits']}"
        )
    if reputation is not None and reputation != totals["reputation"]:
        check.fail(f"{path}reputation",
                   f"{name}: {reputation} Reputation, but the ledger adds up to {totals['reputation']}")  # fmt: skip
    for number, f in fighters.items():
        if isinstance(f.get("experience"), int) and f["experience"] != totals[("xp", number)]:
            check.fail(f"{path}fighters", f"{f.get('name')}: {f['experience']} XP, but the ledger adds up to "
                                          f"{totals[('xp', number)]}")  # fmt: skip


def _check_battle(check: _Check, b: dict, path: str, content: dict) -> None:
    check.ref(b, "cycle", path, ids.CYCLE)
    check.choice(b, "origin", path, BattleOrigin.values)
    check.ref(b, "attacker", path, ids.GANG, required=True)
    check.ref(b, "defender", path, ids.GANG, required=True)
    if b.get("attacker") is not None and b.get("attacker") == b.get("defender"):
        check.fail(f"{path}defender", "a battle is fought between two gangs")
    check.ref(b, "stakes", path, ids.TERRITORY)
    check.choice(b, "status", path, BattleStatus.values)
    check.ref(b, "winner", path, ids.GANG)
    if b.get("winner") is not None and b.get("winner") not in (b.get("attacker"), b.get("defender")):
        check.fail(f"{path}winner", "must be the attacker or the defender")
    for key in ("has_roles", "is_rescue", "is_draw", "attacker_bottled", "defender_bottled", "attacker_fled",
                "defender_fled"):  # fmt: skip
        check.flag(b, key, path)
    if b.get("is_draw") is True and b.get("winner") is not None:
        check.fail(f"{path}winner", "a draw has no winner")
    check.text(b, "scenario", path, max_length=40)
    check.text(b, "scenario_name", path, max_length=80)
    check.text(b, "notes", path, max_length=10_000)
    for key, rules in (("scenario_roll", ids.SCENARIO_ROLL), ("crews", ids.CREWS), ("scenario_facts", ids.FACTS)):
        if check.kind(b, key, dict, path) is not None:
            _check_data(check, b[key], rules, f"{path}{key}", content)
    check.kind(b, "rewards", list, path)
    for key in ("reported_by", "confirmed_by"):
        check.username(b, key, path)
    for key in ("reported_at", "confirmed_at"):
        check.moment(b, key, path, required=False)
    check.moment(b, "created_at", path)
    fighters = Counter()
    for where, r in check.items(b, "results", path, required=True, most=400):
        check.ref(r, "fighter", where, ids.FIGHTER, required=True)
        fighters[r.get("fighter")] += 1
        check.choice(r, "side", where, Side.values)
        check.choice(r, "outcome", where, Outcome.values)
        check.ref(r, "caused_by", where, ids.FIGHTER)
        check.flag(r, "captured", where)
        check.flag(r, "killed", where)
        check.kind(r, "awards", dict, where)
    for fighter, times in fighters.items():
        if times > 1:
            check.fail(f"{path}results", f"fighter {fighter} has {times} results; one a battle")


def _check_sequences(check: _Check, data: dict, content: dict) -> None:
    live, runs = Counter(), Counter()
    for where, s in check.items(data, "sequences", ""):
        check.ref(s, "battle", where, ids.BATTLE, required=True)
        check.ref(s, "gang", where, ids.GANG, required=True)
        check.choice(s, "edition", where, Edition.values)
        check.count(s, "run", where, low=1)
        check.count(s, "step", where)
        check.choice(s, "state", where, SequenceState.values)
        if check.kind(s, "draft", dict, where) is not None:
            _check_data(check, s["draft"], ids.DRAFT, f"{where}draft", content)
        check.username(s, "started_by", where)
        check.moment(s, "created_at", where)
        check.moment(s, "updated_at", where)
        key = (s.get("battle"), s.get("gang"))
        runs[(*key, s.get("run"))] += 1
        live[key] += s.get("state") != SequenceState.REVERTED
        if runs[(*key, s.get("run"))] > 1 or live[key] > 1:
            check.fail(where[:-1], "a gang has one run of each number, and one live sequence, per battle")
        application = s.get("application")
        if s.get("state") == SequenceState.DRAFT and application is not None:
            check.fail(f"{where}application", "a draft has not been applied")
        elif s.get("state") != SequenceState.DRAFT and not isinstance(application, dict):
            check.fail(f"{where}application", "an applied or reverted sequence must say how it was applied")
        elif isinstance(application, dict):
            at = f"{where}application."
            check.username(application, "applied_by", at)
            check.username(application, "reverted_by", at)
            check.moment(application, "applied_at", at)
            check.moment(application, "reverted_at", at, required=False)
            if check.kind(application, "undo", dict, at) is not None:
                _check_data(check, application["undo"], ids.UNDO, f"{at}undo", content)


def _check_house_rules(check: _Check, data: dict, content: dict) -> None:
    """Each version of the house rules, as :class:`campaigns.models.HouseRules` holds it, oldest first."""
    last = None
    for where, r in check.items(data, "house_rules", "", required=True, most=1000):
        at = check.moment(r, "in_force_from", where)
        if at and last and at < last:
            check.fail(f"{where}in_force_from", "the versions must be oldest first")
        last = at or last
        check.username(r, "changed_by", where)
        check.text(r, "note", where, max_length=10_000)
        for key in ("starting_credits", "winner_credits", "loser_credits", "credits_per_out_of_action",
                    "income_amount"):  # fmt: skip
            check.count(r, key, where)
        check.count(r, "starting_reputation", where, low=None)
        for key in ("rating_cap", "rating_gap"):
            if r.get(key) is not None:
                check.count(r, key, where)
        check.choice(r, "income_variant", where, IncomeVariant.values)
        check.flag(r, "additions_before_first_battle", where)
        for index, slug in enumerate(check.kind(r, "banned_items", list, where) or []):
            _slug(check, {"equipment": slug}, "equipment", f"{where}banned_items[{index}].", content, "equipment")


def campaign_import_check(data: dict) -> tuple[list[str], dict]:
    """Every problem in ``data`` (a parsed file, :func:`parse_campaign_file`), and this site's content it names."""
    check = _Check()
    if data.get("format") != FORMAT:
        check.fail("format", f"must be {FORMAT!r}; is this a campaign export?")
    if data.get("version") != VERSION:
        check.fail("version", f"version {data.get('version')!r} is not supported; this site reads version {VERSION}")
    edition = data.get("edition")
    if edition not in Edition.values:
        check.fail("edition", f"must be one of {', '.join(Edition.values)}")
        return check.errors, {}
    if check.errors:
        return check.errors, {}
    content = _content(edition)
    codes = STATS_BY_EDITION[edition]
    campaign = check.kind(data, "campaign", dict, "") or {}
    check.text(campaign, "name", "campaign.", max_length=100, blank=False)
    check.text(campaign, "description", "campaign.", max_length=10_000)
    check.text(campaign, "house_rules", "campaign.", max_length=10_000)
    check.count(campaign, "starting_credits", "campaign.")
    check.choice(campaign, "status", "campaign.", CampaignStatus.values)
    check.count(campaign, "cycle", "campaign.")
    check.moment(campaign, "created_at", "campaign.")
    for where, a in check.items(data, "arbitrators", "", required=True, most=50):
        check.username(a, "username", where, required=True)
        check.moment(a, "added_at", where)
    _check_house_rules(check, data, content)
    _declare_all(check, data)
    for where, g in check.items(data, "gangs", ""):
        _check_gang(check, g, where, content, codes)
    numbers = Counter()
    for where, c in check.items(data, "cycles", ""):
        numbers[c.get("number")] += 1
        if check.count(c, "number", where, low=1) is not None and numbers[c["number"]] > 1:
            check.fail(f"{where}number", f"Cycle {c['number']} appears twice")
        check.moment(c, "started_at", where)
        check.kind(c, "pairing_dice", list, where)
        check.ref(c, "odd_gang_out", where, ids.GANG)
        for index, gang in enumerate(check.kind(c, "passed", list, where) or []):
            check.ref({"gang": gang}, "gang", f"{where}passed[{index}].", ids.GANG)
    homes = Counter()
    for where, t in check.items(data, "territories", ""):
        _slug(check, t, "territory", where, content, "territory")
        check.ref(t, "holder", where, ids.GANG)
        check.flag(t, "is_home_settlement", where)
        if t.get("is_home_settlement") is True:
            homes[t.get("holder")] += 1
            if t.get("holder") is None or homes[t.get("holder")] > 1:
                check.fail(f"{where}holder", "a Home Settlement has one holder, and a gang one Home Settlement")
        check.moment(t, "changed_at", where)
    for where, b in check.items(data, "battles", ""):
        _check_battle(check, b, where, content)
    _check_sequences(check, data, content)
    for where, s in check.items(data, "snapshots", "", required=True, most=100_000):
        check.ref(s, "gang", where, ids.GANG, required=True)
        check.count(s, "rating", where, low=None)
        check.count(s, "reputation", where, low=None)
        check.text(s, "reason", where, max_length=10_000, blank=False)
        check.moment(s, "taken_at", where)
    return check.errors, content


# --- restoring ---------------------------------------------------------------------------------


class _Maps:
    """Numbers in the file -> the new rows' ids, one series per kind."""

    def __init__(self, content: dict) -> None:
        self.rows: dict[str, dict[int, object]] = defaultdict(dict)
        self.equipment = {slug: e.pk for slug, e in content["equipment"].items()}

    def pk(self, kind: str, number):
        return None if number is None else self.rows[kind][number].pk

    def lookup(self, kind: str, value):
        if kind == ids.EQUIPMENT:
            return self.equipment[value]
        pk = self.rows[kind][int(value)].pk
        return str(pk) if isinstance(value, str) else pk


def _by_number(rows: list, number=lambda row: row["id"]) -> list:
    """Rows in the order of their numbers in the file: the order they were made in, which the new ids keep (so
    exporting the imported campaign numbers them the same)."""
    return sorted(rows, key=number)


def _at(value):
    return parse_datetime(value) if value else None


class _Restore:
    def __init__(self, data: dict, content: dict, user) -> None:
        self.data, self.content, self.user = data, content, user
        self.maps = _Maps(content)
        names = {data_user for data_user in self._usernames() if data_user}
        self.users = {u.username: u for u in get_user_model().objects.filter(username__in=names)}
        self.timed: dict[type, tuple[list, list[str]]] = {}

    def _usernames(self):
        d = self.data
        yield from (a["username"] for a in d["arbitrators"])
        yield from (r.get("changed_by") for r in d["house_rules"])
        for g in d["gangs"]:
            yield g["player"]
            yield from (e["actor"] for e in g["ledger"])
        for b in d["battles"]:
            yield from (b["reported_by"], b["confirmed_by"])
        for s in d["sequences"]:
            yield s["started_by"]
            if s["application"]:
                yield from (s["application"]["applied_by"], s["application"]["reverted_by"])

    def person(self, username):
        return self.users.get(username) if username else None

    def made(self, model, rows: list, times: dict[str, list], kind: str | None = None, numbers=()) -> list:
        """Create ``rows`` in order, remember their times (written back at the end, over ``auto_now``)."""
        made = model.objects.bulk_create(rows)
        for obj, number in zip(made, numbers, strict=False):
            self.maps.rows[kind][number] = obj
        for obj in made:
            for name, value in times.items():
                setattr(obj, f"_file_{name}", value.pop(0))
        stored = self.timed.setdefault(model, ([], list(times)))
        stored[0].extend(made)
        return made

    def restore_times(self) -> None:
        for model, (objects, names) in self.timed.items():
            for obj in objects:
                for name in names:
                    setattr(obj, name, getattr(obj, f"_file_{name}"))
            if names:
                model.objects.bulk_update(objects, names, batch_size=500)

    def run(self) -> Campaign:
        d, c = self.data, self.data["campaign"]
        campaign = Campaign.objects.create(
            edition=d["edition"], name=c["name"].strip(), description=c.get("description", ""),
            starting_credits=c["starting_credits"], house_rules=c.get("house_rules", ""), status=c["status"],
            cycle=c["cycle"], created_by=self.user,
        )  # fmt: skip
        self.maps.rows[ids.CAMPAIGN][1] = campaign
        Campaign.objects.filter(pk=campaign.pk).update(created_at=_at(c["created_at"]))
        self.arbitrators(campaign)
        HouseRules.objects.bulk_create([
            HouseRules(campaign=campaign, in_force_from=_at(r["in_force_from"]), changed_by=self.person(r.get("changed_by")),
                       note=r.get("note", ""), **{name: r.get(name) for name in RULE_FIELDS})
            for r in d["house_rules"]
        ])  # fmt: skip
        self.gangs(campaign)
        self.cycles(campaign)
        self.territories(campaign)
        self.battles(campaign)
        self.fighter_links()
        self.ledger()
        self.sequences()
        self.held_for_players()
        self.made(StandingSnapshot, [
            StandingSnapshot(campaign=campaign, gang_id=self.maps.pk(ids.GANG, s["gang"]), rating=s["rating"],
                             reputation=s["reputation"], reason=s["reason"]) for s in d["snapshots"]
        ], {"taken_at": [_at(s["taken_at"]) for s in d["snapshots"]]})  # fmt: skip
        self.restore_times()
        campaign.refresh_from_db()
        return campaign

    def arbitrators(self, campaign: Campaign) -> None:
        rows, times, added = [], [], set()
        for a in self.data["arbitrators"]:
            user = self.person(a["username"])
            if user is not None and user.pk not in added:
                added.add(user.pk)
                rows.append(CampaignArbitrator(campaign=campaign, user=user))
                times.append(_at(a["added_at"]))
        if self.user.pk not in added:  # the importing user runs the imported campaign
            rows.append(CampaignArbitrator(campaign=campaign, user=self.user))
            times.append(None)
        made = CampaignArbitrator.objects.bulk_create(rows)
        for obj, at in zip(made, times, strict=True):
            if at:
                CampaignArbitrator.objects.filter(pk=obj.pk).update(added_at=at)

    def gangs(self, campaign: Campaign) -> None:
        gangs = _by_number(self.data["gangs"])
        content = self.content
        self.made(Gang, [
            Gang(owner=self.person(g["player"]) or self.user, edition=self.data["edition"],
                 house=content["house"][g["house"]], name=g["name"].strip(), notes=g.get("notes", ""),
                 stash=g["stash"], reputation=g["reputation"]) for g in gangs
        ], {"created_at": [_at(g["created_at"]) for g in gangs]}, ids.GANG, [g["id"] for g in gangs])  # fmt: skip
        self.made(CampaignGang, [
            CampaignGang(campaign=campaign, gang_id=self.maps.pk(ids.GANG, g["id"]),
                         wants_to_play=g["membership"]["wants_to_play"]) for g in gangs
        ], {"joined_at": [_at(g["membership"]["joined_at"]) for g in gangs],
            "removed_at": [_at(g["membership"]["removed_at"]) for g in gangs]})  # fmt: skip
        fighters = _by_number([(g, f) for g in gangs for f in g["fighters"]], lambda gf: gf[1]["id"])
        self.made(Fighter, [
            Fighter(gang_id=self.maps.pk(ids.GANG, g["id"]), fighter_type=content["type"][f["type"]], name=f["name"],
                    cost=f["cost"], base_stats=f["base_stats"], status=f["status"], experience=f["experience"],
                    starting_experience=f["starting_experience"], kills=f["kills"], notes=f.get("notes", ""),
                    order=f["order"]) for g, f in fighters
        ], {"created_at": [_at(f["created_at"]) for _, f in fighters]}, ids.FIGHTER, [f["id"] for _, f in fighters])  # fmt: skip
        for model, key, kind, build in (
            (Advancement, "advancements", ids.ADVANCEMENT, lambda pk, a: Advancement(
                fighter_id=pk, kind=a["kind"], description=a["description"], xp_cost=a["xp_cost"], value=a["value"],
                dice=a["dice"])),
            (Injury, "injuries", ids.INJURY, lambda pk, i: Injury(
                fighter_id=pk, code=i["code"], name=i["name"], roll=i.get("roll"), effects=i["effects"])),
        ):  # fmt: skip
            rows = _by_number([(self.maps.pk(ids.FIGHTER, f["id"]), r) for _, f in fighters for r in f[key]],
                              lambda pr: pr[1]["id"])  # fmt: skip
            self.made(model, [build(pk, r) for pk, r in rows], {"created_at": [_at(r["created_at"]) for _, r in rows]},
                      kind, [r["id"] for _, r in rows])  # fmt: skip
        changes, skills = [], []
        for _, f in fighters:
            pk = self.maps.pk(ids.FIGHTER, f["id"])
            links = lambda r: {"advancement_id": self.maps.pk(ids.ADVANCEMENT, r.get("advancement")),  # noqa: E731
                               "injury_id": self.maps.pk(ids.INJURY, r.get("injury"))}  # fmt: skip
            changes += [StatChange(fighter_id=pk, stat=s["stat"], delta=s["delta"], source=s["source"], **links(s))
                        for s in f["stat_changes"]]  # fmt: skip
            skills += [FighterSkill(fighter_id=pk, skill=content["skill"][s["skill"]], **links(s)) for s in f["skills"]]
        StatChange.objects.bulk_create(changes)
        FighterSkill.objects.bulk_create(skills)
        purchases = _by_number([(g, p) for g in gangs for p in g["purchases"]], lambda gp: gp[1]["id"])
        self.made(Purchase, [
            Purchase(gang_id=self.maps.pk(ids.GANG, g["id"]), fighter_id=self.maps.pk(ids.FIGHTER, p["fighter"]),
                     equipment=content["equipment"][p["equipment"]], price=p["price"]) for g, p in purchases
        ], {"created_at": [_at(p["created_at"]) for _, p in purchases]}, ids.PURCHASE, [p["id"] for _, p in purchases])  # fmt: skip

    def held_for_players(self) -> None:
        """A gang whose player has no account here is the importing arbitrator's until they do: the gang's history
        says so, and whose it was."""
        for g in self.data["gangs"]:
            if self.person(g["player"]) is None:
                gang = self.maps.rows[ids.GANG][g["id"]]
                LedgerEntry.objects.create(
                    gang=gang, kind=LedgerKind.OTHER, actor=self.user, reason=IMPORTED,
                    description=f"Imported for {g['player']}, who has no account on this site: held by "
                                f"{self.user.username}",
                    data={"imported_for": g["player"]},
                )  # fmt: skip

    def cycles(self, campaign: Campaign) -> None:
        cycles = _by_number(self.data["cycles"])
        made = self.made(Cycle, [
            Cycle(campaign=campaign, number=c["number"], pairing_dice=c["pairing_dice"],
                  odd_gang_out_id=self.maps.pk(ids.GANG, c.get("odd_gang_out"))) for c in cycles
        ], {"started_at": [_at(c["started_at"]) for c in cycles]}, ids.CYCLE, [c["id"] for c in cycles])  # fmt: skip
        for cycle, c in zip(made, cycles, strict=True):
            cycle.passed.set([self.maps.pk(ids.GANG, g) for g in c["passed"]])

    def territories(self, campaign: Campaign) -> None:
        rows = _by_number(self.data["territories"])
        self.made(CampaignTerritory, [
            CampaignTerritory(campaign=campaign, territory=self.content["territory"][t["territory"]],
                              holder_id=self.maps.pk(ids.GANG, t.get("holder")), is_home_settlement=t["is_home_settlement"])
            for t in rows
        ], {"changed_at": [_at(t["changed_at"]) for t in rows]}, ids.TERRITORY, [t["id"] for t in rows])  # fmt: skip

    def battles(self, campaign: Campaign) -> None:
        rows = _by_number(self.data["battles"])
        self.made(Battle, [battle_from_file(campaign, b, self.maps, self.person) for b in rows],
                  {"created_at": [_at(b["created_at"]) for b in rows]}, ids.BATTLE, [b["id"] for b in rows])  # fmt: skip
        BattleFighterResult.objects.bulk_create([
            BattleFighterResult(battle_id=self.maps.pk(ids.BATTLE, b["id"]),
                                fighter_id=self.maps.pk(ids.FIGHTER, r["fighter"]), side=r["side"],
                                outcome=r["outcome"], caused_by_id=self.maps.pk(ids.FIGHTER, r.get("caused_by")),
                                captured=r["captured"], killed=r["killed"], awards=r["awards"])
            for b in rows for r in b["results"]
        ])  # fmt: skip

    def fighter_links(self) -> None:
        """Captors and the battle a Hired Gun was hired for: rows made after the fighters."""
        fighters = []
        for g in self.data["gangs"]:
            for f in g["fighters"]:
                if f.get("captured_by") is not None or f.get("hired_for") is not None:
                    fighter = self.maps.rows[ids.FIGHTER][f["id"]]
                    fighter.captured_by_id = self.maps.pk(ids.GANG, f.get("captured_by"))
                    fighter.hired_for_id = self.maps.pk(ids.BATTLE, f.get("hired_for"))
                    fighters.append(fighter)
        Fighter.objects.bulk_update(fighters, ["captured_by", "hired_for"])

    def ledger(self) -> None:
        """The entries as they were; the totals were set from the file, which the check found equal to them."""
        entries = _by_number([(g, e) for g in self.data["gangs"] for e in g["ledger"]], lambda ge: ge[1]["id"])
        made = self.made(LedgerEntry, [
            LedgerEntry(gang_id=self.maps.pk(ids.GANG, g["id"]), fighter_id=self.maps.pk(ids.FIGHTER, e.get("fighter")),
                        kind=e["kind"], credits=e["credits"], experience=e["experience"], reputation=e["reputation"],
                        description=e["description"], reason=e.get("reason", ""), dice=e["dice"],
                        actor=self.person(e.get("actor")), battle_id=self.maps.pk(ids.BATTLE, e.get("battle")))
            for g, e in entries
        ], {"created_at": [_at(e["created_at"]) for _, e in entries]}, "ledger", [e["id"] for _, e in entries])  # fmt: skip
        reversing = [(obj, e) for obj, (_, e) in zip(made, entries, strict=True) if e.get("reverses") is not None]
        for obj, e in reversing:
            obj.reverses_id = self.maps.pk("ledger", e["reverses"])
        LedgerEntry.objects.bulk_update([obj for obj, _ in reversing], ["reverses"], batch_size=500)
        self._pending_data = list(zip(made, (e["data"] for _, e in entries), strict=True))

    def sequences(self) -> None:
        rows = _by_number(self.data["sequences"])
        made = self.made(Sequence, [
            Sequence(battle_id=self.maps.pk(ids.BATTLE, s["battle"]), gang_id=self.maps.pk(ids.GANG, s["gang"]),
                     edition=s["edition"], run=s["run"], state=s["state"], step=s["step"],
                     started_by=self.person(s.get("started_by"))) for s in rows
        ], {"created_at": [_at(s["created_at"]) for s in rows], "updated_at": [_at(s["updated_at"]) for s in rows]},
            ids.SEQUENCE, [s["id"] for s in rows])  # fmt: skip
        for sequence, s in zip(made, rows, strict=True):
            sequence.draft = ids.walk(s["draft"], ids.DRAFT, self.maps.lookup)
        Sequence.objects.bulk_update(made, ["draft"], batch_size=200)
        applied = [(seq, s["application"]) for seq, s in zip(made, rows, strict=True) if s["application"]]
        self.made(Application, [
            Application(sequence=seq, applied_by=self.person(a.get("applied_by")),
                        undo=ids.walk(a["undo"], ids.UNDO, self.maps.lookup),
                        reverted_by=self.person(a.get("reverted_by")), reverted_at=_at(a.get("reverted_at")))
            for seq, a in applied
        ], {"applied_at": [_at(a["applied_at"]) for _, a in applied]})  # fmt: skip
        # Ledger data names sequences, so it is written once they exist.
        for entry, data in self._pending_data:
            entry.data = ids.walk(data, ids.LEDGER, self.maps.lookup)
        LedgerEntry.objects.bulk_update([e for e, _ in self._pending_data], ["data"], batch_size=500)
        battles = self.data["battles"]
        for b in battles:
            battle = self.maps.rows[ids.BATTLE][b["id"]]
            battle.scenario_roll = ids.walk(b["scenario_roll"], ids.SCENARIO_ROLL, self.maps.lookup)
            battle.crews = ids.walk(b["crews"], ids.CREWS, self.maps.lookup)
            battle.scenario_facts = ids.walk(b["scenario_facts"], ids.FACTS, self.maps.lookup)
        Battle.objects.bulk_update(list(self.maps.rows[ids.BATTLE].values()),
                                   ["scenario_roll", "crews", "scenario_facts"], batch_size=200)  # fmt: skip


def battle_from_file(campaign: Campaign, b: dict, maps: _Maps, person) -> Battle:
    """A battle row from the file's battle (:func:`core.campaign_exchange.export.battle_export`'s keys); its
    recorded data, which names fighters, is written once they all exist."""
    return Battle(
        campaign=campaign, cycle_id=maps.pk(ids.CYCLE, b.get("cycle")), origin=b["origin"],
        attacker_id=maps.pk(ids.GANG, b["attacker"]), defender_id=maps.pk(ids.GANG, b["defender"]),
        has_roles=b["has_roles"], stakes_id=maps.pk(ids.TERRITORY, b.get("stakes")), is_rescue=b["is_rescue"],
        scenario=b.get("scenario", ""), scenario_name=b.get("scenario_name", ""), status=b["status"],
        winner_id=maps.pk(ids.GANG, b.get("winner")), is_draw=b["is_draw"], attacker_bottled=b["attacker_bottled"],
        defender_bottled=b["defender_bottled"], attacker_fled=b["attacker_fled"], defender_fled=b["defender_fled"],
        rewards=b["rewards"], notes=b.get("notes", ""), reported_by=person(b.get("reported_by")),
        reported_at=_at(b.get("reported_at")), confirmed_by=person(b.get("confirmed_by")),
        confirmed_at=_at(b.get("confirmed_at")),
    )  # fmt: skip


def campaign_import(*, user, data: dict) -> Campaign:
    """Restore the campaign ``data`` describes, run by ``user``; ``ValidationError`` listing every problem and
    nothing created otherwise."""
    errors, content = campaign_import_check(data)
    if errors:
        raise ValidationError(errors)
    try:
        with transaction.atomic():
            return _Restore(data, content, user).run()
    except (IntegrityError, DatabaseError) as error:
        # A rule of the database the checks above do not repeat: refused whole all the same, nothing kept.
        raise ValidationError([f"The file breaks a rule of this site's records: {error.__class__.__name__}."]) from None
