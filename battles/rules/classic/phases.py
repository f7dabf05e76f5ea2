"""The 1995 rules' turn: what the rules ask for now, and moving from phase to phase.

Leadership ("The Bottle Test" at the start of the turn once a quarter of the gang is down or out of
action; "When to Test": friends within 2" of a fighter who goes down or out of action), Shooting
("Escape from Pinning" at the start of the turn for a fighter pinned when it began, who otherwise stands up at
its end, "Down": the recovery roll in the recovery phase) and
"Recovering Your Nerve" for broken fighters; overwatch lasts until the fighter's next turn.
"""

from __future__ import annotations

from battles.models import Condition, Phase
from battles.rules import Prompt, bottle_prompt, friends_test, next_phase, test_prompt
from campaigns.models import Side, other_side


def prompts(session, fighters: list, last_casualties: list, taken: set) -> list[Prompt]:
    """What the rules require now. ``taken``: (test, fighter id or side) already taken this phase."""
    side, out = session.turn_side, []
    mine = [f for f in fighters if f.side == side]
    if session.phase == Phase.MOVEMENT:
        down = sum(f.is_casualty for f in mine)
        if not session.bottled(side) and mine and 4 * down >= len(mine) and ("bottle", side) not in taken:
            out.append(bottle_prompt(session, side, f"{down} of {len(mine)} down or out of action"))
        pinned_at_start = session.facts.get(PINNED_AT_START, [])
        for f in mine:
            if f.condition == Condition.PINNED and f.pk in pinned_at_start and ("escape_pinning", f.pk) not in taken:
                # Only a fighter pinned when his turn began may try, and only with a friend within 2".
                out.append(
                    Prompt(
                        f"{f.name}: escape pinning",
                        "test",
                        {"test": "escape_pinning", "fighter": f.pk},
                        'if a friend is within 2"',
                        conditional=True,
                    )
                )
    if session.phase == Phase.RECOVERY:
        for f in mine:
            if f.condition == Condition.DOWN and ("recovery", f.pk) not in taken:
                out.append(test_prompt(f, "recovery roll", "recovery"))
            if f.broken and not f.out_of_action and ("nerve", f.pk) not in taken:
                out.append(test_prompt(f, "recover nerve", "nerve"))
    steady = (Condition.STANDING, Condition.PINNED)
    return out + friends_test(
        fighters, last_casualties, taken, "leadership", 'Leadership test if within 2"', steady, _went
    )


def _went(casualty) -> str:
    return f"{casualty.name} went {'down' if casualty.condition == Condition.DOWN else 'out of action'}"


def activation_side(session, fighters: list) -> str:
    """Whose fighters act now: the player whose turn it is, through its four phases."""
    return session.turn_side


def advance(session, fighters: list) -> list[str]:
    """The next phase; after the recovery phase the other player's turn begins."""
    return next_phase(session, fighters, _new_turn)


PINNED_AT_START = "pinned_at_turn_start"  # battle fact: the fighters of the side in its turn pinned when it began


def _new_turn(session, fighters: list) -> list[str]:
    """The other player's turn. A fighter pinned when his own turn began misses it and stands up at its end
    (Pinned Fighters); those pinned now, as the new turn begins, are the ones who may try to escape pinning."""
    ending = session.turn_side
    recovered = [
        f
        for f in fighters
        if f.side == ending and f.condition == Condition.PINNED and f.pk in session.facts.get(PINNED_AT_START, [])
    ]
    for f in recovered:
        f.condition = Condition.STANDING
    session.turn_side = other_side(session.turn_side)
    if session.turn_side == Side.ATTACKER:
        session.round += 1
    starting = [f.pk for f in fighters if f.side == session.turn_side and f.condition == Condition.PINNED]
    session.facts = {**session.facts, PINNED_AT_START: starting}
    changes = [f"{f.name} is no longer pinned" for f in recovered]
    changes.append(f"Turn {session.round}: {session.gang(session.turn_side).name}'s turn")
    for f in fighters:
        # Overwatch lasts until the start of the fighter's next turn.
        if f.side == session.turn_side and f.overwatch:
            f.overwatch = False
            changes.append(f"{f.name} is no longer on overwatch")
    return changes
