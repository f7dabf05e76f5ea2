"""Joining a campaign: a gang asks through the invitation link and an arbitrator decides (issue 26).

A club's campaign is a shared game, so nothing a player brings may be minted elsewhere: a gang imported from an
edited file, or overridden in a campaign its own player ran, joins only when an arbitrator has seen what its
history says (:func:`join_flags`) and accepted it, with at most the campaign's starting credits in its Stash unless
the arbitrator gives a reason, which the ledger keeps.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Exists, OuterRef, Q, Sum
from django.utils import timezone

from campaigns.models import Battle, Campaign, CampaignArbitrator, JoinRequest
from campaigns.services import house_rules
from campaigns.services.campaigns import campaign_join, join_check
from gangs.ledger import ledger_record, ledger_totals
from gangs.models import Gang, LedgerKind
from gangs.services import gang_create
from rulebook.dice import DiceSource

IMPORTED = "Imported from a file"
CAMPAIGN_IMPORTED = "Imported from a campaign export"  # tools.campaign_exchange.load.IMPORTED (imports point down)


@dataclass(frozen=True)
class JoinFlag:
    """One thing in a gang's history an arbitrator should see before accepting it."""

    code: str  # imported, overridden, self-recorded, unarbitrated, unexplained, unvouched, above-starting-credits
    text: str


@dataclass(frozen=True)
class Unvouched:
    """What a gang holds beyond what its vouched history gives it: Reputation, each fighter's experience (by id),
    and the credits that battles no impartial arbitrator saw put in its Stash."""

    credits: int
    reputation: int
    experience: dict[int, int]
    battles: list[int]  # unarbitrated_battles

    def __bool__(self) -> bool:  # something to take off
        return bool(self.credits or self.reputation or self.experience)


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


def join_flags(gang: Gang, campaign: Campaign, unvouched: Unvouched | None = None) -> list[JoinFlag]:
    """What the gang's history says that a club would want to know: imported, overridden (and by how much),
    battles no impartial arbitrator oversaw (and what they gave), totals the ledger does not explain, what is
    taken off as it joins (``unvouched``, read here unless given) and a Stash above the campaign's starting
    credits."""
    unvouched = unvouched_gains(gang, campaign) if unvouched is None else unvouched
    flags = []
    ledger = gang.ledger.all()
    if ledger.filter(reason__startswith=IMPORTED).exists():
        flags.append(JoinFlag("imported", "Imported from a file: its Stash, Reputation and experience were typed in."))
    elif gang.imported_with_campaign:
        flags.append(
            JoinFlag(
                "imported",
                "Imported with a campaign from a campaign export: its Stash, Reputation, experience and whole history "
                "were read from a file.",
            )
        )
    overrides = ledger.filter(kind=LedgerKind.OVERRIDE).aggregate(
        credits=Sum("credits"), reputation=Sum("reputation"), experience=Sum("experience")
    )
    count = ledger.filter(kind=LedgerKind.OVERRIDE).count()
    if count:
        net = ", ".join(f"{overrides[k] or 0:+d} {k}" for k in ("credits", "reputation", "experience"))
        flags.append(JoinFlag("overridden", f"{count} arbitrator override{'s' if count != 1 else ''}: {net}."))
    recorded = ledger.filter(data__has_key="record", experience__gt=0).aggregate(xp=Sum("experience"))["xp"]
    if recorded:
        flags.append(JoinFlag("self-recorded", f"{recorded} XP recorded by its player outside a campaign."))
    totals = ledger_totals(gang)
    experience = sum(gang.fighters.values_list("experience", flat=True))
    if (totals["stash"], totals["reputation"], sum(totals["experience"].values())) != (
        gang.stash,
        gang.reputation,
        experience,
    ):
        flags.append(
            JoinFlag("unexplained", "Its Stash, Reputation or experience differ from what its ledger adds up to.")
        )
    battles = unvouched.battles
    if battles:
        gave = ledger.filter(battle_link__battle__in=battles).aggregate(
            credits=Sum("credits"), reputation=Sum("reputation"), experience=Sum("experience")
        )
        net = ", ".join(f"{gave[k] or 0:+d} {k}" for k in ("credits", "reputation", "experience"))
        flags.append(
            JoinFlag(
                "unarbitrated",
                f"{len(battles)} battle{'s' if len(battles) != 1 else ''} confirmed while no arbitrator of its campaign "
                f"played neither gang (its own player arbitrating, or his gangs against each other): {net}.",
            )
        )
    if unvouched:
        credits = f"{unvouched.credits} credits, " if unvouched.credits else ""
        flags.append(
            JoinFlag(
                "unvouched",
                f"{credits}{unvouched.reputation} Reputation and {sum(unvouched.experience.values())} XP its history "
                "does not vouch for: taken off as it joins unless kept with a reason.",
            )
        )
    if gang.stash > campaign.starting_credits:
        flags.append(
            JoinFlag(
                "above-starting-credits",
                f"Its Stash holds {gang.stash} credits, more than the campaign's {campaign.starting_credits}.",
            )
        )
    return flags


def unarbitrated_battles(gang: Gang) -> list[int]:
    """The gang's confirmed battles that no impartial arbitrator oversaw: when each was confirmed, its campaign had
    no arbitrator (still one now) who played neither of its gangs. Such a battle's report was checked only by the
    players of its two gangs, perhaps one man (his two gangs) or his friend facing the campaign he runs alone, so
    what it gave is not vouched for. Separation of duties keeps such an arbitrator from confirming his own report
    when another arbitrator exists; when he is the only one, this is what tells the next campaign."""
    impartial = (
        CampaignArbitrator.objects.filter(campaign=OuterRef("campaign"), added_at__lte=OuterRef("confirmed_at"))
        .exclude(user=OuterRef("attacker__owner"))
        .exclude(user=OuterRef("defender__owner"))
    )
    battles = Battle.objects.filter(Q(attacker=gang) | Q(defender=gang), confirmed_at__isnull=False)
    return list(battles.exclude(Exists(impartial)).values_list("pk", flat=True))


def _unvouched(gang: Gang, battles: list[int], joining: Campaign) -> Q:
    """The ledger entries no rule and no arbitrator of someone else's gang owes: typed in by an import, an
    override (perhaps by the gang's own player in a campaign he ran), experience its player recorded himself, what
    the house rules of a campaign its own player arbitrated gave it (a starting Reputation of his choosing), and
    what the house rules of a campaign it never played in gave it (a gang founded for a campaign that refused it keeps
    that campaign's starting Reputation, which is that campaign's to give, not another's), and what ``battles``
    (:func:`unarbitrated_battles`) gave it. A territory taken in one of them counts with every
    entry of its holding (the Reputation it gives while held goes back when it is lost or its gang leaves), so only
    what the gang still has from it is unvouched."""
    own_campaigns = list(Campaign.objects.filter(arbitrators__user=gang.owner_id).values_list("pk", flat=True))
    played_in = [*gang.memberships.values_list("campaign_id", flat=True), joining.pk]
    taken = gang.ledger.filter(battle_link__battle__in=battles, kind=LedgerKind.TERRITORY).values_list(
        "data__territory", flat=True
    )
    return (
        Q(reason__startswith=IMPORTED)
        | Q(reason__startswith=CAMPAIGN_IMPORTED)
        | Q(kind=LedgerKind.OVERRIDE)
        | Q(data__has_key="record")
        | Q(data__has_key="house_rule", data__campaign__in=own_campaigns)
        | (Q(data__has_key="house_rule") & ~Q(data__campaign__in=played_in))
        | (Q(battle_link__battle__in=battles) & ~Q(kind=LedgerKind.TERRITORY))
        | Q(kind=LedgerKind.TERRITORY, data__territory__in=[t for t in taken if t is not None])
    )


def unvouched_gains(gang: Gang, joining: Campaign) -> Unvouched:
    """The Reputation and each fighter's experience the gang holds, as it joins ``joining``, beyond what its vouched
    history gives it: what unvouched entries added (never more than it holds now, never below 0); and the credits
    unarbitrated battles added to its Stash (the same bounds). Credits an import or an override typed in are bounded by the campaign's
    starting credits instead, as for any Stash (:func:`join_accept`)."""
    battles = unarbitrated_battles(gang)
    entries = gang.ledger.filter(_unvouched(gang, battles, joining))
    reputation = entries.aggregate(total=Sum("reputation"))["total"] or 0
    credits = entries.filter(battle_link__battle__in=battles).aggregate(total=Sum("credits"))["total"] or 0
    by_fighter = dict(entries.filter(fighter__isnull=False).values_list("fighter").annotate(total=Sum("experience")))
    experience = {}
    for fighter_id, held in gang.fighters.filter(pk__in=by_fighter).values_list("pk", "experience"):
        if min(by_fighter[fighter_id], held) > 0:
            experience[fighter_id] = min(by_fighter[fighter_id], held)
    return Unvouched(
        credits=max(0, min(credits, gang.stash)),
        reputation=max(0, min(reputation, gang.reputation)),
        experience=experience,
        battles=battles,
    )


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
    and without the Reputation and experience its history does not vouch for (:func:`unvouched_gains`) unless
    ``keep_unvouched`` with ``reason``.
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


def waiting_joins(campaign: Campaign) -> list[JoinRequest]:
    """The requests waiting for an arbitrator, each with ``flags`` (:func:`join_flags`) and ``most``, the Stash
    it joins with unless the arbitrator says otherwise."""
    joins = list(campaign.join_requests.filter(accepted__isnull=True).select_related("gang", "requested_by"))
    for join in joins:
        unvouched = unvouched_gains(join.gang, campaign)
        join.flags = join_flags(join.gang, campaign, unvouched)
        join.most = min(join.gang.stash - unvouched.credits, campaign.starting_credits)
    return joins
