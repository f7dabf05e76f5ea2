"""Equipment: what a fighter or the Stash may buy and at what price, sell, discard, move."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Case, Exists, F, FilteredRelation, OuterRef, Q, Subquery, When

from content.models import (
    Edition,
    Equipment,
    EquipmentKind,
    FighterTypeEquipment,
)
from gangs.ledger import ledger_record
from gangs.models import (
    ON_ROSTER,
    Fighter,
    Gang,
    LedgerEntry,
    Purchase,
)
from gangs.models import LedgerKind as Kind
from gangs.services.common import (
    ReusedDice,
    lock_fighter,
    lock_gang,
    lock_purchase,
    override_record,
    require_on_roster,
    rolls_since,
)
from rulebook import gang_rules
from rulebook.dice import DiceSource, RandomDice
from rulebook.n18.campaign import trading
from rulebook.roster import roll_amount

CLASSIC_SALE_SOURCE = "S3 p99 Trading Post: equipment sells back for half its price"
# Checked against the necrovox copy of the 2023 Core Rulebook, post-battle sequence, Update Roster, Visit the Trading
# Post, "Sell Unwanted Items" (yakuzadave/necroman_v2 necrovox_docs/Necromunda_Docs/6-the-rules/
# 17-the-post-battle-sequence.md): a Stash item sells for its value minus D6x10, never under 5 credits.
N18_SALE_SOURCE = (
    "Necromunda Core Rulebook (2023), Visit the Trading Post, Sell Unwanted Items (necrovox copy): "
    "an item sells for its value less D6x10 credits, minimum 5"
)


# --- equipment ---------------------------------------------------------------------------------


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


def trading_post_level(gang: Gang) -> int | None:
    """The Availability Level the gang buys Rare and Illegal items at: the best Trade roll of its last applied
    post-battle sequence (ledger entries ``data["trading_post"]``, not reverted), standing until its next battle is
    confirmed; None when there is none (2018+ only)."""
    if gang.edition != Edition.N18 or getattr(gang, "in_campaign_now", None) is False:
        return None  # a Trade action is a campaign's post-battle step (a page that knows says so: no query)
    rolled = LedgerEntry.objects.filter(gang=gang, data__has_key="trading_post", battle__isnull=False,
                                        reverses__isnull=True, reversed_by__isnull=True)  # fmt: skip
    latest = rolled.select_related("battle").order_by("-created_at", "-pk").first()
    if latest is None:
        return None
    battles = type(latest.battle).objects.filter(Q(attacker=gang) | Q(defender=gang), status="confirmed")
    since = latest.battle.confirmed_at
    if since is not None and battles.filter(confirmed_at__gt=since).exists():
        return None  # a battle fought since: that visit to the Trading Post is over
    return max(entry.data["trading_post"] for entry in rolled.filter(battle=latest.battle_id))


def _trading_post_where(equipment: Equipment, level: int | None) -> str:
    if level is None or trading.may_buy(equipment.rarity, None):
        return "Trading Post"
    return f"Trading Post ({equipment.rarity}, at Availability Level {level} from the post-battle Trade action)"


def _list_only(fighter: Fighter | None, has_list: bool) -> bool:
    """Hangers-on and Brutes take only what their card lists, as do Hired Guns with a list of their own
    (Hive Scum); a Bounty Hunter, who has none, buys at the Trading Post (2023 Core, Gang Additions)."""
    if fighter is None or not fighter.fighter_type.is_addition:
        return False
    return fighter.fighter_type.category in gang_rules.REPUTATION_CAPPED or has_list


def price_now(gang: Gang, equipment: Equipment, fighter: Fighter | None) -> tuple[int, str] | None:
    """The price of the moment and where it comes from, or None when this buyer cannot buy it."""
    if equipment.edition != gang.edition or not equipment.is_active:
        return None
    if fighter is not None:
        entry = FighterTypeEquipment.objects.filter(fighter_type=fighter.fighter_type_id, equipment=equipment).first()
        if entry and not entry.is_included:
            return entry.cost, f"{fighter.fighter_type.name} equipment list"
        if _list_only(fighter, FighterTypeEquipment.objects.filter(fighter_type=fighter.fighter_type_id).exists()):
            return None
    elif (
        equipment.cost is not None
        and FighterTypeEquipment.objects.filter(fighter_type__house=gang.house_id, equipment=equipment).exists()
    ):
        return equipment.cost, f"{gang.house.name} equipment lists"
    if trading_post_allows(gang.edition, equipment):
        return equipment.cost, "Trading Post"
    level = trading_post_level(gang)
    if level is not None and trading_post_allows(gang.edition, equipment, level):
        return equipment.cost, _trading_post_where(equipment, level)
    return None


def buyable_equipment(gang: Gang, fighter: Fighter | None) -> list[tuple[Equipment, int, str]]:
    """Everything this fighter (or the Stash) can buy now, with price and where from (one query)."""
    items = Equipment.objects.active().filter(edition=gang.edition)
    if fighter is not None:
        # Included kit comes with the hire and is not bought again.
        listed = FighterTypeEquipment.objects.filter(
            fighter_type=fighter.fighter_type_id, equipment=OuterRef("pk"), is_included=False
        )
        items = items.annotate(list_price=Subquery(listed.values("cost")[:1]))
        where = f"{fighter.fighter_type.name} list"
    else:
        # The Stash buys what any of the house's lists offer, at the Trading Post's price.
        on_a_list = Exists(
            FighterTypeEquipment.objects.filter(fighter_type__house=gang.house_id, equipment=OuterRef("pk"))
        )
        items = items.annotate(list_price=Case(When(on_a_list, then=F("cost")), default=None))
        where = "house lists"
    found = list(items.filter(Q(list_price__isnull=False) | Q(cost__isnull=False)))
    list_only = _list_only(fighter, any(item.list_price is not None for item in found))
    # Asked only when something Rare or Illegal is on offer at all: a query the Common-only case does not need.
    rare = any(item.list_price is None and not trading_post_allows(gang.edition, item) for item in found)
    level = trading_post_level(gang) if rare and not list_only else None
    offers = []
    for item in found:
        if item.list_price is not None:
            offers.append((item, item.list_price, where))
        elif not list_only and trading_post_allows(gang.edition, item, level):
            offers.append((item, item.cost, _trading_post_where(item, level)))
    return sorted(offers, key=lambda v: (v[0].category, v[0].name))


@transaction.atomic
def purchase_buy(
    *, gang: Gang, equipment: Equipment, actor, fighter: Fighter | None = None, override_reason: str = ""
) -> Purchase:
    """Buy for a fighter (from their list or the Trading Post) or for the Stash, at today's price."""
    if fighter is not None and fighter.gang_id != gang.pk:
        raise ValidationError(f"{fighter.name} is not in {gang.name}.")
    if fighter is not None:
        lock_fighter(fighter)
        require_on_roster(fighter, "take equipment")
    else:
        lock_gang(gang)
    quote = price_now(gang, equipment, fighter)
    who = fighter.name if fighter else "the Stash"
    if quote is None:
        if not override_reason or equipment.cost is None:
            raise ValidationError(
                f"{equipment.name} is not on {who}'s equipment list and the Trading Post does not sell it now."
            )
        override_record(
            gang=gang, actor=actor, what=f"{equipment.name} for {who}", reason=override_reason, fighter=fighter
        )
        quote = (equipment.cost, "list price, by override")
    price, where = quote
    purchase = Purchase.objects.create(gang=gang, fighter=fighter, equipment=equipment, price=price)
    ledger_record(
        gang=gang,
        fighter=fighter,
        kind=Kind.PURCHASE,
        credits=-price,
        description=f"Bought {equipment.name} for {who}: {price} credits",
        reason=where,
        data={"purchase": purchase.pk, "equipment": equipment.slug, "price": price},
        actor=actor,
    )
    return purchase


def sale_value(gang: Gang, purchase: Purchase, dice: DiceSource) -> tuple[int, str, list]:
    """What the Trading Post pays for an item, the rule, and the dice it took."""
    if purchase.price == 0:
        # A Hanger-on's or Brute's kit came with its price: nothing to sell it for (our ruling).
        return 0, "Came at no price with a fighter: the Trading Post pays nothing for it", []
    if gang.edition == Edition.CLASSIC:
        return purchase.price // 2, CLASSIC_SALE_SOURCE, []
    mark = len(dice.rolls)
    less = roll_amount("D6x10", dice, f"selling {purchase.equipment.name}")
    return max(5, purchase.price - less), N18_SALE_SOURCE, rolls_since(dice, mark)


def _sale_dice_of(purchase: Purchase) -> list:
    """The sale dice of an item brought back by an undone sale: selling it again re-uses them."""
    undo = (
        LedgerEntry.objects.filter(gang=purchase.gang_id, data__restored_purchase=purchase.pk).order_by("-pk").first()
    )
    return [d["value"] for d in undo.data.get("sale_dice", [])] if undo else []


def sale_rule(gang: Gang, purchase: Purchase) -> str:
    """What the Trading Post will pay, in words, before the player confirms a sale."""
    if gang.edition == Edition.CLASSIC:
        return f"Half its price: {purchase.price // 2} credits ({CLASSIC_SALE_SOURCE})."
    low, high = max(5, purchase.price - 60), max(5, purchase.price - 10)
    again = " (the dice of its earlier sale, which was undone)" if _sale_dice_of(purchase) else ""
    return f"Its value less D6x10, at least 5: {low} to {high} credits, the server rolls{again} ({N18_SALE_SOURCE})."


@transaction.atomic
def purchase_sell(*, purchase: Purchase, actor, dice: DiceSource | None = None) -> LedgerEntry:
    """Sell to the Trading Post; twenty identical requests sell it once (the item's row is locked). An item back
    from an undone sale sells on the dice of that sale."""
    lock_purchase(purchase)
    gang = purchase.gang
    again = _sale_dice_of(purchase)
    amount, rule, rolls = sale_value(gang, purchase, ReusedDice(again) if again else dice or RandomDice())
    entry = ledger_record(
        gang=gang,
        fighter=purchase.fighter,
        kind=Kind.SALE,
        credits=amount,
        description=f"Sold {purchase.equipment.name} (paid {purchase.price}) for {amount} credits",
        reason=rule,
        dice=rolls,
        data={"equipment": purchase.equipment.slug, "price": purchase.price},
        actor=actor,
    )
    purchase.delete()
    return entry


@transaction.atomic
def purchase_discard(*, purchase: Purchase, actor) -> LedgerEntry:
    lock_purchase(purchase)
    entry = ledger_record(
        gang=purchase.gang,
        fighter=purchase.fighter,
        kind=Kind.EQUIPMENT,
        description=f"Discarded {purchase.equipment.name} (paid {purchase.price})",
        data={"equipment": purchase.equipment.slug, "price": purchase.price, "discarded": True},
        actor=actor,
    )
    purchase.delete()
    return entry


def move_targets(gang: Gang, purchases: list[Purchase]) -> dict[int, list[Fighter]]:
    """For each purchase, the fighters it may be handed to: on the roster, not its holder, and allowed to
    carry it by their list or the Trading Post, as :func:`purchase_move` checks. One query: the gang's
    fighters, each joined to the list entries it has for these items."""
    if not purchases:
        return {}
    items = {p.equipment_id for p in purchases}
    rows = (
        Fighter.objects.filter(gang=gang, status__in=ON_ROSTER)
        .annotate(listed=FilteredRelation("fighter_type__equipment_list", condition=Q(
            fighter_type__equipment_list__equipment__in=items)))
        .values_list("pk", "name", "listed__equipment_id")
        .order_by("order", "pk")
    )  # fmt: skip
    fighters: dict[int, Fighter] = {}
    listed: set[tuple[int, int]] = set()
    for pk, name, equipment_id in rows:
        fighters.setdefault(pk, Fighter(pk=pk, name=name, gang=gang))
        if equipment_id is not None:
            listed.add((pk, equipment_id))
    targets = {}
    for purchase in purchases:
        item = purchase.equipment
        usable = item.edition == gang.edition and item.is_active
        open_market = usable and trading_post_allows(gang.edition, item)
        targets[purchase.pk] = [
            f for f in fighters.values()
            if f.pk != purchase.fighter_id and usable and (open_market or (f.pk, item.pk) in listed)
        ]  # fmt: skip
    return targets


@transaction.atomic
def purchase_move(*, purchase: Purchase, fighter: Fighter | None, actor) -> Purchase:
    """Hand an item to another fighter of the gang (who must be allowed to carry it) or put it in the Stash."""
    lock_purchase(purchase)
    gang = purchase.gang
    if fighter is not None and fighter.pk == purchase.fighter_id:
        raise ValidationError(f"{fighter.name} already carries {purchase.equipment.name}.")
    if fighter is None and purchase.fighter_id is None:
        raise ValidationError(f"{purchase.equipment.name} is already in the Stash.")
    if fighter is not None:
        if fighter.gang_id != gang.pk:
            raise ValidationError(f"{fighter.name} is not in {gang.name}.")
        require_on_roster(fighter, "take equipment")
        if price_now(gang, purchase.equipment, fighter) is None:
            raise ValidationError(f"{purchase.equipment.name} is not on {fighter.name}'s equipment list.")
    source = purchase.fighter.name if purchase.fighter else "the Stash"
    target = fighter.name if fighter else "the Stash"
    purchase.fighter = fighter
    purchase.save(update_fields=["fighter"])
    ledger_record(
        gang=gang,
        fighter=fighter,
        kind=Kind.EQUIPMENT,
        description=f"Moved {purchase.equipment.name} from {source} to {target}",
        data={"purchase": purchase.pk, "equipment": purchase.equipment.slug},
        actor=actor,
    )
    return purchase
