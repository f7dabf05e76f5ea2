"""Joining a campaign: a gang asks through the invitation link and an arbitrator decides (issue 26).

A club's campaign is a shared game, so nothing a player brings may be minted elsewhere: a gang imported from an
edited file, or overridden in a campaign its own player ran, joins only when an arbitrator has seen what its
history says (:func:`campaigns.selectors.join_flags`) and accepted it, with at most the campaign's starting credits
in its Stash unless the arbitrator gives a reason, which the ledger keeps.
"""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from campaigns.models import Campaign, JoinRequest
from campaigns.selectors import Unvouched, unvouched_gains
from campaigns.services import house_rules
from campaigns.services.campaigns import campaign_join, join_check
from gangs.ledger import ledger_record
from gangs.models import Gang, LedgerKind
from gangs.services import gang_create
from rulebook.dice import DiceSource


@transaction.atomic
def join_request(*, campaign: Campaign, gang: Gang, user) -> JoinRequest:
    """Ask to join (the invitation link): the same checks as joining, and one waiting request per gang."""
    Gang.objects.select_for_update().filter(pk=gang.pk).exists()  # two asks at once: the second sees the first
    join_check(campaign, gang, user)
    if JoinRequest.objects.filter(campaign=campaign, gang=gang, accepted__isnull=True).exists():
        raise ValidationError(f"{gang.name} has already asked to join; an arbitrator will decide.")
    return JoinRequest.objects.create(campaign=campaign, gang=gang, requested_by=user)


@transaction.atomic
def gang_found_for(*, campaign: Campaign, owner, house, name: str) -> JoinRequest:
    """Found a gang for the campaign (its invitation page) and ask to join in one step: the gang starts with the
    campaign's starting Reputation by the house rules in force (ledgered, naming the rule), so its founding hires
    follow it (Hangers-on and Brutes); its Stash is settled when an arbitrator accepts it, as for any gang."""
    if house.edition != campaign.edition:
        raise ValidationError(
            f"{campaign.name} plays the {campaign.get_edition_display()} rules: found a gang of them."
        )
    gang = gang_create(owner=owner, house=house, name=name)
    house_rules.on_founding(campaign=campaign, gang=gang, actor=owner)
    return join_request(campaign=campaign, gang=gang, user=owner)


def _cap_unvouched(
    *, gang: Gang, campaign: Campaign, join: JoinRequest, actor, unvouched: Unvouched, keep: bool, reason: str
) -> None:
    """Reputation and experience beyond what the gang's vouched history gives it are taken off as it joins, unless
    the arbitrator keeps them with a reason; either way the ledger says so."""
    reputation, experience = unvouched.reputation, unvouched.experience
    if not reputation and not experience:
        return
    data = {"campaign": campaign.pk, "join": join.pk}
    if keep:
        if not reason:
            raise ValidationError("Keeping Reputation or experience its history does not vouch for needs the reason.")
        ledger_record(
            gang=gang,
            kind=LedgerKind.OTHER,
            actor=actor,
            reason=reason,
            data=data,
            description=f"Joined {campaign.name} keeping {reputation} Reputation and "
            f"{sum(experience.values())} XP that its history does not vouch for",
        )
        return
    why = f"Not vouched for by its history (imported, overridden, self-recorded or unarbitrated), as {campaign.name}'s arbitrator accepted it"
    if reputation:
        ledger_record(
            gang=gang,
            kind=LedgerKind.REPUTATION,
            reputation=-reputation,
            actor=actor,
            reason=why,
            data=data,
            description=f"Joined {campaign.name}: {reputation} Reputation taken off",
        )
    for fighter in gang.fighters.filter(pk__in=experience):
        ledger_record(
            gang=gang,
            kind=LedgerKind.EXPERIENCE,
            fighter=fighter,
            experience=-experience[fighter.pk],
            actor=actor,
            reason=why,
            data=data,
            description=f"Joined {campaign.name}: {experience[fighter.pk]} XP taken off",
        )


@transaction.atomic
def join_accept(
    *,
    join: JoinRequest,
    actor,
    credits: int | None = None,
    reason: str = "",
    keep_unvouched: bool = False,
    dice: DiceSource | None = None,
) -> JoinRequest:
    """Accept a waiting request: the gang joins with ``credits`` in its Stash (by default the campaign's starting
    credits or what it holds less what unarbitrated battles gave it, whichever is less; more only with ``reason``),
    and without the Reputation and experience its history does not vouch for
    (:func:`campaigns.selectors.unvouched_gains`) unless ``keep_unvouched`` with ``reason``.
    What the gang gives up or keeps is a ledger entry saying why. Two arbitrators at once: the request is locked,
    so it is decided once."""
    join = JoinRequest.objects.select_for_update(of=("self",)).select_related("campaign", "gang").get(pk=join.pk)
    if join.accepted is not None:
        raise ValidationError(f"{join.gang.name}'s request was already decided.")
    campaign, gang = join.campaign, join.gang
    if not campaign.arbitrators.filter(user=actor).exists():
        raise ValidationError("Only the campaign's arbitrators accept a gang.")
    gang = Gang.objects.select_for_update().get(pk=gang.pk)
    reason = reason.strip()
    unvouched = unvouched_gains(gang, campaign)
    allowed = min(gang.stash - unvouched.credits, campaign.starting_credits)
    credits = allowed if credits is None else credits
    if credits < 0 or credits > gang.stash:
        raise ValidationError(f"The Stash can keep from 0 to the {gang.stash} credits it holds.")
    if credits > campaign.starting_credits and not reason:
        raise ValidationError(
            f"{credits} credits is more than the campaign's starting {campaign.starting_credits}: give the reason."
        )
    if credits > allowed and not reason:
        raise ValidationError(
            f"{credits} credits keeps some of the {unvouched.credits} that battles no impartial arbitrator saw gave "
            f"it (at most {allowed} without them): give the reason."
        )
    less = f" and without the {unvouched.credits} unarbitrated battles gave it" if unvouched.credits else ""
    if credits < gang.stash:
        ledger_record(
            gang=gang,
            kind=LedgerKind.CREDITS,
            credits=credits - gang.stash,
            actor=actor,
            description=f"Joined {campaign.name} with {credits} credits in the Stash (held {gang.stash})",
            reason=reason
            or f"At most the campaign's starting credits ({campaign.starting_credits}){less}, as its "
            "arbitrator accepted it",
            data={"campaign": campaign.pk, "join": join.pk},
        )
    elif credits > allowed:
        above = (
            f"above its starting {campaign.starting_credits}"
            if credits > campaign.starting_credits
            else f"keeping some of the {unvouched.credits} unarbitrated battles gave it"
        )
        ledger_record(
            gang=gang,
            kind=LedgerKind.OTHER,
            actor=actor,
            description=f"Joined {campaign.name} with {credits} credits, {above}",
            reason=reason,
            data={"campaign": campaign.pk, "join": join.pk},
        )
    _cap_unvouched(
        gang=gang, campaign=campaign, join=join, actor=actor, unvouched=unvouched, keep=keep_unvouched, reason=reason
    )
    campaign_join(campaign=campaign, gang=gang, user=gang.owner, dice=dice)
    join.accepted, join.decided_by, join.decided_at = True, actor, timezone.now()
    join.credits, join.reason = credits, reason
    join.save(update_fields=["accepted", "decided_by", "decided_at", "credits", "reason"])
    return join


@transaction.atomic
def join_refuse(*, join: JoinRequest, actor, reason: str = "") -> JoinRequest:
    join = JoinRequest.objects.select_for_update(of=("self",)).select_related("campaign", "gang").get(pk=join.pk)
    if join.accepted is not None:
        raise ValidationError(f"{join.gang.name}'s request was already decided.")
    if not join.campaign.arbitrators.filter(user=actor).exists():
        raise ValidationError("Only the campaign's arbitrators refuse a gang.")
    join.accepted, join.decided_by, join.decided_at, join.reason = False, actor, timezone.now(), reason.strip()
    join.save(update_fields=["accepted", "decided_by", "decided_at", "reason"])
    return join
