"""Helpers the campaign services share: locking, state checks, snapshots, territory moves, dice logs."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction

from campaigns.models import (
    Campaign,
    CampaignStatus,
    CampaignTerritory,
    Cycle,
    StandingSnapshot,
)
from campaigns.selectors import active_memberships, rating_of
from content.models import Edition
from gangs.ledger import ledger_record
from gangs.models import Gang, LedgerKind
from rulebook.dice import DiceSource
from rulebook.errors import RulesInputError
from rulebook.n18.campaign import territories as territory_rules


def _rolled_since(dice: DiceSource, mark: int) -> list[dict]:
    """The dice this step rolled (a source may be shared by several steps)."""
    return [r.as_json() for r in dice.rolls[mark:]]


def _rules_error(err: RulesInputError) -> ValidationError:
    return ValidationError(f"{err.field}: {err.message}" if err.field != "dice" else err.message)


def _lock(campaign: Campaign) -> None:
    """Lock the campaign row for this transaction and refresh the caller's object (cycle, status)."""
    Campaign.objects.select_for_update().filter(pk=campaign.pk).exists()
    campaign.refresh_from_db()


def _require_in_progress(campaign: Campaign) -> None:
    if campaign.status != CampaignStatus.IN_PROGRESS:
        raise ValidationError(f"The campaign is {campaign.get_status_display().lower()}.")


@transaction.atomic
def standing_snapshot_take(*, campaign: Campaign, gang: Gang, reason: str) -> StandingSnapshot:
    """Record the gang's rating and Reputation now, a point on the campaign page's charts (the
    post-battle sequence calls this after applying its results)."""
    gang.refresh_from_db(fields=["reputation"])
    return StandingSnapshot.objects.create(
        campaign=campaign, gang=gang, rating=rating_of(gang), reputation=gang.reputation, reason=reason
    )


def _snapshot_all(campaign: Campaign, reason: str) -> None:
    for membership in active_memberships(campaign).select_related("gang"):
        standing_snapshot_take(campaign=campaign, gang=membership.gang, reason=reason)


def campaign_log_record(
    *, gangs, event: str, description: str, reason: str = "", actor=None, battle=None, dice: list | None = None
) -> None:
    """A campaign log entry: the log is the ledger of the campaign's gangs (``campaigns.selectors.campaign_log``),
    so an event that changes no total (a challenge, a pass, a cancellation, a scenario rolled again, a revert) is an
    entry of kind ``other`` on each gang it concerns, with ``data["campaign_log"]`` naming the event. Entries stay:
    nothing deletes a ledger entry, and a battle they link to is kept (cancelled, never deleted)."""
    for gang in gangs:
        ledger_record(
            gang=gang,
            kind=LedgerKind.OTHER,
            description=description,
            reason=reason,
            actor=actor,
            battle=battle,
            dice=dice,
            data={"campaign_log": event},
        )


def require_impartial_battle(battle, actor, what: str) -> None:
    """Separation of duties: an arbitrator who plays one of the battle's gangs decides nothing an arbitrator
    decides about it (re-rolling its scenario, confirming his own report, cancelling it, setting aside or
    reverting a post-battle sequence of it); another arbitrator of the campaign does."""
    for gang in (battle.attacker, battle.defender):
        if actor is not None and gang.owner_id == actor.pk:
            raise ValidationError(f"{what}: you play {gang.name} in this battle, so another arbitrator decides.")


def _current_cycle(campaign: Campaign) -> Cycle:
    campaign.refresh_from_db(fields=["status", "cycle"])
    _require_in_progress(campaign)
    if not campaign.has_cycles:
        raise ValidationError("Classic campaigns have no cycles: pair battles freely.")
    return campaign.cycles.get(number=campaign.cycle)


def _member(campaign: Campaign, gang: Gang) -> None:
    if not active_memberships(campaign).filter(gang=gang).exists():
        raise ValidationError(f"{gang.name} does not play in this campaign.")


def _reputation_while_held(held: CampaignTerritory, gang: Gang) -> int:
    """The Reputation ``gang`` has while it holds ``held`` (2018+ territory boons; none in classic campaigns)."""
    if held.territory.edition != Edition.N18:
        return 0
    return territory_rules.reputation_while_held(held.territory.slug, gang.house.name)


def _territory_move(held: CampaignTerritory, holder: Gang | None, actor, *, reason: str, battle=None) -> None:
    """Hand ``held`` to ``holder`` (None: back to the pool); the Reputation a territory gives while held goes
    with it, the loser's taken back and the taker's added (each as its house earns it: an enhanced boon)."""
    name, data = held.territory.name, {"campaign": held.campaign_id, "territory": held.pk}
    if held.holder_id:
        ledger_record(
            gang=held.holder,
            kind=LedgerKind.TERRITORY,
            description=f"Lost {name}",
            reason=reason,
            data=data,
            actor=actor,
            battle=battle,
            reputation=-_reputation_while_held(held, held.holder),
        )
    if holder is not None:
        ledger_record(
            gang=holder,
            kind=LedgerKind.TERRITORY,
            description=f"Took {name}",
            reason=reason,
            data=data,
            actor=actor,
            battle=battle,
            reputation=_reputation_while_held(held, holder),
        )
    held.holder = holder
    held.save(update_fields=["holder", "changed_at"])
