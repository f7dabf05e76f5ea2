"""The logged-in home page's to-do list: what this person must do next in each campaign and gang, and, for an
arbitrator, what the whole campaign waits for, each with the link to act on it.

A fixed number of queries for any number of campaigns, gangs, battles and sequences (a test grows all four):
everything is read in bulk for all the person's campaigns and gangs at once, then sorted out in Python. Only
what is still open is read (battles not confirmed, or confirmed with a sequence not yet applied), so a long
campaign's finished history costs nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import Count, F, OuterRef, Q, Subquery
from django.urls import reverse

from campaigns.models import Battle, BattleStatus, Campaign, CampaignArbitrator, CampaignGang, CampaignStatus, Cycle
from campaigns.selectors import gang_rating, with_rating
from content.models import Edition
from gangs.models import ON_ROSTER, Fighter, Gang
from gangs.selectors import classic_advances_due
from notifications.models import Delivery, DeliveryStatus
from postbattle.models import Sequence, SequenceState
from rulebook import gang_rules
from rulebook.n18.matchmaking import Contender, next_challenger


@dataclass(frozen=True)
class Todo:
    text: str
    url: str
    action: str  # the link's words


@dataclass
class CampaignTodos:
    campaign: Campaign
    is_arbitrator: bool
    mine: list[Todo] = field(default_factory=list)
    waiting: list[Todo] = field(default_factory=list)  # what the campaign waits for (arbitrators only)


@dataclass
class HomeTodos:
    campaigns: list[CampaignTodos]
    other_gangs: list[Todo]  # for the person's gangs outside any campaign

    @property
    def is_empty(self) -> bool:
        return not self.other_gangs and not any(c.mine or c.waiting for c in self.campaigns)


def _battle_url(battle: Battle) -> str:
    return reverse("campaigns:battle-detail", args=[battle.campaign_id, battle.pk])


def _sequence_url(battle: Battle, gang_id: int) -> str:
    return reverse("postbattle:sequence-detail", args=[battle.pk, gang_id])


def _open_battles(campaign_ids: set[int]) -> list[Battle]:
    """Battles still waiting for something: to be reported, confirmed, or a side's post-battle sequence."""
    live = Sequence.objects.filter(battle=OuterRef("pk")).exclude(state=SequenceState.REVERTED)
    return list(
        Battle.objects.filter(campaign_id__in=campaign_ids)
        .annotate(applied=Count("post_battle_sequences", filter=Q(post_battle_sequences__state=SequenceState.APPLIED)))
        .filter(Q(status__in=[BattleStatus.SCHEDULED, BattleStatus.REPORTED]) | Q(applied__lt=2))
        .annotate(
            attacker_sequence=Subquery(live.filter(gang=OuterRef("attacker_id")).values("state")[:1]),
            defender_sequence=Subquery(live.filter(gang=OuterRef("defender_id")).values("state")[:1]),
        )
        .select_related("attacker__owner", "defender__owner", "cycle")
        .order_by("created_at", "pk")
    )


def _whose_turn(campaigns: dict[int, Campaign], members: dict[int, list[Gang]]) -> dict[int, Gang]:
    """Each 2018+ campaign from Cycle 2: the gang whose turn it is to challenge (lowest rating first)."""
    cycles = {
        c.campaign_id: c
        for c in Cycle.objects.filter(campaign_id__in=campaigns, number=F("campaign__cycle"), number__gte=2)
    }
    engaged: dict[int, set[str]] = {}
    for cycle_id, attacker, defender in Battle.objects.filter(cycle__in=cycles.values()).values_list(
        "cycle_id", "attacker_id", "defender_id"
    ):
        engaged.setdefault(cycle_id, set()).update((str(attacker), str(defender)))
    for cycle_id, gang_id in Cycle.passed.through.objects.filter(cycle__in=cycles.values()).values_list(
        "cycle_id", "gang_id"
    ):
        engaged.setdefault(cycle_id, set()).add(str(gang_id))
    turns = {}
    for campaign_id, cycle in cycles.items():
        gangs = {str(g.pk): g for g in members.get(campaign_id, [])}
        contenders = [Contender(pk, gang_rating(g), g.reputation, g.name) for pk, g in gangs.items()]
        turn = next_challenger(contenders, done=engaged.get(cycle.pk, set()))
        if turn is not None:
            turns[campaign_id] = gangs[turn.id]
    return turns


def _gang_todos(user) -> dict[int, list[Todo]]:
    """By gang: Hangers-on and Brutes over the Reputation cap to let go, and classic advance rolls due."""
    capped = Q(fighters__status__in=ON_ROSTER, fighters__fighter_type__category__in=gang_rules.REPUTATION_CAPPED)
    todos: dict[int, list[Todo]] = {}
    for gang in Gang.objects.filter(owner=user).annotate(held=Count("fighters", filter=capped)):
        must = gang_rules.hangers_on_excess(gang.reputation, gang.held)
        if must:
            todos.setdefault(gang.pk, []).append(
                Todo(
                    f"{gang.name}: Reputation {gang.reputation} keeps {gang_rules.hangers_on_cap(gang.reputation)} "
                    f"Hangers-on and Brutes; let {must} go.",
                    reverse("gangs:gang-detail", args=[gang.pk]),
                    "Choose",
                )
            )
    fighters = (
        Fighter.objects.filter(gang__owner=user, gang__edition=Edition.CLASSIC, status__in=ON_ROSTER)
        .filter(experience__gt=F("starting_experience"))
        .annotate(advancement_count=Count("advancements"))
        .select_related("gang")
        .order_by("gang__name", "order", "pk")
    )
    for fighter in fighters:
        due = classic_advances_due(fighter, fighter.advancement_count)
        if due:
            url = reverse("gangs:fighter-detail", args=[fighter.gang_id, fighter.pk])
            text = f"{fighter.gang.name}: {fighter.name} has {due} advance roll{'s' if due > 1 else ''} due."
            todos.setdefault(fighter.gang_id, []).append(Todo(text, url, "Roll"))
    return todos


def home_todos(user) -> HomeTodos:
    playing = dict(
        CampaignGang.objects.filter(gang__owner=user, removed_at__isnull=True)
        .exclude(campaign__status=CampaignStatus.FINISHED)
        .values_list("gang_id", "campaign_id")
    )
    arbitrated = set(
        CampaignArbitrator.objects.filter(user=user)
        .exclude(campaign__status=CampaignStatus.FINISHED)
        .values_list("campaign_id", flat=True)
    )
    campaigns = {c.pk: c for c in Campaign.objects.filter(pk__in=arbitrated | set(playing.values()))}
    members: dict[int, list[Gang]] = {}
    in_campaigns = CampaignGang.objects.filter(campaign_id__in=campaigns, removed_at__isnull=True)
    for gang in with_rating(
        Gang.objects.filter(pk__in=in_campaigns.values("gang_id")).select_related("owner")
    ).annotate(campaign_now=Subquery(in_campaigns.filter(gang=OuterRef("pk")).values("campaign_id")[:1])):
        members.setdefault(gang.campaign_now, []).append(gang)
    rows = {pk: CampaignTodos(c, pk in arbitrated) for pk, c in sorted(campaigns.items(), key=lambda i: i[1].name)}
    mine = set(playing)
    for battle in _open_battles(set(campaigns)):
        row, sides = rows[battle.campaign_id], (battle.attacker_id, battle.defender_id)
        url = _battle_url(battle)
        if battle.status == BattleStatus.SCHEDULED:
            if mine & set(sides):
                row.mine.append(Todo(f"Play and report {battle}.", url, "Battle"))
            if row.is_arbitrator and (battle.cycle is None or battle.cycle.number == row.campaign.cycle):
                row.waiting.append(Todo(f"{battle}: not reported yet.", url, "Battle"))
        elif battle.status == BattleStatus.REPORTED:
            if mine & set(sides) and battle.reported_by_id != user.pk:
                row.mine.append(Todo(f"Confirm the report of {battle}.", url, "Confirm"))
            if row.is_arbitrator:
                row.waiting.append(Todo(f"{battle}: the report waits for confirmation.", url, "Confirm"))
        else:
            for gang, state in (
                (battle.attacker, battle.attacker_sequence),
                (battle.defender, battle.defender_sequence),
            ):
                if state == SequenceState.APPLIED:
                    continue
                url = _sequence_url(battle, gang.pk)
                verb = "Finish" if state == SequenceState.DRAFT else "Run"
                if gang.pk in mine:
                    row.mine.append(Todo(f"{verb} {gang.name}'s post-battle sequence after {battle}.", url, verb))
                if row.is_arbitrator:
                    row.waiting.append(
                        Todo(
                            f"{gang.name} ({gang.owner}) has not applied its post-battle sequence after {battle}.",
                            url,
                            "Sequence",
                        )
                    )
    for campaign_id, gang in _whose_turn(campaigns, members).items():
        row, url = rows[campaign_id], reverse("campaigns:challenge-issue", args=[campaign_id])
        if gang.pk in mine:
            row.mine.append(Todo(f"{gang.name}: your turn to issue a challenge (or pass).", url, "Challenge"))
        if row.is_arbitrator:
            row.waiting.append(Todo(f"{gang.name} ({gang.owner}) is to challenge next.", url, "Challenges"))
    failed = (
        Delivery.objects.filter(status=DeliveryStatus.FAILED, event__campaign_id__in=arbitrated & set(rows))
        .values("event__campaign_id")
        .annotate(n=Count("pk"))
        .values_list("event__campaign_id", "n")
    )
    for campaign_id, count in failed:
        url = reverse("notifications:campaign-notifications", args=[campaign_id])
        sends = "notification" if count == 1 else "notifications"
        rows[campaign_id].waiting.append(Todo(f"{count} {sends} could not be sent.", url, "Notifications"))
    other = []
    for gang_id, todos in _gang_todos(user).items():
        (rows[playing[gang_id]].mine if gang_id in playing else other).extend(todos)
    return HomeTodos(list(rows.values()), other)
