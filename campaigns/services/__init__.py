"""Every change to a campaign: membership, cycles, matchmaking, territories, scenario rolls, crews
and battle reports.

Rules come from ``rulebook`` (the campaign guide's scenario table, crews, matchmaking; the classic
scenario table) through :mod:`campaigns.rules`; these services turn rows into its inputs, call it
and store what it decided with its dice. Permissions are the views' job; a refusal a user can hit
here is a ``ValidationError``. Import from this package: ``from campaigns.services import
battle_report_submit``.
"""

from campaigns.services._common import campaign_log_record, require_impartial_battle, standing_snapshot_take
from campaigns.services.battles import (
    battle_crew_select,
    battle_crew_size_roll,
    battle_report_confirm,
    battle_report_submit,
    battle_roles_choose,
    battle_scenario_choose,
    battle_scenario_roll,
    report_check,
    report_rows,
)
from campaigns.services.campaigns import (
    arbitrator_add,
    arbitrator_remove,
    campaign_create,
    campaign_finish,
    campaign_join,
    campaign_start,
    campaign_update,
    cycle_advance,
    gang_remove,
    invite_renew,
    wants_to_play_set,
)
from campaigns.services.joining import (
    gang_found_for,
    join_accept,
    join_refuse,
    join_request,
)
from campaigns.services.matchmaking import battle_arrange, battle_cancel, challenge_issue, challenge_pass, cycle_pair
from campaigns.services.territories import territory_add, territory_assign

__all__ = [
    "arbitrator_add",
    "arbitrator_remove",
    "battle_arrange",
    "battle_cancel",
    "battle_crew_select",
    "battle_crew_size_roll",
    "battle_report_confirm",
    "battle_report_submit",
    "battle_roles_choose",
    "battle_scenario_choose",
    "battle_scenario_roll",
    "campaign_create",
    "campaign_log_record",
    "campaign_finish",
    "campaign_join",
    "invite_renew",
    "join_accept",
    "join_refuse",
    "join_request",
    "gang_found_for",
    "campaign_start",
    "campaign_update",
    "challenge_issue",
    "challenge_pass",
    "cycle_advance",
    "cycle_pair",
    "gang_remove",
    "report_check",
    "report_rows",
    "require_impartial_battle",
    "standing_snapshot_take",
    "territory_add",
    "territory_assign",
    "wants_to_play_set",
]
