"""The gang's history (its ledger, newest first) and a fighter's latest entries, with the entries about a campaign
the viewer may not see put in other words (:func:`hide_unseen_campaigns`) and what that decides as a cache key
(:func:`history_visibility`).
"""

from __future__ import annotations

from django.core.cache import cache
from django.db.models import Exists, OuterRef

from gangs.cache import FRAGMENT_SECONDS
from gangs.campaign_facts import campaign_facts
from gangs.ledger import from_battle, with_battle
from gangs.models import Fighter, Gang, LedgerEntry
from gangs.selectors.page import version_key


def _entries(queryset):
    """Entries newest first, with who did it, for which fighter, and ``undone`` (a reversing entry exists)."""
    reversed_by = LedgerEntry.objects.filter(reverses=OuterRef("pk"))
    return with_battle(
        queryset.select_related("actor", "fighter").annotate(undone=Exists(reversed_by)).order_by("-created_at", "-pk")
    )


HIDDEN_CAMPAIGN_ENTRY = "An entry of a campaign you do not see"


def hide_unseen_campaigns(entries: list[LedgerEntry], user, gang: Gang) -> list[LedgerEntry]:
    """The entries with the words of those about a campaign ``user`` may not see replaced (README, "Who sees
    what": such a campaign is a 404 to them, so its name, territories and pairings are too). The amounts stay,
    so the history still adds up to the totals; the gang's owner sees all of it. At most two queries, only
    when an entry is about a campaign: the battles' campaigns, and which of them ``user`` sees."""
    if gang.owner_id == user.pk:
        return entries
    by_battle = [e.battle_id for e in entries if e.battle_id and "campaign" not in (e.data or {})]
    if by_battle:
        campaign_of = campaign_facts().battle_campaigns(by_battle)
        for entry in entries:
            if entry.battle_id in campaign_of and "campaign" not in (entry.data or {}):
                entry.data = {**(entry.data or {}), "campaign": campaign_of[entry.battle_id]}
    about = {(e.data or {}).get("campaign") for e in entries} - {None}
    if not about:
        return entries
    seen = campaign_facts().visible_campaign_ids(user, about)
    for entry in entries:
        if (entry.data or {}).get("campaign") not in seen | {None}:
            entry.description, entry.reason, entry.dice = HIDDEN_CAMPAIGN_ENTRY, "", []
    return entries


def history_visibility(user, gang: Gang) -> tuple:
    """What :func:`hide_unseen_campaigns` decides for ``user`` on any page of ``gang``'s history, as a key for
    the page's cached fragment: ``("owner",)`` for the gang's owner, else the campaigns its ledger names that
    ``user`` may see. The campaigns the ledger names are kept per version of the gang (a new entry moves it);
    which of them the viewer sees is asked on every view (one query, only when the ledger names any), since
    joining or leaving a campaign moves no version of this gang."""
    if gang.owner_id == user.pk:
        return ("owner",)
    key = f"history-campaigns:{version_key(gang)}"
    named = cache.get(key)
    if named is None:
        entries = gang.ledger.order_by()  # no ordering column in the DISTINCT
        named = set(entries.filter(data__has_key="campaign").values_list("data__campaign", flat=True).distinct())
        battles = set(with_battle(entries.filter(from_battle())).values_list("battle_id", flat=True).distinct())
        named |= set(campaign_facts().battle_campaigns(battles).values()) if battles else set()
        named = frozenset(named - {None})
        cache.set(key, named, FRAGMENT_SECONDS)
    return ("sees", *sorted(campaign_facts().visible_campaign_ids(user, named))) if named else ("sees",)


def gang_history(gang: Gang):
    """The ledger, newest first, with who did it and for which fighter: a queryset, for the history page to
    read one page of (:func:`core.pagination.page_of`)."""
    return _entries(gang.ledger.all())


FIGHTER_HISTORY_LENGTH = 40


def fighter_history(fighter: Fighter, limit: int = FIGHTER_HISTORY_LENGTH) -> list[LedgerEntry]:
    """The fighter's latest entries, newest first (one query); the gang's history page has them all."""
    return list(_entries(LedgerEntry.objects.filter(fighter=fighter))[:limit])
