"""Undo from the history: a reversing entry for every entry one action wrote, and the roster put back.

Undoable: an entry of the fighter's record (:mod:`gangs.services.record`, grouped by its form's token),
a sale or a discard; never a post-battle entry (the sequence has its own revert) nor an entry that is
itself a reversal. Undo never deletes an entry. The server's dice stay final: the undo of a server-rolled
injury keeps its dice for the fighter's next roll, the undo of a sale keeps its dice for the item's next
sale (see :class:`gangs.services.common.ReusedDice`).
"""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction

from content.models import Edition, Equipment
from gangs.ledger import ledger_record, with_battle
from gangs.models import ON_ROSTER, Fighter, FighterStatus, Gang, Injury, LedgerEntry, Purchase
from gangs.models import LedgerKind as Kind
from gangs.selectors.record import undoable


@transaction.atomic
def entry_undo(*, entry: LedgerEntry, actor, reason: str = "") -> list[LedgerEntry]:
    """Reverse ``entry`` and every entry written with it (newest first), restoring what they changed."""
    gang = Gang.objects.select_for_update().get(pk=entry.gang_id)
    entry = with_battle(LedgerEntry.objects.select_for_update()).get(pk=entry.pk)
    if not undoable(entry):
        raise ValidationError("This entry cannot be undone here.")
    token = entry.data.get("record")
    group = (
        LedgerEntry.objects.filter(gang=gang, data__record=token) if token else LedgerEntry.objects.filter(pk=entry.pk)
    )
    group = list(group.select_for_update(of=("self",)).order_by("-pk"))
    if LedgerEntry.objects.filter(reverses__in=group).exists():
        raise ValidationError("This was already undone; see the history.")
    why = reason.strip() or "Undone from the history"
    # The server's injury dice go on one undo entry, so the next roll for the fighter re-uses them once.
    rolled = next((e for e in reversed(group) if e.data.get("server_rolled")), None)
    return [_reverse(gang, one, actor, why, keeps_dice=one is rolled) for one in group]


def _reverse(gang: Gang, entry: LedgerEntry, actor, why: str, *, keeps_dice: bool) -> LedgerEntry:
    data = entry.data or {}
    fighter = Fighter.objects.select_for_update().get(pk=entry.fighter_id) if entry.fighter_id else None
    extra: dict = {}
    if keeps_dice:
        extra = {"undo_of_rolled_injury": True, "rolled_dice": data.get("rolled_dice", [])}
    if entry.kind == Kind.INJURY and data.get("injury"):
        Injury.objects.filter(pk=data["injury"]).delete()  # its characteristic changes and skills go with it
    if entry.kind == Kind.STATUS and "status_before" in data:
        if fighter.status != data["status"]:
            raise ValidationError(
                f"{fighter.name} is now {fighter.get_status_display()}; undo the later status change first."
            )
        Fighter.objects.filter(pk=fighter.pk).update(
            status=data["status_before"], captured_by=data["captured_by_before"]
        )
        lost = gang.edition == Edition.CLASSIC and data["status"] == FighterStatus.DEAD
        _kit_returns(gang, fighter, data.get("equipment", []), lost=lost)
    if "kills" in data:
        if fighter.kills < data["kills"]:
            raise ValidationError(f"{fighter.name} has {fighter.kills} kills; this would take away {data['kills']}.")
        Fighter.objects.filter(pk=fighter.pk).update(kills=fighter.kills - data["kills"])
    if "notes_before" in data:
        Fighter.objects.filter(pk=fighter.pk).update(notes=data["notes_before"])
    if entry.kind == Kind.SALE or data.get("discarded"):
        restored = _restore_item(gang, entry, fighter)
        extra = {"restored_purchase": restored.pk, "sale_dice": entry.dice if entry.kind == Kind.SALE else []}
    return ledger_record(
        gang=gang,
        fighter=fighter,
        kind=entry.kind,
        credits=-entry.credits,
        experience=-entry.experience,
        reputation=-entry.reputation,
        description=f"Undone: {entry.description}",
        reason=why,
        actor=actor,
        reverses=entry,
        data=extra,
    )


def _kit_returns(gang: Gang, fighter: Fighter, items: list[dict], *, lost: bool) -> None:
    """Kit that went to the Stash goes back to the fighter (unless it has been sold or given away since);
    kit lost with a classic death is restored as it was."""
    for item in items:
        Purchase.objects.filter(pk=item["purchase"], gang=gang, fighter__isnull=True).update(fighter=fighter)
        if lost:
            Purchase.objects.create(gang=gang, fighter=fighter, equipment=_equipment(gang, item), price=item["price"])


def _restore_item(gang: Gang, entry: LedgerEntry, fighter: Fighter | None) -> Purchase:
    """The sold or discarded item back where it was (the fighter, or the Stash if the fighter has left)."""
    data = entry.data
    equipment = _equipment(gang, data)
    holder = fighter if fighter is not None and fighter.status in ON_ROSTER else None
    return Purchase.objects.create(gang=gang, fighter=holder, equipment=equipment, price=data["price"])


def _equipment(gang: Gang, item: dict) -> Equipment:
    found = Equipment.objects.filter(edition=gang.edition, slug=item["equipment"]).first()
    if found is None:
        raise ValidationError(f"{item['equipment']!r} is no longer in the content, so it cannot be given back.")
    return found
