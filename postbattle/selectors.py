"""Reads for the post-battle sequence: the battle's facts as the engine's :class:`Context`, the
fighters' snapshots at the start, the live sequence of a gang, and a gang's history of sequences."""

from __future__ import annotations

from django.db.models import Prefetch, Q, QuerySet, Sum
from django.db.models.functions import Coalesce

from campaigns.models import Battle, BattleFighterResult, CampaignArbitrator, Side
from campaigns.permissions import visible_campaigns
from campaigns.selectors import rating_of, territories_held
from campaigns.services.house_rules import income_rule
from content.models import Edition, FighterCategory, SkillAccess
from gangs.models import ON_ROSTER, Fighter, FighterStatus, Gang
from gangs.stats import fighter_snapshot
from postbattle.engine import Context, FighterInfo, ResultInfo, TerritoryInfo
from postbattle.models import Sequence, SequenceState
from rulebook.n18.campaign import territories as territory_rules
from rulebook.n18.campaign.battle_rewards import RECORD_AWARDS, GangResult, TakenDown, standard_awards
from rulebook.n18.campaign.record import Casket
from rulebook.roster import FighterSnapshot


def has_gang_hierarchy(fighter: Fighter) -> bool:
    """Gang Hierarchy (Leader) or (Champion): the special rule, or a Leader or Champion without rules listed."""
    rules = fighter.fighter_type.special_rules or []
    if any(str(rule).startswith("Gang Hierarchy") for rule in rules):
        return True
    return fighter.fighter_type.category in (FighterCategory.LEADER, FighterCategory.CHAMPION)


def roster(gang: Gang) -> list[Fighter]:
    """The gang's fighters on the roster, with what a snapshot reads."""
    return list(
        gang.fighters.filter(status__in=ON_ROSTER)
        .select_related("fighter_type", "gang")
        .prefetch_related("stat_changes", "skills__skill", "injuries")
        .order_by("order", "pk")
    )


def snapshot(fighter: Fighter) -> FighterSnapshot:
    """The fighter as the rulebook reads them; the same reading as the owner's record (gangs.stats)."""
    return fighter_snapshot(fighter)


def _skill_tables(fighters: list[Fighter]) -> dict[int, tuple[str, ...]]:
    access = SkillAccess.objects.filter(fighter_type__in={f.fighter_type_id for f in fighters}).select_related("table")
    tables: dict[int, list[str]] = {}
    for row in access.order_by("table__name"):
        tables.setdefault(row.fighter_type_id, []).append(row.table.name)
    return {f.pk: tuple(tables.get(f.fighter_type_id, ())) for f in fighters}


def _gang_result(battle: Battle, side: str, gang: Gang) -> GangResult:
    facts = battle.scenario_facts or {}
    relic = facts.get("relic_defiled") or {}
    other = Side.DEFENDER if side == Side.ATTACKER else Side.ATTACKER
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
    )


def _awards(results: list[BattleFighterResult], gang: Gang) -> dict[str, dict[str, int]]:
    """Each of the gang's fighters' awards: what their own row recorded, except the standard experience,
    which only the enemies' rows decide (who took them Out of Action, who was killed)."""
    awards = {str(r.fighter_id): {k: v for k, v in (r.awards or {}).items() if k not in RECORD_AWARDS}
              for r in results if r.fighter.gang_id == gang.pk}  # fmt: skip
    record = [TakenDown(r.outcome, str(r.caused_by_id), r.fighter.fighter_type.category, r.killed)
              for r in results if r.fighter.gang_id != gang.pk and r.caused_by_id]  # fmt: skip
    for fid, counts in standard_awards(record).items():
        awards[fid] = {**awards.get(fid, {}), **counts}
    return awards


def territory_facts(gang: Gang, fighters: list[Fighter], every_result: list[BattleFighterResult]) -> dict:
    """What the territories' boons read (``postbattle.engine.territories``): the gang's house and whether it is
    Outlaw, its Dome Runners on the roster, and the fighters of either side killed in the battle."""
    return {
        "house": gang.house.name,
        "outlaw": territory_rules.is_outlaw(rule.get("name", "") for rule in gang.house.gang_rules or ()),
        "dome_runners": sum(1 for f in fighters if f.fighter_type.slug.endswith("dome-runner")),
        "killed_in_battle": sum(1 for r in every_result if r.killed),
    }


def battle_context(battle: Battle, gang: Gang) -> tuple[Context, dict[str, FighterSnapshot]]:
    """The engine's view of ``battle`` for ``gang``, and each fighter's snapshot now."""
    side = battle.side_of(gang)
    opponent = battle.defender if side == Side.ATTACKER else battle.attacker
    fighters = roster(gang)
    tables = _skill_tables(fighters)
    every_result = list(
        BattleFighterResult.objects.filter(battle=battle).select_related("caused_by", "fighter__fighter_type")
    )
    results = [r for r in every_result if r.fighter.gang_id == gang.pk]
    captives = Fighter.objects.filter(captured_by=gang, status=FighterStatus.CAPTURED).select_related("fighter_type")
    # A captive's value: what the gang paid for the fighter and the kit they carry.
    captives = captives.annotate(kit=Coalesce(Sum("purchases__price"), 0))
    held = territories_held(battle, gang)  # as held when the battle was confirmed
    leader = next((f for f in fighters if f.fighter_type.category == FighterCategory.LEADER), None)
    underdog = 0
    if battle.campaign.edition == Edition.CLASSIC:
        underdog = max(0, rating_of(opponent) - rating_of(gang))
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
            str(f.pk): FighterInfo(
                str(f.pk), f.name, f.fighter_type.category, has_gang_hierarchy(f), f.cost, tables[f.pk], f.experience
            )  # fmt: skip
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
            )
            for r in results
        },
        territories=tuple(
            TerritoryInfo(t.territory.name, t.territory.income, t.is_home_settlement, t.territory.slug) for t in held
        ),
        captives={
            str(c.pk): FighterInfo(str(c.pk), c.name, c.fighter_type.category, value=c.cost + c.kit) for c in captives
        },
        leader=str(leader.pk) if leader else None,
        underdog_by=underdog,
        awards=_awards(every_result, gang),
        caskets=tuple(c for c in map(Casket.from_json, battle.scenario_facts.get("caskets") or ()) if c.side == side),
        **territory_facts(gang, fighters, every_result),
        income_rule=income_rule(battle),
    )
    return context, {str(f.pk): snapshot(f) for f in fighters}


def live_sequence(battle: Battle, gang: Gang) -> Sequence | None:
    """The gang's draft or applied sequence for the battle (at most one, a database constraint)."""
    return Sequence.objects.filter(battle=battle, gang=gang).exclude(state=SequenceState.REVERTED).first()


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
    live = Sequence.objects.exclude(state=SequenceState.REVERTED)
    return (
        Battle.objects.filter(mine, status="confirmed")
        .select_related("campaign", "attacker", "defender")
        .prefetch_related(Prefetch("post_battle_sequences", queryset=live, to_attr="live_sequences"))
        .order_by("-confirmed_at", "-pk")
    )


def battle_rows(battles) -> list[dict]:
    """Each battle of :func:`battles_for_user` with each gang's sequence (None: not started)."""
    rows = []
    for battle in battles:
        states = {s.gang_id: s for s in battle.live_sequences}
        rows.append(
            {"battle": battle, "gangs": [(gang, states.get(gang.pk)) for gang in (battle.attacker, battle.defender)]}
        )
    return rows
