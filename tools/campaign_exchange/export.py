"""Export a whole campaign as one JSON object (format: docs/campaign-export.md), and its standings as CSV.

Every row is written with its number in the file (``"id"``, counted from 1 in the order the rows were made)
instead of this site's id, and every reference, in a column or inside recorded data (:mod:`.ids`), names that
number, so exporting a campaign that was imported gives the same file. Content is named by slug, people by
username. The export reads everything in a fixed number of queries per kind of row.
"""

from __future__ import annotations

import csv
import io
from datetime import datetime

from django.db.models import F

from campaigns.forms import OVERRIDE_BOUNDS
from campaigns.models import RULE_FIELDS, Battle, Campaign, CampaignTerritory, Cycle
from campaigns.selectors import standings
from content.models import Equipment
from gangs.models import Advancement, Fighter, Gang, Injury, LedgerEntry, Purchase
from postbattle.models import Sequence

from . import ids

FORMAT = "underhive-ledger/campaign"
# 2: a battle carries what it kept at its confirmation and its cancellation's reason, the campaign its override
# bounds (docs/campaign-export.md, *Versions*).
VERSION = 2

# What of a campaign's rows the file leaves behind, and why. The round-trip test walks every field of every kind of
# row that hangs off a campaign or its gangs and finds each equal after an import on an empty site, or named here:
# "app.Model" for a whole kind of row, "app.Model.field" for one field, "*.id" for every row's id.
NOT_CARRIED = {
    "*.id": "this site's ids: the file numbers its rows instead (Numbers in the file), the import makes new ones",
    # Whose the campaign is on the site it comes to (docs/campaign-export.md, Who owns what).
    "campaigns.Campaign.created_by": "the importing user, who runs the imported campaign",
    "campaigns.Campaign.invite_token": "a secret of the site it was made on: the campaign gets a new invitation",
    "gangs.Gang.imported_with_campaign": "set by the import: the gang's whole history was read from a file",
    # Caches and clocks of the site the rows live on.
    "campaigns.Campaign.version": "the campaign page's cache version, which starts again where the rows are new",
    "gangs.Gang.version": "the roster's cache version, likewise",
    "gangs.Gang.updated_at": "when the row was last written: on the new site, by the import",
    # Kinds of row that are not the campaign's history (docs/campaign-export.md, Not carried).
    "campaigns.JoinRequest": "a waiting one asks for a gang the file does not hold; a decided one's outcome is in the "
    "ledger of the gang that joined",
    "gangs.FileImport": "an upload waiting for the worker (YakTribe, gang or campaign file): the tool's working state",
    "battles.BattleSession": "the battle assistant's play-by-play; what it decided is in the battle's record",
    "battles.BattleFighter": "the battle assistant's play-by-play",
    "battles.BattleAction": "the battle assistant's play-by-play",
    "notifications.Event": "what this site told the club: the new site tells its own from the import on",
    "notifications.Delivery": "this site's deliveries of its events",
    "notifications.CampaignWebhook": "a secret (the Discord address) the arbitrator gives each site",
    "notifications.MailMute": "a person's choice on this site",
    "sharing.ShareLink": "links to this site: revoked with it, made again on the new one",
}


def when(value: datetime | None) -> str | None:
    return value.isoformat() if value else None


def who(user) -> str | None:
    return user.username if user else None


class Refs:
    """This site's ids -> numbers in the file, one series per kind of row, in the order the rows were made."""

    def __init__(self) -> None:
        self.maps: dict[str, dict[int, int]] = {}
        self.equipment: dict[int, str] = {}

    def number(self, kind: str, rows) -> None:
        self.maps[kind] = {pk: n for n, pk in enumerate(sorted(r.pk for r in rows), start=1)}

    def __call__(self, kind: str, pk) -> int | None:
        if pk is None:
            return None
        return self.maps[kind].get(pk)

    def lookup(self, kind: str, value):
        """For :func:`ids.walk`: an id in recorded data; ``None`` for a row the file does not hold."""
        if kind == ids.EQUIPMENT:
            return self.equipment.get(value, value)
        number = self.maps[kind].get(int(value))
        return str(number) if isinstance(value, str) and number is not None else number


class _Campaign:
    """Everything of one campaign, loaded once."""

    def __init__(self, campaign: Campaign) -> None:
        self.campaign = campaign
        self.memberships = {m.gang_id: m for m in campaign.memberships.all()}
        gang_ids = campaign.memberships.values("gang_id")
        self.gangs = list(Gang.objects.filter(pk__in=gang_ids).select_related("owner", "house").order_by("pk"))
        self.fighters = list(
            Fighter.objects.filter(gang__in=gang_ids)
            .select_related("fighter_type")
            .annotate(hired_for_id=F("battle_hire__battle_id"))  # campaigns.models.BattleHire
            .prefetch_related("stat_changes", "skills__skill")
            .order_by("pk")
        )
        self.advancements = list(Advancement.objects.filter(fighter__gang__in=gang_ids).order_by("pk"))
        self.injuries = list(Injury.objects.filter(fighter__gang__in=gang_ids).order_by("pk"))
        self.purchases = list(Purchase.objects.filter(gang__in=gang_ids).select_related("equipment").order_by("pk"))
        self.ledger = list(
            LedgerEntry.objects.filter(gang__in=gang_ids)
            .select_related("actor")
            .annotate(battle_id=F("battle_link__battle_id"))  # campaigns.models.BattleEntry
            .order_by("pk")
        )
        self.cycles = list(campaign.cycles.prefetch_related("passed").order_by("pk"))
        self.territories = list(campaign.territories.select_related("territory").order_by("pk"))
        self.battles = list(
            campaign.battles.select_related("reported_by", "confirmed_by")
            .prefetch_related("fighter_results")
            .order_by("pk")
        )
        self.sequences = list(
            Sequence.objects.filter(battle__campaign=campaign)
            .select_related("started_by", "application__applied_by", "application__reverted_by")
            .order_by("pk")
        )
        self.refs = Refs()
        for kind, rows in (
            (ids.GANG, self.gangs),
            (ids.FIGHTER, self.fighters),
            (ids.ADVANCEMENT, self.advancements),
            (ids.INJURY, self.injuries),
            (ids.PURCHASE, self.purchases),
            (ids.CYCLE, self.cycles),
            (ids.TERRITORY, self.territories),
            (ids.BATTLE, self.battles),
            (ids.SEQUENCE, self.sequences),
            ("ledger", self.ledger),
            (ids.CAMPAIGN, [campaign]),
        ):
            self.refs.number(kind, rows)
        kit = {
            int(item["equipment_id"])
            for s in self.sequences
            if hasattr(s, "application")
            for item in s.application.undo.get("kit", {}).values()
        }
        self.refs.equipment = dict(Equipment.objects.filter(pk__in=kit).values_list("pk", "slug"))

    def data(self, value, rules: ids.Rules):
        return ids.walk(value, rules, self.refs.lookup)


def _fighter(c: _Campaign, f: Fighter) -> dict:
    ref = c.refs
    return {
        "id": ref(ids.FIGHTER, f.pk),
        "name": f.name,
        "type": f.fighter_type.slug,
        "cost": f.cost,
        "base_stats": f.base_stats,
        "status": f.status,
        "experience": f.experience,
        "starting_experience": f.starting_experience,
        "kills": f.kills,
        "captured_by": ref(ids.GANG, f.captured_by_id),
        "hired_for": ref(ids.BATTLE, f.hired_for_id),
        "notes": f.notes,
        "order": f.order,
        "created_at": when(f.created_at),
        "advancements": [
            {
                "id": ref(ids.ADVANCEMENT, a.pk),
                "kind": a.kind,
                "description": a.description,
                "xp_cost": a.xp_cost,
                "value": a.value,
                "dice": a.dice,
                "created_at": when(a.created_at),
            }
            for a in c.advancements
            if a.fighter_id == f.pk
        ],
        "injuries": [
            {
                "id": ref(ids.INJURY, i.pk),
                "code": i.code,
                "name": i.name,
                "roll": i.roll,
                "effects": i.effects,
                "created_at": when(i.created_at),
            }
            for i in c.injuries
            if i.fighter_id == f.pk
        ],
        "stat_changes": [
            {
                "stat": s.stat,
                "delta": s.delta,
                "source": s.source,
                "advancement": ref(ids.ADVANCEMENT, s.advancement_id),
                "injury": ref(ids.INJURY, s.injury_id),
            }
            for s in f.stat_changes.all()
        ],
        "skills": [
            {
                "skill": s.skill.slug,
                "advancement": ref(ids.ADVANCEMENT, s.advancement_id),
                "injury": ref(ids.INJURY, s.injury_id),
            }
            for s in f.skills.all()
        ],
    }


def _entry(c: _Campaign, e: LedgerEntry) -> dict:
    ref = c.refs
    return {
        "id": ref("ledger", e.pk),
        "fighter": ref(ids.FIGHTER, e.fighter_id),
        "kind": e.kind,
        "credits": e.credits,
        "experience": e.experience,
        "reputation": e.reputation,
        "description": e.description,
        "reason": e.reason,
        "dice": e.dice,
        "data": c.data(e.data, ids.LEDGER),
        "actor": who(e.actor),
        "reverses": ref("ledger", e.reverses_id),
        "battle": ref(ids.BATTLE, e.battle_id),
        "created_at": when(e.created_at),
    }


def _gang(c: _Campaign, gang: Gang) -> dict:
    membership = c.memberships[gang.pk]
    return {
        "id": c.refs(ids.GANG, gang.pk),
        "player": gang.owner.username,
        "house": gang.house.slug,
        "name": gang.name,
        "notes": gang.notes,
        "stash": gang.stash,
        "reputation": gang.reputation,
        "created_at": when(gang.created_at),
        "membership": {
            "wants_to_play": membership.wants_to_play,
            "joined_at": when(membership.joined_at),
            "removed_at": when(membership.removed_at),
        },
        "fighters": [_fighter(c, f) for f in c.fighters if f.gang_id == gang.pk],
        "purchases": [
            {
                "id": c.refs(ids.PURCHASE, p.pk),
                "fighter": c.refs(ids.FIGHTER, p.fighter_id),
                "equipment": p.equipment.slug,
                "price": p.price,
                "created_at": when(p.created_at),
            }
            for p in c.purchases
            if p.gang_id == gang.pk
        ],
        "ledger": [_entry(c, e) for e in c.ledger if e.gang_id == gang.pk],
    }


def battle_export(battle: Battle, ref: Refs) -> dict:
    """One battle and its record: the one place that knows a battle's fields (the import reads the same keys)."""
    return {
        "id": ref(ids.BATTLE, battle.pk),
        "cycle": ref(ids.CYCLE, battle.cycle_id),
        "origin": battle.origin,
        "attacker": ref(ids.GANG, battle.attacker_id),
        "defender": ref(ids.GANG, battle.defender_id),
        "has_roles": battle.has_roles,
        "stakes": ref(ids.TERRITORY, battle.stakes_id),
        "is_rescue": battle.is_rescue,
        "scenario": battle.scenario,
        "scenario_name": battle.scenario_name,
        "scenario_roll": ids.walk(battle.scenario_roll, ids.SCENARIO_ROLL, ref.lookup),
        "crews": ids.walk(battle.crews, ids.CREWS, ref.lookup),
        "status": battle.status,
        "winner": ref(ids.GANG, battle.winner_id),
        "is_draw": battle.is_draw,
        "attacker_bottled": battle.attacker_bottled,
        "defender_bottled": battle.defender_bottled,
        "attacker_fled": battle.attacker_fled,
        "defender_fled": battle.defender_fled,
        "scenario_facts": ids.walk(battle.scenario_facts, ids.FACTS, ref.lookup),
        "rewards": battle.rewards,
        "held_at_confirmation": ids.walk(battle.held_at_confirmation, ids.HELD, ref.lookup),
        "roster_at_confirmation": ids.walk(battle.roster_at_confirmation, ids.ROSTER, ref.lookup),
        "notes": battle.notes,
        "cancel_reason": battle.cancel_reason,
        "reported_by": who(battle.reported_by),
        "reported_at": when(battle.reported_at),
        "confirmed_by": who(battle.confirmed_by),
        "confirmed_at": when(battle.confirmed_at),
        "created_at": when(battle.created_at),
        "results": [
            {
                "fighter": ref(ids.FIGHTER, r.fighter_id),
                "side": r.side,
                "outcome": r.outcome,
                "caused_by": ref(ids.FIGHTER, r.caused_by_id),
                "captured": r.captured,
                "killed": r.killed,
                "webbed": r.webbed,
                "awards": r.awards,
            }
            for r in sorted(battle.fighter_results.all(), key=lambda r: r.pk)
        ],
    }


def _sequence(c: _Campaign, s: Sequence) -> dict:
    application = getattr(s, "application", None)
    return {
        "id": c.refs(ids.SEQUENCE, s.pk),
        "battle": c.refs(ids.BATTLE, s.battle_id),
        "gang": c.refs(ids.GANG, s.gang_id),
        "edition": s.edition,
        "run": s.run,
        "state": s.state,
        "step": s.step,
        "draft": c.data(s.draft, ids.DRAFT),
        "started_by": who(s.started_by),
        "created_at": when(s.created_at),
        "updated_at": when(s.updated_at),
        "application": None
        if application is None
        else {
            "applied_by": who(application.applied_by),
            "applied_at": when(application.applied_at),
            "undo": c.data(application.undo, ids.UNDO),
            "reverted_by": who(application.reverted_by),
            "reverted_at": when(application.reverted_at),
        },
    }


def _territory(c: _Campaign, t: CampaignTerritory) -> dict:
    return {
        "id": c.refs(ids.TERRITORY, t.pk),
        "territory": t.territory.slug,
        "holder": c.refs(ids.GANG, t.holder_id),
        "is_home_settlement": t.is_home_settlement,
        "changed_at": when(t.changed_at),
    }


def _cycle(c: _Campaign, cycle: Cycle) -> dict:
    return {
        "id": c.refs(ids.CYCLE, cycle.pk),
        "number": cycle.number,
        "started_at": when(cycle.started_at),
        "pairing_dice": cycle.pairing_dice,
        "odd_gang_out": c.refs(ids.GANG, cycle.odd_gang_out_id),
        "passed": sorted(c.refs(ids.GANG, g.pk) for g in cycle.passed.all() if c.refs(ids.GANG, g.pk)),
    }


def campaign_export(campaign: Campaign) -> dict:
    c = _Campaign(campaign)
    arbitrators = campaign.arbitrators.select_related("user").order_by("pk")
    snapshots = campaign.snapshots.order_by("pk")
    return {
        "format": FORMAT,
        "version": VERSION,
        "edition": campaign.edition,
        "campaign": {
            "name": campaign.name,
            "description": campaign.description,
            "starting_credits": campaign.starting_credits,
            "house_rules": campaign.house_rules,
            "status": campaign.status,
            "cycle": campaign.cycle,
            **{name: getattr(campaign, name) for name in OVERRIDE_BOUNDS},
            "created_at": when(campaign.created_at),
        },
        "arbitrators": [{"username": a.user.username, "added_at": when(a.added_at)} for a in arbitrators],
        "house_rules": [
            {
                "in_force_from": when(r.in_force_from),
                "changed_by": who(r.changed_by),
                "note": r.note,
                **{name: getattr(r, name) for name in RULE_FIELDS},
            }
            for r in campaign.house_rule_versions.select_related("changed_by").order_by("in_force_from", "pk")
        ],
        "gangs": [_gang(c, g) for g in c.gangs],
        "cycles": [_cycle(c, cycle) for cycle in c.cycles],
        "territories": [_territory(c, t) for t in c.territories],
        "battles": [battle_export(b, c.refs) for b in c.battles],
        "sequences": [_sequence(c, s) for s in c.sequences],
        "snapshots": [
            {
                "gang": c.refs(ids.GANG, s.gang_id),
                "rating": s.rating,
                "reputation": s.reputation,
                "reason": s.reason,
                "taken_at": when(s.taken_at),
            }
            for s in snapshots
        ],
    }


STANDINGS_COLUMNS = (
    "place",
    "gang",
    "house",
    "player",
    "rating",
    "reputation",
    "played",
    "wins",
    "draws",
    "losses",
    "territories",
)


def standings_csv(campaign: Campaign) -> str:
    """The campaign page's standings table, one gang a row, as CSV (UTF-8, a header row)."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(STANDINGS_COLUMNS)
    for place, row in enumerate(standings(campaign), start=1):
        writer.writerow(
            [
                place,
                _cell(row.gang.name),
                row.gang.house.name,
                _cell(row.gang.owner.username),
                row.rating,
                row.reputation,
                row.played,
                row.wins,
                row.draws,
                row.losses,
                _cell("; ".join(t.territory.name for t in row.territories)),
            ]
        )
    return out.getvalue()


def _cell(text: str) -> str:
    """A player's text never starts a formula when the sheet is opened in a spreadsheet (CSV injection)."""
    return f"'{text}" if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text
