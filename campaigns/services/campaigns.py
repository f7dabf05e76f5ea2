"""Campaigns and membership: create, co-arbitrators, join with a gang (and its Home Settlement),
remove a gang, start, cycles, finish."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from campaigns import rules
from campaigns.announcements import EventKind, announce
from campaigns.models import (
    Campaign,
    CampaignArbitrator,
    CampaignGang,
    CampaignStatus,
    CampaignTerritory,
    Cycle,
    HouseRules,
    new_invite_token,
)
from campaigns.selectors import active_memberships, unapplied_sequences, unapplied_text
from campaigns.services import house_rules
from campaigns.services._common import (
    _lock,
    _require_in_progress,
    _snapshot_all,
    _territory_move,
    campaign_log_record,
    standing_snapshot_take,
)
from content.models import Edition, Territory
from gangs.ledger import ledger_record
from gangs.models import Gang, LedgerKind
from rulebook.dice import DiceSource, RandomDice


@transaction.atomic
def campaign_create(
    *, user, edition: str, name: str, description: str = "", starting_credits: int = 1000, house_rules: str = ""
) -> Campaign:
    campaign = Campaign.objects.create(
        edition=edition,
        name=name,
        description=description,
        starting_credits=starting_credits,
        house_rules=house_rules,
        created_by=user,
    )
    CampaignArbitrator.objects.create(campaign=campaign, user=user)
    HouseRules.objects.create(
        campaign=campaign, in_force_from=campaign.created_at, changed_by=user, starting_credits=starting_credits
    )
    return campaign


@transaction.atomic
def campaign_update(
    *, campaign: Campaign, name: str, description: str, house_rules: str, **override_bounds: int
) -> Campaign:
    """Name, description, the house rules' free text and ``override_bounds`` (``override_credits_per_gang`` and the
    others that bound what arbitrators' overrides may add: gangs.services.gangs.gang_override). The starting
    credits are a house rule that applies (campaigns.services.house_rules.house_rules_change), so their changes
    are logged."""
    campaign.name, campaign.description, campaign.house_rules = name, description, house_rules
    for field, most in override_bounds.items():
        setattr(campaign, field, most)
    campaign.save(update_fields=["name", "description", "house_rules", *override_bounds])
    return campaign


@transaction.atomic
def arbitrator_add(*, campaign: Campaign, user) -> CampaignArbitrator:
    _lock(campaign)  # two adds of the same user at once: the second finds the first's row
    if campaign.arbitrators.filter(user=user).exists():
        raise ValidationError(f"{user} is already an arbitrator of this campaign.")
    return CampaignArbitrator.objects.create(campaign=campaign, user=user)


@transaction.atomic
def arbitrator_remove(*, campaign: Campaign, user) -> None:
    """An arbitrator steps down or is removed by another; the campaign always keeps one (a campaign nobody
    arbitrates could never be confirmed, reverted or finished). Its creator may be removed like any other."""
    _lock(campaign)  # two removals at once: the second counts what the first left
    arbitrators = list(campaign.arbitrators.select_related("user"))
    if not any(a.user_id == user.pk for a in arbitrators):
        raise ValidationError(f"{user} is not an arbitrator of this campaign.")
    if len(arbitrators) == 1:
        raise ValidationError(f"{user} is the campaign's last arbitrator: add another before removing them.")
    campaign.arbitrators.filter(user=user).delete()


def _home_settlement(campaign: Campaign, gang: Gang, actor) -> CampaignTerritory | None:
    """Give a 2018+ gang its Home Settlement (and its +1 Reputation while held)."""
    territory = rules.home_settlement_territory(campaign.edition)
    if territory is None:
        return None
    held = CampaignTerritory.objects.create(
        campaign=campaign, territory=territory, holder=gang, is_home_settlement=True
    )
    ledger_record(
        gang=gang,
        kind=LedgerKind.TERRITORY,
        reputation=rules.HOME_SETTLEMENT_REPUTATION,
        description=f"Home Settlement in {campaign.name}",
        reason=rules.HOME_SETTLEMENT_SOURCE,
        data={"campaign": campaign.pk, "territory": held.pk},
        actor=actor,
    )
    return held


def _classic_territories(campaign: Campaign, gang: Gang, actor, dice: DiceSource) -> list[CampaignTerritory]:
    """Give a classic gang its five starting territories, rolled on the Territory table."""
    held = []
    for rolled in rules.classic_starting_territories(dice):
        territory = Territory.objects.filter(edition=campaign.edition, slug=rolled["slug"]).first()
        if territory is None:
            continue  # the content library lacks it (load_content): nothing to hold
        held.append(CampaignTerritory.objects.create(campaign=campaign, territory=territory, holder=gang))
        ledger_record(
            gang=gang,
            kind=LedgerKind.TERRITORY,
            description=f"Starting territory: {territory.name}",
            reason=rules.CLASSIC_TERRITORY_SOURCE,
            dice=rolled["dice"],
            data={"campaign": campaign.pk, "territory": held[-1].pk, "roll": rolled["roll"]},
            actor=actor,
        )
    return held


def _refuse_removed_player(campaign: Campaign, user) -> None:
    """A player whose gang an arbitrator removed does not come back through the invitation link (issue 26 #12)."""
    if CampaignGang.objects.filter(campaign=campaign, gang__owner=user, removed_at__isnull=False).exists():
        raise ValidationError(
            "A gang of yours was removed from this campaign: ask its arbitrator before joining again."
        )


@transaction.atomic
def invite_renew(*, campaign: Campaign) -> Campaign:
    """A new invitation link; the old one stops working (a link shared too widely, or a player removed)."""
    campaign.invite_token = new_invite_token()
    campaign.save(update_fields=["invite_token"])
    return campaign


def join_check(campaign: Campaign, gang: Gang, user) -> None:
    """Why ``user`` may not enter ``gang`` in ``campaign`` (a ``ValidationError``), or nothing."""
    if gang.owner_id != user.pk:
        raise ValidationError("You can enter only your own gang.")
    if gang.edition != campaign.edition:
        raise ValidationError(
            f"{gang.name} is a {gang.get_edition_display()} gang; this campaign plays {campaign.get_edition_display()}."
        )
    if campaign.status == CampaignStatus.FINISHED:
        raise ValidationError("This campaign has finished.")
    if CampaignGang.objects.filter(campaign=campaign, gang=gang).exists():
        raise ValidationError(f"{gang.name} has already been entered in this campaign.")
    _refuse_removed_player(campaign, user)
    if gang.memberships.filter(removed_at__isnull=True).exists():
        raise ValidationError(f"{gang.name} already plays in another campaign.")


@transaction.atomic
def campaign_join(*, campaign: Campaign, gang: Gang, user, dice: DiceSource | None = None) -> CampaignGang:
    """Enter one of ``user``'s gangs of the campaign's edition. A 2018+ gang gets its Home Settlement; a classic
    gang rolls its five starting territories (``dice``: server dice if None). Players reach it only through an
    arbitrator's acceptance (campaigns.services.joining.join_accept); it is also the tests' way to set up."""
    Gang.objects.select_for_update().filter(pk=gang.pk).exists()  # one gang, one campaign: joins queue up
    join_check(campaign, gang, user)
    membership = CampaignGang.objects.create(campaign=campaign, gang=gang)
    if campaign.edition == Edition.CLASSIC:
        _classic_territories(campaign, gang, user, dice or RandomDice())
    else:
        _home_settlement(campaign, gang, user)
    house_rules.on_join(campaign=campaign, gang=gang, actor=user)
    standing_snapshot_take(campaign=campaign, gang=gang, reason="joined")
    return membership


@transaction.atomic
def gang_remove(*, membership: CampaignGang, actor) -> CampaignGang:
    """The arbitrator removes a gang: it keeps its history; its territories go back to the pool."""
    membership = (
        CampaignGang.objects.select_for_update(of=("self",)).select_related("campaign", "gang").get(pk=membership.pk)
    )
    if not membership.is_active:
        raise ValidationError(f"{membership.gang.name} has already been removed.")
    campaign, gang = membership.campaign, membership.gang
    for held in campaign.territories.filter(holder=gang).select_related("territory"):
        if held.is_home_settlement:
            ledger_record(
                gang=gang,
                kind=LedgerKind.TERRITORY,
                reputation=-rules.HOME_SETTLEMENT_REPUTATION,
                description=f"Left {campaign.name}: Home Settlement given up",
                reason="Removed from the campaign",
                data={"campaign": campaign.pk},
                actor=actor,
            )
            held.delete()
        else:
            _territory_move(held, None, actor, reason="Removed from the campaign")
    membership.removed_at = timezone.now()
    membership.save(update_fields=["removed_at"])
    return membership


@transaction.atomic
def wants_to_play_set(*, membership: CampaignGang, wants_to_play: bool) -> CampaignGang:
    membership.wants_to_play = wants_to_play
    membership.save(update_fields=["wants_to_play"])
    return membership


@transaction.atomic
def campaign_start(*, campaign: Campaign) -> Campaign:
    """Start the campaign: a 2018+ campaign opens Cycle 1; a classic one simply begins."""
    _lock(campaign)
    if campaign.status != CampaignStatus.NOT_STARTED:
        raise ValidationError("The campaign has already started.")
    if active_memberships(campaign).count() < 2:
        raise ValidationError("A campaign needs at least two gangs.")
    campaign.status = CampaignStatus.IN_PROGRESS
    campaign.save(update_fields=["status"])
    if campaign.has_cycles:
        _open_cycle(campaign, 1)
    _snapshot_all(campaign, "campaign started")
    return campaign


def _open_cycle(campaign: Campaign, number: int) -> Cycle:
    campaign.cycle = number
    campaign.save(update_fields=["cycle"])
    return Cycle.objects.create(campaign=campaign, number=number)


@transaction.atomic
def cycle_advance(*, campaign: Campaign, from_cycle: int | None = None, reason: str = "", actor=None) -> Cycle:
    """Begin the next cycle. ``from_cycle`` is the cycle the arbitrator's form was shown in: a second
    submit of that form (or a second tab) finds the campaign moved on and is refused, so one click
    begins one cycle. A post-battle sequence of the ending cycle still unapplied holds the next cycle back
    (its gang's roster is not what the next battles need), unless the arbitrator gives ``reason``, which goes
    into the campaign log of each gang concerned."""
    _lock(campaign)
    _require_in_progress(campaign)
    if not campaign.has_cycles:
        raise ValidationError("Classic campaigns have no cycles: pair battles freely.")
    if from_cycle is not None and from_cycle != campaign.cycle:
        raise ValidationError(f"Cycle {campaign.cycle} has begun already (in another tab?): nothing more to begin.")
    ending = campaign.cycles.get(number=campaign.cycle)
    unapplied = unapplied_sequences(campaign, cycle=ending)
    reason = (reason or "").strip()
    if unapplied and not reason:
        raise ValidationError(
            f"Cycle {campaign.cycle + 1} cannot begin: post-battle sequences of Cycle {ending.number} are not applied "
            f"({unapplied_text(unapplied)}). Apply them, or give the reason to begin anyway (it goes into the "
            "campaign log)."
        )
    for battle, gang in unapplied:
        campaign_log_record(
            gangs=(gang,),
            event="cycle begun unapplied",
            actor=actor,
            battle=battle,
            reason=reason[:300],
            description=f"Cycle {campaign.cycle + 1} begun with {gang.name}'s "
            f"post-battle sequence after {battle.scenario_name} ({battle}) not applied",
        )
    cycle = _open_cycle(campaign, campaign.cycle + 1)
    _snapshot_all(campaign, f"Cycle {cycle.number}")
    announce(EventKind.CYCLE_BEGUN, cycle)
    return cycle


@transaction.atomic
def campaign_finish(*, campaign: Campaign) -> Campaign:
    _lock(campaign)
    _require_in_progress(campaign)
    campaign.status = CampaignStatus.FINISHED
    campaign.save(update_fields=["status"])
    return campaign
