"""What of the battle page changed between the version a player's page shows and the battle now: the parts an
action's htmx answer swaps (issue 28), so its cost follows what changed, never the actions already played.

Both sides are the page's drawings (``battles.views._drawn``: the rows, the next fighter, the newest log entries),
the one the page shows read back from the cache. A part is sent when what it is drawn from differs; the part is
then drawn by the same include the whole page uses, so a swapped part is what a reload shows. A side whose
cards changed order (a fighter activated moves last, the next fighter moves to the top) or whose heading changed
is sent whole; otherwise only its changed cards. The log sends its new entries, the entries whose undone mark
changed, and deletes those the newest entries push out of its window.
"""

from __future__ import annotations


def page_changes(shown: dict, now: dict) -> dict:
    """The parts to swap: ``next`` (the next fighter's section), ``sides``, ``cards`` (rows), and the log's
    ``log_all`` or ``log_added``, ``log_redrawn``, ``log_gone`` (entry numbers)."""
    sides, cards = [], []
    for was, side in zip(shown["sides"], now["sides"], strict=True):
        if _side_key(was) != _side_key(side):
            sides.append(side)
        else:
            cards += [row for old, row in zip(was["rows"], side["rows"], strict=True) if card_key(old) != card_key(row)]
    return {
        "next": _next_key(shown["next_row"]) != _next_key(now["next_row"]),
        "sides": sides,
        "cards": cards,
        **_log_changes(shown["log"], now["log"]),
    }


def card_key(row: dict) -> tuple:
    """What a fighter's card is drawn from: every field of the fighter and the row's prepared values."""
    fighter = row["fighter"]
    fields = {field.attname: getattr(fighter, field.attname) for field in fighter._meta.concrete_fields}
    return fields, {name: value for name, value in row.items() if name not in ("fighter", "gang")}


def _next_key(row: dict | None) -> tuple | None:
    return None if row is None else (row["gang"].pk, card_key(row))


def _side_key(side: dict) -> tuple:
    return side["key"], side["gang"].pk, side["bottled"], side["fled"], [row["fighter"].pk for row in side["rows"]]


def _log_changes(shown: list, now: list) -> dict:
    if not shown or not now:
        return {"log_all": True}  # the empty log's line comes or goes
    was = {action.number: action.undone for action in shown}
    added = [action for action in now if action.number not in was]
    if any(action.number < max(was) for action in added):
        return {"log_all": True}  # not newer than the page's newest: its place is not at the top
    kept = {action.number for action in now}
    return {
        "log_all": False,
        "log_added": added,
        "log_redrawn": [action for action in now if action.number in was and was[action.number] != action.undone],
        "log_gone": [number for number in was if number not in kept],
    }
