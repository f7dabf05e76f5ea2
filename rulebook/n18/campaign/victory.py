"""Who won, by the scenario's own facts: the result the end of a battle proposes instead of a draw.

Sources: the club campaign guide "Playing Necromunda Games in Cycle 1 & 2" (GUIDE), each scenario's
Victory and Fleeing the Battlefield; the Rescue Mission from the 2018+ rulebook as the necrovox copy
gives it (the guide names it without rules): the attacker wins if every captive was freed and took
flight, the defender if none did; anything else is a draw.

- Any scenario: a gang that voluntarily bottles out and flees loses.
- Smash & Grab: the attacker wins with at least three loot caskets opened, else the defender.
- Border Dispute: a gang with fighters on the battlefield (not Prone and Seriously Injured) whose relic
  was not defiled wins; anything else is a draw (both gangs qualifying is "anything else").
- The Trap: more Victory Points wins, equal is a draw. Points: 3 for an enemy Leader taken Out of
  Action, 2 for a Champion, 1 for any other; D3 more for the gang left when the other has no fighters
  on the battlefield. When that bonus is owed and not yet rolled, a result is proposed only if every
  face of the D3 gives the same one.
- Search & Destroy: more loot points wins, otherwise a draw: 1 for each cache the attacker destroyed,
  2 for each the defender recovered.

A fact the players have not entered (``None``) proposes nothing: the players say who won.
"""

from __future__ import annotations

from dataclasses import dataclass

from rulebook.n18.campaign.scenarios import SCENARIOS

GUIDE = "club campaign guide 'Playing Necromunda Games in Cycle 1 & 2'"
TRAP_POINTS = {"leader": 3, "champion": 2}
TRAP_POINTS_RULE = (
    "3 for each enemy Leader taken Out of Action, 2 for a Champion, 1 for any other, and D3 more for the gang left "
    "when the other has no fighters on the battlefield"
)
RESCUE_SOURCE = "2018+ rulebook, Rescue Mission: Victory (necrovox copy)"


@dataclass(frozen=True)
class SideFacts:
    """One gang's side of the battle's end. ``standing``: fighters on the battlefield at the end, not
    counting Prone and Seriously Injured ones; ``taken_out``: the categories of the enemies it took Out of
    Action; ``caches``: destroyed (attacker) or recovered (defender)."""

    standing: int | None = None
    fled: bool = False
    relic_defiled: bool | None = None
    victory_points: int | None = None
    taken_out: tuple[str, ...] | None = None
    caches: int | None = None


@dataclass(frozen=True)
class Proposal:
    winner: str | None  # "attacker", "defender", or None for a draw
    why: str
    source: str


def _trap_points(side: SideFacts) -> int | None:
    if side.taken_out is None:
        return None
    return sum(TRAP_POINTS.get(category, 1) for category in side.taken_out)


def trap_victory_points(side: SideFacts, enemy: SideFacts) -> tuple[int, int] | None:
    """The fewest and most Victory Points The Trap gives ``side`` by the record: its points for the enemies it took
    Out of Action, and the D3 for the gang left on the battlefield when it is (or may be) owed. None when the record
    does not say whom the side took Out of Action."""
    base = _trap_points(side)
    if base is None:
        return None
    if side.standing is None or enemy.standing is None:
        return base, base + 3  # whether the bonus is owed is not recorded
    if enemy.standing == 0 and side.standing > 0:
        return base + 1, base + 3
    return base, base


def _more(a: int, b: int) -> str | None:
    return "attacker" if a > b else "defender" if b > a else None


def proposed_result(
    scenario: str,
    attacker: SideFacts,
    defender: SideFacts,
    *,
    caskets_opened: int | None = None,
    captives: int = 0,
    captives_freed: int | None = None,
) -> Proposal | None:
    """The result the scenario's facts decide, or None when the facts given do not decide it."""
    source = f"{GUIDE}, {SCENARIOS[scenario].name if scenario in SCENARIOS else scenario}: Victory"
    if attacker.fled != defender.fled:
        winner = "defender" if attacker.fled else "attacker"
        return Proposal(
            winner,
            f"the {'attacker' if attacker.fled else 'defender'} fled the battlefield",
            f"{GUIDE}: Fleeing the Battlefield",
        )
    if scenario == "smash-and-grab" and caskets_opened is not None:
        won = caskets_opened >= 3
        return Proposal("attacker" if won else "defender", f"{caskets_opened} loot caskets opened (3 win)", source)
    if scenario == "border-dispute":
        sides = (attacker, defender)
        if any(s.standing is None or s.relic_defiled is None for s in sides):
            return None
        holds = [s.standing > 0 and not s.relic_defiled for s in sides]
        if holds.count(True) == 1:
            winner = "attacker" if holds[0] else "defender"
            return Proposal(winner, "the only gang with fighters standing and its relic not defiled", source)
        return Proposal(None, "no single gang has fighters standing and its relic intact", source)
    if scenario == "the-trap":
        return _the_trap(attacker, defender, source)
    if scenario == "search-and-destroy" and attacker.caches is not None and defender.caches is not None:
        points = (attacker.caches, 2 * defender.caches)
        return Proposal(_more(*points), f"loot points {points[0]} to {points[1]}", source)
    if scenario == "rescue-mission" and captives and captives_freed is not None:
        if captives_freed >= captives:
            return Proposal("attacker", "every captive was freed and took flight", RESCUE_SOURCE)
        if captives_freed == 0:
            return Proposal("defender", "no captive took flight", RESCUE_SOURCE)
        return Proposal(None, f"{captives_freed} of {captives} captives took flight", RESCUE_SOURCE)
    return None


def _the_trap(attacker: SideFacts, defender: SideFacts, source: str) -> Proposal | None:
    if attacker.victory_points is not None and defender.victory_points is not None:
        points = (attacker.victory_points, defender.victory_points)
        return Proposal(_more(*points), f"Victory Points {points[0]} to {points[1]}", source)
    base = (_trap_points(attacker), _trap_points(defender))
    if None in base:
        return None
    # The D3 bonus for the gang left on the battlefield: decided only if every face agrees.
    left = [None]
    if attacker.standing == 0 and (defender.standing or 0) > 0:
        left = ["defender"]
    elif defender.standing == 0 and (attacker.standing or 0) > 0:
        left = ["attacker"]
    outcomes = set()
    for bonus in (1, 2, 3) if left[0] else (0,):
        a, d = base[0] + (bonus if left[0] == "attacker" else 0), base[1] + (bonus if left[0] == "defender" else 0)
        outcomes.add(_more(a, d))
    if len(outcomes) != 1:
        return None
    bonus_text = f" plus D3 for the {left[0]}, left on the battlefield" if left[0] else ""
    return Proposal(outcomes.pop(), f"Victory Points {base[0]} to {base[1]}{bonus_text}", source)
