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
from campaigns.models import Side, other_side
from rulebook.n18 import kit


def prompts(session, fighters: list, last_casualties: list, taken: set) -> list[Prompt]:
    steady = (Condition.ACTIVE, Condition.PINNED)
    out = friends_test(fighters, last_casualties, taken, "nerve", 'Nerve test if within 3"', steady, _is)
    out += _blaze(session, fighters, taken)
    out += _chems(session, fighters, taken)
    if session.phase != Phase.END:
        return out
    for side in Side.values:
        mine = [f for f in fighters if f.side == side]
        hurt = sum(f.is_casualty for f in mine)
        if hurt and not session.bottled(side) and ("bottle", side) not in taken:
            out.append(bottle_prompt(session, side, f"{hurt} Seriously Injured or out"))
    out += _reinforcements(session, taken)
    for f in fighters:
        if f.condition == Condition.SERIOUSLY_INJURED and ("recovery", f.pk) not in taken:
            out.append(test_prompt(f, "Recovery test", "recovery"))
        if f.broken and not f.out_of_action and ("rally", f.pk) not in taken:
            out.append(test_prompt(f, "Rally test", "rally"))
    out += _flee_tests(session, fighters, taken)
    return out


def _blaze(session, fighters: list, taken: set) -> list[Prompt]:
    """Blaze: the D6 for each fighter just hit by a Blaze weapon, and for each fighter ablaze who has not yet
    been activated this round, the burn and the attempt to put the fire out (Blaze trait)."""
    by_pk = {f.pk: f for f in fighters}
    out = [
        Prompt(
            f"{by_pk[pk].name}: does the fire catch? (Blaze, 4+)",
            "test",
            {"test": "blaze", "step": "catch", "fighter": pk},
        )
        for pk in session.facts.get(BLAZE_TO_ROLL, [])
        if pk in by_pk and not by_pk[pk].out_of_action
    ]
    if session.phase == Phase.ACTION:
        out += [
            Prompt(
                f"{f.name} is ablaze: the burn, then put the fire out",
                "test",
                {"test": "blaze", "fighter": f.pk},
                "when activated: a Strength 3, AP -1, Damage 1 hit first",
            )
            for f in fighters
            if f.ablaze and f.ready and not f.out_of_action and ("blaze_activation", f.pk) not in taken
        ]
    return out


def _chems(session, fighters: list, taken: set) -> list[Prompt]:
    """The rolls the chems taken before the battle ask for (``rulebook.n18.kit``): Ghast's D6 and Icrotic Slime's
    checks once, as soon as the battle is under way; before each action of a fighter under Kalma (its Action phase,
    while Ready; listed, the table knows when he acts); in each End phase, Spur's check to wear off and, if the player
    wishes, Obscura's."""
    out = []
    for f in fighters:
        if f.out_of_action:
            continue
        working = f.chems_working()
        rolled = (f.chem_state or {}).get("rolled", [])
        wanted = [(slug, False) for slug in kit.ON_TAKING if slug in working and slug not in rolled]
        if session.phase == Phase.ACTION and "kalma" in working and f.ready:
            wanted.append(("kalma", True))
        if session.phase == Phase.END:
            wanted += [(slug, slug == "obscura") for slug in ("spur", "obscura") if slug in working]
        out += [
            Prompt(
                f"{f.name}: {kit.CHEM_ROLLS[slug]}",
                "test",
                {"test": "chem", "chem": slug, "fighter": f.pk},
                kit.CHEMS[slug].note,
                conditional=conditional,
            )
            for slug, conditional in wanted
            if (f"chem_{slug}", f.pk) not in taken or slug == "kalma"
        ]
    return out


def _flee_tests(session, fighters: list, taken: set) -> list[Prompt]:
    """A gang that has bottled out tests every fighter still in play in each End phase: a Cool test, and one who
    fails flees the battlefield (2023 core rulebook, Fleeing the Battlefield; a fighter near their Leader or
    Champion may pass without rolling, which the players decide)."""
    return [
        Prompt(
            f"{f.name}: Cool test to stay",
            "test",
            {"test": "flee", "fighter": f.pk},
            f"{session.gang(f.side).name} has bottled out",
            conditional=True,
        )
        for f in fighters
        if session.bottled(f.side) and not f.out_of_action and ("flee", f.pk) not in taken
    ]


def _reinforcements(session, taken: set) -> list[Prompt]:
    """Border Dispute: both gangs, every End phase; Search & Destroy: the defender, from round 2."""
    if session.scenario == "border-dispute":
        sides = tuple(Side.values)
    elif session.scenario == "search-and-destroy" and session.round >= 2:
        sides = tuple(s for s in Side.values if session.role(s) == "defender")
    else:
        return []
    return [
        Prompt(f"Reinforcements for {session.gang(side).name}", "reinforce", {"side": side})
        for side in sides
        if ("reinforce", side) not in taken and not session.bottled(side)
    ]


def _is(casualty) -> str:
    return f"{casualty.name} is {casualty.get_condition_display()}"


ACTING = "acting"  # battle fact: the fighter whose activation has begun (a Move) and not yet ended
GROUPS = "groups"  # battle fact: this round's Group Activations, each the fighters' ids, the one who led it first


def group_in_progress(session, fighters: list) -> list:
    """The fighters of this round's latest Group Activation still to activate (Ready, in play): once a group is
    nominated its fighters activate one after another before the other gang's turn (2023 core rulebook, The Action
    Phase: Group Activations)."""
    groups = session.facts.get(GROUPS, [])
    if not groups:
        return []
    members = set(groups[-1])
    return [f for f in fighters if f.pk in members and f.ready and not f.out_of_action]


def activations_made(fighters: list, side: str, groups: list) -> int:
    """The activations a gang has made this round: each fighter activated on his own counts one, a Group Activation
    counts one however many fighters it held."""
    done = {f.pk for f in fighters if f.side == side and not f.ready and not f.out_of_action}
    grouped = [set(group) & done for group in groups]
    return len(done - set().union(*grouped)) + sum(1 for group in grouped if group)


def activation_side(session, fighters: list) -> str | None:
    """Whose activation it is in the Action phase: the gangs alternate, the gang with Priority first, each
    activating one Ready fighter (or one group, a Group Activation) in turn; a gang with no Ready fighter left
    passes and the other activates the rest (2023 core rulebook, The Action Phase). Counted from the fighters
    activated so far this round, so undo and states set by hand keep it right. None outside the Action phase or
    once nobody is Ready."""
    if session.phase != Phase.ACTION:
        return None
    acting = next((f for f in fighters if f.pk == session.facts.get(ACTING) and f.ready), None)
    if acting is not None:
        return acting.side
    group = group_in_progress(session, fighters)
    if group:
        return group[0].side
    in_play = [f for f in fighters if not f.out_of_action]
    ready = {side: any(f.ready for f in in_play if f.side == side) for side in Side.values}
    groups = session.facts.get(GROUPS, [])
    done = {side: activations_made(in_play, side, groups) for side in Side.values}
    first = session.turn_side
    other = other_side(first)
    side = first if done[first] <= done[other] else other
    if not ready[side]:
        side = other if ready[other] else None
    return side


def group_refusal(session, fighters: list, leader, members: list) -> str | None:
    """Why ``leader`` may not make a Group Activation with ``members`` now, or None: a fighter with Group Activation
    (X) (``group_activation`` in his snapshot), Ready and not yet part of a group this round, brings up to X other
    Ready friends (within 3", which the table sees), all nominated before any of them activates; one brought along
    may not lead a group of his own in that activation (2023 core rulebook, The Action Phase: Group Activations)."""
    refusal = leader_refusal(session, fighters, leader)
    if refusal:
        return refusal
    most = leader.profile.get("group_activation", 0)
    grouped = {pk for group in session.facts.get(GROUPS, []) for pk in group}
    if not members:
        return "Choose the friends who activate with him."
    if len(members) > most:
        return f"{leader.name} brings at most {most} other fighter{'s' * (most > 1)} (Group Activation ({most}))."
    for f in members:
        if f.side != leader.side or f.pk == leader.pk or not f.ready or f.out_of_action or f.pk in grouped:
            return f"{f.name} cannot join: only Ready friends who have not activated this round."
    return None


def leader_refusal(session, fighters: list, leader) -> str | None:
    """Why ``leader`` may not begin a Group Activation now, or None (:func:`group_refusal`)."""
    grouped = {pk for group in session.facts.get(GROUPS, []) for pk in group}
    if session.phase != Phase.ACTION:
        return "A Group Activation is made in the Action phase."
    if not leader.profile.get("group_activation", 0):
        return f"{leader.name} has no Group Activation."
    if not leader.ready or leader.out_of_action or leader.pk in grouped:
        return f"{leader.name} has activated this round already."
    acting = session.facts.get(ACTING)
    if acting not in (None, leader.pk) and any(f.pk == acting and f.ready for f in fighters):
        return "Another fighter's activation has begun: finish it first."
    if group_in_progress(session, fighters):
        return "A Group Activation is under way: its fighters activate first."
    return None


def group_leaders(session, fighters: list, side: str | None) -> set:
    """The fighters of ``side`` (whose activation it is) who may begin a Group Activation now: one of those it
    allows, with a Ready friend who has not activated this round to bring."""
    grouped = {pk for group in session.facts.get(GROUPS, []) for pk in group}
    ready = [f for f in fighters if f.side == side and f.ready and not f.out_of_action and f.pk not in grouped]
    return {f.pk for f in ready if len(ready) > 1 and leader_refusal(session, fighters, f) is None}


def advance(session, fighters: list) -> list[str]:
    """The next phase; after the End phase a new round begins and every fighter still in play is Ready."""
    return next_phase(session, fighters, _new_round)


def _new_round(session, fighters: list) -> list[str]:
    session.round += 1
    blind = set(session.facts.get(BLIND_NEXT_ROUND, []))
    for f in fighters:
        # Every fighter still in play is Ready, Seriously Injured ones too (they may crawl or be helped), except one
        # Blinded (Flash) when they had no Ready marker to lose: they gain none this round.
        f.ready = not f.out_of_action and f.pk not in blind
    session.facts = {
        key: value for key, value in session.facts.items() if key not in (ACTING, GROUPS, BLIND_NEXT_ROUND)
    }
    if blind:
        return [f"Round {session.round}: fighters in play are Ready, but the Blind ones"]
    return [f"Round {session.round}: fighters in play are Ready"]
