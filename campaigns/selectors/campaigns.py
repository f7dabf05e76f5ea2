"""Reads the campaign pages, the gang page and the post-battle sequence need.

Every page selector runs a fixed number of queries whatever the number of gangs: ratings are
subqueries, win/draw/loss counts and territories are counted in Python from one query each.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.core.cache import cache
from django.db.models import F, IntegerField, OuterRef, Prefetch, Q, QuerySet, Subquery, Sum, Value
from django.db.models.functions import Coalesce

from campaigns import charts
from campaigns.cache import FRAGMENT_SECONDS, page_key
from campaigns.models import (
    Battle,
    BattleFighterResult,
    BattleStatus,
    Campaign,
    CampaignGang,
    CampaignTerritory,
    Cycle,
    StandingSnapshot,
)
from campaigns.permissions import Access, access_from, access_in
from campaigns.selectors.house_rules import house_rules_history
from content.models import Edition, FighterCategory, SkillAccess
from gangs.models import ON_ROSTER, Advancement, Fighter, FighterStatus, Gang, LedgerEntry, LedgerKind, Purchase
from gangs.stats import fighter_snapshot
from rulebook.gang_rules import RatedFighter
from rulebook.gang_rules import gang_rating as rulebook_gang_rating
from rulebook.n18.campaign import territories as territory_rules
from rulebook.n18.campaign.record import Casket, casket_words
from rulebook.n18.matchmaking import Contender, challenge_order


def _sum(queryset: QuerySet, column: str) -> Coalesce:
    total = queryset.values("gang" if queryset.model is not Advancement else "fighter__gang")
    total = total.annotate(total=Sum(column)).values("total")
    return Coalesce(Subquery(total, output_field=IntegerField()), Value(0))


def with_rating(gangs: QuerySet[Gang]) -> QuerySet[Gang]:
    """Annotate the totals the gang rating adds up, over the fighters on the roster, as subqueries
    (so a page of many gangs costs one query); :func:`gang_rating` applies the edition's rule."""
    fighters = Fighter.objects.filter(gang=OuterRef("pk"), status__in=ON_ROSTER)
    carried = Purchase.objects.filter(gang=OuterRef("pk"), fighter__status__in=ON_ROSTER)
    advances = Advancement.objects.filter(fighter__gang=OuterRef("pk"), fighter__status__in=ON_ROSTER)
    return gangs.annotate(
        rating_cost=_sum(fighters, "cost"),
        rating_equipment=_sum(carried, "price"),
        rating_advances=_sum(advances, "value"),
        rating_experience=_sum(fighters, "experience"),
    )


def gang_rating(gang: Gang) -> int:
    """The rating of a gang annotated by :func:`with_rating`: ``rulebook.gang_rules`` values each
    fighter linearly, so the gang's totals rate as one."""
    totals = RatedFighter(
        cost=gang.rating_cost,
        equipment=gang.rating_equipment,
        experience=gang.rating_experience,
        advancements=gang.rating_advances,
    )
    return rulebook_gang_rating(gang.edition, [totals])


def rating_of(gang: Gang) -> int:
    return gang_rating(with_rating(Gang.objects.filter(pk=gang.pk)).get())


def campaigns_for_user(user) -> dict:
    arbitrated = Campaign.objects.filter(arbitrators__user=user).distinct()
    playing = Campaign.objects.filter(memberships__gang__owner=user, memberships__removed_at__isnull=True).distinct()
    return {"arbitrated": list(arbitrated), "playing": list(playing.exclude(pk__in=arbitrated))}


def active_memberships(campaign: Campaign) -> QuerySet[CampaignGang]:
    return campaign.memberships.filter(removed_at__isnull=True)


@dataclass
class Standing:
    membership: CampaignGang
    gang: Gang
    rating: int
    wins: int = 0
    draws: int = 0
    losses: int = 0
    territories: list = field(default_factory=list)

    @property
    def reputation(self) -> int:
        return self.gang.reputation

    @property
    def played(self) -> int:
        return self.wins + self.draws + self.losses


def standings(campaign: Campaign, territories: list[CampaignTerritory] | None = None) -> list[Standing]:
    """Active gangs with rating, Reputation, wins, draws, losses and territories (3 queries; 2 when the campaign's
    ``territories`` are given, with their territory, by a caller that reads them anyway)."""
    memberships = active_memberships(campaign).select_related("gang__owner", "gang__house")
    gangs = with_rating(Gang.objects.filter(memberships__in=memberships)).select_related("owner", "house")
    by_id = {g.pk: g for g in gangs}
    rows = {m.gang_id: Standing(m, by_id[m.gang_id], gang_rating(by_id[m.gang_id])) for m in memberships}
    # values_list, not .only(): a deferred model row reached through campaign.battles loads its deferred
    # campaign key once per battle when the manager links it back to the campaign.
    confirmed = campaign.battles.filter(status=BattleStatus.CONFIRMED)
    for attacker_id, defender_id, winner_id, is_draw in confirmed.values_list(
        "attacker_id", "defender_id", "winner_id", "is_draw"
    ):
        for gang_id in (attacker_id, defender_id):
            row = rows.get(gang_id)
            if row is None:
                continue
            if is_draw or winner_id is None:
                row.draws += 1
            elif winner_id == gang_id:
                row.wins += 1
            else:
                row.losses += 1
    if territories is None:
        territories = campaign.territories.filter(holder__isnull=False).select_related("territory")
    for held in territories:
        if held.holder_id in rows:
            rows[held.holder_id].territories.append(held)
    return sorted(rows.values(), key=lambda r: (-r.wins, -r.reputation, -r.rating, r.gang.name))


def contenders(rows: list[Standing]) -> list[Contender]:
    return [Contender(str(r.gang.pk), r.rating, r.reputation, r.gang.name) for r in rows]


def current_cycle(campaign: Campaign) -> Cycle | None:
    if not campaign.has_cycles or not campaign.cycle:
        return None
    return campaign.cycles.filter(number=campaign.cycle).first()


def unreported_in_cycle(campaign: Campaign) -> int:
    """Battles of the current cycle nobody has reported yet (what beginning the next cycle leaves behind)."""
    if not campaign.has_cycles or not campaign.cycle:
        return 0
    return campaign.battles.filter(cycle__number=campaign.cycle, status=BattleStatus.SCHEDULED).count()


def unapplied_sequences(campaign: Campaign, *, cycle: Cycle | None = None) -> list[tuple[Battle, Gang]]:
    """Each confirmed battle (of ``cycle``, or of any cycle) and each of its gangs still in the campaign whose
    post-battle sequence is not applied: what gates the next cycle and challenges (two queries)."""
    confirmed = campaign.battles.filter(status=BattleStatus.CONFIRMED)
    if cycle is not None:
        confirmed = confirmed.filter(cycle=cycle)
    # Read through the reverse relation by name: campaigns sits below postbattle and does not import it.
    applied = set(
        confirmed.filter(post_battle_sequences__state="applied").values_list("pk", "post_battle_sequences__gang_id")
    )
    active = set(active_memberships(campaign).values_list("gang_id", flat=True))
    return [
        (battle, gang)
        for battle in confirmed.select_related("attacker", "defender").order_by("confirmed_at", "pk")
        for gang in (battle.attacker, battle.defender)
        if gang.pk in active and (battle.pk, gang.pk) not in applied
    ]


def unapplied_text(rows: list[tuple[Battle, Gang]]) -> str:
    return "; ".join(f"{gang.name} after {battle.scenario_name} ({battle})" for battle, gang in rows)


def battles(campaign: Campaign) -> QuerySet[Battle]:
    return campaign.battles.select_related("attacker__owner", "defender__owner", "winner", "cycle", "stakes__territory")


def engaged_gang_ids(cycle: Cycle) -> set[int]:
    """Gangs already in a battle of this cycle (not cancelled), or who passed on challenging. A Rescue Mission stands
    outside the challenge order: it takes neither gang's battle of the cycle."""
    ids = set()
    fought = cycle.battles.filter(is_rescue=False).exclude(status=BattleStatus.CANCELLED)  # cancelled: both free
    for attacker, defender in fought.values_list("attacker_id", "defender_id"):
        ids.update((attacker, defender))
    return ids | set(cycle.passed.values_list("pk", flat=True))


def challenge_queue(campaign: Campaign, rows: list[Standing], cycle: Cycle | None) -> list[Standing]:
    """From Cycle 2: the gangs still to challenge, in the guide's order (lowest rating first)."""
    if cycle is None or cycle.number < 2:
        return []
    by_id = {str(r.gang.pk): r for r in rows}
    order = challenge_order(contenders(rows), done={str(i) for i in engaged_gang_ids(cycle)})
    return [by_id[c.id] for c in order]


def campaign_log(campaign: Campaign, *, gang_id: int | None = None, kind: str = "", limit: int = 100) -> list:
    """The latest ``limit`` entries of :func:`campaign_log_entries`."""
    return list(campaign_log_entries(campaign, gang_id=gang_id, kind=kind)[:limit])


def campaign_log_entries(campaign: Campaign, *, gang_id: int | None = None, kind: str = ""):
    """Every ledger entry of the campaign's gangs while they played in it, newest first, filterable: a
    queryset, for the campaign page to read one page of (:func:`core.pagination.page_of`)."""
    while_member = Q(gang__memberships__removed_at__isnull=True) | Q(gang__memberships__removed_at__gte=F("created_at"))
    entries = LedgerEntry.objects.filter(
        while_member, gang__memberships__campaign=campaign, gang__memberships__joined_at__lte=F("created_at")
    ).select_related("gang", "fighter", "actor")
    entries = entries.annotate(battle_id=F("battle_link__battle_id"))  # the battle it came from (BattleEntry)
    if gang_id:
        entries = entries.filter(gang_id=gang_id)
    if kind in LedgerKind.values:
        entries = entries.filter(kind=kind)
    return entries.order_by("-created_at", "-pk")


def snapshots(campaign: Campaign) -> list[StandingSnapshot]:
    return list(campaign.snapshots.select_related("gang").order_by("taken_at", "pk"))


def campaign_page(campaign: Campaign) -> dict:
    """What the campaign page shows: a fixed number of queries for any number of gangs."""
    territories = list(campaign.territories.select_related("territory"))
    rows = standings(campaign, territories)
    cycle = current_cycle(campaign)
    all_battles = battles(campaign)
    cycle_battles = list(all_battles.filter(cycle=cycle)) if cycle else []
    return {
        "standings": rows,
        "cycle": cycle,
        "cycle_battles": cycle_battles,
        "unreported": sum(1 for b in cycle_battles if b.status == BattleStatus.SCHEDULED),
        "unapplied": unapplied_sequences(campaign, cycle=cycle) if cycle else [],
        "open_battles": list(all_battles.exclude(status__in=(BattleStatus.CONFIRMED, BattleStatus.CANCELLED)))
        if not cycle
        else [],
        "recent_battles": list(all_battles.filter(status=BattleStatus.CONFIRMED).order_by("-confirmed_at")[:10]),
        "challenge_queue": challenge_queue(campaign, rows, cycle),
        "arbitrators": list(campaign.arbitrators.select_related("user")),
        "unclaimed": [t for t in territories if t.holder_id is None],
        "snapshots": snapshots(campaign),
    }


class CachedCampaignPage:
    """:func:`campaign_page` with what else the page draws the same for every viewer (the active gangs' ids and
    names, for the log's filter; the rating and Reputation charts; the house rules' history), read once per version of
    the campaign, its gangs and the content and kept in the cache (campaigns.cache). ``campaign`` comes from
    :func:`campaigns.cache.page_campaign`.

    Read in two parts: what every request needs outside the page's cached fragments (:attr:`HEAD`: the cycle, the
    arbitrators, the gangs and their owners, the house rules' history and whether a join request waits) at once; the
    rest (standings, battles, charts) only when a fragment that is not in the cache asks for it
    (``page["standings"]``), so a warm page does not unpickle it. Who the viewer is to the campaign comes from the
    head too (:meth:`access`)."""

    HEAD = frozenset({"cycle", "arbitrators", "gangs", "owners", "house_rules_history", "joins_waiting"})

    def __init__(self, campaign: Campaign):
        self.campaign = campaign
        self.key = page_key(campaign)
        self.head = cache.get(self.key + ":head")
        self.rest: dict | None = None

    def access(self, user) -> Access:
        """What ``user`` may do in the campaign (404 for a stranger): from the head while it is cached, with no
        query (its key moves with every arbitrator, membership and gang owner); otherwise two queries, so that a
        stranger's request never reads the page."""
        if self.head is None:
            return access_in(user, self.campaign)
        arbitrator_ids = {held.user_id for held in self.head["arbitrators"]}
        return access_from(user, self.campaign, arbitrator_ids, self.head["owners"])

    def _read(self) -> None:
        page = cache.get(self.key)
        if page is None:
            page = campaign_page(self.campaign)
            gangs = list(campaign_gangs(self.campaign).values_list("pk", "name", "owner_id"))
            # Each request unpickles the head: the gangs as (id, name), not whole rows.
            page["gangs"] = [(pk, name) for pk, name, _ in gangs]
            page["owners"] = {pk: owner_id for pk, _, owner_id in gangs}
            taken = page.pop("snapshots")  # drawn into the charts: not kept twice
            page["rating_chart"] = charts.standing_chart(taken, "rating")
            page["reputation_chart"] = charts.standing_chart(taken, "reputation")
            page["house_rules_history"] = house_rules_history(self.campaign)
            page["joins_waiting"] = self.campaign.join_requests.filter(accepted__isnull=True).exists()
            cache.set(self.key, page, FRAGMENT_SECONDS)
            cache.set(self.key + ":head", {name: page[name] for name in self.HEAD}, FRAGMENT_SECONDS)
        self.rest = page
        if self.head is None:
            self.head = {name: page[name] for name in self.HEAD}

    def __getitem__(self, name: str):
        if name in self.HEAD and self.head is not None:
            return self.head[name]
        if self.rest is None:
            self._read()
        return self.rest[name]


def campaign_gangs(campaign: Campaign) -> QuerySet[Gang]:
    """The campaign's active gangs, by name."""
    return Gang.objects.filter(memberships__campaign=campaign, memberships__removed_at__isnull=True).order_by("name")


def battle_detail(battle: Battle) -> Battle:
    """A battle with its fighters' results and both rosters, for the battle page and the post-battle
    sequence: ``battle.fighter_results.all()`` (fighter, caused_by) and ``gang.fighters.all()``."""
    results = BattleFighterResult.objects.select_related("fighter", "caused_by")
    # ``hired_for_id``: the battle a Hired Gun is hired for (campaigns.models.BattleHire), in the same query.
    roster = (
        Fighter.objects.select_related("fighter_type")
        .exclude(status=FighterStatus.DEAD)
        .annotate(hired_for_id=F("battle_hire__battle_id"))
    )
    return (
        Battle.objects.select_related(
            "campaign",
            "cycle",
            "attacker__owner",
            "defender__owner",
            "winner",
            "stakes__territory",
            "reported_by",
            "confirmed_by",
        )
        .prefetch_related(
            Prefetch("fighter_results", queryset=results),
            Prefetch("attacker__fighters", queryset=roster),
            Prefetch("defender__fighters", queryset=roster),
        )
        .get(pk=battle.pk)
    )


def confirmed_battles(gang: Gang) -> QuerySet[Battle]:
    """The gang's confirmed battles, newest first: where the post-battle sequence starts from."""
    mine = Q(attacker=gang) | Q(defender=gang)
    return Battle.objects.filter(mine, status=BattleStatus.CONFIRMED).order_by("-confirmed_at", "-pk")


def gang_territories(gang: Gang) -> list[CampaignTerritory]:
    """The territories the gang holds in its campaigns (Home Settlement first), for the gang page and the print
    sheet, which show them only to a viewer who may see the campaign (gangs.selectors.viewer_sees_campaign)."""
    # One filter() call: both conditions must hold for the same membership row (no duplicate rows).
    held = CampaignTerritory.objects.filter(
        holder=gang, campaign__memberships__gang=gang, campaign__memberships__removed_at__isnull=True
    ).select_related("territory", "campaign")
    return sorted(held, key=lambda t: (not t.is_home_settlement, t.territory.name))


def territories_held(battle: Battle, gang: Gang) -> list[CampaignTerritory]:
    """The campaign territories ``gang`` held when ``battle`` was confirmed (``Battle.held_at_confirmation``), or,
    for a battle confirmed before that was recorded, those it holds now: what its post-battle income reads."""
    held = CampaignTerritory.objects.filter(campaign=battle.campaign_id).select_related("territory")
    recorded = battle.held_at_confirmation.get(str(gang.pk))
    held = held.filter(pk__in=recorded) if recorded is not None else held.filter(holder=gang)
    return sorted(held, key=lambda t: (not t.is_home_settlement, t.territory.name))


def holdings(battle: Battle) -> dict[str, list[int]]:
    """Each of the battle's gangs' campaign territories now, as ``Battle.held_at_confirmation`` records them."""
    rows = CampaignTerritory.objects.filter(
        campaign=battle.campaign_id, holder__in=(battle.attacker_id, battle.defender_id)
    )
    out: dict[str, list[int]] = {str(battle.attacker_id): [], str(battle.defender_id): []}
    for pk, holder in rows.order_by("pk").values_list("pk", "holder_id"):
        out[str(holder)].append(pk)
    return out


def has_gang_hierarchy(fighter: Fighter) -> bool:
    """Gang Hierarchy (Leader) or (Champion): the special rule, or a Leader or Champion without rules listed."""
    rules = fighter.fighter_type.special_rules or []
    if any(str(rule).startswith("Gang Hierarchy") for rule in rules):
        return True
    return fighter.fighter_type.category in (FighterCategory.LEADER, FighterCategory.CHAMPION)


def _skill_tables(fighters: list[Fighter]) -> dict[int, list[str]]:
    access = SkillAccess.objects.filter(fighter_type__in={f.fighter_type_id for f in fighters}).select_related("table")
    tables: dict[int, list[str]] = {}
    for row in access.order_by("table__name"):
        tables.setdefault(row.fighter_type_id, []).append(row.table.name)
    return {f.pk: tables.get(f.fighter_type_id, []) for f in fighters}


def roster_facts(gang: Gang) -> dict:
    """What the post-battle sequence reads of ``gang``'s roster now, as JSON (``Battle.roster_at_confirmation``
    keeps it from the battle's confirmation): each fighter on the roster (type, Gang Hierarchy, value, skill
    tables, experience and the rulebook's snapshot of them), the captives it holds with their value (what the gang
    paid for the fighter and their kit), what each fighter carries, its Leader, rating, house, whether it is Outlaw."""
    fighters = list(
        gang.fighters.filter(status__in=ON_ROSTER)
        .select_related("fighter_type")
        .prefetch_related("stat_changes", "skills__skill", "injuries")
        .order_by("order", "pk")
    )
    tables = _skill_tables(fighters)
    kit: dict[int, list[str]] = {}
    for fighter_id, slug in Purchase.objects.filter(fighter__in=fighters).values_list("fighter_id", "equipment__slug"):
        kit.setdefault(fighter_id, []).append(slug)
    captives = (
        Fighter.objects.filter(captured_by=gang, status=FighterStatus.CAPTURED)
        .select_related("fighter_type")
        .annotate(kit=Coalesce(Sum("purchases__price"), 0))
        .order_by("pk")
    )
    leader = next((f for f in fighters if f.fighter_type.category == FighterCategory.LEADER), None)
    return {
        "fighters": [
            {
                "id": str(f.pk),
                "name": f.name,
                "category": f.fighter_type.category,
                "hierarchy": has_gang_hierarchy(f),
                "value": f.cost,
                "skill_tables": tables[f.pk],
                "xp": f.experience,
                "type": f.fighter_type.name,
                "kit": kit.get(f.pk, []),
                "dome_runner": f.fighter_type.slug.endswith("dome-runner"),
                "snapshot": fighter_snapshot(f).as_json(),
            }
            for f in fighters
        ],
        "captives": [
            {"id": str(c.pk), "name": c.name, "category": c.fighter_type.category, "value": c.cost + c.kit}
            for c in captives
        ],
        "leader": str(leader.pk) if leader else None,
        # The rating only classic's Underdog reads (the difference between the two gangs'): not asked of n18.
        "rating": rating_of(gang) if gang.edition == Edition.CLASSIC else None,
        "house": gang.house.name,
        "outlaw": territory_rules.is_outlaw(rule.get("name", "") for rule in gang.house.gang_rules or ()),
    }


def rosters_at_confirmation(battle: Battle) -> dict[str, dict]:
    """Both gangs' :func:`roster_facts`, as ``Battle.roster_at_confirmation`` records them."""
    return {str(gang.pk): roster_facts(gang) for gang in (battle.attacker, battle.defender)}


def captives_of(gang: Gang, captors: Gang) -> QuerySet[Fighter]:
    """Fighters of ``gang`` held captive by ``captors`` (the Rescue Mission's reason)."""
    return Fighter.objects.filter(gang=gang, captured_by=captors, status=FighterStatus.CAPTURED)


def rescue_captives(battle: Battle) -> list[Fighter]:
    """A Rescue Mission's captives: the rescuers' fighters the captors hold (none for any other battle)."""
    return list(captives_of(battle.attacker, battle.defender).order_by("pk")) if battle.is_rescue else []


def report_initial(battle: Battle) -> dict:
    """The report form's starting values: the stored report, or the crews as taking part."""
    initial: dict = {}
    if battle.winner_id or battle.is_draw:
        initial["result"] = (
            "draw" if battle.is_draw else ("attacker" if battle.winner_id == battle.attacker_id else "defender")
        )
    for flag in ("attacker_bottled", "defender_bottled", "attacker_fled", "defender_fled"):
        initial[flag] = getattr(battle, flag)
    facts = battle.scenario_facts
    for key in ("caskets_opened", "caches_destroyed", "caches_recovered"):
        initial[key] = facts.get(key)
    for side in ("attacker", "defender"):
        initial[f"{side}_relic_defiled"] = facts.get("relic_defiled", {}).get(side, False)
        initial[f"{side}_victory_points"] = facts.get("victory_points", {}).get(side)
    initial["notes"] = battle.notes
    crew_ids = {int(i) for crew in battle.crews.values() for i in crew.get("fighters", [])}
    results = {r.fighter_id: r for r in battle.fighter_results.all()}
    for gang in (battle.attacker, battle.defender):
        for fighter in gang.fighters.all():
            result = results.get(fighter.pk)
            prefix = f"fighter-{fighter.pk}"
            initial[f"{prefix}-took_part"] = result is not None or fighter.pk in crew_ids
            if result is not None:
                initial[f"{prefix}-outcome"] = result.outcome
                initial[f"{prefix}-caused_by"] = result.caused_by_id
                initial[f"{prefix}-captured"] = result.captured
                initial[f"{prefix}-killed"] = result.killed
                initial[f"{prefix}-webbed"] = result.webbed
                for award, count in (result.awards or {}).items():
                    initial[f"{prefix}-{award}"] = count
    for pk in facts.get("captives_freed", []):
        initial[f"captive-{pk}-freed"] = True
    for pk in facts.get("reinforcements", []):
        initial[f"fighter-{pk}-reinforcement"] = True
    for freed in facts.get("freed_by") or ():
        initial[f"captive-{freed['captive']}-freed_by"] = str(freed["fighter"])
    for n, casket in enumerate(facts.get("caskets") or [], 1):
        initial |= {
            f"casket-{n}-fighter": int(casket["fighter"]) if casket.get("fighter") else None,
            f"casket-{n}-result": casket.get("result", ""),
            f"casket-{n}-credits": casket.get("credits"),
        }
    return initial


FACT_LABELS = {
    "caskets_opened": "Loot caskets opened",
    "relic_defiled": "Relic defiled",
    "caches_destroyed": "Caches destroyed",
    "caches_recovered": "Caches recovered",
    "victory_points": "Victory Points",
}


# The scenario's facts that a fighter's deed makes (BattleFighterResult.awards), said with who did them.
DEEDS = ("relic_defiled", "caches_destroyed", "caches_recovered")


def _deed_line(key: str, label: str, value, results, names: dict) -> str:
    """A deed's fact with the fighters who did it: "Slag Dogs' relic defiled by Word-Keeper Ossa", "Caches
    destroyed: 2 (Ripper 1, Slag 1)"."""
    doers = [(r, r.awards.get(key)) for r in results if (r.awards or {}).get(key)]
    if key == "relic_defiled":
        said = []
        for side in (side for side, did in value.items() if did):
            by = [r.fighter.name for r, _ in doers if r.side != side]
            said.append(f"{names.get(side, side)}'s relic defiled" + (f" by {', '.join(by)}" if by else ""))
        return "; ".join(said)
    by = ", ".join(f"{r.fighter.name} {count}" for r, count in doers)
    return f"{label}: {value}" + (f" ({by})" if by else "")


def facts_display(battle: Battle) -> list[str]:
    """The scenario's facts as short lines for the battle page, in words (never the stored data)."""
    names = {"attacker": battle.attacker.name, "defender": battle.defender.name}
    lines = []
    facts = battle.scenario_facts
    rows = {str(r.fighter_id): r for r in battle.fighter_results.all()}
    fighters = {pk: r.fighter.name for pk, r in rows.items()}
    for casket in facts.get("caskets") or ():
        found = Casket.from_json(casket)
        side = names.get(found.side, found.side)
        if found.left_behind:
            lines.append(f"A loot casket for {side}, {casket_words(found, battle.scenario)}")
            continue
        who = fighters.get(found.fighter or "", "a fighter")
        lines.append(f"{who} ({side}) opened a loot casket: {casket_words(found, battle.scenario)}")
    if facts.get("captives_freed"):
        freers = {str(f["captive"]): fighters.get(str(f["fighter"]), "a fighter") for f in facts.get("freed_by") or ()}
        freed = Fighter.objects.filter(pk__in=facts["captives_freed"]).order_by("pk").values_list("pk", "name")
        named = [f"{name} (freed by {freers[str(pk)]})" if str(pk) in freers else name for pk, name in freed]
        lines.append(f"Freed from {battle.defender.name}: {', '.join(named)}")
    reinforcements = [rows[str(pk)] for pk in facts.get("reinforcements", ()) if str(pk) in rows]
    for side in ("attacker", "defender"):
        came = [r.fighter.name for r in reinforcements if r.side == side]
        if came:
            lines.append(f"Reinforcements for {names[side]}: {', '.join(came)}")
    for key, value in facts.items():
        if key in ("caskets", "captives_freed", "freed_by", "held", "reinforcements") or (
            key == "caskets_opened" and facts.get("caskets")
        ):
            continue
        label = FACT_LABELS.get(key, key.replace("_", " ").capitalize())
        if key in DEEDS:
            lines.append(_deed_line(key, label, value, rows.values(), names))
        elif isinstance(value, dict):
            # Per gang: a yes names the gang, a count follows its name, a no is left out (never "False").
            parts = [f"{names.get(side, side)}{'' if v is True else f' {v}'}" for side, v in value.items() if v]
            if parts:
                lines.append(f"{label}: {', '.join(parts)}")
        else:
            lines.append(f"{label}: {value}")
    return lines
