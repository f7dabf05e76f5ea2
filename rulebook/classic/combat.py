"""Hand-to-hand combat in the 1995 rules, after the winner: the hits struck, what they do to each fighter,
multiple combats and breaking from combat.

Sources: 1995 rulebook, Hand-to-Hand Combat ("Hits", "Armour Modifiers", "Multiple Combats", "Follow-Up",
"Fighters Down", "Breaking from Combat"); Leadership ("Combat with Broken Fighters").

Who wins and by how many hits is :mod:`rulebook.classic.combat_score`; wounds, saves and injuries come from
:mod:`rulebook.classic.resolution`. A winner's hits go round his weapons (two weapons alternate) and each meets
the loser as the earlier ones left him; in a one-on-one fight a fighter who goes down is finished off.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from fractions import Fraction

from rulebook.classic import resolution
from rulebook.classic.combat_score import ATTACKER, DEFENDER, STANDOFF, Combatant, HandWeapon, parries, score_odds
from rulebook.classic.resolution import DOWN, FLESH_WOUND, NO_WOUND, OUT_OF_ACTION, SAVED, WOUND_LOST, Hit, Target
from rulebook.output import dist, prob

NOT_HIT = "not_hit"
# A fight's outcome for one fighter, from the best to the worst.
FIGHT_OUTCOMES = (NOT_HIT, NO_WOUND, SAVED, WOUND_LOST, FLESH_WOUND, DOWN, OUT_OF_ACTION)

PARRY_ASSUMPTION = (
    "a fighter with a parry uses it when, after both sides have rolled, his opponent would otherwise "
    "win (a higher score, or a tie won on Initiative); a second parry is used the same way"
)
HATE_ASSUMPTION = (
    "a fighter who hates his foe re-rolls all his Attack dice when he would otherwise not win "
    "(attacker first, before any parry)"
)
BROKEN_NOTE = (
    "a broken fighter who survives the phase breaks from combat even if he wins, "
    "taking one automatic hit as he turns (see the break-off action)"
)
ODD_HIT_ASSUMPTION = "with two weapons the hits alternate, the first listed weapon striking the odd hit"


def struck_with(weapons: tuple[HandWeapon, ...], hits: int) -> list[HandWeapon]:
    """The weapon of each hit: two weapons alternate, the first weapon taking the odd one (Hits)."""
    return [weapons[i % len(weapons)] for i in range(hits)] if weapons else []


def strikes(fighter: Combatant) -> tuple[Hit, ...]:
    """The hit each of his weapons strikes, in the order his hits go round them."""
    return tuple(weapon.hit(fighter.S) for weapon in fighter.weapons)


_RANK = {outcome: i for i, outcome in enumerate(FIGHT_OUTCOMES)}


def worse(a: str, b: str) -> str:
    return a if _RANK[a] >= _RANK[b] else b


_SERIES: dict[tuple, list] = {}


def hits_odds(cycle: tuple[Hit, ...], target: Target, count: int) -> dict[tuple[str, Target], Fraction]:
    """Exact (worst outcome, fighter afterwards) once ``count`` hits have landed one after another.

    The hits go round ``cycle`` (one hit per weapon, see :func:`strikes`). Each meets the fighter
    as the earlier ones left him (:func:`resolution.hit_transitions`): fewer wounds, more flesh
    wounds; a Down fighter hit again rolls injury dice again. The series after 0, 1, 2 ... hits
    is kept, so asking for every count costs no more than asking for the largest.
    """
    if len(_SERIES) > 4096:
        _SERIES.clear()
    series = _SERIES.setdefault((cycle, target), [{(NOT_HIT, target): Fraction(1)}])
    while len(series) <= count:
        hit = cycle[(len(series) - 1) % len(cycle)]
        out: dict[tuple[str, Target], Fraction] = {}
        for (worst, now), p in series[-1].items():
            if worst == OUT_OF_ACTION:
                out[worst, now] = out.get((worst, now), 0) + p
                continue
            for (outcome, after), q in resolution.hit_transitions(hit, now).items():
                key = (worse(worst, outcome), after)
                out[key] = out.get(key, 0) + p * q
        series.append(out)
    return series[count]


def finished(worst: str, one_on_one: bool) -> str:
    """In a one-on-one fight a fighter who goes down is finished off: Out of Action (Fighters Down)."""
    return OUT_OF_ACTION if worst == DOWN and one_on_one else worst


def _blank_outcomes() -> dict[str, Fraction]:
    return {k: Fraction(0) for k in FIGHT_OUTCOMES}


def fight_odds(att: Combatant, dfn: Combatant, *, one_on_one: bool = True) -> dict:
    """Everything a one-on-one bout can lead to: winner, hits per side, each fighter's fate."""
    scores = score_odds(att, dfn)
    win = {ATTACKER: Fraction(0), DEFENDER: Fraction(0), STANDOFF: Fraction(0)}
    hits = {ATTACKER: {0: Fraction(0)}, DEFENDER: {0: Fraction(0)}}
    fate = {ATTACKER: _blank_outcomes(), DEFENDER: _blank_outcomes()}
    for (winner, count), p in scores.items():
        win[winner] += p
        for side in (ATTACKER, DEFENDER):
            struck = count if winner == side else 0
            hits[side][struck] = hits[side].get(struck, 0) + p
        if winner == STANDOFF:
            for side in (ATTACKER, DEFENDER):
                fate[side][NOT_HIT] += p
            continue
        striker, struck_fighter = (att, dfn) if winner == ATTACKER else (dfn, att)
        loser = DEFENDER if winner == ATTACKER else ATTACKER
        fate[winner][NOT_HIT] += p
        for (worst, _), q in hits_odds(strikes(striker), struck_fighter.as_target(), count).items():
            fate[loser][finished(worst, one_on_one)] += p * q
    return {"win": win, "hits": hits, "fate": fate}


def _assumptions(att: Combatant, dfn: Combatant) -> list[str]:
    notes = []
    if parries(att, dfn) or parries(dfn, att):
        notes.append(PARRY_ASSUMPTION)
    elif att.swords and dfn.swords:
        notes.append("both fighters carry swords, so the parries cancel out")
    if att.hates or dfn.hates:
        notes.append(HATE_ASSUMPTION)
    if len(att.weapons) == 2 or len(dfn.weapons) == 2:
        notes.append(ODD_HIT_ASSUMPTION)
    if att.broken or dfn.broken:
        notes.append(BROKEN_NOTE)
    return notes


def _describe(fighter: Combatant, opponent: Combatant) -> dict:
    return {
        "attack_dice": fighter.dice,
        "base_score": fighter.base_score,
        "modifiers": fighter.score_modifiers(),
        "weapons": [w.name for w in fighter.weapons],
        "parries": parries(fighter, opponent),
    }


def _win_json(win: dict) -> dict:
    return {
        **prob("p_attacker_wins", win[ATTACKER]),
        **prob("p_defender_wins", win[DEFENDER]),
        **prob("p_standoff", win[STANDOFF]),
    }


def _per_side(name: str, values: dict) -> dict:
    """``{name: {attacker: {...}, defender: {...}}, name_exact: {...}}`` from per-side distributions."""
    out: dict = {name: {}, f"{name}_exact": {}}
    for side, distribution in values.items():
        shown = dist("d", distribution)
        out[name][side] = shown["d"]
        out[f"{name}_exact"][side] = shown["d_exact"]
    return out


def fight_odds_json(att: Combatant, dfn: Combatant) -> dict:
    result = fight_odds(att, dfn)
    win, hits = result["win"], result["hits"]
    given = {}
    for side in (ATTACKER, DEFENDER):
        if win[side]:
            given[side] = {k: p / win[side] for k, p in hits[side].items() if k}
    return {
        ATTACKER: _describe(att, dfn),
        DEFENDER: _describe(dfn, att),
        **_win_json(win),
        **_per_side("hits", hits),
        **_per_side("hits_if_wins", given),
        **_per_side("outcome", result["fate"]),
        **prob("p_attacker_follow_up", result["fate"][DEFENDER][OUT_OF_ACTION]),
        **prob("p_defender_follow_up", result["fate"][ATTACKER][OUT_OF_ACTION]),
        "assumptions": _assumptions(att, dfn)
        + ["hits: the chance of each number of hits a fighter strikes (0 when he does not win)"],
    }


# --- multiple combats ------------------------------------------------------------------------


def multi_fight_odds(fighter: Combatant, opponents: Iterable[Combatant]) -> dict:
    """An outnumbered fighter against each opponent in turn (Multiple Combats).

    The k-th later opponent rolls k extra Attack dice and adds k to his score. The lone
    fighter fights on while he stands; his flesh wounds lower his WS for the next bout.
    When he goes down all his side is down, so he is out of combat (read as Out of Action).
    An opponent who goes down stays down while a friend fights on.
    """
    opponents = list(opponents)
    # The lone fighter while he stands, as the hits so far left him (flesh wounds counted from 0).
    standing = {fighter.as_target(): Fraction(1)}
    bouts = []
    fighter_out = Fraction(0)
    for k, opponent in enumerate(opponents):
        opponent = replace(opponent, extra_dice=opponent.extra_dice + k, bonus=opponent.bonus + k)
        bout = {ATTACKER: Fraction(0), DEFENDER: Fraction(0), STANDOFF: Fraction(0)}
        opp_fate = _blank_outcomes()
        p_fought = sum(standing.values(), Fraction(0))
        after: dict[Target, Fraction] = {}
        for now, p in standing.items():
            me = replace(fighter, WS=fighter.WS - now.flesh_wounds, wounds_left=now.wounds_left)
            for (winner, count), q in score_odds(opponent, me).items():
                bout[winner] += p * q
                if winner != ATTACKER:
                    after[now] = after.get(now, 0) + p * q
                if winner != DEFENDER:
                    opp_fate[NOT_HIT] += p * q
                if winner == ATTACKER:
                    for (worst, then), r in hits_odds(strikes(opponent), now, count).items():
                        if worst in (DOWN, OUT_OF_ACTION):
                            fighter_out += p * q * r
                        else:
                            after[then] = after.get(then, 0) + p * q * r
                elif winner == DEFENDER:
                    for (worst, _), r in hits_odds(strikes(me), opponent.as_target(), count).items():
                        opp_fate[worst] += p * q * r
        opp_fate[NOT_HIT] += 1 - p_fought  # no bout: the lone fighter was already out
        standing = after
        bouts.append(
            {
                "opponent": k + 1,
                "extra_dice": k,
                "bonus": k,
                **prob("p_fought", p_fought),
                **prob("p_opponent_wins", bout[ATTACKER]),
                **prob("p_fighter_wins", bout[DEFENDER]),
                **prob("p_standoff", bout[STANDOFF]),
                **dist("opponent_outcome", opp_fate),
            }
        )
    return {
        "bouts": bouts,
        **prob("p_fighter_out_of_action", fighter_out),
        **prob("p_fighter_standing", 1 - fighter_out),
        "assumptions": [
            "opponents fight in the order given; the k-th later one rolls k extra dice and adds k",
            "the lone fighter going down leaves all his side down: he counts as Out of Action",
        ],
    }


# --- breaking from combat ----------------------------------------------------------------------


def break_off_odds(opponent: Combatant, fleeing: Combatant) -> dict:
    """The one automatic hit a fighter takes as he breaks from combat (Breaking from Combat).

    It is struck with the opponent's first weapon. The fleeing fighter is no longer in the
    fight, so a Down result stays Down.
    """
    fate = _blank_outcomes()
    for (worst, _), p in hits_odds(strikes(opponent)[:1], fleeing.as_target(), 1).items():
        fate[worst] += p
    return {
        "why": ["a fighter breaking from hand-to-hand takes one automatic hit from his opponent before he runs"],
        **dist("outcome", {k: p for k, p in fate.items() if k != NOT_HIT}),
    }
