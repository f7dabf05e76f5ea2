"""Gangers' Advancements (2018+): 6 XP buys a roll of 2D6 on the Gangers' own table.

Source (V2): Necromunda Core Rulebook (2023), Gaining Experience, "Gangers", as copied by necrovox
(github.com/yakuzadave/necroman_v2, necrovox_docs/Necromunda_Docs/6-the-rules/18-gaining-experience.md).
In our words: a Ganger (not a Specialist) with 6 XP or more after a battle must roll 2D6 on the table
below, take the result, add its credits to the fighter's Cost and lose 6 XP. A 2 or a 12 makes the
Ganger a Specialist, who gains a random skill from one of their Primary Skill Sets. Rows offering two
characteristics let the player pick one. A roll that can only raise a characteristic past its limit
counts as a 12. Juves, Prospects, Specialists, Champions and Leaders buy Advancements at the costs in
:mod:`rulebook.gang_rules` instead.

The limits applied here are the ones relative to the basic profile (V2, Maximum Characteristics):
Movement, Strength and Toughness at most twice above it, Wounds and Attacks at most once. The
absolute maxima of the Fighter Profiles chapter are not in this package yet; the caller passes any
characteristic at such a maximum in ``blocked``.

Limited Learning Capacity (Slave Ogryns gang list, necrovox copy in yakuzadave/necroman_v2
necrovox_docs/7-gangs/1-gang-lists/slave-ogryns/slave-ogryns.md): such a Ganger is never promoted; a 2 or a 12
becomes any other result the player chooses, which they name beforehand as their first open preference.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from rulebook.dice import DiceSource
from rulebook.errors import RulesInputError
from rulebook.tables import Row, Table

SOURCE = (
    "V2: Necromunda Core Rulebook (2023), Gaining Experience, Gangers' Advancement table "
    "(necrovox copy, yakuzadave/necroman_v2 necrovox_docs/Necromunda_Docs/6-the-rules/18-gaining-experience.md)"
)
GANGER_XP = 6
SPECIALIST = "Specialist"
# Raises above the basic profile a fighter may have, for the characteristics the rules limit (V2).
RAISE_LIMITS = {"M": 2, "S": 2, "T": 2, "W": 1, "A": 1}

GANGER_ADVANCEMENT = Table(
    name="ganger-advancement",
    title="Gangers' Advancement",
    dice="2D6",
    rows=(
        Row(2, 2, SPECIALIST, {"choices": [], "value": 20}),
        Row(3, 4, "Weapon Skill or Ballistic Skill +1", {"choices": ["WS", "BS"], "value": 20}),
        Row(5, 6, "Strength or Toughness +1", {"choices": ["S", "T"], "value": 30}),
        Row(7, 7, 'Movement +1" or Initiative +1', {"choices": ["M", "I"], "value": 10}),
        Row(8, 9, "Willpower or Intelligence +1", {"choices": ["Wil", "Int"], "value": 5}),
        Row(10, 11, "Leadership or Cool +1", {"choices": ["Ld", "Cl"], "value": 10}),
        Row(12, 12, SPECIALIST, {"choices": [], "value": 20}),
    ),
    source=SOURCE,
)


def _checked(prefer: Iterable[str]) -> list[str]:
    on_table = {c for row in GANGER_ADVANCEMENT.rows for c in row.details["choices"]}
    prefer = list(prefer)
    unknown = [c for c in prefer if c not in on_table]
    if unknown:
        raise RulesInputError("prefer", f"{', '.join(unknown)} is not on the Gangers' Advancement table")
    return prefer


def _open(characteristic: str, raised: Mapping[str, int], blocked: frozenset[str]) -> bool:
    limit = RAISE_LIMITS.get(characteristic)
    return characteristic not in blocked and (limit is None or raised.get(characteristic, 0) < limit)


def ganger_advance(
    roll: int,
    *,
    raised: Mapping[str, int] | None = None,
    prefer: Iterable[str] = (),
    blocked: Iterable[str] = (),
    never_promoted: bool = False,
) -> dict:
    """What a Ganger's 2D6 ``roll`` gives.

    ``raised``: how many times each characteristic has already been raised by advancement (for the
    limits); ``prefer``: the characteristics the player would rather have, best first, named before
    the roll so that server dice need no second step (without a preference, the row's first
    characteristic that is still open); ``blocked``: characteristics already at their maximum;
    ``never_promoted``: Limited Learning Capacity, a Specialist result becomes another row's characteristic.
    Returns the table look-up with ``kind`` ("characteristic" or "specialist"), ``characteristic``,
    ``value`` (credits added to the Cost), ``xp`` (spent) and ``counted_as_12`` when the row was closed.
    """
    raised, blocked, prefer = dict(raised or {}), frozenset(blocked), _checked(prefer)
    found = GANGER_ADVANCEMENT.lookup(roll)
    open_choices = [c for c in found["choices"] if _open(c, raised, blocked)]
    counted_as_12 = bool(found["choices"]) and not open_choices
    if counted_as_12:
        found = {**GANGER_ADVANCEMENT.lookup(12), "roll": found["roll"]}
    if found["result"] == SPECIALIST and never_promoted:
        return _instead_of_specialist(found, raised, blocked, prefer)
    if found["result"] == SPECIALIST:
        return {**found, "kind": "specialist", "characteristic": None, "xp": GANGER_XP, "counted_as_12": counted_as_12}
    ranked = sorted(open_choices, key=lambda c: prefer.index(c) if c in prefer else len(prefer))
    return {**found, "kind": "characteristic", "characteristic": ranked[0], "xp": GANGER_XP, "counted_as_12": False}


def _instead_of_specialist(found: dict, raised: Mapping[str, int], blocked: frozenset[str], prefer: list[str]) -> dict:
    """Limited Learning Capacity: the player's first open preference (else the first open characteristic of the
    table) from any other row, at that row's value."""
    options = [(c, row) for row in GANGER_ADVANCEMENT.rows for c in row.details["choices"] if _open(c, raised, blocked)]
    if not options:
        raise RulesInputError("fighter", "this Ganger has no characteristic left to raise on the Gangers' table")
    characteristic, row = sorted(options, key=lambda o: prefer.index(o[0]) if o[0] in prefer else len(prefer))[0]
    return {
        **found,
        "result": f"{row.result} (Limited Learning Capacity, instead of {found['result']})",
        "choices": row.details["choices"],
        "value": row.details["value"],
        "kind": "characteristic",
        "characteristic": characteristic,
        "xp": GANGER_XP,
        "counted_as_12": False,
    }


def roll_ganger_advance(dice: DiceSource, **options) -> dict:
    """Roll 2D6 on the Gangers' Advancement table (see :func:`ganger_advance` for ``options``); a bad
    preference is refused before any die is rolled."""
    _checked(options.get("prefer", ()))
    return ganger_advance(sum(dice.two_d6(GANGER_ADVANCEMENT.title)), **options)
