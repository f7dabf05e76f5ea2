"""The Trade post-battle action (2018+): a fighter visits the Trading Post and rolls for the Availability Level,
which decides the Rare and Illegal items the gang may buy.

Sources: the Necromunda Core Rulebook (2023) as the necrovox copy in yakuzadave/necroman_v2 gives it: the
Armoury's Availability Levels (C Common, R9 Rare (9), I6 Illegal (6); ``necrovox_docs_flat/12-armoury``), and
Exotic Furs (+1 to the dice roll that determines the Availability Level when its wearer makes a Trade action;
``12-armoury/19-status-items.md``). The roll itself is 2D6 (the Trading Post's rarity roll of the 2018+ rules).

Decisions where the sources are silent (docs/campaigns.md, "Trade"): each fighter who takes the Trade action
rolls, and the gang may buy any item whose level is at most the best roll; the level stands until the gang's
next battle is confirmed; Illegal items are bought by availability like Rare ones, by any gang (the Outlaw rules
of the Law and Misrule campaign are not part of the club's Dominion-style campaign).
"""

from __future__ import annotations

import re

from rulebook.dice import DiceSource
from rulebook.errors import RulesInputError

SOURCE = "Necromunda Core Rulebook (2023): Trading Post Availability Levels, Exotic Furs (necrovox copy)"
_LEVEL = re.compile(r"^\s*(?:(R|I)\s*(\d+)|(rare|illegal)\s*\(\s*(\d+)\s*\))\s*$", re.IGNORECASE)


def availability(rarity: str) -> tuple[str, int]:
    """``("common", 0)``, ``("rare", 9)`` or ``("illegal", 6)`` from an Availability Level as the content writes it
    (``Common``, ``R9``, ``I6``, ``Rare (9)``); an empty or unknown one is refused."""
    text = (rarity or "").strip()
    if text.lower() in ("c", "common"):
        return "common", 0
    found = _LEVEL.match(text)
    if not found:
        raise RulesInputError("rarity", f"{rarity!r} is not an Availability Level (Common, R9, I6)")
    letter, number = (found.group(1) or found.group(3)[0]).upper(), int(found.group(2) or found.group(4))
    return ("rare" if letter == "R" else "illegal"), number


def may_buy(rarity: str, level: int | None) -> bool:
    """Whether an item of Availability Level ``rarity`` is for sale with the Trading Post at ``level`` (None: no
    Trade action rolled; only Common items)."""
    try:
        kind, number = availability(rarity)
    except RulesInputError:
        return False
    return kind == "common" or (level is not None and number <= level)


# The Trading Post item (its slug in trading_post.json) whose wearer adds 1 to the Trade roll.
EXOTIC_FURS = "exotic-furs"


def trade_roll(dice: DiceSource, *, exotic_furs: bool = False, who: str = "", kit=()) -> dict:
    """A fighter's Trade action: 2D6 (+1 with Exotic Furs, worn or among the ``kit`` slugs they carry) is the
    Availability Level the gang buys at."""
    exotic_furs = exotic_furs or EXOTIC_FURS in kit
    first, second = dice.two_d6(f"Trade: Availability Level{f' ({who})' if who else ''}")
    level = first + second + (1 if exotic_furs else 0)
    return {"level": level, "roll": [first, second], "exotic_furs": exotic_furs, "source": SOURCE}
