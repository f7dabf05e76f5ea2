"""The 2018+ rules' round: what the rules ask for now, and moving from phase to phase.

Nerve tests for friends within 3" of a fighter who is Seriously Injured or taken Out of Action; in the
End phase the Bottle test, Recovery tests for Seriously Injured fighters, Rally tests for Broken ones and,
for a gang that has bottled out, every fighter's Cool test to stay, each End phase,
and the campaign guide's reinforcements (Border Dispute: both gangs; Search & Destroy: the defender from
round 2). A new round makes every fighter still in play Ready.
"""

from __future__ import annotations

from battles.models import Condition, Phase
from battles.rules import Prompt, bottle_prompt, friends_test, next_phase, test_prompt
from battles.rules.n18.effects import BLAZE_TO_ROLL, BLIND_NEXT_ROUND


def prompts(battle, fighters: list, last_casualties: list, taken: set) -> list[Prompt]:
    steady = (Condition.ACTIVE, Condition.PINNED)
    out = friends_test(fighters, last_casualties, taken, "nerve", 'Nerve test if within 3"', steady, _is)
    out += _blaze(battle, fighters, taken)
    if battle.phase != Phase.END:
        return out
    for side in ("a", "b"):
        mine = [f for f in fighters if f.side == side]
        hurt = sum(f.is_casualty for f in mine)
        if hurt and not battle.bottled(side) and ("bottle", side) not in taken:
            out.append(bottle_prompt(battle, side, f"{hurt} Seriously Injured or out"))
    out += _reinforcements(battle, taken)
    for f in fighters:
        if f.condition == Condition.SERIOUSLY_INJURED and ("recovery", f.pk) not in taken:
            out.append(test_prompt(f, "Recovery test", "recovery"))
        if f.broken and not f.out_of_action and ("rally", f.pk) not in taken:
            out.append(test_prompt(f, "Rally test", "rally"))
    out += _flee_tests(battle, fighters, taken)
    return out


def _blaze(battle, fighters: list, taken: set) -> list[Prompt]:
    """Blaze: the D6 for each fighter just hit by a Blaze weapon, and for each fighter ablaze who has not yet
    been activated this round, the burn and the attempt to put the fire out (Blaze trait)."""
    by_pk = {f.pk: f for f in fighters}
    out = [
        Prompt(
            f"{by_pk[pk].name}: does the fire catch? (Blaze, 4+)",
            "test",
            {"test": "blaze", "step": "catch", "fighter": pk},
        )  # fmt: skip
        for pk in battle.facts.get(BLAZE_TO_ROLL, [])
        if pk in by_pk and not by_pk[pk].out_of_action
    ]
    if battle.phase == Phase.ACTION:
        out += [
            Prompt(
                f"{f.name} is ablaze: the burn, then put the fire out",
                "test",
                {"test": "blaze", "fighter": f.pk},
                "when activated: a Strength 3, AP -1, Damage 1 hit first",
            )  # fmt: skip
            for f in fighters
            if f.ablaze and f.ready and not f.out_of_action and ("blaze_activation", f.pk) not in taken
        ]
    return out


def _flee_tests(battle, fighters: list, taken: set) -> list[Prompt]:
    """A gang that has bottled out tests every fighter still in play in each End phase: a Cool test, and one who
    fails flees the battlefield (2023 core rulebook, Fleeing the Battlefield; a fighter near their Leader or
    Champion may pass without rolling, which the players decide)."""
    return [
        Prompt(
            f"{f.name}: Cool test to stay",
            "test",
            {"test": "flee", "fighter": f.pk},
            f"{battle.gang(f.side).name} has bottled out",
            conditional=True,
        )  # fmt: skip
        for f in fighters
        if battle.bottled(f.side) and not f.out_of_action and ("flee", f.pk) not in taken
    ]


def _reinforcements(battle, taken: set) -> list[Prompt]:
    """Border Dispute: both gangs, every End phase; Search & Destroy: the defender, from round 2."""
    if battle.scenario == "border-dispute":
        sides = ("a", "b")
    elif battle.scenario == "search-and-destroy" and battle.round >= 2:
        sides = tuple(s for s in ("a", "b") if battle.role(s) == "defender")
    else:
        return []
    return [
        Prompt(f"Reinforcements for {battle.gang(side).name}", "reinforce", {"side": side})
        for side in sides
        if ("reinforce", side) not in taken and not battle.bottled(side)
    ]


def _is(casualty) -> str:
    return f"{casualty.name} is {casualty.get_condition_display()}"


ACTING = "acting"  # battle fact: the fighter whose activation has begun (a Move) and not yet ended


def activation_side(battle, fighters: list) -> str | None:
    """Whose activation it is in the Action phase: the gangs alternate, the gang with Priority first, each
    activating one Ready fighter in turn; a gang with no Ready fighter left passes and the other activates the
    rest (2023 core rulebook, The Action Phase). Counted from the fighters activated so far this round, so undo
    and states set by hand keep it right. None outside the Action phase or once nobody is Ready."""
    if battle.phase != Phase.ACTION:
        return None
    acting = next((f for f in fighters if f.pk == battle.facts.get(ACTING) and f.ready), None)
    if acting is not None:
        return acting.side
    in_play = [f for f in fighters if not f.out_of_action]
    ready = {side: any(f.ready for f in in_play if f.side == side) for side in ("a", "b")}
    done = {side: sum(not f.ready for f in in_play if f.side == side) for side in ("a", "b")}
    first = battle.turn_side
    other = "b" if first == "a" else "a"
    side = first if done[first] <= done[other] else other
    if not ready[side]:
        side = other if ready[other] else None
    return side


def advance(battle, fighters: list) -> list[str]:
    """The next phase; after the End phase a new round begins and every fighter still in play is Ready."""
    return next_phase(battle, fighters, _new_round)


def _new_round(battle, fighters: list) -> list[str]:
    battle.round += 1
    blind = set(battle.facts.get(BLIND_NEXT_ROUND, []))
    for f in fighters:
        # Every fighter still in play is Ready, Seriously Injured ones too (they may crawl or be helped), except one
        # Blinded (Flash) when they had no Ready marker to lose: they gain none this round.
        f.ready = not f.out_of_action and f.pk not in blind
    if blind:
        battle.facts = {k: v for k, v in battle.facts.items() if k != BLIND_NEXT_ROUND}
        return [f"Round {battle.round}: fighters in play are Ready, but the Blind ones"]
    return [f"Round {battle.round}: fighters in play are Ready"]
