"""What happened in a campaign, told by the service that did it, for whoever listens.

The campaign services call :func:`announce` inside their transaction (a challenge issued, a battle reported or
confirmed, a cycle begun). The notifications app, a floor above, listens (``notifications.apps``) and writes
its outbox rows in that same transaction, so campaigns never imports it.
"""

from __future__ import annotations

from collections.abc import Callable

from django.db import models


class EventKind(models.TextChoices):
    CHALLENGE_ISSUED = "challenge_issued", "Challenge issued"
    BATTLE_REPORTED = "battle_reported", "Battle reported"
    BATTLE_CONFIRMED = "battle_confirmed", "Battle confirmed"
    CYCLE_BEGUN = "cycle_begun", "Cycle begun"
    SEQUENCE_APPLIED = "sequence_applied", "Post-battle sequence applied"
    CAPTIVE_TAKEN = "captive_taken", "Captive taken"


_LISTENERS: list[Callable] = []


def listen(listener: Callable) -> None:
    if listener not in _LISTENERS:
        _LISTENERS.append(listener)


def announce(kind: EventKind, subject) -> None:
    """Tell the listeners of ``subject`` (the battle or cycle the caller just changed), in the caller's
    transaction."""
    for listener in _LISTENERS:
        listener(kind, subject)
