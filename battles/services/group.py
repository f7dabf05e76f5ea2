"""2018+ Group Activations: a Leader or Champion activates with nearby friends, who each then act in turn before the
other gang's activation (2023 core rulebook, The Action Phase: Group Activations; the rules in
:mod:`battles.rules.n18.phases`)."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction

from battles.models import BattleAction, BattleFighter, BattleSession
from battles.selectors import action_made
from battles.services.state import battle_state, locked, log_action, save_state
from content.models import Edition


@transaction.atomic
def group_activate(
    *, session: BattleSession, leader: BattleFighter, members: list[int], actor, token: str = ""
) -> BattleAction:
    """``leader`` makes a Group Activation with the friends whose ids are ``members``, nominated together before any
    of them acts: the group's fighters come first on the page until each has acted (or tapped Done), then the
    other gang activates. Logged and undoable."""
    from battles.rules.n18 import GROUPS, group_refusal

    session, fighters = locked(session)
    if first := action_made(session, token):
        return first
    if session.edition != Edition.N18:
        raise ValidationError("Group Activations are a rule of the 2018+ game.")
    by_pk = {f.pk: f for f in fighters}
    row = by_pk.get(leader.pk)
    chosen = [by_pk[pk] for pk in dict.fromkeys(members) if pk in by_pk]
    if row is None or len(chosen) != len(set(members)):
        raise ValidationError("Those fighters are not in this battle.")
    refusal = group_refusal(session, fighters, row, chosen)
    if refusal:
        raise ValidationError(refusal)
    before = battle_state(session, fighters)
    session.facts = {**session.facts, GROUPS: [*session.facts.get(GROUPS, []), [row.pk, *(f.pk for f in chosen)]]}
    words = f"{row.name} makes a Group Activation with {', '.join(f.name for f in chosen)}"
    save_state(session, fighters, before)
    return log_action(session, before, actor, kind="group", fighter=row, summary=words, changes=[words], token=token)
