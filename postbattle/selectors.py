"""Reads for the post-battle sequence: the battle's facts as the engine's :class:`Context`, the
fighters' snapshots at the start and before each step, the dice kept for a step, the live sequence of a gang,
and a gang's history of sequences."""

from __future__ import annotations

from django.db.models import Count, OuterRef, Prefetch, Q, QuerySet, Subquery
from django.db.models.fields.json import KeyTextTransform

from campaigns import cache as campaign_cache
from campaigns.models import Battle, BattleFighterResult, Campaign, CampaignArbitrator, CampaignGang, Side, other_side
from campaigns.permissions import visible_campaigns
from campaigns.selectors import income_rule, roster_facts, territories_held
from content.models import Edition, Equipment, EquipmentCategory
from core.queries import Precompiled
from gangs.models import Gang, LedgerEntry, Purchase
from postbattle.engine import Context, FighterInfo, ResultInfo, TerritoryInfo, steps_for
from postbattle.engine.base import snapshot_from_json
from postbattle.models import Sequence, SequenceState
from rulebook.n18.campaign.battle_rewards import RECORD_AWARDS, GangResult, TakenDown, standard_awards
from rulebook.n18.campaign.record import Casket
from rulebook.roster import FighterSnapshot


def _gang_result(battle: Battle, side: str, gang: Gang) -> GangResult:
    facts = battle.scenario_facts or {}
    relic = facts.get("relic_defiled") or {}
    other = other_side(side)
    return GangResult(
        side=side,
        won=battle.winner_id == gang.pk,
        draw=battle.is_draw,
        bottled=battle.attacker_bottled if side == Side.ATTACKER else battle.defender_bottled,
        own_relic_defiled=bool(relic.get(side)),
        enemy_relic_defiled=bool(relic.get(other)),
        caskets_opened=max(int(facts.get("caskets_opened") or 0), len(facts.get("caskets") or ())),
        caches_destroyed=int(facts.get("caches_destroyed") or 0),
        caches_recovered=int(facts.get("caches_recovered") or 0),
        captives_freed=len(facts.get("captives_freed") or ()),
    )


def _awards(results: list[BattleFighterResult], gang: Gang, rescue: dict) -> dict[str, dict[str, int]]:
    """Each of the gang's fighters' awards: what their own row recorded, except the standard experience,
    which only the enemies' rows decide (who took them Out of Action, who was killed), and a Rescue Mission's,
    which the record's captives freed decide (each one freed, and the fighter who freed them): ``rescue``, the
    battle's facts for the rescuers (the attacker: the captives and who freed them are theirs), {} for the captors."""
    awards = {
        str(r.fighter_id): {k: v for k, v in (r.awards or {}).items() if k not in RECORD_AWARDS}
        for r in results
        if r.fighter.gang_id == gang.pk
    }
    record = [
        TakenDown(r.outcome, str(r.caused_by_id), r.fighter.fighter_type.category, r.killed)
        for r in results
        if r.fighter.gang_id != gang.pk and r.caused_by_id
    ]
    for fid, counts in standard_awards(record).items():
        awards[fid] = {**awards.get(fid, {}), **counts}
    for freed in rescue.get("freed_by") or ():
        counts = awards.setdefault(str(freed["fighter"]), {})
        counts["captives_freed"] = counts.get("captives_freed", 0) + 1
    for captive in rescue.get("captives_freed") or ():
        awards.setdefault(str(captive), {})["rescued"] = 1
    return awards


def roster_at_confirmation(battle: Battle, gang: Gang) -> dict:
    """What the sequence reads of ``gang``'s roster: as it stood when ``battle`` was confirmed
    (``Battle.roster_at_confirmation``), so a re-run after a revert reads the same fighters however the roster
    changed since; for a battle confirmed before that was recorded, the roster now."""
    return battle.roster_at_confirmation.get(str(gang.pk)) or roster_facts(gang)


def chems_taken(battle: Battle, gang: Gang) -> dict[str, dict[str, str]]:
    """The chems ``gang``'s fighters took before ``battle``, by fighter id ({slug: name}): the dose entries
    ``gangs.services.equipment.take_chem_doses`` wrote when the battle began."""
    taken: dict[str, dict[str, str]] = {}
    slug = KeyTextTransform("equipment", "data")
    name = Equipment.objects.filter(edition=battle.campaign.edition, slug=OuterRef("slug")).values("name")[:1]
    doses = (
        LedgerEntry.objects.filter(gang=gang, battle_link__battle=battle, fighter__isnull=False, data__chem_taken=True)
        .annotate(slug=slug, name=Subquery(name))
        .order_by("pk")
    )
    for fighter_id, chem, chem_name in doses.values_list("fighter_id", "slug", "name"):
        taken.setdefault(str(fighter_id), {})[chem] = chem_name or chem
    return taken


def chems_held(gang: Gang) -> dict[str, int]:
    """The doses of each chem ``gang`` holds now (its fighters' and the Stash's), by slug."""
    held = (
        Purchase.objects.filter(gang=gang, equipment__category=EquipmentCategory.CHEM)
        .values_list("equipment__slug")
        .annotate(doses=Count("pk"))
        .order_by()
    )
    return dict(held)


def battle_context(battle: Battle, gang: Gang) -> tuple[Context, dict[str, FighterSnapshot]]:
    """The engine's view of ``battle`` for ``gang``, and each fighter's snapshot at the start of the sequence."""
    side = battle.side_of(gang)
    opponent = battle.defender if side == Side.ATTACKER else battle.attacker
    roster = roster_at_confirmation(battle, gang)
    every_result = list(
        BattleFighterResult.objects.filter(battle=battle).select_related("caused_by", "fighter__fighter_type")
    )
    results = [r for r in every_result if r.fighter.gang_id == gang.pk]
    held = territories_held(battle, gang)  # as held when the battle was confirmed
    underdog = 0
    if battle.campaign.edition == Edition.CLASSIC:
        underdog = max(0, roster_at_confirmation(battle, opponent)["rating"] - roster["rating"])
    fighters = roster["fighters"]
    context = Context(
        edition=battle.campaign.edition,
        scenario=battle.scenario,
        scenario_name=battle.scenario_name or battle.scenario,
        gang_id=gang.pk,
        gang_name=gang.name,
        opponent_id=opponent.pk,
        opponent_name=opponent.name,
        result=_gang_result(battle, side, gang),
        fighters={
            f["id"]: FighterInfo(
                f["id"],
                f["name"],
                f["category"],
                f["hierarchy"],
                f["value"],
                tuple(f["skill_tables"]),
                f["xp"],
                f.get("type", ""),
                tuple(f.get("kit", ())),
            )
            for f in fighters
        },
        results={
            str(r.fighter_id): ResultInfo(
                r.outcome,
                str(r.caused_by_id) if r.caused_by_id else None,
                r.caused_by.name if r.caused_by else "",
                r.caused_by.gang_id if r.caused_by else None,
                r.captured,
                dict(r.awards or {}),
                r.killed,
                r.webbed,
            )
            for r in results
        },
        territories=tuple(
            TerritoryInfo(t.territory.name, t.territory.income, t.is_home_settlement, t.territory.slug) for t in held
        ),
        captives={
            c["id"]: FighterInfo(c["id"], c["name"], c["category"], value=c["value"]) for c in roster["captives"]
        },
        leader=roster["leader"],
        underdog_by=underdog,
        awards=_awards(every_result, gang, (battle.scenario_facts or {}) if side == Side.ATTACKER else {}),
        caskets=tuple(c for c in map(Casket.from_json, battle.scenario_facts.get("caskets") or ()) if c.side == side),
        # What the territories' boons read (postbattle.engine.territories).
        house=roster["house"],
        outlaw=roster["outlaw"],
        dome_runners=sum(1 for f in fighters if f["dome_runner"]),
        killed_in_battle=sum(1 for r in every_result if r.killed),
        income_rule=income_rule(battle),
        chems_taken=chems_taken(battle, gang),
        chems_held=chems_held(gang),
    )
    return context, {f["id"]: snapshot_from_json(f["snapshot"]) for f in fighters}


def live_sequence(battle: Battle, gang: Gang) -> Sequence | None:
    """The gang's draft or applied sequence for the battle (at most one, a database constraint)."""
    return Sequence.objects.filter(battle=battle, gang=gang).exclude(state=SequenceState.REVERTED).first()


def fighters_before(sequence: Sequence, index: int) -> dict:
    """The fighters as they stand before step ``index``: the start, or after the step before it."""
    steps = steps_for(sequence.edition)
    source = sequence.draft["start"] if index == 0 else sequence.draft["steps"][steps[index - 1].slug]["fighters"]
    return {fid: snapshot_from_json(data) for fid, data in source.items()}


def kept_dice(sequence: Sequence, slug: str) -> list[dict]:
    """The dice recorded for a step (every one rolled for it, in this run or before going back)."""
    return sequence.draft.get("kept", {}).get(slug, [])


def gang_sequences(gang: Gang, viewer=None) -> QuerySet[Sequence]:
    """Every sequence the gang has finished (applied or reverted), newest first, for its history.

    With ``viewer``: the gang's owner sees all of them (the gang's own record); anyone else only those of
    campaigns they may see (the sequence pages themselves check the campaign through ``sequence_access``).
    """
    sequences = Sequence.objects.filter(gang=gang)
    if viewer is not None and viewer.pk != gang.owner_id:
        sequences = sequences.filter(battle__campaign__in=visible_campaigns(viewer).values("pk"))
    return (
        sequences.filter(Q(state=SequenceState.APPLIED) | Q(state=SequenceState.REVERTED))
        # The battle names its two gangs in the account's heading.
        .select_related("battle__attacker", "battle__defender", "application__applied_by", "application__reverted_by")
        .order_by("-created_at", "-pk")
    )


def battles_for_user(user):
    """Confirmed battles the user played or arbitrates, newest first, each with its live sequences: a queryset,
    for the post-battle list to read one page of (:func:`core.pagination.page_of`, then :func:`battle_rows`)."""
    # Three indexed look-ups by id, not joins through every gang and arbitrator row: no DISTINCT over wide rows.
    gangs = Gang.objects.filter(owner=user).values("pk")
    arbitrated = CampaignArbitrator.objects.filter(user=user).values("campaign_id")
    mine = Q(attacker__in=gangs) | Q(defender__in=gangs) | Q(campaign__in=arbitrated)
    # Only what the list draws: the page's rows are kept in the cache (its sequences' drafts and the battles'
    # records are large and the list shows none of them).
    live = Sequence.objects.exclude(state=SequenceState.REVERTED).only("battle_id", "gang_id", "state", "step")
    return (
        Battle.objects.filter(mine, status="confirmed")
        .select_related("campaign", "attacker", "defender")
        .only(
            "scenario_name",
            "confirmed_at",
            "campaign__name",
            "campaign__edition",
            "attacker__name",
            "defender__name",
        )
        .prefetch_related(Prefetch("post_battle_sequences", queryset=live, to_attr="live_sequences"))
        .order_by("-confirmed_at", "-pk")
    )


def battle_list_key(user) -> str:
    """The cache key of ``user``'s post-battle list (:func:`battles_for_user`), one query: every campaign the user
    arbitrates or has a gang in (removed gangs too: their battles stay listed) with its versions
    (campaigns.cache.list_key). Each thing the list shows moves one of them in the write's transaction: a battle
    (confirmed, changed) and its sequences (started, stepped, applied, reverted: postbattle.apps) the campaign's
    version, a gang's name its version, and a campaign joined, left or arbitrated the campaign's version and the
    set of campaigns. Keyed by the user too: two users of the same campaigns see different battles. The query is
    compiled once (core.queries): its three subqueries cost more to compile than the database takes to answer."""
    return campaign_cache.list_key("postbattle-list", _LIST_REACH.rows(user.pk), user.pk)


def _list_reach(user_id: int):
    arbitrated = CampaignArbitrator.objects.filter(user=user_id).values("campaign_id")
    played = CampaignGang.objects.filter(gang__owner=user_id).values("campaign_id")
    return campaign_cache.list_versions(Campaign.objects.filter(Q(pk__in=arbitrated) | Q(pk__in=played)))


_LIST_REACH = Precompiled(_list_reach)


def battle_rows(battles) -> list[dict]:
    """Each battle of :func:`battles_for_user` with each gang's sequence (None: not started) and the number of
    steps of its edition's sequence (a sequence in progress says which step it is at)."""
    rows = []
    for battle in battles:
        states = {s.gang_id: s for s in battle.live_sequences}
        rows.append(
            {
                "battle": battle,
                "gangs": [(gang, states.get(gang.pk)) for gang in (battle.attacker, battle.defender)],
                "steps": len(steps_for(battle.campaign.edition)),
            }
        )
    return rows
