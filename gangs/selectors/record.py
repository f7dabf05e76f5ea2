"""The fighter's record between battles, as its forms and the history read it: the rows of the edition's injury
table a player may pick, and which history entries an undo may reverse (:mod:`gangs.services.record` and
:mod:`gangs.services.undo` write them)."""

from __future__ import annotations

from content.models import Edition
from gangs.ledger import came_from_battle
from gangs.models import LedgerEntry
from gangs.models import LedgerKind as Kind
from rulebook.classic.campaign.serious_injury import SERIOUS_INJURY_RULES
from rulebook.n18.campaign.lasting_injury import LASTING_INJURY_RULES
from rulebook.roster import InjuryRules

# The injury table of each edition, which the record's services resolve a Lasting (or Serious) Injury by.
INJURY_RULES: dict[str, InjuryRules] = {Edition.CLASSIC: SERIOUS_INJURY_RULES, Edition.N18: LASTING_INJURY_RULES}


def injury_rows(edition: str) -> list[tuple[str, str]]:
    """``(slug, "23 Leg Wound")`` for every row of the edition's injury table, for a form's choices."""
    return [(row.details["slug"], f"{row.label} {row.result}") for row in INJURY_RULES[edition].table.rows]


def undoable(entry: LedgerEntry) -> bool:
    """An entry a reversing entry can undo: one of the owner's record, a sale or a discard, not yet undone.
    A post-battle or other battle's entry (gangs.ledger.came_from_battle) never is."""
    data = entry.data or {}
    if entry.reverses_id or data.get("post_battle") or came_from_battle(entry):
        return False
    return bool(data.get("record")) or (entry.kind == Kind.SALE and "equipment" in data) or data.get("discarded")


def is_record_entry(entry: LedgerEntry) -> bool:
    """The fighter's record (needs the record keeper to undo), as against notes, a sale or a discard (the roster's)."""
    data = entry.data or {}
    return bool(data.get("record")) and "notes_before" not in data
