"""Reads of the gangs app: what its pages and forms show and what its services check, each owning its joins and
writing nothing (the writes are :mod:`gangs.services`, which read through these).

- :mod:`gangs.selectors.roster`: the gang page (:class:`RosterPage`), the roster and the fighter cards, the
  fighter page and the gang's history.
- :mod:`gangs.selectors.composition`: the composition rules as the gang stands, and whether it is still founding.
- :mod:`gangs.selectors.equipment`: what the Trading Post sells and whom an item may be handed to.
"""

from gangs.selectors.composition import (
    composition_problems,
    gang_founding,
    hangers_on_over_cap,
    held_additions,
    house_rules,
    house_types,
    roster_types,
)
from gangs.selectors.equipment import (
    move_targets,
    trading_post_allows,
    trading_post_level,
)
from gangs.selectors.roster import (
    FighterPage,
    FighterRow,
    GangRoster,
    RosterFacts,
    RosterPage,
    classic_advances_due,
    fighter_detail,
    fighter_history,
    fighter_page,
    gang_additions,
    gang_history,
    gang_queryset,
    gangs_owned_by,
    hide_unseen_campaigns,
    history_visibility,
    import_flags,
    lazy_roster,
    let_go_notice,
    roster_page,
    stash_items,
    versioned_gangs,
    viewer_sees_campaign,
    with_move_to,
)

__all__ = [
    "composition_problems",
    "gang_founding",
    "hangers_on_over_cap",
    "held_additions",
    "house_rules",
    "house_types",
    "roster_types",
    "move_targets",
    "trading_post_allows",
    "trading_post_level",
    "FighterPage",
    "FighterRow",
    "GangRoster",
    "RosterFacts",
    "RosterPage",
    "classic_advances_due",
    "fighter_detail",
    "fighter_history",
    "fighter_page",
    "gang_additions",
    "gang_history",
    "gang_queryset",
    "gangs_owned_by",
    "hide_unseen_campaigns",
    "history_visibility",
    "import_flags",
    "lazy_roster",
    "let_go_notice",
    "roster_page",
    "stash_items",
    "versioned_gangs",
    "viewer_sees_campaign",
    "with_move_to",
]
