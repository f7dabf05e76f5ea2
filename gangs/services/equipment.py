"""Equipment: buy, sell, discard, move, and the chems a fighter takes before a battle. What a fighter or the Stash
may buy, at what price, and what a sale pays are reads, in :mod:`gangs.selectors.equipment`."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction

from content.models import (
    Equipment,
    EquipmentCategory,
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
from gangs.selectors.equipment import (
    FREE_CHOICE_RULE,
    ammunition_refusal,
    price_now,
    sale_value,
    undone_sale_dice,
)
from gangs.services.common import (
    ReusedDice,
    lock_fighter,
    lock_gang,
    lock_purchase,
    override_record,
    require_on_roster,
)
from rulebook.dice import DiceSource, RandomDice
from rulebook.errors import RulesInputError
from rulebook.n18 import kit


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
    again = undone_sale_dice(purchase)
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


def take_chem_doses(*, fighters: list[Fighter], session, actor) -> list[LedgerEntry]:
    """The fighters brought into a battle take one dose of each chem they carry before it begins, but those used
    otherwise (Stinger Mould: ``rulebook.n18.kit.taken_before_battle``) (the battle's
    snapshot applies its effect, ``battles.roster``): each dose is used up, the item leaving the fighter with a
    ledger entry that names the chem, its side effect (``rulebook.n18.kit``) and the battle. ``session`` is the
    assistant's BattleSession; the entry names its campaign battle, if any. The caller holds the gangs' locks."""
    doses = (
        Purchase.objects.select_for_update(of=("self",))
        .filter(fighter__in=[f.pk for f in fighters], equipment__category=EquipmentCategory.CHEM)
        .select_related("equipment", "fighter", "gang")
        .order_by("pk")
    )
    entries, taken = [], set()
    for purchase in doses:
        if not kit.taken_before_battle(purchase.equipment.slug):
            continue  # Stinger Mould waits for a Lasting Injury roll
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
                    "battle_session": session.pk,
                    "side_effect": kit.CHEMS[chem.slug].side_effect if chem.slug in kit.CHEMS else "",
                },
                actor=actor,
                battle=session.campaign_battle,
            )
        )
        purchase.delete()
    return entries


def chem_dose_use(*, fighter: Fighter, slug: str, actor, reason: str, dice=None, battle=None, data=None) -> dict:
    """A dose of the chem ``slug`` used outside a battle (Stinger Mould on a Lasting Injury, in the post-battle
    sequence): the fighter's own dose, else one from the gang's Stash, is used up with a ledger entry. Returns what a
    revert needs to give it back ({"pk", "fighter", "equipment_id", "price"}); refused when the gang has none left."""
    doses = Purchase.objects.select_for_update(of=("self",)).filter(gang=fighter.gang_id, equipment__slug=slug)
    dose = (
        doses.filter(fighter=fighter).order_by("pk").first()
        or doses.filter(fighter__isnull=True).select_related("equipment").order_by("pk").first()
    )
    if dose is None:
        raise ValidationError(f"{fighter.gang.name} has no dose of {slug.replace('-', ' ')} left for {fighter.name}.")
    item = dose.equipment
    ledger_record(
        gang=fighter.gang,
        fighter=fighter,
        kind=Kind.EQUIPMENT,
        description=f"{fighter.name} used a dose of {item.name}: used up",
        reason=reason,
        dice=dice,
        data={**(data or {}), "equipment": slug, "price": dose.price, "chem_used": True},
        actor=actor,
        battle=battle,
    )
    kept = {"pk": dose.pk, "fighter": dose.fighter_id, "equipment_id": dose.equipment_id, "price": dose.price}
    dose.delete()
    return kept
