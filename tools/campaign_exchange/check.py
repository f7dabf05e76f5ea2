"""Reading and checking a campaign export (docs/campaign-export.md, *Importing*) before anything is written.

:func:`parse_campaign_file` reads the bytes with the gang import's limits on shape (whole numbers, no NUL, a
bounded depth); :func:`campaign_import_check` lists every problem, each with its place in the file
(``gangs[2].fighters[0].status``): the shape (every field present and of its kind, within the limits), the
content slugs against this site's content, every reference between rows (a battle's gangs, a fighter's captors,
a ledger entry's fighter, the ids inside recorded data) and that each gang's Stash, Reputation and every
fighter's experience equal what its ledger adds up to.
"""

from __future__ import annotations

from collections import Counter, defaultdict

from django.core.exceptions import ValidationError
from django.utils.dateparse import parse_datetime

from campaigns.forms import OVERRIDE_BOUNDS
from campaigns.models import (
    BattleOrigin,
    BattleStatus,
    CampaignStatus,
    IncomeVariant,
    Outcome,
    Side,
)
from content.models import Edition, Equipment, FighterType, House, HouseKind, Skill, Territory
from core.json_files import read_json_file
from gangs.exchange import _Checker, _shape_problem
from gangs.models import STATS_BY_EDITION, Advancement, FighterStatus, LedgerKind, StatChangeSource
from postbattle.models import SequenceState

from . import ids
from .export import FORMAT, VERSION

MAX_FILE_BYTES = 32 * 1024 * 1024
MAX_GANGS = 64
MAX_FIGHTERS = 200  # a gang's fighters over a whole campaign, the dead and retired too
MAX_LEDGER = 20_000  # a gang's ledger entries
MAX_BATTLES = 5_000
MAX_DEPTH = 16  # a post-battle draft nests 9 deep under the file's top level
NOT_AN_EXPORT = "This is not a campaign export from Underhive Ledger"
# A version 1 file is read too: it has none of what version 2 added (docs/campaign-export.md, *Versions*).
READS = (1, VERSION)


def parse_campaign_file(raw: bytes) -> dict:
    """The parsed file, or a ``ValidationError`` saying in plain words why it is not a campaign export."""
    too_large = f"The file is larger than {MAX_FILE_BYTES // 2**20} MiB; a campaign export is not."
    data = read_json_file(raw, max_bytes=MAX_FILE_BYTES, too_large=too_large, not_what=NOT_AN_EXPORT)
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
    for key, kind, most in (
        ("cycles", ids.CYCLE, 500),
        ("territories", ids.TERRITORY, 1000),
        ("battles", ids.BATTLE, MAX_BATTLES),
        ("sequences", ids.SEQUENCE, MAX_BATTLES * 4),
    ):
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
    if stats is not None and (
        set(stats) != set(codes)
        or any(isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= 20 for v in stats.values())
    ):
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
        check.fail(
            f"{path}reputation", f"{name}: {reputation} Reputation, but the ledger adds up to {totals['reputation']}"
        )
    for number, f in fighters.items():
        if isinstance(f.get("experience"), int) and f["experience"] != totals[("xp", number)]:
            check.fail(
                f"{path}fighters",
                f"{f.get('name')}: {f['experience']} XP, but the ledger adds up to {totals[('xp', number)]}",
            )


def _numbers(value) -> bool:
    return isinstance(value, list) and all(isinstance(v, int) and not isinstance(v, bool) for v in value)


def _check_kept(check: _Check, b: dict, path: str, content: dict, *, required: bool) -> None:
    """What the battle kept of its two gangs at its confirmation: objects keyed by the battle's gangs, each gang's
    territories a list of the file's territories, its roster an object whose ids name the file's fighters."""
    gangs = {str(b.get("attacker")), str(b.get("defender"))}
    for key, rules, fits, each in (
        ("held_at_confirmation", ids.HELD, _numbers, "a list of territories"),
        ("roster_at_confirmation", ids.ROSTER, lambda value: isinstance(value, dict), "an object"),
    ):
        kept = check.kind(b, key, dict, path, required=required)
        if kept is None:
            continue
        for gang, value in kept.items():
            if gang not in gangs:
                check.fail(f"{path}{key}", f"names gang {gang!r}, which is not one of the battle's two gangs")
            elif not fits(value):
                check.fail(f"{path}{key}", f"gang {gang}'s must be {each}")
        _check_data(check, kept, rules, f"{path}{key}", content)


def _check_battle(check: _Check, b: dict, path: str, content: dict, *, older: bool) -> None:
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
    for key in (
        "has_roles",
        "is_rescue",
        "is_draw",
        "attacker_bottled",
        "defender_bottled",
        "attacker_fled",
        "defender_fled",
    ):
        check.flag(b, key, path)
    if b.get("is_draw") is True and b.get("winner") is not None:
        check.fail(f"{path}winner", "a draw has no winner")
    check.text(b, "scenario", path, max_length=40)
    check.text(b, "scenario_name", path, max_length=80)
    check.text(b, "notes", path, max_length=10_000)
    check.text(b, "cancel_reason", path, max_length=300)
    for key, rules in (("scenario_roll", ids.SCENARIO_ROLL), ("crews", ids.CREWS), ("scenario_facts", ids.FACTS)):
        if check.kind(b, key, dict, path) is not None:
            _check_data(check, b[key], rules, f"{path}{key}", content)
    _check_kept(check, b, path, content, required=not older)
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
        if "webbed" in r:
            check.flag(r, "webbed", where)
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
        for key in (
            "starting_credits",
            "winner_credits",
            "loser_credits",
            "credits_per_out_of_action",
            "income_amount",
        ):
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
    version = data.get("version")
    if isinstance(version, bool) or version not in READS:
        readable = " and ".join(map(str, READS))
        check.fail("version", f"version {version!r} is not supported; this site reads versions {readable}")
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
    for key in OVERRIDE_BOUNDS:
        check.count(campaign, key, "campaign.", required=version != 1)
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
        _check_battle(check, b, where, content, older=version == 1)
    _check_sequences(check, data, content)
    for where, s in check.items(data, "snapshots", "", required=True, most=100_000):
        check.ref(s, "gang", where, ids.GANG, required=True)
        check.count(s, "rating", where, low=None)
        check.count(s, "reputation", where, low=None)
        check.text(s, "reason", where, max_length=10_000, blank=False)
        check.moment(s, "taken_at", where)
    return check.errors, content
