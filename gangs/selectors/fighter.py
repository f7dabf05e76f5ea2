"""A fighter's page as every viewer sees it (:class:`FighterPage`): the fighter's card, advancements, latest
history and where each item it carries may be handed, read once per version of the gang and of the content.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.core.cache import cache

from gangs.cache import FRAGMENT_SECONDS
from gangs.models import Gang, LedgerEntry
from gangs.selectors.history import fighter_history
from gangs.selectors.page import version_key
from gangs.selectors.roster import FighterRow, fighter_detail
from gangs.selectors.stash import with_move_to


@dataclass(frozen=True)
class FighterPage:
    """A fighter's page as every viewer sees it (:func:`fighter_page`), and whether the gang is still being
    founded (:func:`gangs.selectors.gang_founding`: a hire may still be taken back), read with the gang."""

    row: FighterRow
    advancements: list
    history: list[LedgerEntry]
    founding: bool


def fighter_page(gang: Gang, pk: int) -> FighterPage:
    """:func:`fighter_detail` and :func:`fighter_history` of one fighter, each item it carries with where it may
    be handed (``move_to``, as :func:`gangs.selectors.stash_items`), read once per version of the gang and of the
    content and kept in the cache (gangs.cache): what every viewer sees, their own controls drawn apart. ``gang`` is
    this request's, from :func:`gangs.selectors.roster_page` (with the content's version and whether it fought),
    read before any change the request made."""
    key = f"fighter-page:{pk}:{version_key(gang)}"
    found = cache.get(key)
    if found is None:
        row, advancements = fighter_detail(gang, pk, content_version=gang.content_version or 0)
        with_move_to(gang, [item.purchase for item in row.weapons + row.wargear])
        found = (row, advancements, fighter_history(row.fighter))
        cache.set(key, found, FRAGMENT_SECONDS)
    row, advancements, history = found
    row.fighter.gang = gang  # this request's gang (and what it says of the viewer), not the cached copy
    return FighterPage(row, advancements, history, founding=not gang.fought)
