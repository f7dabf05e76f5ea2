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


def edition_rules(edition: str):
    from battles.rules import classic, n18

    return {Edition.CLASSIC: classic, Edition.N18: n18}[edition]


def fighter_label(fighter) -> str:
    return fighter.name if fighter is not None else "—"
