"""One battle's record: what happened, as every later step reads it, and the rules that keep it consistent.

A campaign battle's record holds each fighter's end (fielded, Out of Action and by whom, Seriously Injured at
the end, fled, killed, captured and by which gang, freed from captivity, rallies and the scenario's deeds) and
the scenario's facts (each loot casket with the side whose fighter opened it and what it held, relics,
caches, bottling and fleeing, captives freed and which fighter freed each). The hand-entered report and the battle assistant's end of
battle both go through :func:`check_record`, which refuses a contradiction with a message naming the fighter
and the rule. Its JSON form (:meth:`BattleRecord.as_json`) is stable: sides are roles (``attacker``,
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
from dataclasses import dataclass, field

from rulebook.errors import RulesInputError
from rulebook.n18.campaign.battlefield import LOOT_CASKET, LOOT_CASKET_SMASH_AND_GRAB
from rulebook.n18.campaign.lasting_injury import WEBBED_SOURCE
from rulebook.n18.campaign.scenarios import SCENARIOS, Caskets
from rulebook.roster import amount_distribution

OK, SERIOUSLY_INJURED, OUT_OF_ACTION, FLED = "ok", "seriously_injured", "out_of_action", "fled"
OUTCOMES = (OK, SERIOUSLY_INJURED, OUT_OF_ACTION, FLED)
ROLES = ("attacker", "defender")
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
            f"{name}: only a fighter taken Out of Action (and not killed) while Webbed rolls the Webbed D6 "
            f"({WEBBED_SOURCE})",
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


def check_record(record: BattleRecord) -> BattleRecord:
    """Refuse a record that contradicts itself or the scenario's rules; return it with each casket's result
    as its table slug."""
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
    return BattleRecord(
        record.scenario,
        record.fighters,
        tuple(caskets),
        record.caskets_opened,
        record.bottled,
        record.fled,
        record.winner,
        record.captives_freed,
        record.gangs,
        record.freed_by,
    )


def casket_words(casket: Casket, scenario: str) -> str:
    """A casket in words: "Jackpot (130 credits)"; "contents not recorded" when the report did not say."""
    if not casket.result:
        return "contents not recorded"
    contents = casket_contents(casket_rules(scenario).table, casket.result)
    held = f"{contents['name']} ({casket.credits} credits)" if casket.credits else contents["name"]
    return f"left behind by a gang that fled, rolled for: {held}" if casket.left_behind else held
