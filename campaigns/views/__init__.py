"""Campaign pages. Each view: permission helper, form, service, then render or redirect.

Strangers get a 404 (see :mod:`campaigns.permissions`); players asking for an arbitrator's action,
or acting for another player's gang, get a 403. A refused move (a ``ValidationError`` from a
service) comes back as a message on the page, or as form errors.
"""

from campaigns.views.battles import (
    battle_cancel,
    battle_confirm,
    battle_crew,
    battle_crew_size,
    battle_detail,
    battle_report,
    battle_roles_choose,
    battle_scenario_choose,
    battle_scenario_roll,
)
from campaigns.views.campaigns import (
    arbitrator_add,
    arbitrator_remove,
    campaign_create,
    campaign_detail,
    campaign_edit,
    campaign_finish,
    campaign_join,
    campaign_list,
    campaign_start,
    cycle_advance,
    invite_renew,
    join_decide,
    membership_remove,
    membership_wants_to_play,
    territory_add,
    territory_assign,
)
from campaigns.views.house_rules import house_rules_edit
from campaigns.views.matchmaking import (
    battle_arrange,
    challenge_issue,
    challenge_pass,
    cycle_pair,
)

__all__ = [
    "house_rules_edit",
    "arbitrator_add",
    "arbitrator_remove",
    "battle_arrange",
    "battle_cancel",
    "battle_confirm",
    "battle_crew",
    "battle_crew_size",
    "battle_detail",
    "battle_report",
    "battle_scenario_choose",
    "battle_roles_choose",
    "battle_scenario_roll",
    "campaign_create",
    "campaign_detail",
    "campaign_edit",
    "campaign_finish",
    "campaign_join",
    "campaign_list",
    "campaign_start",
    "challenge_issue",
    "challenge_pass",
    "cycle_advance",
    "invite_renew",
    "join_decide",
    "cycle_pair",
    "membership_remove",
    "membership_wants_to_play",
    "territory_add",
    "territory_assign",
]
