"""Equipment: what a fighter or the Stash may buy and at what price, sell, discard, move."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Case, Exists, F, OuterRef, Q, Subquery, When

from content.models import (
    Edition,
    Equipment,
    EquipmentCategory,
    EquipmentKind,
    FighterTypeEquipment,
)
from gangs import campaign_checks
from gangs.ledger import ledger_record
from gangs.models import (
    Fighter,
    FighterStatus,
    Gang,
    Injury,
    LedgerEntry,
    Purchase,
    StatChange,
    StatChangeSource,
)
from gangs.models import LedgerKind as Kind
from gangs.selectors.equipment import trading_post_allows, trading_post_level
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
from rulebook.errors import RulesInputError
from rulebook.n18 import kit
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


@transaction.atomic
def purchase_buy(
    *,
    gang: Gang,
    equipment: Equipment,
    actor,
    fighter: Fighter | None = None,
    override_reason: str = "",
    bionic_choice: str | None = None,
) -> Purchase:
    """Buy for a fighter (from their list or the Trading Post) or for the Stash, at today's price. A bionic is
    fitted to the fighter whose Lasting Injury it repairs and gives back what that injury took (``bionic_choice``:
    which characteristic a Mundane bionic restores when the injury lowered two)."""
    if fighter is not None and fighter.gang_id != gang.pk:
        raise ValidationError(f"{fighter.name} is not in {gang.name}.")
    if fighter is not None:
        lock_fighter(fighter)
        require_on_roster(fighter, "take equipment")
    else:
        lock_gang(gang)
    quote = price_now(gang, equipment, fighter)
    who = fighter.name if fighter else "the Stash"
    # A campaign's house rules may ban the item: refused like an item nobody sells, an override aside.
    banned = campaign_checks.purchase_refusal(gang, equipment) if quote is not None else ""
    if quote is None or banned:
        if not override_reason or equipment.cost is None:
            raise ValidationError(
                banned
                or f"{equipment.name} is not on {who}'s equipment list and the Trading Post does not sell it now."
            )
        override_record(
            gang=gang, actor=actor, what=f"{equipment.name} for {who}", reason=override_reason, fighter=fighter
        )
        quote = (equipment.cost, "list price, by override")
    price, where = quote
    if refusal := ammunition_refusal(fighter, equipment):
        raise ValidationError(refusal)
    fitted = _bionic_fit(fighter, equipment, bionic_choice) if equipment.category == EquipmentCategory.BIONIC else {}
    purchase = Purchase.objects.create(gang=gang, fighter=fighter, equipment=equipment, price=price)
    data = {"purchase": purchase.pk, "equipment": equipment.slug, "price": price}
    if where.endswith(FREE_CHOICE_RULE):
        data["free_choice"] = equipment.category  # free_choices_taken reads it
    if fitted:
        injury, restores = fitted["injury"], fitted["restores"]
        StatChange.objects.bulk_create(
            StatChange(fighter=fighter, stat=stat, delta=delta, source=StatChangeSource.BIONIC, injury=injury)
            for stat, delta in restores.items()
        )
    ledger_record(
        gang=gang,
        fighter=fighter,
        kind=Kind.PURCHASE,
        credits=-price,
        description=f"Bought {equipment.name} for {who}: {price} credits",
        reason=where,
        data=data | ({"bionic": {"injury": fitted["injury"].code, "restores": fitted["restores"]}} if fitted else {}),
        actor=actor,
    )
    return purchase


def _bionic_fit(fighter: Fighter | None, equipment: Equipment, choice: str | None) -> dict:
    """The Lasting Injury a bionic repairs on this fighter and what it gives back (rulebook.n18.kit), or a
    ValidationError in plain words: a bionic goes to a fighter, for an injury it fits that no bionic repairs yet."""
    item = kit.bionic(equipment.slug)
    if item is None:
        return {}
    if fighter is None:
        raise ValidationError(
            f"A {equipment.name} is fitted to a fighter with the injury it repairs, not kept in the Stash."
        )
    injuries = [
        i
        for i in fighter.injuries.filter(code=item.injury).prefetch_related("stat_changes")
        if not any(c.source == StatChangeSource.BIONIC for c in i.stat_changes.all())
    ]
    if not injuries:
        raise ValidationError(f"{fighter.name} has no unrepaired Lasting Injury that a {equipment.name} repairs.")
    injury: Injury = injuries[0]
    lowered = {c.stat: c.delta for c in injury.stat_changes.all() if c.source == StatChangeSource.INJURY}
    try:
        return {"injury": injury, "restores": kit.bionic_restores(item, lowered, choice)}
    except RulesInputError as exc:
        raise ValidationError(f"{equipment.name}: {exc.message}") from None


def _keep_fitted_bionic(purchase: Purchase) -> None:
    """A bionic in a fighter's body is neither sold, discarded nor handed on (it gave back a characteristic)."""
    if purchase.fighter_id is not None and purchase.equipment.category == EquipmentCategory.BIONIC:
        raise ValidationError(
            f"The {purchase.equipment.name} is fitted to {purchase.fighter.name} and stays with them."
        )


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


def refuse_captive_kit(purchase: Purchase, what: str) -> None:
    """A captive's kit is with them, in the captors' hands: their own gang can neither sell, discard nor hand it
    on until they are freed (our reading of the 2018+ captive rules, docs/campaigns.md)."""
    fighter = purchase.fighter
    if fighter is not None and fighter.status == FighterStatus.CAPTURED:
        held = f" by {fighter.captured_by.name}" if fighter.captured_by_id else ""
        raise ValidationError(
            f"{fighter.name} is held captive{held}: their {purchase.equipment.name} cannot be {what} "
            "until they are freed."
        )


@transaction.atomic
def purchase_sell(*, purchase: Purchase, actor, dice: DiceSource | None = None) -> LedgerEntry:
    """Sell to the Trading Post; twenty identical requests sell it once (the item's row is locked). An item back
    from an undone sale sells on the dice of that sale."""
    lock_purchase(purchase)
    refuse_captive_kit(purchase, "sold")
    _keep_fitted_bionic(purchase)
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
    refuse_captive_kit(purchase, "discarded")
    _keep_fitted_bionic(purchase)
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


@transaction.atomic
def purchase_move(*, purchase: Purchase, fighter: Fighter | None, actor) -> Purchase:
    """Hand an item to another fighter of the gang (who must be allowed to carry it) or put it in the Stash."""
    lock_purchase(purchase)
    refuse_captive_kit(purchase, "moved")
    _keep_fitted_bionic(purchase)
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
        if refusal := ammunition_refusal(fighter, purchase.equipment):
            raise ValidationError(refusal)
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


CHEM_DOSE_SOURCE = (
    "Necromunda Core Rulebook (2023), Chems, Chem Suppliers (necrovox copy): a chem bought is one dose, used once and "
    "then gone; taken before the battle, its effect lasts the battle"
)


def take_chem_doses(*, fighters: list[Fighter], battle, actor) -> list[LedgerEntry]:
    """The fighters brought into a battle take one dose of each chem they carry before it begins (the battle's
    snapshot applies its effect, ``battles.roster``): each dose is used up, the item leaving the fighter with a
    ledger entry that names the chem, its side effect (``rulebook.n18.kit``) and the battle. ``battle`` is the
    assistant's session; the entry names its campaign battle, if any. The caller holds the gangs' locks."""
    doses = (
        Purchase.objects.select_for_update(of=("self",))
        .filter(fighter__in=[f.pk for f in fighters], equipment__category=EquipmentCategory.CHEM)
        .select_related("equipment", "fighter", "gang")
        .order_by("pk")
    )
    entries, taken = [], set()
    for purchase in doses:
        if (purchase.fighter_id, purchase.equipment_id) in taken:
            continue  # one dose of a chem a battle: the next waits for another
        taken.add((purchase.fighter_id, purchase.equipment_id))
        chem = purchase.equipment
        entries.append(
            ledger_record(
                gang=purchase.gang,
                fighter=purchase.fighter,
                kind=Kind.EQUIPMENT,
                description=f"{purchase.fighter.name} took a dose of {chem.name} before the battle: used up",
                reason=CHEM_DOSE_SOURCE,
                data={
                    "equipment": chem.slug,
                    "price": purchase.price,
                    "chem_taken": True,
                    "battle_session": battle.pk,
                    "side_effect": kit.CHEMS[chem.slug].side_effect if chem.slug in kit.CHEMS else "",
                },
                actor=actor,
                battle=battle.campaign_battle,
            )
        )
        purchase.delete()
    return entries
