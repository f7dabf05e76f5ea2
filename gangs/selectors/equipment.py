"""Who may carry what: what the Trading Post sells a gang, at which Availability Level, and whom an item may be
handed to (reads the equipment services check again under their locks)."""

from __future__ import annotations

from django.db.models import F, FilteredRelation, Q

from content.models import Edition, Equipment, EquipmentKind
from gangs.campaign_facts import campaign_facts
from gangs.ledger import from_battle, with_battle
from gangs.models import ON_ROSTER, Fighter, Gang, LedgerEntry, Purchase
from rulebook.n18.campaign import trading


def trading_post_allows(edition: str, equipment: Equipment, level: int | None = None) -> bool:
    """Items anyone may buy outside a fighter's list at list price.

    Classic: armour and wargear that are not rare (S3 p99). 2018+: Common items (N1 Trading Post), and Rare and
    Illegal items up to ``level``, the Availability Level of the gang's last post-battle Trade action
    (:func:`trading_post_level`; ``rulebook.n18.campaign.trading``).
    """
    if equipment.cost is None:
        return False
    if edition == Edition.CLASSIC:
        return equipment.kind != EquipmentKind.WEAPON and not equipment.rarity
    return trading.may_buy(equipment.rarity, level)


def trading_post_level(gang: Gang, *, in_campaign: bool | None = None) -> int | None:
    """The Availability Level the gang buys Rare and Illegal items at: the best Trade roll of its last applied
    post-battle sequence (ledger entries ``data["trading_post"]``, not reverted), standing until its next battle is
    confirmed; None when there is none (2018+ only). ``in_campaign``: whether the gang plays in a campaign, when
    the caller knows (gangs.permissions.ViewedGang); the ledger answers otherwise."""
    if gang.edition != Edition.N18 or in_campaign is False:
        return None  # a Trade action is a campaign's post-battle step: outside one, no query
    rolled = with_battle(
        LedgerEntry.objects.filter(
            from_battle(), gang=gang, data__has_key="trading_post", reverses__isnull=True, reversed_by__isnull=True
        )
    )
    latest = rolled.order_by("-created_at", "-pk").first()
    if latest is None:
        return None
    if campaign_facts().fought_since(gang, latest.battle_id):
        return None  # a battle fought since: that visit to the Trading Post is over
    return max(entry.data["trading_post"] for entry in rolled.filter(battle_id=latest.battle_id))


def move_targets(gang: Gang, purchases: list[Purchase]) -> dict[int, list[Fighter]]:
    """For each purchase, the fighters it may be handed to: on the roster, not its holder, and allowed to
    carry it by their list or the Trading Post, as :func:`gangs.services.purchase_move` checks. One query: the gang's
    fighters with their type (the service prices the move on it), each joined to the list entries it has for
    these items."""
    if not purchases:
        return {}
    items = {p.equipment_id for p in purchases}
    rows = (
        Fighter.objects.filter(gang=gang, status__in=ON_ROSTER)
        .select_related("fighter_type")
        .annotate(
            listed=FilteredRelation(
                "fighter_type__equipment_list", condition=Q(fighter_type__equipment_list__equipment__in=items)
            ),
            listed_item=F("listed__equipment_id"),
        )
        .order_by("order", "pk")
    )
    fighters: dict[int, Fighter] = {}
    listed: set[tuple[int, int]] = set()
    for row in rows:
        row.gang = gang
        fighters.setdefault(row.pk, row)
        if row.listed_item is not None:
            listed.add((row.pk, row.listed_item))
    armed: dict[int, set[str]] = {}
    if any(p.equipment.fits for p in purchases):
        # Special ammunition goes only to a fighter carrying a weapon it fits (one more query, when there is any).
        held = Purchase.objects.filter(gang=gang, fighter__isnull=False, equipment__kind=EquipmentKind.WEAPON)
        for fighter_id, slug in held.values_list("fighter_id", "equipment__slug"):
            armed.setdefault(fighter_id, set()).add(slug)
    targets = {}
    for purchase in purchases:
        item = purchase.equipment
        usable = item.edition == gang.edition and item.is_active
        open_market = usable and trading_post_allows(gang.edition, item)
        targets[purchase.pk] = [
            f
            for f in fighters.values()
            if f.pk != purchase.fighter_id
            and usable
            and (open_market or (f.pk, item.pk) in listed)
            and (not item.fits or set(item.fits) & armed.get(f.pk, set()))
        ]
    return targets
