"""How each edition turns a battle's fighters into rulebook queries and the answers back into their states.

The rules themselves live in ``rulebook/``; this package only translates. For each action the battle
assistant offers, an edition module (:mod:`.classic`, :mod:`.n18`) has

- a **plan**: the rulebook action to call and its JSON query, built from the fighters' snapshots and
  states and the situation the player described (distance, cover...). The same query goes to
  ``odds`` (shown before rolling) and ``roll``, exactly as ``python -m rulebook`` would take it;
- an **apply** step: the rulebook's answer written onto the fighters and the battle, returning what
  changed in words;
- the **prompts**: what the rules ask for next, computed from the state (Bottle tests, recovery...);
- the **phase** rules: what happens when the turn or round moves on.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from content.models import Edition


@dataclass
class Plan:
    """One action before the dice: the rulebook call and who is involved."""

    kind: str
    rule: str
    query: dict
    summary: str
    fighter: object = None  # BattleFighter acting
    target: object = None  # BattleFighter acted upon
    others: list = field(default_factory=list)  # further fighters (multiple combats)
    side: str | None = None  # the gang a side-wide test is for
    params: dict = field(default_factory=dict)
    warnings: list = field(default_factory=list)  # what the rules say against it; the players decide

    @property
    def rolls(self) -> bool:
        """False for actions without dice (defiling a relic)."""
        return bool(self.rule)


@dataclass(frozen=True)
class Prompt:
    """Something the rules require now: a test to take, with the link's parameters."""

    text: str
    kind: str
    params: dict
    why: str = ""


def friends_test(fighters: list, casualties: list, taken: set, test: str, label: str, can_test, why) -> list[Prompt]:
    """The test each friend of a fresh casualty may have to take (classic Leadership within 2", 2018+ Nerve
    within 3"): ``label`` names it, ``can_test(friend)`` says who could, ``why(casualty)`` the reason."""
    return [
        Prompt(f"{f.name}: {label} of {casualty.name}", "test", {"test": test, "fighter": f.pk}, why(casualty))
        for casualty in casualties
        for f in fighters
        if f.side == casualty.side and f.pk != casualty.pk and can_test(f) and (test, f.pk) not in taken
    ]


def weapon_query(fighter, choice: str) -> tuple[dict, dict]:
    """The weapon and profile chosen as ``"<key>:<profile index>"``: its part of the query, and its entry."""
    key, _, index = choice.partition(":")
    weapon = fighter.weapon(key)
    return weapon["profiles"][int(index or 0)]["query"], weapon


def next_phase(battle) -> bool:
    """Move the battle to its edition's next phase; True when that starts a new turn (classic) or round (2018+)."""
    from battles.models import PHASES

    order = PHASES[battle.edition]
    index = (order.index(battle.phase) + 1) % len(order)
    battle.phase = order[index]
    return index == 0


def edition_rules(edition: str):
    from battles.rules import classic, n18

    return {Edition.CLASSIC: classic, Edition.N18: n18}[edition]
