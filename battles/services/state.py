"""The battle's state as JSON (what undo puts back), and the helpers every write shares: lock, save, log."""

from __future__ import annotations

import copy

from django.core.exceptions import ValidationError
from django.db.models import Max

from battles.models import SESSION_STATE, STATE_FIELDS, BattleAction, BattleFighter, BattleSession


def battle_state(session: BattleSession, fighters: list[BattleFighter]) -> dict:
    """The whole battle's state as JSON: what undo puts back."""
    fields = STATE_FIELDS[session.edition]
    return {
        "battle": {name: copy.deepcopy(getattr(session, name)) for name in SESSION_STATE},
        "fighters": {str(f.pk): {name: copy.deepcopy(getattr(f, name)) for name in fields} for f in fighters},
    }


def save_state(session: BattleSession, fighters: list[BattleFighter], before: dict) -> None:
    write_changed(session, fighters, before["fighters"])
    session.version += 1
    session.save(update_fields=[*SESSION_STATE, "version", "updated_at"])


def write_changed(session: BattleSession, fighters: list[BattleFighter], was: dict) -> None:
    """Write only the state fields that differ from ``was`` (:func:`battle_state`'s fighters), only for the
    fighters whose state moved: an action that wounds one fighter writes one short UPDATE, not twelve columns
    of every fighter in play. Fighters whose changes name the same fields share one ``bulk_update``."""
    fields = STATE_FIELDS[session.edition]
    groups: dict[tuple[str, ...], list[BattleFighter]] = {}
    for fighter in fighters:
        old = was.get(str(fighter.pk))
        moved = tuple(name for name in fields if old is None or getattr(fighter, name) != old.get(name))
        if moved:
            groups.setdefault(moved, []).append(fighter)
    for moved, group in groups.items():
        BattleFighter.objects.bulk_update(group, list(moved))


def locked(session: BattleSession) -> tuple[BattleSession, list[BattleFighter]]:
    session = (
        BattleSession.objects.select_for_update(of=("self",)).select_related("gang_a", "gang_b").get(pk=session.pk)
    )
    if session.is_over:
        raise ValidationError("This battle has ended.")
    return session, list(session.fighters.all())


def log_action(session: BattleSession, before: dict, actor, **fields) -> BattleAction:
    number = (session.actions.aggregate(n=Max("number"))["n"] or 0) + 1
    state = before["battle"]
    return BattleAction.objects.create(
        session=session,
        number=number,
        actor=actor,
        round=state["round"],
        turn_side=state["turn_side"],
        phase=state["phase"],
        state_before=before,
        **fields,
    )
