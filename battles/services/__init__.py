"""Every write of the battle assistant (keyword-only arguments, ``@transaction.atomic``, ``ValidationError`` for
refusals): :mod:`.start` a battle, :mod:`.play` it (actions, states set by hand, the turn, undo) and :mod:`.end`
it into a report. :mod:`.state` holds the battle's state as JSON and the helpers they share."""

from battles.services.end import battle_end, battle_report, campaign_facts, proposed_winner
from battles.services.group import group_activate
from battles.services.play import (
    ADJUSTABLE,
    action_next_die,
    action_odds,
    action_plan,
    action_resolve,
    action_undo,
    battle_advance,
    battle_priority_set,
    charge_reach_odds,
    fighter_adjust,
    fighter_move,
    gang_flee,
)
from battles.services.start import battle_reinforce, battle_start, battle_start_from_campaign, crew_pick
from battles.services.state import battle_state
from battles.services.state import repeated as action_made

__all__ = [
    "ADJUSTABLE",
    "action_made",
    "action_next_die",
    "action_odds",
    "charge_reach_odds",
    "action_plan",
    "action_resolve",
    "action_undo",
    "battle_advance",
    "battle_end",
    "proposed_winner",
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
