"""What the Stash holds for the gang page, and where each item a fighter or the Stash holds may be handed
(:func:`with_move_to`, which the fighter page reads too).
"""

from __future__ import annotations

from django.core.cache import cache
from django.utils.functional import SimpleLazyObject

from gangs.cache import FRAGMENT_SECONDS
from gangs.models import Gang, Purchase
from gangs.selectors.equipment import move_targets
from gangs.selectors.page import RosterPage, version_key


def stash_items(page: RosterPage) -> SimpleLazyObject:
    """What the Stash holds, for the part of the gang page drawn for each viewer, each item with the fighters it
    may be handed to (``move_to``: pairs of id and name, as :func:`gangs.selectors.move_targets` allows). Read once
    per version of the gang and of the content and kept beside its fragments (gangs.cache): no query while the
    cache holds it, and none when its :class:`gangs.selectors.RosterFacts` say the Stash is empty; else two (the
    items, the fighters)."""
    gang = page.gang

    def load() -> list[Purchase]:
        if not page.facts.stash_holds_items:
            return []
        key = f"roster-stash:{version_key(gang)}"
        items = cache.get(key)
        if items is None:
            # By gang id, not through gang.purchases: the related manager would tie each item to this gang object
            # (and whatever it holds) in the cached copy.
            items = list(
                Purchase.objects.filter(gang_id=gang.pk, fighter__isnull=True)
                .select_related("equipment")
                .order_by("pk")
            )
            with_move_to(gang, items)
            cache.set(key, items, FRAGMENT_SECONDS)
        return items

    return SimpleLazyObject(load)


def with_move_to(gang: Gang, purchases: list[Purchase]) -> None:
    """Give each purchase ``move_to``: the fighters (id, name) it may be handed to, as
    :func:`gangs.selectors.move_targets` allows (one query). Pairs, not rows: they are kept in the cache."""
    targets = move_targets(gang, purchases)
    for purchase in purchases:
        purchase.move_to = [(fighter.pk, fighter.name) for fighter in targets.get(purchase.pk, [])]
