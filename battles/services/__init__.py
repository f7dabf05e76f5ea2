"""Every write of the battle assistant (keyword-only arguments, ``@transaction.atomic``, ``ValidationError`` for
refusals): :mod:`.start` a battle, :mod:`.play` it (actions, states set by hand, the turn, undo) and :mod:`.end`
it into a report. :mod:`.state` holds the battle's state as JSON and the helpers they share. The reads the pages
make through the rulebook (an action's plan, odds, next die; the proposed winner) live in :mod:`battles.selectors`."""

from battles.services.end import battle_end, battle_report, campaign_facts
from battles.services.group import group_activate
from battles.services.play import (
    ADJUSTABLE,
    action_resolve,
    action_undo,
    battle_advance,
    battle_priority_set,
    fighter_adjust,
    fighter_move,
    gang_flee,
)
from battles.services.start import battle_reinforce, battle_start, battle_start_from_campaign, crew_pick
from battles.services.state import battle_state

__all__ = [
    "ADJUSTABLE",
    "action_resolve",
    "action_undo",
    "battle_advance",
    "battle_end",
    "battle_priority_set",
    "battle_reinforce",
    "battle_report",
    "battle_start",
    "battle_start_from_campaign",
    "battle_state",
    "campaign_facts",
    "crew_pick",
    "fighter_adjust",
    "fighter_move",
    "gang_flee",
    "group_activate",
]
