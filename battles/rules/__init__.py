"""How each edition turns a battle's fighters into rulebook queries and the answers back into their states.

The rules themselves live in ``rulebook/``; this package only translates. For each action the battle
assistant offers, an edition package (:mod:`.classic`, :mod:`.n18`; each offers ``KINDS``, ``TESTS``,
``COVER``, ``fresh_state``, ``plan``, ``apply``, ``casualties``, ``prompts`` and ``advance``) has

- a **plan**: the rulebook action to call and its JSON query, built from the fighters' snapshots and
  states and the situation the player described (distance, cover...). The same query goes to
  ``odds`` (shown before rolling) and ``roll``, exactly as ``python -m rulebook`` would take it;
- an **apply** step: the rulebook's answer written onto the fighters and the battle, returning what
  changed in words;
- the **prompts**: what the rules ask for next, computed from the state (Bottle tests, recovery...);
- the **phase** rules: what happens when the turn or round moves on.

The helpers here serve both editions where the logic is the same (prompts, Bottle test outcomes,
casualties, failed weapons).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.core.exceptions import ValidationError

from battles.roster import CLOSE_COMBAT
from content.models import Edition
from rulebook.numbers import whole_number


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
    """Something the rules require now: a test to take, with the link's parameters. A ``conditional`` one
    applies only where the table says so (a friend within 3" of the casualty, a fighter near the Leader): the
    assistant cannot see the table, so it lists it but moving on never waits for it."""

    text: str
    kind: str
    params: dict
    why: str = ""
    conditional: bool = False


def friends_test(
    fighters: list, casualties: list, taken: set, test: str, label: str, steady: tuple, why
) -> list[Prompt]:
    """The test each friend of a fresh casualty may have to take (classic Leadership within 2", 2018+ Nerve
    within 3"): ``label`` names it; a friend in one of the ``steady`` conditions who is not broken already
    takes it; ``why(casualty)`` gives the reason."""
    return [
        Prompt(f"{f.name}: {label} of {casualty.name}", "test", {"test": test, "fighter": f.pk}, why(casualty), True)
        for casualty in casualties
        for f in fighters
        if f.side == casualty.side
        and f.pk != casualty.pk
        and f.condition in steady
        and not f.broken
        and (test, f.pk) not in taken
    ]


def test_prompt(fighter, label: str, test: str) -> Prompt:
    """A test one fighter has to take now (escape pinning, recovery, nerve, rally)."""
    return Prompt(f"{fighter.name}: {label}", "test", {"test": test, "fighter": fighter.pk})


def bottle_prompt(session, side: str, why: str) -> Prompt:
    return Prompt(f"Bottle test for {session.gang(side).name}", "test", {"test": "bottle", "side": side}, why)


def bottle_outcome(session, side: str, bottled: bool, holds: str) -> list[str]:
    """A Bottle test's answer: a gang that bottles out is marked on the battle; ``holds`` words the other case."""
    name = session.gang(side).name
    if bottled:
        session.bottle_out(side)
        return [f"{name} bottles out"]
    return [f"{name} {holds}"]


def counted(count: int, noun: str) -> str:
    """``1 wound``, ``2 wounds``."""
    return f"{count} {noun}{'s' * (count > 1)}"


def casualties(plan: Plan, harmful: tuple) -> list:
    """The fighters of the action whose condition is now one of ``harmful``: their friends must test."""
    involved = [f for f in (plan.fighter, plan.target, *plan.others) if f is not None]
    return [f for f in dict.fromkeys(involved) if f.condition in harmful]


@dataclass(frozen=True)
class Offer:
    """What an action may use of a fighter's weapons: each profile it resolves as ``(weapon entry, profile
    index)``, and each profile meant for it that the rulebook would refuse, with the rulebook's reason."""

    usable: list
    left_out: list  # (weapon entry, profile index, reason)


def offered(fighter, use: str, profile_uses) -> Offer:
    """The fighter's weapon profiles for ``use`` (``"shoots"``, ``"fights"``), sorted out by the edition's
    ``profile_uses(entry, query)``: for each use a profile is meant for, None when the rulebook resolves it,
    else why not. A menu built from this offers only what will resolve, so a combi-weapon's gun and its
    close combat profile each go to their own action."""
    usable, left_out = [], []
    for entry in fighter.profile.get("weapons", []):
        for index, profile in enumerate(entry["profiles"]):
            uses = profile_uses(entry, profile["query"])
            if use not in uses:
                continue
            if uses[use] is None:
                usable.append((entry, index))
            else:
                left_out.append((entry, index, uses[use]))
    return Offer(usable, left_out)


def profile_label(entry: dict, index: int) -> str:
    """``Grav gun``, ``Polearm/autogun (polearm)``: a weapon, and its profile when it has several."""
    name = entry["profiles"][index]["name"]
    return entry["name"] + (f" ({name})" if name else "")


def fighting_weapons(fighter, edition_offered) -> list[tuple[dict, int]]:
    """The weapons the fighter fights with, one profile each (its first the rulebook resolves for a fight: the
    edition's ``offered``), of weapons not failed, close combat weapons before pistols. A weapon is held in one
    hand whatever its profiles, so a plasma pistol and a massive axe fight as the pistol and the axe, never as
    the pistol's two profiles."""
    usable = edition_offered(fighter, "fights").usable
    first = {}
    for entry, index in usable:
        if entry["key"] not in fighter.failed_weapons:
            first.setdefault(entry["key"], (entry, index))
    return sorted(first.values(), key=lambda weapon: weapon[0]["category"] not in CLOSE_COMBAT)


def weapon_fails(fighter, plan: Plan) -> str:
    """Mark the weapon the action used as failed (its Ammo roll or test); its key."""
    key = weapon_key(plan)
    if key not in fighter.failed_weapons:
        fighter.failed_weapons = [*fighter.failed_weapons, key]
    return key


def weapon_key(plan: Plan) -> str:
    return plan.params["weapon"].partition(":")[0]


def weapon_query(fighter, choice: str) -> tuple[dict, dict]:
    """The weapon and profile chosen as ``"<key>:<profile index>"``: its part of the query, and its entry."""
    key, _, index = str(choice).partition(":")
    weapon = fighter.weapon(key)
    profile = whole_number(index or "0")
    if weapon is None or profile is None or not 0 <= profile < len(weapon["profiles"]):
        raise ValidationError(f"{fighter.name} carries no such weapon.")
    return weapon["profiles"][profile]["query"], weapon


def next_phase(session, fighters: list, new_turn) -> list[str]:
    """Move the battle to its edition's next phase, in words; when that starts a new turn (classic) or round
    (2018+), ``new_turn(battle, fighters)`` does what that brings and says so."""
    from battles.models import PHASES

    order = PHASES[session.edition]
    index = (order.index(session.phase) + 1) % len(order)
    session.phase = order[index]
    return new_turn(session, fighters) if index == 0 else [f"{session.get_phase_display()} phase"]


def lock_in_combat(fighter, *opponents) -> None:
    """After a fight its fighters stay engaged, except one taken Out of Action, and a fighter whose every
    opponent in it went Out of Action is free (no longer Engaged)."""
    standing = [o for o in opponents if not o.out_of_action]
    fighter.engaged = not fighter.out_of_action and bool(standing)
    for opponent in standing:
        opponent.engaged = not fighter.out_of_action


def edition_rules(edition: str):
    from battles.rules import classic, n18

    return {Edition.CLASSIC: classic, Edition.N18: n18}[edition]


def range_bands(fighter, choice: str, bands) -> dict:
    """The farthest inches of the chosen weapon's Short and Long range for this fighter (None where it has no
    such band), read by the edition's rulebook function ``bands``, so a range band picked at the table becomes
    the distance the rulebook reads."""
    from rulebook.errors import RulesInputError
    from rulebook.query import Query

    query, _ = weapon_query(fighter, choice)
    try:
        return bands(Query(query), fighter.stats.get("S", 3))
    except RulesInputError:
        return {"short": None, "long": None}
