"""One battle's record: what happened, as every later step reads it, and the rules that keep it consistent.

A campaign battle's record holds each fighter's end (fielded, Out of Action and by whom, Seriously Injured at
the end, fled, killed, captured and by which gang, freed from captivity, rallies and the scenario's deeds) and
the scenario's facts (each loot casket with the side whose fighter opened it and what it held, relics,
caches, Victory Points, bottling and fleeing, captives freed and which fighter freed each, the fighters who arrived as Reinforcements)
and the starting crews when they were picked. The hand-entered report and the battle assistant's end of
battle both go through :func:`check_record` (:func:`validate_record` lists every problem), which refuses a
contradiction with a message naming the fighter and the rule: the scenario's own rules (its caskets, relics,
caches, Victory Points, which roles receive Reinforcements, the result its facts decide) come from its data
in :mod:`rulebook.n18.campaign.scenarios` and :mod:`rulebook.n18.campaign.victory`. Its JSON form (:meth:`BattleRecord.as_json`) is stable: sides are roles (``attacker``,
``defender``; the two sides of a scenario without roles are stored under those names too), fighter ids are
strings.

Sources: the club campaign guide "Playing Necromunda Games in Cycle 1 & 2" (Battlefield Setup, Opening Loot
Caskets, Smash & Grab); fleeing the battlefield as the 2023 Core Rulebook gives it (necrovox, The Post-Battle
Sequence: a fighter who fled is not Out of Action, so no Lasting Injury and nobody's experience); a capture
has its captor, the opposing gang of a two-gang battle; a fighter Webbed when taken Out of Action rolls the
Webbed D6 after the battle instead of a Lasting Injury (2023 Core Rulebook, Conditions: Webbed); in a Rescue
Mission a captive is freed by one of the attackers' fighters (the Free Captive action) or by no fighter (they broke
their bonds, or the captors fled), 2023 Core Rulebook, Rescue Mission: Captive Models and Fleeing the Battlefield.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from rulebook.errors import RulesInputError
from rulebook.n18.campaign.battlefield import LOOT_CASKET, LOOT_CASKET_SMASH_AND_GRAB
from rulebook.n18.campaign.lasting_injury import WEBBED_SOURCE
from rulebook.n18.campaign.scenarios import GUIDE, SCENARIOS, Caskets, Scenario
from rulebook.n18.campaign.victory import (
    TRAP_POINTS_RULE,
    Proposal,
    SideFacts,
    proposed_result,
    trap_victory_points,
)
from rulebook.roster import amount_distribution

OK, SERIOUSLY_INJURED, OUT_OF_ACTION, FLED = "ok", "seriously_injured", "out_of_action", "fled"
OUTCOMES = (OK, SERIOUSLY_INJURED, OUT_OF_ACTION, FLED)
ROLES = ("attacker", "defender")
ROLE_NAMES = {"attacker": "the attacker", "defender": "the defender"}
CASKET_TABLES = {t.name: t for t in (LOOT_CASKET, LOOT_CASKET_SMASH_AND_GRAB)}
FLEEING_SOURCE = "2023 Core Rulebook, Fleeing the Battlefield (necrovox): a fighter who flees is not Out of Action"


def other(role: str) -> str:
    return "defender" if role == "attacker" else "attacker"


@dataclass(frozen=True)
class FighterEnd:
    """One fighter who took part: how they ended the battle and what they did."""

    fighter: str
    name: str
    side: str
    outcome: str = OK
    by: str | None = None
    killed: bool = False
    captured_by: int | None = None  # the captor gang's id
    category: str = "ganger"
    awards: Mapping[str, int] = field(default_factory=dict)
    webbed: bool = False  # Out of Action by the web's sedative: a Webbed D6 replaces the Lasting Injury

    def as_json(self) -> dict:
        return {
            "fighter": self.fighter,
            "name": self.name,
            "side": self.side,
            "outcome": self.outcome,
            "by": self.by,
            "killed": self.killed,
            "captured_by": self.captured_by,
            "category": self.category,
            "awards": dict(self.awards),
            "webbed": self.webbed,
        }

    @classmethod
    def from_json(cls, data: dict) -> FighterEnd:
        return cls(
            str(data["fighter"]),
            data.get("name", ""),
            data["side"],
            data.get("outcome", OK),
            str(data["by"]) if data.get("by") else None,
            bool(data.get("killed")),
            data.get("captured_by"),
            data.get("category", "ganger"),
            dict(data.get("awards") or {}),
            bool(data.get("webbed")),
        )


@dataclass(frozen=True)
class Casket:
    """One loot casket opened: by which side's fighter, what it held (its table row's slug) and the credits.

    ``left_behind``: no fighter opened it; it was rolled for ``side`` after the other gang bottled out and fled
    (Smash & Grab's Fleeing the Battlefield: the attacker rolls for each casket left, Booby Trapped doing nothing).
    """

    side: str
    result: str = ""
    credits: int = 0
    fighter: str | None = None
    left_behind: bool = False

    def as_json(self) -> dict:
        left = {"left_behind": True} if self.left_behind else {}
        return {"side": self.side, "fighter": self.fighter, "result": self.result, "credits": self.credits, **left}

    @classmethod
    def from_json(cls, data: dict) -> Casket:
        fighter = data.get("fighter")
        return cls(
            data["side"],
            data.get("result") or "",
            int(data.get("credits") or 0),
            str(fighter) if fighter else None,
            bool(data.get("left_behind")),
        )


@dataclass(frozen=True)
class BattleRecord:
    scenario: str
    fighters: tuple[FighterEnd, ...] = ()
    caskets: tuple[Casket, ...] = ()
    caskets_opened: int | None = None  # a count given without each casket's contents (older hand reports)
    bottled: tuple[str, ...] = ()
    fled: tuple[str, ...] = ()
    winner: str | None = None  # a role, or None for a draw
    captives_freed: tuple[str, ...] = ()
    gangs: Mapping[str, int] = field(default_factory=dict)  # role -> gang id
    relic_defiled: Mapping[str, bool] = field(default_factory=dict)  # role -> its relic was defiled
    caches_destroyed: int | None = None
    caches_recovered: int | None = None
    victory_points: Mapping[str, int] = field(default_factory=dict)  # role -> the points the players counted
    reinforcements: tuple[str, ...] = ()  # the fighters who arrived as Reinforcements during the battle
    crews: Mapping[str, tuple[str, ...]] = field(default_factory=dict)  # role -> its starting crew, when picked
    # A Rescue Mission's captive freed -> the attacker's fighter who freed them; a captive freed by no fighter is
    # not a key. Records written before it was kept have none: nobody is owed the freer's experience.
    freed_by: Mapping[str, str] = field(default_factory=dict)

    def opened(self, role: str | None = None) -> int:
        """Caskets opened (by ``role``'s fighters): the caskets named, or the count given."""
        if role is None:
            return max(len(self.caskets), self.caskets_opened or 0)
        return sum(c.side == role for c in self.caskets)

    def fighter(self, fighter_id: str) -> FighterEnd | None:
        return next((f for f in self.fighters if f.fighter == fighter_id), None)

    def as_json(self) -> dict:
        return {
            "scenario": self.scenario,
            "fighters": [f.as_json() for f in self.fighters],
            "caskets": [c.as_json() for c in self.caskets],
            "caskets_opened": self.caskets_opened,
            "bottled": list(self.bottled),
            "fled": list(self.fled),
            "winner": self.winner,
            "captives_freed": list(self.captives_freed),
            "gangs": dict(self.gangs),
            "relic_defiled": dict(self.relic_defiled),
            "caches_destroyed": self.caches_destroyed,
            "caches_recovered": self.caches_recovered,
            "victory_points": dict(self.victory_points),
            "reinforcements": list(self.reinforcements),
            "crews": {role: list(crew) for role, crew in self.crews.items()},
            "freed_by": dict(self.freed_by),
        }

    @classmethod
    def from_json(cls, data: dict) -> BattleRecord:
        return cls(
            data["scenario"],
            tuple(FighterEnd.from_json(f) for f in data.get("fighters", ())),
            tuple(Casket.from_json(c) for c in data.get("caskets", ())),
            data.get("caskets_opened"),
            tuple(data.get("bottled", ())),
            tuple(data.get("fled", ())),
            data.get("winner"),
            tuple(str(c) for c in data.get("captives_freed", ())),
            dict(data.get("gangs") or {}),
            dict(data.get("relic_defiled") or {}),
            data.get("caches_destroyed"),
            data.get("caches_recovered"),
            dict(data.get("victory_points") or {}),
            tuple(str(f) for f in data.get("reinforcements", ())),  # a record older than Reinforcements: none
            {role: tuple(str(f) for f in crew) for role, crew in (data.get("crews") or {}).items()},
            {str(c): str(f) for c, f in (data.get("freed_by") or {}).items()},
        )


def casket_rules(scenario: str) -> Caskets:
    """The scenario's loot caskets (the guide's standard two for a scenario it does not know)."""
    found = SCENARIOS.get(scenario)
    return found.caskets if found else Caskets()


def casket_contents(table_name: str, result: str) -> dict:
    """The table row a casket's ``result`` (slug or name) names on ``table_name``, with its credits' range."""
    table = CASKET_TABLES[table_name]
    for row in table.rows:
        if result in (row.details["slug"], row.result):
            credits = row.details.get("credits")
            values = sorted(amount_distribution(credits)) if credits else [0]
            return {
                "slug": row.details["slug"],
                "name": row.result,
                "credits": credits,
                "low": values[0],
                "high": values[-1],
            }
    names = ", ".join(row.result for row in table.rows)
    raise RulesInputError("caskets.result", f"{result!r} is not on the {table.title} table ({names})")


def _check_fighter(end: FighterEnd, friends: Mapping[str, FighterEnd]) -> None:
    name = end.name or f"fighter {end.fighter}"
    if end.outcome not in OUTCOMES:
        raise RulesInputError("fighters.outcome", f"{name}: unknown outcome {end.outcome!r}")
    if end.by is not None and end.outcome == FLED:
        raise RulesInputError("fighters.by", f"{name} fled the battlefield: nobody took them down ({FLEEING_SOURCE})")
    if end.by is not None and end.outcome == OK:
        raise RulesInputError("fighters.by", f"{name} is fine, so nobody took them down.")
    if end.by is not None and end.by in friends:
        raise RulesInputError("fighters.by", f"{name} can only be taken down by an enemy fighter.")
    if end.killed and end.outcome != OUT_OF_ACTION:
        raise RulesInputError("fighters.killed", f"{name}: a fighter killed during the battle is Out of Action.")
    if end.captured_by is not None and end.outcome != OUT_OF_ACTION:
        raise RulesInputError("fighters.captured", f"{name}: only a fighter taken Out of Action can be captured")
    if end.captured_by is not None and end.killed:
        raise RulesInputError("fighters.captured", f"{name} was killed during the battle, so cannot be a captive")
    if end.webbed and (end.outcome != OUT_OF_ACTION or end.killed):
        raise RulesInputError(
            "fighters.webbed",
            f"{name}: only a fighter taken Out of Action (and not killed) can be Webbed then, and rolls the Webbed "
            f"D6 ({WEBBED_SOURCE})",
        )


def check_casket(
    scenario: str, casket: Casket, index: int, opener: FighterEnd | None, fled: tuple[str, ...] = ()
) -> dict:
    """One casket against the scenario's rules (``fled``: the roles that bottled out and fled); returns its table
    row (see :func:`casket_contents`)."""
    rules = casket_rules(scenario)
    who = f"casket {index}"
    if casket.side not in ROLES:
        raise RulesInputError("caskets.side", f"{who}: opened by the attacker or the defender, not {casket.side!r}")
    if opener is not None:
        who = f"{opener.name} ({who})"
        if opener.side != casket.side:
            raise RulesInputError("caskets.fighter", f"{who} fights for the {opener.side}, not the {casket.side}")
    if casket.left_behind:
        _check_left_behind(scenario, casket, who, opener, fled)
    elif casket.side not in rules.openers:
        name = SCENARIOS[scenario].name if scenario in SCENARIOS else scenario
        raise RulesInputError(
            "caskets.side", f"{who}: in {name} the {casket.side} cannot open loot caskets ({rules.source})"
        )
    if not casket.result:
        return {"slug": "", "name": "", "credits": None, "low": 0, "high": 0}
    contents = casket_contents(rules.table, casket.result)
    if not contents["low"] <= casket.credits <= contents["high"]:
        span = f"{contents['low']} to {contents['high']} credits" if contents["credits"] else "no credits"
        raise RulesInputError("caskets.credits", f"{who}: {contents['name']} holds {span}, not {casket.credits}")
    return contents


def _check_left_behind(scenario: str, casket: Casket, who: str, opener: FighterEnd | None, fled: tuple) -> None:
    """A casket rolled for a gang after its opponent fled: only where the scenario says so, for the role it names,
    and only when the other gang did flee."""
    rules = casket_rules(scenario)
    name = SCENARIOS[scenario].name if scenario in SCENARIOS else scenario
    if rules.left_to is None:
        raise RulesInputError("caskets.left_behind", f"{who}: in {name} no casket is rolled for after a gang flees")
    if casket.side != rules.left_to:
        raise RulesInputError(
            "caskets.left_behind", f"{who}: in {name} caskets left behind go to the {rules.left_to} ({rules.source})"
        )
    if other(casket.side) not in fled:
        raise RulesInputError(
            "caskets.left_behind",
            f"{who}: caskets are rolled for the {casket.side} only when the {other(casket.side)} bottled out and fled "
            f"({rules.source})",
        )
    if opener is not None:
        raise RulesInputError("caskets.fighter", f"{who}: a casket left behind is rolled for, no fighter opens it")


def _check_freed_by(record: BattleRecord) -> None:
    """Each fighter who freed a captive: an attacker who took part, freeing a captive the record says was freed."""
    for captive, freer in record.freed_by.items():
        if captive not in record.captives_freed:
            raise RulesInputError("freed_by", f"captive {captive} was not freed, so nobody freed them")
        end = record.fighter(freer)
        if end is None:
            raise RulesInputError("freed_by", f"captive {captive}: freed by a fighter who did not take part")
        if end.side != "attacker":
            raise RulesInputError(
                "freed_by", f"{end.name} fights for the captors: only the rescuers free a captive (Free Captive)"
            )


@dataclass(frozen=True)
class Problem:
    """A contradiction in a record: the part of the report it concerns (``result``, ``relic``, ``caches``,
    ``victory_points.<role>``, ``reinforcements``, or a field of the record's own checks) and the message, which
    names the fighter and the rule."""

    part: str
    message: str


class RecordRefused(RulesInputError):
    """:func:`check_record`'s refusal, with every problem found."""

    def __init__(self, problems: list[Problem]):
        self.problems = tuple(problems)
        super().__init__(problems[0].part, " ".join(p.message for p in problems))


def check_record(record: BattleRecord, *, names: Mapping[str, str] | None = None, captives: int = 0) -> BattleRecord:
    """Refuse a record that contradicts itself or the scenario's rules (:class:`RecordRefused`); return it
    completed as :func:`validate_record` does."""
    checked, problems = validate_record(record, names=names, captives=captives)
    if problems:
        raise RecordRefused(problems)
    return checked


def validate_record(
    record: BattleRecord, *, names: Mapping[str, str] | None = None, captives: int = 0
) -> tuple[BattleRecord, list[Problem]]:
    """The record completed (each casket's result as its table slug, a relic defiled by a fighter named as
    defiled, the cache counts the fighters' deeds give) and the problems found in it. ``names``: each role's
    gang, for the messages; ``captives``: the rescuers' fighters the captors held, in a Rescue Mission.

    The record's own checks stop at the first problem; the scenario's facts are checked only on a record that
    passes them, and the result only against facts that pass theirs."""
    try:
        record = _checked(record)
    except RulesInputError as err:
        return record, [Problem(err.field, err.message)]
    scenario = SCENARIOS.get(record.scenario)
    if scenario is None:  # not one of the guide's scenarios: it has no rules of its own to hold the record to
        return record, []
    names = {**ROLE_NAMES, **(names or {})}
    record, problems = _deeds(record, scenario, names)
    if not problems:
        problems = _victory_points(record, names)
    if not problems:
        problems = _captors_fled(record, names, captives) or _result(record, names, captives)
    return record, problems


def _captors_fled(record: BattleRecord, names: Mapping[str, str], captives: int) -> list[Problem]:
    """Captors who flee leave every captive freed (2023 Core Rulebook, Rescue Mission: Fleeing the Battlefield)."""
    if not captives or "defender" not in record.fled or "attacker" in record.fled:
        return []
    if len(record.captives_freed) >= captives:
        return []
    return [
        Problem(
            "captives_freed", f"{names['defender']} fled the battlefield, so every captive is freed: tick them all."
        )
    ]


def _checked(record: BattleRecord) -> BattleRecord:
    """The record's own checks: each fighter's end, the Reinforcements and each casket against the scenario's
    rules; each casket's result returned as its table slug."""
    sides = {role: {f.fighter: f for f in record.fighters if f.side == role} for role in ROLES}
    seen: set[str] = set()
    for end in record.fighters:
        if end.side not in ROLES:
            raise RulesInputError("fighters.side", f"{end.name}: the attacker or the defender, not {end.side!r}")
        if end.fighter in seen:
            raise RulesInputError("fighters", f"{end.name} appears twice in the report.")
        seen.add(end.fighter)
        _check_fighter(end, sides[end.side])
        if end.captured_by is not None and record.gangs and end.captured_by != record.gangs.get(other(end.side)):
            raise RulesInputError("fighters.captured", f"{end.name} can only be captured by the opposing gang")
    for role in record.fled:
        if role not in record.bottled:
            raise RulesInputError("fled", "A gang flees only after bottling out.")
    _check_reinforcements(record)
    _check_freed_by(record)
    rules = casket_rules(record.scenario)
    if record.opened() > rules.count:
        name = SCENARIOS[record.scenario].name if record.scenario in SCENARIOS else "this battle"
        raise RulesInputError(
            "caskets", f"{name} has {rules.count} loot caskets, not {record.opened()} ({rules.source})"
        )
    caskets = []
    for index, casket in enumerate(record.caskets, 1):
        opener = record.fighter(casket.fighter) if casket.fighter else None
        if casket.fighter and opener is None:
            raise RulesInputError("caskets.fighter", f"casket {index}: opened by a fighter who did not take part")
        contents = check_casket(record.scenario, casket, index, opener, record.fled)
        caskets.append(Casket(casket.side, contents["slug"], casket.credits, casket.fighter, casket.left_behind))
    return replace(record, caskets=tuple(caskets))


def _check_reinforcements(record: BattleRecord) -> None:
    """A Reinforcement took part, for a side the scenario sends Reinforcements to, and was not in its gang's
    starting crew already (the guide's Border Dispute and Search & Destroy: Reinforcements)."""
    scenario = SCENARIOS.get(record.scenario)
    name = scenario.name if scenario else "this battle"
    source = scenario.sources[0] if scenario and scenario.sources else GUIDE
    if len(set(record.reinforcements)) != len(record.reinforcements):
        raise RulesInputError("reinforcements", "A fighter arrives as a Reinforcement once.")
    for fighter_id in record.reinforcements:
        end = record.fighter(fighter_id)
        if end is None:
            raise RulesInputError(
                "reinforcements", f"fighter {fighter_id}: a Reinforcement takes part in the battle, so has a row"
            )
        if scenario is None or end.side not in scenario.reinforced:
            raise RulesInputError(
                "reinforcements",
                f"{end.name}: in {name} the {end.side} receives no Reinforcements ({source})",
            )
        if fighter_id in record.crews.get(end.side, ()):
            raise RulesInputError(
                "reinforcements",
                f"{end.name} was in the {end.side}'s starting crew, so cannot also arrive as a Reinforcement",
            )


def _deeds(record: BattleRecord, scenario: Scenario, names: Mapping[str, str]) -> tuple[BattleRecord, list[Problem]]:
    """The scenario's facts follow from the fighters' deeds: each deed by a fighter of a role the scenario lets
    do it, a relic defiled once by one named enemy fighter, the caches counted as the fighters who destroyed or
    recovered them, no more caches than the scenario hides."""
    problems = []
    source = scenario.sources[0] if scenario.sources else GUIDE
    for end in record.fighters:
        for deed in DEED_NAMES:
            if end.awards.get(deed) and end.side not in dict(scenario.deeds).get(deed, ()):
                what = DEED_NAMES[deed]
                problems.append(Problem(deed, f"{end.name}: in {scenario.name} the {end.side} {what} ({source})"))
    defiled = dict(record.relic_defiled)
    for side in ROLES:
        enemy = other(side)
        defilers = [f.name for f in record.fighters if f.side == enemy and f.awards.get("relic_defiled")]
        if len(defilers) > 1:
            problems.append(
                Problem(
                    "relic",
                    f"{names[side]}'s relic can only be defiled once, not by {' and '.join(defilers)}: tick one "
                    f"fighter ({source})",
                )
            )
        elif defiled.get(side) and not defilers and "relic" in scenario.report_facts:
            problems.append(Problem("relic", f"Say which of {names[enemy]}'s fighters defiled {names[side]}'s relic."))
        defiled[side] = bool(defiled.get(side) or defilers)
    counts = {}
    for deed in ("caches_destroyed", "caches_recovered"):
        given, named = getattr(record, deed), sum(int(f.awards.get(deed) or 0) for f in record.fighters)
        if given is not None and named != given and "caches" in scenario.report_facts:
            what = deed.replace("_", " ")
            problems.append(
                Problem("caches", f"{given} {what}, but the fighters' rows name {named}: say who did each.")
            )
        counts[deed] = named if given is None and named else given
    found = (counts["caches_destroyed"] or 0) + (counts["caches_recovered"] or 0)
    if found > scenario.caches:
        problems.append(
            Problem("caches", f"{scenario.name} hides {scenario.caches} weapon caches, not {found} ({source})")
        )
    return replace(record, relic_defiled=defiled, **counts), problems


# The deeds a scenario names its fighters for (Scenario.deeds), in words for a refusal.
DEED_NAMES = {
    "relic_defiled": "defiles no relic",
    "caches_destroyed": "destroys no weapon cache",
    "caches_recovered": "recovers no weapon cache",
}


def side_facts(record: BattleRecord, role: str) -> SideFacts:
    """One side's end of the battle as the scenario's Victory reads it (:mod:`rulebook.n18.campaign.victory`)."""
    scenario = SCENARIOS.get(record.scenario)
    reads = scenario.report_facts if scenario else ()
    entered = {f.side for f in record.fighters}
    mine = [f for f in record.fighters if f.side == role]
    taken = tuple(f.category for f in record.fighters if f.side != role and f.outcome == OUT_OF_ACTION and f.by)
    caches = record.caches_destroyed if role == "attacker" else record.caches_recovered
    if "caches" in reads:
        caches = caches or 0  # the report names who destroyed and recovered each: none named is none
    return SideFacts(
        standing=sum(f.outcome == OK for f in mine) if entered == set(ROLES) else None,
        fled=role in record.fled and role in record.bottled,
        relic_defiled=bool(record.relic_defiled.get(role)) if "relic" in reads else None,
        victory_points=record.victory_points.get(role),
        # A record naming the fighters of one gang only says nothing of whom the other took down, nor who stood.
        taken_out=taken if entered == set(ROLES) else None,
        caches=caches,
    )


def _victory_points(record: BattleRecord, names: Mapping[str, str]) -> list[Problem]:
    """The Trap's Victory Points follow from the record: those counted must be what it gives."""
    scenario = SCENARIOS[record.scenario]
    if "victory_points" not in scenario.report_facts:
        return []
    problems = []
    for role in ROLES:
        counted, owed = (
            record.victory_points.get(role),
            trap_victory_points(side_facts(record, role), side_facts(record, other(role))),
        )
        if counted is None or owed is None or owed[0] <= counted <= owed[1]:
            continue
        given = str(owed[0]) if owed[0] == owed[1] else f"{owed[0]} to {owed[1]}"
        problems.append(
            Problem(
                f"victory_points.{role}",
                f"{names[role]}'s Victory Points: the record gives {given}, not {counted} (The Trap: {TRAP_POINTS_RULE}).",
            )
        )
    return problems


def decided_result(record: BattleRecord, *, captives: int = 0) -> Proposal | None:
    """The result the record's facts decide by the scenario's Victory, or None where the players say who won.
    ``captives``: in a Rescue Mission, the rescuers' fighters the captors held."""
    counted = record.caskets or record.caskets_opened is not None
    return proposed_result(
        record.scenario,
        side_facts(record, "attacker"),
        side_facts(record, "defender"),
        caskets_opened=record.opened() if counted else None,
        captives=captives,
        captives_freed=len(record.captives_freed) if captives else None,
    )


def _result(record: BattleRecord, names: Mapping[str, str], captives: int) -> list[Problem]:
    """Where the scenario's facts decide the winner (the guide, each scenario's Victory), the result must agree."""
    proposal = decided_result(record, captives=captives)
    if proposal is None or proposal.winner == record.winner:
        return []
    said = f"{names[proposal.winner]} wins" if proposal.winner else "the battle is a draw"
    return [Problem("result", f"By the scenario's facts {said} ({proposal.why}); change the result or the facts.")]


def casket_words(casket: Casket, scenario: str) -> str:
    """A casket in words: "Jackpot (130 credits)"; "contents not recorded" when the report did not say."""
    if not casket.result:
        return "contents not recorded"
    contents = casket_contents(casket_rules(scenario).table, casket.result)
    held = f"{contents['name']} ({casket.credits} credits)" if casket.credits else contents["name"]
    return f"left behind by a gang that fled, rolled for: {held}" if casket.left_behind else held
