"""Who may carry what and at what price: what a fighter or the Stash may buy now and where from, what the Trading
Post sells a gang and at which Availability Level, what it pays for an item sold, and whom an item may be handed to
(reads the equipment services check again under their locks)."""

from __future__ import annotations

from django.db.models import Case, Exists, F, FilteredRelation, OuterRef, Q, Subquery, When

from content.models import Edition, Equipment, EquipmentCategory, EquipmentKind, FighterTypeEquipment
from gangs import campaign_checks
from gangs.campaign_facts import campaign_facts
from gangs.ledger import from_battle, with_battle
from gangs.models import ON_ROSTER, Fighter, Gang, LedgerEntry, Purchase
from gangs.models import LedgerKind as Kind
from rulebook import gang_rules
from rulebook.dice import DiceSource
from rulebook.n18 import kit
from rulebook.n18.campaign import trading
from rulebook.roster import roll_amount


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


# The rule a free list choice follows (rulebook/data/n18/gang_additions.json, "notes").
FREE_CHOICE_RULE = "chosen when hired, at no extra cost (Gang Additions)"


def free_choices_taken(fighter: Fighter | None) -> set[str]:
    """The equipment categories in which this Hanger-on, Brute or Hired Gun has taken the free weapon its card
    lets it choose when hired ("a boltgun or a combat shotgun and a power hammer or power sword"). The card's
    "or" is one choice per kind of weapon; the ledger remembers it, so a choice sold or lost is not free again."""
    if fighter is None or fighter.pk is None or not fighter.fighter_type.is_addition:
        return set()
    taken = LedgerEntry.objects.filter(fighter=fighter, kind=Kind.PURCHASE, data__has_key="free_choice")
    return set(taken.values_list("data__free_choice", flat=True))


def _list_price(fighter: Fighter, equipment: Equipment, cost: int, taken: set[str]) -> tuple[int, str] | None:
    """A list entry's price for this fighter. A Gang Addition's entry at 0 is its free choice when hired: free
    once per kind of weapon, then at the Trading Post's price (the card offers the choice, not a free armoury)."""
    if cost == 0 and fighter.fighter_type.is_addition:
        if equipment.category not in taken:
            return 0, f"{fighter.fighter_type.name} equipment list: {FREE_CHOICE_RULE}"
        if equipment.cost is None:
            return None
        return equipment.cost, f"{fighter.fighter_type.name} equipment list (its free choice already taken)"
    return cost, f"{fighter.fighter_type.name} equipment list"


def price_now(gang: Gang, equipment: Equipment, fighter: Fighter | None) -> tuple[int, str] | None:
    """The price of the moment and where it comes from, or None when this buyer cannot buy it."""
    if equipment.edition != gang.edition or not equipment.is_active:
        return None
    if fighter is not None:
        entry = FighterTypeEquipment.objects.filter(fighter_type=fighter.fighter_type_id, equipment=equipment).first()
        if entry and not entry.is_included:
            return _list_price(fighter, equipment, entry.cost, free_choices_taken(fighter))
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


def buyable_equipment(
    gang: Gang, fighter: Fighter | None, with_rare: bool = False, *, in_campaign: bool | None = None
) -> list[tuple[Equipment, int, str]]:
    """Everything this fighter (or the Stash) can buy now, with price and where from (one query). ``with_rare``
    adds the 2018+ Trading Post's Rare and Illegal items, named with their availability: an arbitrator buys them by
    override once a Trade post-battle action's Availability level allows them. What the gang's campaign bans by
    its house rules is left out, or, for ``with_rare``, named as banned (an override buys it). ``in_campaign``:
    as :func:`gangs.selectors.trading_post_level` takes it."""
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
    # What the gang's campaign bans from its Trading Post, read by the same query (gangs.campaign_checks).
    if (banned_expression := campaign_checks.banned_items(gang)) is not None:
        items = items.annotate(banned_here=banned_expression)
    found = list(items.filter(Q(list_price__isnull=False) | Q(cost__isnull=False)))
    banned = set(getattr(found[0], "banned_here", None) or ()) if found else set()
    list_only = _list_only(fighter, any(item.list_price is not None for item in found))
    taken = free_choices_taken(fighter)
    # Asked only when something Rare or Illegal is on offer at all: a query the Common-only case does not need.
    rare = any(item.list_price is None and not trading_post_allows(gang.edition, item) for item in found)
    level = trading_post_level(gang, in_campaign=in_campaign) if rare and not list_only else None
    # Special ammunition is offered only for a weapon the fighter carries (never to the Stash).
    weapons = carried_weapons(fighter) if fighter is not None and any(i.fits for i in found) else set()
    found = [item for item in found if not item.fits or set(item.fits) & weapons]
    offers = []
    for item in found:
        if item.slug in banned:
            if with_rare and item.cost is not None:  # the arbitrator's list: an override buys it at the list price
                offers.append((item, item.cost, "banned by the campaign's house rules: by override"))
        elif item.list_price is not None and fighter is not None and item.list_price == 0:
            if quote := _list_price(fighter, item, 0, taken):
                offers.append((item, quote[0], where))
        elif item.list_price is not None:
            offers.append((item, item.list_price, where))
        elif not list_only and trading_post_allows(gang.edition, item, level):
            offers.append((item, item.cost, _trading_post_where(item, level)))
        elif with_rare and not list_only and item.cost is not None and kit.availability(item.rarity) != item.rarity:
            offers.append(
                (item, item.cost, f"Trading Post, {kit.availability(item.rarity)}: by override after a Trade roll")
            )
    return sorted(offers, key=lambda v: (v[0].category, v[0].name))


def carried_weapons(fighter: Fighter) -> set[str]:
    """The slugs of the weapons a fighter carries (one query)."""
    return set(fighter.purchases.filter(equipment__kind=EquipmentKind.WEAPON).values_list("equipment__slug", flat=True))


def ammunition_refusal(fighter: Fighter | None, equipment: Equipment, weapons: set[str] | None = None) -> str:
    """Why this fighter (or the Stash) may not take this special ammunition, or "" when it may. Special ammunition
    is loaded into a weapon the fighter carries (2023 Core Rulebook, Armoury, Special Ammunition: it is bought for a
    weapon); ``weapons`` are the fighter's weapon slugs when the caller has them."""
    if equipment.category != EquipmentCategory.AMMO or not equipment.fits:
        return ""
    names = " or ".join(
        Equipment.objects.filter(edition=equipment.edition, slug__in=equipment.fits).values_list("name", flat=True)
    )
    if fighter is None:
        return f"{equipment.name} is bought for a fighter who carries a {names}, not for the Stash."
    if set(equipment.fits) & (carried_weapons(fighter) if weapons is None else weapons):
        return ""
    return f"{fighter.name} carries no {names}: the {equipment.name} is fired from one."


CLASSIC_SALE_SOURCE = "S3 p99 Trading Post: equipment sells back for half its price"


# Checked against the necrovox copy of the 2023 Core Rulebook, post-battle sequence, Update Roster, Visit the Trading
# Post, "Sell Unwanted Items" (yakuzadave/necroman_v2 necrovox_docs/Necromunda_Docs/6-the-rules/
# 17-the-post-battle-sequence.md): a Stash item sells for its value minus D6x10, never under 5 credits.
N18_SALE_SOURCE = (
    "Necromunda Core Rulebook (2023), Visit the Trading Post, Sell Unwanted Items (necrovox copy): "
    "an item sells for its value less D6x10 credits, minimum 5"
)


def sale_value(gang: Gang, purchase: Purchase, dice: DiceSource) -> tuple[int, str, list]:
    """What the Trading Post pays for an item, the rule, and the dice it took."""
    if purchase.price == 0:
        # A Hanger-on's or Brute's kit came with its price: nothing to sell it for (our ruling).
        return 0, "Came at no price with a fighter: the Trading Post pays nothing for it", []
    if gang.edition == Edition.CLASSIC:
        return purchase.price // 2, CLASSIC_SALE_SOURCE, []
    mark = len(dice.rolls)
    less = roll_amount("D6x10", dice, f"selling {purchase.equipment.name}")
    return max(5, purchase.price - less), N18_SALE_SOURCE, dice.log()[mark:]


def undone_sale_dice(purchase: Purchase) -> list:
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
    again = " (the dice of its earlier sale, which was undone)" if undone_sale_dice(purchase) else ""
    return f"Its value less D6x10, at least 5: {low} to {high} credits, the server rolls{again} ({N18_SALE_SOURCE})."
