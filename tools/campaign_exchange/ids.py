"""The ids the recorded data of a campaign holds, and how a file names them.

A ledger entry's ``data``, a post-battle sequence's draft and its undo record, a battle's crews and scenario
facts, and what a battle kept at its confirmation (each gang's territories and roster) keep ids of other rows
(fighters, gangs, purchases, sequences...): the services read them back (an undo, a revert and re-run, the
post-battle page). A file cannot carry this site's ids, so the export writes each row's number
*in the file* in their place, and the import writes the new rows' ids back. Both directions walk the same
rules, below: a rule says, for a key of one kind of recorded data, which kind of row its ids are.

Only whole numbers and strings of digits are ids (a step's account line names its fighter by name, and an
injury snapshot lists injury names: those are left alone). The battle assistant's play-by-play is not carried
(docs/campaign-export.md); what it recorded for the campaign (a loot casket's opener) names roster fighters.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

# kind of row -> the rows' id maps of :class:`tools.campaign_exchange.export.Refs` and its import twin
FIGHTER, GANG, PURCHASE, ADVANCEMENT, INJURY, SEQUENCE, CAMPAIGN, TERRITORY, BATTLE, CYCLE, EQUIPMENT = (
    "fighter",
    "gang",
    "purchase",
    "advancement",
    "injury",
    "sequence",
    "campaign",
    "territory",
    "battle",
    "cycle",
    "equipment",
)


@dataclass(frozen=True)
class Rules:
    """``ids``: key -> kind of its value(s) (a number, a list of them, or an object keyed by them);
    ``skip``: keys whose values are copied untouched; ``choices``: the key of a post-battle step's choices."""

    ids: dict[str, str]
    skip: frozenset[str] = field(default_factory=frozenset)
    choices: str = ""


@dataclass(frozen=True)
class ByGang:
    """Recorded data keyed by gang ids at its top (what a battle kept of each of its two gangs at confirmation);
    ``each``: what each gang's value is, a list of ids of one kind of row or recorded data read by its rules."""

    each: str | Rules


LEDGER = Rules(
    {
        "post_battle": SEQUENCE,
        "purchase": PURCHASE,
        "advancement": ADVANCEMENT,
        "injury": INJURY,
        "captured_by": GANG,
        "captured_by_before": GANG,
        "campaign": CAMPAIGN,
        "territory": TERRITORY,
        "battle": BATTLE,
        "fighter": FIGHTER,
    },
    skip=frozenset({"dice", "rolled_dice"}),
)
DRAFT = Rules(
    {"start": FIGHTER, "fighters": FIGHTER, "id": FIGHTER, "fighter": FIGHTER, "gang": GANG, "captured_by": GANG},
    skip=frozenset({"lines", "kept", "history", "dice"}),
    choices="choices",
)
UNDO = Rules(
    {
        "fighters": FIGHTER,
        "fighter": FIGHTER,
        "captured_by": GANG,
        "injuries": INJURY,
        "advancements": ADVANCEMENT,
        "recruits": FIGHTER,
        "kit": PURCHASE,
        "equipment_id": EQUIPMENT,
    }
)
CREWS = Rules(
    {"fighters": FIGHTER, "chosen": FIGHTER, "random": FIGHTER, "unavailable": FIGHTER, "hired_guns": FIGHTER},
    skip=frozenset({"crew", "dice", "size_dice", "size"}),
)
SCENARIO_ROLL = Rules({"chosen_by": GANG}, skip=frozenset({"dice", "roll_off"}))
# A loot casket names the roster fighter who opened it, a Rescue Mission who freed which captive, and the
# Reinforcements are roster fighters (the battle record, rulebook.n18.campaign.record).
FACTS = Rules({"captives_freed": FIGHTER, "fighter": FIGHTER, "captive": FIGHTER, "reinforcements": FIGHTER})
# Battle.held_at_confirmation: each gang's campaign territories; Battle.roster_at_confirmation: each gang's
# roster as campaigns.selectors.roster_facts reads it (its fighters' and captives' ``id``, its ``leader``).
HELD = ByGang(TERRITORY)
ROSTER = ByGang(Rules({"id": FIGHTER, "leader": FIGHTER}))

# Every recorded field that keeps ids, with its rules: the round-trip test reads ids through these to compare a
# campaign with its imported copy, whose ids are this site's.
RECORDED = {
    "gangs.LedgerEntry.data": LEDGER,
    "postbattle.Sequence.draft": DRAFT,
    "postbattle.Application.undo": UNDO,
    "campaigns.Battle.scenario_roll": SCENARIO_ROLL,
    "campaigns.Battle.crews": CREWS,
    "campaigns.Battle.scenario_facts": FACTS,
    "campaigns.Battle.held_at_confirmation": HELD,
    "campaigns.Battle.roster_at_confirmation": ROSTER,
}

_NONE = Rules({})

# A post-battle step's choices name fighters in their keys (``action_12``, ``table_12_2``) and targets in values.
_CHOICE_KEY = re.compile(r"^(action|target|credits|table)_(\d+)((?:_\d+)?)$")
_CHOICE_VALUE = re.compile(r"^(patient|captive):(\d+)$")

Lookup = Callable[[str, object], object]


def _is_id(value) -> bool:
    return (isinstance(value, int) and not isinstance(value, bool)) or (isinstance(value, str) and value.isdigit())


def _one(kind: str, value, lookup: Lookup):
    return lookup(kind, value) if _is_id(value) or kind == EQUIPMENT else value


def _ids(kind: str, value, rules: Rules, lookup: Lookup):
    if isinstance(value, list):
        return [_one(kind, v, lookup) for v in value]
    if isinstance(value, dict):
        mapped = {}
        for key, inner in value.items():
            new_key = _one(kind, key, lookup)
            if new_key is not None:
                mapped[str(new_key)] = walk(inner, rules, lookup)
        return mapped
    return _one(kind, value, lookup)


def _choices(value, lookup: Lookup):
    if not isinstance(value, dict):
        return value
    out = {}
    for key, choice in value.items():
        if match := _CHOICE_KEY.match(key):
            key = f"{match[1]}_{lookup(FIGHTER, match[2])}{match[3]}"
        if isinstance(choice, str) and (found := _CHOICE_VALUE.match(choice)):
            choice = f"{found[1]}:{lookup(FIGHTER, found[2])}"
        out[key] = choice
    return out


def walk(value, rules: Rules | ByGang, lookup: Lookup):
    """``value`` with every id the rules name replaced by ``lookup(kind, id)`` (same type: a string id stays a
    string); everything else copied."""
    if isinstance(rules, ByGang):
        if not isinstance(value, dict):
            return value
        out = {}
        for gang, inner in value.items():
            key = _one(GANG, gang, lookup)
            if key is not None:
                each = rules.each
                out[str(key)] = (
                    walk(inner, each, lookup) if isinstance(each, Rules) else _ids(each, inner, _NONE, lookup)
                )
        return out
    if isinstance(value, list):
        return [walk(v, rules, lookup) for v in value]
    if not isinstance(value, dict):
        return value
    out = {}
    for key, inner in value.items():
        if key in rules.skip:
            out[key] = inner
        elif key == rules.choices and rules.choices:
            out[key] = _choices(inner, lookup)
        elif key in rules.ids:
            out[key] = _ids(rules.ids[key], inner, rules, lookup)
        else:
            out[key] = walk(inner, rules, lookup)
    return out
