"""Helpers every gang service shares: row locks, refusals, dice logs, roster checks, override entries.

Locks: a service that reads what decides its change (the roster for a hire, the item for a sale, the
fighter's experience and advances) locks those rows first, so identical requests arriving together
queue up and each sees what the one before it did. Always the gang before its fighters or items, so two
services never wait on each other.
"""

from __future__ import annotations

from django.core.exceptions import ValidationError

from gangs.ledger import ledger_record
from gangs.models import (
    ON_ROSTER,
    Fighter,
    Gang,
    LedgerEntry,
    Purchase,
)
from gangs.models import LedgerKind as Kind
from rulebook.dice import DiceSource, RandomDice
from rulebook.errors import RulesInputError


def lock_gang(gang: Gang) -> Gang:
    """Lock the gang's row for this transaction; the caller's object gets the Stash and Reputation as they stand."""
    fresh = Gang.objects.select_for_update().only("stash", "reputation").get(pk=gang.pk)
    gang.stash, gang.reputation = fresh.stash, fresh.reputation
    return gang


def lock_fighter(fighter: Fighter) -> Fighter:
    """Lock the fighter's gang, then the fighter; the caller's object gets the state as it stands now."""
    lock_gang(fighter.gang)
    fresh = Fighter.objects.select_for_update().get(pk=fighter.pk)
    if fresh.fighter_type_id != fighter.fighter_type_id:  # a Ganger became a Specialist meanwhile
        fighter.fighter_type = fresh.fighter_type
    for name in ("status", "captured_by_id", "experience", "starting_experience"):
        setattr(fighter, name, getattr(fresh, name))
    return fighter


def lock_purchase(purchase: Purchase) -> Purchase:
    """Lock the item's gang, then the item; refuse when another request has sold or discarded it meanwhile."""
    lock_gang(purchase.gang)
    if not Purchase.objects.select_for_update().filter(pk=purchase.pk).exists():
        raise ValidationError(
            f"{purchase.equipment.name} is no longer in {purchase.gang.name}: sold or discarded already."
        )
    purchase.refresh_from_db(fields=["fighter"])
    return purchase


def refuse(error: RulesInputError) -> ValidationError:
    return ValidationError(error.message)


def rolls_since(dice: DiceSource, mark: int) -> list[dict]:
    return [r.as_json() for r in dice.rolls[mark:]]


def require_on_roster(fighter: Fighter, what: str) -> None:
    if fighter.status not in ON_ROSTER:
        raise ValidationError(f"{fighter.name} is {fighter.get_status_display()} and cannot {what}.")


def require_impartial(*, gang: Gang, actor, what: str) -> None:
    """Separation of duties: inside a campaign nobody decides for their own gang what an arbitrator's
    judgement settles (an override, the fighter's record between battles); another arbitrator of the
    campaign does (issue 26: "never on one's own gang"). Outside a campaign the owner keeps their own roster."""
    from gangs.permissions import in_campaign  # permissions reads the models only

    if actor is not None and gang.owner_id == actor.pk and in_campaign(gang):
        raise ValidationError(
            f"{what}: {gang.name} is your own gang and plays in a campaign, so another of its arbitrators decides."
        )


def override_record(
    *, gang: Gang, actor, what: str, reason: str, fighter: Fighter | None = None, by_rule: bool = False
) -> LedgerEntry:
    """An override entry. ``by_rule``: what it lets through is a rule's doing (a free recruit the post-battle
    sequence grants), not an arbitrator's judgement, so the gang's owner may be the one applying it."""
    if not by_rule:
        require_impartial(gang=gang, actor=actor, what="An override")
    return ledger_record(
        gang=gang,
        kind=Kind.OVERRIDE,
        fighter=fighter,
        description=f"Arbitrator override: {what}",
        reason=reason,
        actor=actor,
    )


class ReusedDice(DiceSource):
    """Dice the server rolled before for the same purpose (an undone roll coming back), then fresh
    server dice for anything more: undoing never buys a new roll."""

    def __init__(self, values: list) -> None:
        super().__init__()
        self._values = list(values)
        self._random = RandomDice()

    def _face(self, die, purpose: str):
        if self._values and self._values[0] in die.faces:
            return self._values.pop(0)
        self._values = []
        return self._random._face(die, purpose)
