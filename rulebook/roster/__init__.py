"""Fighters between battles: a frozen snapshot of a roster entry, and injury tables that change it.

Both editions end a battle the same way: a fighter who went Out of Action rolls on a D66 table
(the 1995 Serious Injuries chart, the 2018+ Lasting Injury table) whose rows change him. This package
holds what the two tables share, and what the campaign rules of both editions use between battles:

- :mod:`.snapshot`: :class:`FighterSnapshot`, the roster entry the web app hands in, :class:`Change`,
  one line of what a rule changed and why, and :class:`InjuryOutcome`;
- :mod:`.injuries`: :class:`InjuryRules`, which applies a table's rows given as data, and the row and
  effect builders the editions write their tables with;
- :mod:`.amounts`: :func:`roll_amount` and its odds for the rewards written as dice ("D6x10", "3D6x10",
  "D3"), and :func:`pick_index` for random picks with D6s.

Nothing here decides a rule of its own: the rows, their sources and the way a characteristic gets
worse (a lower number, or a higher target number in the 2018+ rules) come from the edition.
"""

from __future__ import annotations

from rulebook.roster.amounts import amount_dice, amount_distribution, pick_index, roll_amount
from rulebook.roster.injuries import InjuryRules, injury_row, note_effect, status_effect, worsen_effects
from rulebook.roster.snapshot import ACTIVE, Change, FighterSnapshot, InjuryOutcome

__all__ = [
    "ACTIVE",
    "Change",
    "FighterSnapshot",
    "InjuryOutcome",
    "InjuryRules",
    "amount_dice",
    "amount_distribution",
    "injury_row",
    "note_effect",
    "pick_index",
    "roll_amount",
    "status_effect",
    "worsen_effects",
]
