"""The one writer of the totals the ledger determines: Stash, Reputation and experience.

Every service that changes credits, experience or Reputation calls :func:`ledger_record`, which
writes the entry and moves the stored total by the same amount in the same transaction, with an
``F()`` update so concurrent requests cannot lose each other's changes. A refusal (the Stash
would go below zero) raises ``ValidationError`` and writes nothing. ``battle`` links an entry to the
campaign battle it came from (post-battle results, a territory taken), for the logs and histories: the link is a
campaigns row (campaigns.models.BattleEntry), written and read through gangs.campaign_facts.

An entry about a campaign says which: its ``battle``'s campaign, or its id as ``data["campaign"]``; the gang's
history shows that entry's words only to those who may see the campaign (gangs.selectors.hide_unseen_campaigns).
"""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import F, OuterRef, Q, Sum

from gangs.campaign_facts import campaign_facts
from gangs.models import Fighter, Gang, LedgerEntry, LedgerKind

# The Stash is an integer column (PostgreSQL integer: at most 2,147,483,647); refuse long before it overflows.
STASH_MOST = 1_000_000_000


@transaction.atomic
def ledger_record(
    *,
    gang: Gang,
    kind: LedgerKind | str,
    description: str,
    fighter: Fighter | None = None,
    credits: int = 0,
    experience: int = 0,
    reputation: int = 0,
    reason: str = "",
    dice: list | None = None,
    data: dict | None = None,
    actor=None,
    reverses: LedgerEntry | None = None,
    battle=None,
) -> LedgerEntry:
    if experience and fighter is None:
        raise ValueError("experience belongs to a fighter")
    if credits:
        locked = Gang.objects.select_for_update().only("stash").get(pk=gang.pk)
        if locked.stash + credits < 0:
            raise ValidationError(f"The Stash holds {locked.stash} credits; this needs {-credits}.")
        if locked.stash + credits > STASH_MOST:
            raise ValidationError(f"The Stash can hold at most {STASH_MOST} credits.")
    if credits or reputation:
        Gang.objects.filter(pk=gang.pk).update(stash=F("stash") + credits, reputation=F("reputation") + reputation)
        gang.refresh_from_db(fields=["stash", "reputation"])
    if experience:
        locked = Fighter.objects.select_for_update().only("experience").get(pk=fighter.pk)
        if locked.experience + experience < 0:
            raise ValidationError(f"{fighter.name} has {locked.experience} experience; this needs {-experience}.")
        Fighter.objects.filter(pk=fighter.pk).update(experience=F("experience") + experience)
        fighter.refresh_from_db(fields=["experience"])
    entry = LedgerEntry.objects.create(
        gang=gang,
        fighter=fighter,
        kind=kind,
        credits=credits,
        experience=experience,
        reputation=reputation,
        description=description,
        reason=reason,
        dice=dice or [],
        data=data or {},
        actor=actor,
        reverses=reverses,
    )
    if battle is not None:
        campaign_facts().link_entry(entry, battle)
    return entry


def from_battle() -> Q:
    """The entries that came from a campaign battle (in the same query: a subquery of the links)."""
    return Q(pk__in=campaign_facts().battle_entry_ids())


def came_from_battle(entry: LedgerEntry) -> bool:
    """Whether ``entry`` came from a campaign battle: read from :func:`with_battle`'s ``battle_id`` when the entry
    was loaded with it (the history pages), else asked (one query)."""
    if hasattr(entry, "battle_id"):
        return entry.battle_id is not None
    return LedgerEntry.objects.filter(from_battle(), pk=entry.pk).exists()


def with_battle(entries):
    """``entries`` with ``battle_id``, the campaign battle each came from (or None), in the same query."""
    return entries.annotate(battle_id=campaign_facts().entry_battle(OuterRef("pk")))


def ledger_totals(gang: Gang) -> dict:
    """What the entries add up to; equal to the stored totals (tests check it after every change)."""
    sums = gang.ledger.aggregate(stash=Sum("credits"), reputation=Sum("reputation"))
    experience = dict(
        gang.ledger.filter(fighter__isnull=False).values_list("fighter").annotate(total=Sum("experience"))
    )
    return {"stash": sums["stash"] or 0, "reputation": sums["reputation"] or 0, "experience": experience}
