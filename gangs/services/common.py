"""Helpers every gang service shares: refusals, dice logs, roster checks, override entries."""

from __future__ import annotations

from django.core.exceptions import ValidationError

from gangs.ledger import ledger_record
from gangs.models import (
    ON_ROSTER,
    Fighter,
    Gang,
    LedgerEntry,
)
from gangs.models import LedgerKind as Kind
from rulebook.dice import DiceSource, RandomDice
from rulebook.errors import RulesInputError


def refuse(error: RulesInputError) -> ValidationError:
    return ValidationError(error.message)


def rolls_since(dice: DiceSource, mark: int) -> list[dict]:
    return [r.as_json() for r in dice.rolls[mark:]]


def require_on_roster(fighter: Fighter, what: str) -> None:
    if fighter.status not in ON_ROSTER:
        raise ValidationError(f"{fighter.name} is {fighter.get_status_display()} and cannot {what}.")


def override_record(*, gang: Gang, actor, what: str, reason: str, fighter: Fighter | None = None) -> LedgerEntry:
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
