"""Every change to a gang: create, hire, buy, sell, move, retire, rename, advance, override.

Each service loads rows, asks ``rulebook.gang_rules`` (or ``rulebook.roster``) what the rules say,
saves the result and writes ledger entries through :func:`gangs.ledger.ledger_record`, which is
the only writer of the Stash, Reputation and experience. What they read to decide (the composition rules, who may
carry what and at what price, the skill tables) lives in :mod:`gangs.selectors`, as do the reads the pages share
with them. Refusals a player can hit are
``ValidationError`` with a message naming the rule. An arbitrator's override is its own ledger
entry of kind ``override``, written before the change it allows.
"""

from gangs.services.advancement import (
    advancement_record,
    fighter_advance_classic,
    fighter_advance_n18,
)
from gangs.services.equipment import (
    chem_dose_use,
    purchase_buy,
    purchase_discard,
    purchase_move,
    purchase_sell,
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
)
from gangs.services.gangs import (
    gang_create,
    gang_override,
    gang_rename,
)

__all__ = [
    "gang_create",
    "gang_rename",
    "gang_override",
    "fighter_hire",
    "fighter_copy",
    "fighter_let_go",
    "fighter_remove",
    "fighter_rename",
    "fighter_status_set",
    "fighter_retire",
    "experience_award",
    "injury_record",
    "TYPE_STAT_FIELDS",
    "purchase_buy",
    "purchase_sell",
    "purchase_discard",
    "purchase_move",
    "chem_dose_use",
    "fighter_advance_classic",
    "fighter_advance_n18",
    "advancement_record",
]
