"""Reads of the gangs app: what its pages and forms show and what its services check, each owning its joins and
writing nothing (the writes are :mod:`gangs.services`, which read through these).

- :mod:`gangs.selectors.page`: the gang page for one viewer (:class:`RosterPage`), the facts of the gang's version
  it reads (:class:`RosterFacts`) and the cache key every read kept per version builds on.
- :mod:`gangs.selectors.roster`: the paper roster: the fighter rows and cards with their stat lines, kit and value,
  the rating, the import flags; what the house may recruit; "My gangs" rated.
- :mod:`gangs.selectors.stash`: what the Stash holds, and where each item may be handed.
- :mod:`gangs.selectors.fighter`: the fighter page (:class:`FighterPage`), kept per version of the gang.
- :mod:`gangs.selectors.history`: the gang's and a fighter's history, with what a viewer may not see hidden.
- :mod:`gangs.selectors.composition`: the composition rules as the gang stands, whether it is still founding (and
  what taking a fighter back refunds), and who joins free by a rule.
- :mod:`gangs.selectors.equipment`: what a fighter or the Stash may buy and at what price, what the Trading Post
  sells and pays for an item, and whom an item may be handed to.
- :mod:`gangs.selectors.advancement`: the skill tables a fighter reaches, those already full, and the Specialist a
  Ganger becomes.
- :mod:`gangs.selectors.record`: the injury table's rows for the record's form, and which history entries an undo
  may reverse.
"""

from gangs.selectors.advancement import (
    classic_full_tables,
    n18_full_tables,
    skill_tables,
    specialist_primary_tables,
    specialist_type,
)
from gangs.selectors.composition import (
    composition_problems,
    gang_founding,
    hangers_on_over_cap,
    held_additions,
    house_rules,
    house_types,
    removal_refund,
    replacement_reason,
    roster_types,
    rule_recruit_refusal,
)
from gangs.selectors.equipment import (
    CLASSIC_SALE_SOURCE,
    N18_SALE_SOURCE,
    ammunition_refusal,
    buyable_equipment,
    carried_weapons,
    free_choices_taken,
    move_targets,
    price_now,
    sale_rule,
    sale_value,
    trading_post_allows,
    trading_post_level,
)
from gangs.selectors.fighter import FighterPage, fighter_page
from gangs.selectors.history import fighter_history, gang_history, hide_unseen_campaigns, history_visibility
from gangs.selectors.page import (
    RosterFacts,
    RosterPage,
    gang_queryset,
    let_go_notice,
    roster_page,
    viewer_sees_campaign,
)
from gangs.selectors.record import INJURY_RULES, injury_rows, is_record_entry, undoable
from gangs.selectors.roster import (
    FighterRow,
    GangRoster,
    classic_advances_due,
    fighter_detail,
    gang_additions,
    gangs_owned_by,
    import_flags,
    lazy_roster,
)
from gangs.selectors.stash import stash_items, with_move_to

__all__ = [
    "classic_full_tables",
    "n18_full_tables",
    "skill_tables",
    "specialist_primary_tables",
    "specialist_type",
    "composition_problems",
    "gang_founding",
    "hangers_on_over_cap",
    "held_additions",
    "house_rules",
    "house_types",
    "removal_refund",
    "replacement_reason",
    "roster_types",
    "rule_recruit_refusal",
    "CLASSIC_SALE_SOURCE",
    "N18_SALE_SOURCE",
    "ammunition_refusal",
    "buyable_equipment",
    "carried_weapons",
    "free_choices_taken",
    "move_targets",
    "price_now",
    "sale_rule",
    "sale_value",
    "trading_post_allows",
    "trading_post_level",
    "INJURY_RULES",
    "injury_rows",
    "is_record_entry",
    "undoable",
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
    "viewer_sees_campaign",
    "with_move_to",
]
