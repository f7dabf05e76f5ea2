"""Every change to a gang: create, hire, buy, sell, move, retire, rename, advance, override.

Each service loads rows, asks ``rulebook.gang_rules`` (or ``rulebook.roster``) what the rules say,
saves the result and writes ledger entries through :func:`gangs.ledger.ledger_record`, which is
the only writer of the Stash, Reputation and experience. What they read to decide (the composition rules, who may
carry what) lives in :mod:`gangs.selectors`. Refusals a player can hit are
``ValidationError`` with a message naming the rule. An arbitrator's override is its own ledger
entry of kind ``override``, written before the change it allows.
"""

from gangs.services.advancement import (
    advancement_record,
    classic_full_tables,
    fighter_advance_classic,
    fighter_advance_n18,
    n18_full_tables,
    skill_tables,
    specialist_primary_tables,
    specialist_type,
)
from gangs.services.equipment import (
    CLASSIC_SALE_SOURCE,
    N18_SALE_SOURCE,
    buyable_equipment,
    price_now,
    purchase_buy,
    purchase_discard,
    purchase_move,
    purchase_sell,
    sale_rule,
    sale_value,
)
from gangs.services.fighters import (
    TYPE_STAT_FIELDS,
    experience_award,
    fighter_copy,
    fighter_hire,
    fighter_let_go,
    fighter_remove,
    fighter_rename,
    fighter_retire,
    fighter_status_set,
    injury_record,
    removal_refund,
    replacement_reason,
    rule_recruit_refusal,
)
from gangs.services.gangs import (
    gang_create,
    gang_override,
    gang_rename,
)

__all__ = [
    "replacement_reason",
    "rule_recruit_refusal",
    "gang_create",
    "gang_rename",
    "gang_override",
    "fighter_hire",
    "fighter_copy",
    "fighter_let_go",
    "fighter_remove",
    "removal_refund",
    "fighter_rename",
    "fighter_status_set",
    "fighter_retire",
    "experience_award",
    "injury_record",
    "TYPE_STAT_FIELDS",
    "price_now",
    "buyable_equipment",
    "purchase_buy",
    "sale_value",
    "sale_rule",
    "purchase_sell",
    "purchase_discard",
    "purchase_move",
    "CLASSIC_SALE_SOURCE",
    "N18_SALE_SOURCE",
    "skill_tables",
    "classic_full_tables",
    "n18_full_tables",
    "fighter_advance_classic",
    "fighter_advance_n18",
    "advancement_record",
    "specialist_primary_tables",
    "specialist_type",
]
