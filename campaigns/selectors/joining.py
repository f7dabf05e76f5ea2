"""What a gang's history tells the arbitrator deciding its request to join a campaign (issue 26): the flags a club
would want to see (:func:`join_flags`), what it holds that its vouched history does not give it
(:func:`unvouched_gains`), and the requests waiting with both. Reads only: :mod:`campaigns.services.joining` asks,
accepts and refuses, and takes off what is not vouched for as it accepts.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Exists, OuterRef, Q, Sum

from campaigns.models import Battle, Campaign, CampaignArbitrator, JoinRequest
from gangs.ledger import ledger_totals
from gangs.models import Gang, LedgerKind

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
    unarbitrated battles added to its Stash (the same bounds). Credits an import or an override typed in are bounded
    by the campaign's starting credits instead, as for any Stash (:func:`campaigns.services.join_accept`)."""
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


def waiting_joins(campaign: Campaign) -> list[JoinRequest]:
    """The requests waiting for an arbitrator, each with ``flags`` (:func:`join_flags`) and ``most``, the Stash
    it joins with unless the arbitrator says otherwise."""
    joins = list(campaign.join_requests.filter(accepted__isnull=True).select_related("gang", "requested_by"))
    for join in joins:
        unvouched = unvouched_gains(join.gang, campaign)
        join.flags = join_flags(join.gang, campaign, unvouched)
        join.most = min(join.gang.stash - unvouched.credits, campaign.starting_credits)
    return joins
