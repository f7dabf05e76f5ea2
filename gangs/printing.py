"""What the print page lays out: the roster sheet, fighter cards nine to a sheet, and blank cards.

Cards are 63 x 88 mm (the size of a playing card, so sleeves fit), three by three on A4 and on Letter with
6 mm top and bottom margins (264 mm of cards on 285 mm of A4 and 267 mm of Letter). A card has a fixed size,
so a fighter with much to say is set in a smaller type (``density``), estimated here in lines of the card's
type; the browser test checks that nothing is cut off. The roster sheet packs fighters in blocks that never
split across pages, and the last keeps to the page of the one before it (print.css), so no page holds a lone
fighter.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.functional import SimpleLazyObject

from content.printed import Term
from gangs.models import STATS_BY_EDITION
from gangs.selectors import FighterRow, RosterPage

CARDS_PER_SHEET = 9
BLANK_WEAPON_ROWS = 4
# Lines of a 63 x 88 mm card: 6.5 pt type fits about 30, 5.8 pt about 34, 5.2 pt about 38.
CARD_LINES = ((30, ""), (34, "dense"), (38, "denser"))


@dataclass(frozen=True)
class Card:
    """One card slot of a sheet: a fighter, or ``None`` for a blank card to fill in by hand."""

    row: FighterRow | None
    density: str = ""


def weapon_lines(row: FighterRow) -> float:
    """Lines of the profile table: headings, then per weapon its name and per profile its numbers and its name or
    rules (a table row, with its borders, is about a line and a quarter)."""
    rows = 2 + sum(1 + sum(1 + bool(p.name or p.rules) for p in item.profiles) for item in row.weapons)
    return rows * 1.25


def card_lines(row: FighterRow) -> float:
    """How many lines of card type the fighter needs (a skill's summary takes about two more)."""
    lines = 2.5 + 2.5 + weapon_lines(row)  # name and type; the stat line's two rows
    lines += 2 + bool(row.rules) * 2  # wargear and injuries; the fighter's rules take two lines
    lines += 1 + sum(2 if skill.summary else 0.5 for skill in row.skills)
    lines += sum(1 + 2.5 + 1 + bool(beast.rules) for beast in row.beasts)  # name, stat line, weapons, rules
    return lines + 4  # the XP boxes and at least two lines of notes


def card_density(row: FighterRow) -> str:
    lines = card_lines(row)
    for capacity, density in CARD_LINES:
        if lines <= capacity:
            return density
    return CARD_LINES[-1][1]


def card_sheets(rows: list[FighterRow]) -> list[list[Card]]:
    cards = [Card(row, card_density(row)) for row in rows]
    return [cards[i : i + CARDS_PER_SHEET] for i in range(0, len(cards), CARDS_PER_SHEET)]


def blank_sheet() -> list[Card]:
    return [Card(None) for _ in range(CARDS_PER_SHEET)]


def blank_stats(edition: str) -> list[str]:
    return list(STATS_BY_EDITION[edition])


def rules_reference(rows: list[FighterRow]) -> list[Term]:
    """Every rule on the gang's cards once (skills carry theirs on the card), alphabetical, for the reference."""
    seen: dict[str, Term] = {}
    for row in rows:
        for term in row.rules_explained:
            seen.setdefault(term.name, term)
    return sorted(seen.values(), key=lambda term: term.name.casefold())


def sheet_parts(page: RosterPage, roster, kind: str, sees_campaign: bool) -> dict:
    """What the print page draws besides the roster, for ``kind`` "roster", "cards" or "blank", each part
    computed on first use, so a sheet served from the cache costs none of it. The territories held are drawn
    only for a viewer who may see the gang's campaign (``sees_campaign``)."""
    parts = {"blank_stats": blank_stats(page.gang.edition), "blank_weapons": range(BLANK_WEAPON_ROWS)}
    if kind == "roster":
        parts["territories"] = list(page.facts.territories) if sees_campaign else []
    elif kind == "cards":
        parts["sheets"] = SimpleLazyObject(lambda: card_sheets(roster.card_rows))
        parts["explained"] = SimpleLazyObject(lambda: rules_reference(roster.card_rows))
    else:
        parts["sheets"] = [blank_sheet()]
    return parts
