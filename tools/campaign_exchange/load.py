"""Restoring a checked campaign export (docs/campaign-export.md) in one transaction.

:func:`campaign_import` refuses a file with any problem (:mod:`.check`); otherwise it makes the rows in the
order of their numbers in the file and writes their recorded times back, so the log, the charts and the ledgers
read as they did, and exporting the imported campaign gives the same file. The importing user becomes the
campaign's arbitrator; people are matched by username (docs/campaign-export.md, *Who owns what*).
"""

from __future__ import annotations

from collections import defaultdict

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import DatabaseError, IntegrityError, transaction
from django.utils.dateparse import parse_datetime

from campaigns.forms import OVERRIDE_BOUNDS
from campaigns.models import (
    RULE_FIELDS,
    Battle,
    BattleEntry,
    BattleFighterResult,
    BattleHire,
    Campaign,
    CampaignArbitrator,
    CampaignGang,
    CampaignTerritory,
    Cycle,
    HouseRules,
    StandingSnapshot,
)
from gangs.models import (
    Advancement,
    Fighter,
    FighterSkill,
    Gang,
    Injury,
    LedgerEntry,
    LedgerKind,
    Purchase,
    StatChange,
)
from postbattle.models import Application, Sequence

from . import ids
from .check import campaign_import_check

IMPORTED = "Imported from a campaign export"


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
            edition=d["edition"],
            name=c["name"].strip(),
            description=c.get("description", ""),
            starting_credits=c["starting_credits"],
            house_rules=c.get("house_rules", ""),
            status=c["status"],
            cycle=c["cycle"],
            # A version 1 file has no override bounds: the campaign starts with this site's defaults.
            **{name: c[name] for name in OVERRIDE_BOUNDS if name in c},
            created_by=self.user,
        )
        self.maps.rows[ids.CAMPAIGN][1] = campaign
        Campaign.objects.filter(pk=campaign.pk).update(created_at=_at(c["created_at"]))
        self.arbitrators(campaign)
        HouseRules.objects.bulk_create(
            [
                HouseRules(
                    campaign=campaign,
                    in_force_from=_at(r["in_force_from"]),
                    changed_by=self.person(r.get("changed_by")),
                    note=r.get("note", ""),
                    **{name: r.get(name) for name in RULE_FIELDS},
                )
                for r in d["house_rules"]
            ]
        )
        self.gangs(campaign)
        self.cycles(campaign)
        self.territories(campaign)
        self.battles(campaign)
        self.fighter_links()
        self.ledger()
        self.sequences()
        self.held_for_players()
        self.made(
            StandingSnapshot,
            [
                StandingSnapshot(
                    campaign=campaign,
                    gang_id=self.maps.pk(ids.GANG, s["gang"]),
                    rating=s["rating"],
                    reputation=s["reputation"],
                    reason=s["reason"],
                )
                for s in d["snapshots"]
            ],
            {"taken_at": [_at(s["taken_at"]) for s in d["snapshots"]]},
        )
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
        self.made(
            Gang,
            [
                Gang(
                    owner=self.person(g["player"]) or self.user,
                    edition=self.data["edition"],
                    house=content["house"][g["house"]],
                    name=g["name"].strip(),
                    notes=g.get("notes", ""),
                    stash=g["stash"],
                    reputation=g["reputation"],
                    imported_with_campaign=True,
                )
                for g in gangs
            ],
            {"created_at": [_at(g["created_at"]) for g in gangs]},
            ids.GANG,
            [g["id"] for g in gangs],
        )
        self.made(
            CampaignGang,
            [
                CampaignGang(
                    campaign=campaign,
                    gang_id=self.maps.pk(ids.GANG, g["id"]),
                    wants_to_play=g["membership"]["wants_to_play"],
                )
                for g in gangs
            ],
            {
                "joined_at": [_at(g["membership"]["joined_at"]) for g in gangs],
                "removed_at": [_at(g["membership"]["removed_at"]) for g in gangs],
            },
        )
        fighters = _by_number([(g, f) for g in gangs for f in g["fighters"]], lambda gf: gf[1]["id"])
        self.made(
            Fighter,
            [
                Fighter(
                    gang_id=self.maps.pk(ids.GANG, g["id"]),
                    fighter_type=content["type"][f["type"]],
                    name=f["name"],
                    cost=f["cost"],
                    base_stats=f["base_stats"],
                    status=f["status"],
                    experience=f["experience"],
                    starting_experience=f["starting_experience"],
                    kills=f["kills"],
                    notes=f.get("notes", ""),
                    order=f["order"],
                )
                for g, f in fighters
            ],
            {"created_at": [_at(f["created_at"]) for _, f in fighters]},
            ids.FIGHTER,
            [f["id"] for _, f in fighters],
        )
        for model, key, kind, build in (
            (
                Advancement,
                "advancements",
                ids.ADVANCEMENT,
                lambda pk, a: Advancement(
                    fighter_id=pk,
                    kind=a["kind"],
                    description=a["description"],
                    xp_cost=a["xp_cost"],
                    value=a["value"],
                    dice=a["dice"],
                ),
            ),
            (
                Injury,
                "injuries",
                ids.INJURY,
                lambda pk, i: Injury(
                    fighter_id=pk,
                    code=i["code"],
                    name=i["name"],
                    roll=i.get("roll"),
                    effects=Injury.notes_only(i["effects"]),
                ),
            ),
        ):
            rows = _by_number(
                [(self.maps.pk(ids.FIGHTER, f["id"]), r) for _, f in fighters for r in f[key]], lambda pr: pr[1]["id"]
            )
            self.made(
                model,
                [build(pk, r) for pk, r in rows],
                {"created_at": [_at(r["created_at"]) for _, r in rows]},
                kind,
                [r["id"] for _, r in rows],
            )
        changes, skills = [], []

        def links(row: dict) -> dict:
            """The advancement or Lasting Injury a stat change or skill came with, as this site's ids."""
            return {
                "advancement_id": self.maps.pk(ids.ADVANCEMENT, row.get("advancement")),
                "injury_id": self.maps.pk(ids.INJURY, row.get("injury")),
            }

        for _, f in fighters:
            pk = self.maps.pk(ids.FIGHTER, f["id"])
            changes += [
                StatChange(fighter_id=pk, stat=s["stat"], delta=s["delta"], source=s["source"], **links(s))
                for s in f["stat_changes"]
            ]
            skills += [FighterSkill(fighter_id=pk, skill=content["skill"][s["skill"]], **links(s)) for s in f["skills"]]
        StatChange.objects.bulk_create(changes)
        FighterSkill.objects.bulk_create(skills)
        purchases = _by_number([(g, p) for g in gangs for p in g["purchases"]], lambda gp: gp[1]["id"])
        self.made(
            Purchase,
            [
                Purchase(
                    gang_id=self.maps.pk(ids.GANG, g["id"]),
                    fighter_id=self.maps.pk(ids.FIGHTER, p["fighter"]),
                    equipment=content["equipment"][p["equipment"]],
                    price=p["price"],
                )
                for g, p in purchases
            ],
            {"created_at": [_at(p["created_at"]) for _, p in purchases]},
            ids.PURCHASE,
            [p["id"] for _, p in purchases],
        )

    def held_for_players(self) -> None:
        """A gang whose player has no account here is the importing arbitrator's until they do: the gang's history
        says so, and whose it was."""
        for g in self.data["gangs"]:
            if self.person(g["player"]) is None:
                gang = self.maps.rows[ids.GANG][g["id"]]
                LedgerEntry.objects.create(
                    gang=gang,
                    kind=LedgerKind.OTHER,
                    actor=self.user,
                    reason=IMPORTED,
                    description=f"Imported for {g['player']}, who has no account on this site: held by "
                    f"{self.user.username}",
                    data={"imported_for": g["player"]},
                )

    def cycles(self, campaign: Campaign) -> None:
        cycles = _by_number(self.data["cycles"])
        made = self.made(
            Cycle,
            [
                Cycle(
                    campaign=campaign,
                    number=c["number"],
                    pairing_dice=c["pairing_dice"],
                    odd_gang_out_id=self.maps.pk(ids.GANG, c.get("odd_gang_out")),
                )
                for c in cycles
            ],
            {"started_at": [_at(c["started_at"]) for c in cycles]},
            ids.CYCLE,
            [c["id"] for c in cycles],
        )
        for cycle, c in zip(made, cycles, strict=True):
            cycle.passed.set([self.maps.pk(ids.GANG, g) for g in c["passed"]])

    def territories(self, campaign: Campaign) -> None:
        rows = _by_number(self.data["territories"])
        self.made(
            CampaignTerritory,
            [
                CampaignTerritory(
                    campaign=campaign,
                    territory=self.content["territory"][t["territory"]],
                    holder_id=self.maps.pk(ids.GANG, t.get("holder")),
                    is_home_settlement=t["is_home_settlement"],
                )
                for t in rows
            ],
            {"changed_at": [_at(t["changed_at"]) for t in rows]},
            ids.TERRITORY,
            [t["id"] for t in rows],
        )

    def battles(self, campaign: Campaign) -> None:
        rows = _by_number(self.data["battles"])
        self.made(
            Battle,
            [battle_from_file(campaign, b, self.maps, self.person) for b in rows],
            {"created_at": [_at(b["created_at"]) for b in rows]},
            ids.BATTLE,
            [b["id"] for b in rows],
        )
        BattleFighterResult.objects.bulk_create(
            [
                BattleFighterResult(
                    battle_id=self.maps.pk(ids.BATTLE, b["id"]),
                    fighter_id=self.maps.pk(ids.FIGHTER, r["fighter"]),
                    side=r["side"],
                    outcome=r["outcome"],
                    caused_by_id=self.maps.pk(ids.FIGHTER, r.get("caused_by")),
                    captured=r["captured"],
                    killed=r["killed"],
                    webbed=r.get("webbed", False),  # files written before the field read as not Webbed
                    awards=r["awards"],
                )
                for b in rows
                for r in b["results"]
            ]
        )

    def fighter_links(self) -> None:
        """Captors and the battle a Hired Gun was hired for: rows made after the fighters."""
        captives, hires = [], []
        for g in self.data["gangs"]:
            for f in g["fighters"]:
                fighter = self.maps.rows[ids.FIGHTER][f["id"]]
                if f.get("captured_by") is not None:
                    fighter.captured_by_id = self.maps.pk(ids.GANG, f["captured_by"])
                    captives.append(fighter)
                if f.get("hired_for") is not None:
                    hires.append(BattleHire(fighter=fighter, battle_id=self.maps.pk(ids.BATTLE, f["hired_for"])))
        Fighter.objects.bulk_update(captives, ["captured_by"])
        BattleHire.objects.bulk_create(hires)

    def ledger(self) -> None:
        """The entries as they were; the totals were set from the file, which the check found equal to them."""
        entries = _by_number([(g, e) for g in self.data["gangs"] for e in g["ledger"]], lambda ge: ge[1]["id"])
        made = self.made(
            LedgerEntry,
            [
                LedgerEntry(
                    gang_id=self.maps.pk(ids.GANG, g["id"]),
                    fighter_id=self.maps.pk(ids.FIGHTER, e.get("fighter")),
                    kind=e["kind"],
                    credits=e["credits"],
                    experience=e["experience"],
                    reputation=e["reputation"],
                    description=e["description"],
                    reason=e.get("reason", ""),
                    dice=e["dice"],
                    actor=self.person(e.get("actor")),
                )
                for g, e in entries
            ],
            {"created_at": [_at(e["created_at"]) for _, e in entries]},
            "ledger",
            [e["id"] for _, e in entries],
        )
        BattleEntry.objects.bulk_create(
            [
                BattleEntry(entry=obj, battle_id=self.maps.pk(ids.BATTLE, e["battle"]))
                for obj, (_, e) in zip(made, entries, strict=True)
                if e.get("battle") is not None
            ],
            batch_size=500,
        )
        reversing = [(obj, e) for obj, (_, e) in zip(made, entries, strict=True) if e.get("reverses") is not None]
        for obj, e in reversing:
            obj.reverses_id = self.maps.pk("ledger", e["reverses"])
        LedgerEntry.objects.bulk_update([obj for obj, _ in reversing], ["reverses"], batch_size=500)
        self._pending_data = list(zip(made, (e["data"] for _, e in entries), strict=True))

    def sequences(self) -> None:
        rows = _by_number(self.data["sequences"])
        made = self.made(
            Sequence,
            [
                Sequence(
                    battle_id=self.maps.pk(ids.BATTLE, s["battle"]),
                    gang_id=self.maps.pk(ids.GANG, s["gang"]),
                    edition=s["edition"],
                    run=s["run"],
                    state=s["state"],
                    step=s["step"],
                    started_by=self.person(s.get("started_by")),
                )
                for s in rows
            ],
            {"created_at": [_at(s["created_at"]) for s in rows], "updated_at": [_at(s["updated_at"]) for s in rows]},
            ids.SEQUENCE,
            [s["id"] for s in rows],
        )
        for sequence, s in zip(made, rows, strict=True):
            sequence.draft = ids.walk(s["draft"], ids.DRAFT, self.maps.lookup)
        Sequence.objects.bulk_update(made, ["draft"], batch_size=200)
        applied = [(seq, s["application"]) for seq, s in zip(made, rows, strict=True) if s["application"]]
        self.made(
            Application,
            [
                Application(
                    sequence=seq,
                    applied_by=self.person(a.get("applied_by")),
                    undo=ids.walk(a["undo"], ids.UNDO, self.maps.lookup),
                    reverted_by=self.person(a.get("reverted_by")),
                    reverted_at=_at(a.get("reverted_at")),
                )
                for seq, a in applied
            ],
            {"applied_at": [_at(a["applied_at"]) for _, a in applied]},
        )
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
            # Absent from a version 1 file: read as a battle confirmed before they were kept (the live roster and
            # territories, campaigns.models.Battle).
            battle.held_at_confirmation = ids.walk(b.get("held_at_confirmation", {}), ids.HELD, self.maps.lookup)
            battle.roster_at_confirmation = ids.walk(b.get("roster_at_confirmation", {}), ids.ROSTER, self.maps.lookup)
        Battle.objects.bulk_update(
            list(self.maps.rows[ids.BATTLE].values()),
            ["scenario_roll", "crews", "scenario_facts", "held_at_confirmation", "roster_at_confirmation"],
            batch_size=200,
        )


def battle_from_file(campaign: Campaign, b: dict, maps: _Maps, person) -> Battle:
    """A battle row from the file's battle (:func:`tools.campaign_exchange.export.battle_export`'s keys); its
    recorded data, which names fighters, is written once they all exist."""
    return Battle(
        campaign=campaign,
        cycle_id=maps.pk(ids.CYCLE, b.get("cycle")),
        origin=b["origin"],
        attacker_id=maps.pk(ids.GANG, b["attacker"]),
        defender_id=maps.pk(ids.GANG, b["defender"]),
        has_roles=b["has_roles"],
        stakes_id=maps.pk(ids.TERRITORY, b.get("stakes")),
        is_rescue=b["is_rescue"],
        scenario=b.get("scenario", ""),
        scenario_name=b.get("scenario_name", ""),
        status=b["status"],
        winner_id=maps.pk(ids.GANG, b.get("winner")),
        is_draw=b["is_draw"],
        attacker_bottled=b["attacker_bottled"],
        defender_bottled=b["defender_bottled"],
        attacker_fled=b["attacker_fled"],
        defender_fled=b["defender_fled"],
        rewards=b["rewards"],
        notes=b.get("notes", ""),
        cancel_reason=b.get("cancel_reason", ""),
        reported_by=person(b.get("reported_by")),
        reported_at=_at(b.get("reported_at")),
        confirmed_by=person(b.get("confirmed_by")),
        confirmed_at=_at(b.get("confirmed_at")),
    )


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
