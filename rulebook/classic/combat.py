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
from math import gcd, lcm

from rulebook.classic import resolution
from rulebook.classic.combat_score import ATTACKER, DEFENDER, STANDOFF, Combatant, HandWeapon, parries, score_counts
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


def _summed(parts: Iterable[tuple[int, dict]]) -> tuple[int, dict]:
    """Whole-number weights over different denominators, added up over their least common multiple. The
    denominators are powers of 2 and 3 from the dice, so the sums stay exact without a Fraction per term."""
    parts = list(parts)
    den = lcm(*(d for d, _ in parts))
    out: dict = {}
    for d, weights in parts:
        up = den // d
        for key, w in weights.items():
            out[key] = out.get(key, 0) + w * up
    return den, out


def struck(
    cycle: tuple[Hit, ...], start: dict[Target, int], counts: dict[int, int], *, keep_flesh_wounds: bool = False
) -> tuple[int, dict[tuple[str, Target], int]]:
    """Fighters weighted by ``start``, each struck ``n`` hits one after another with weight ``counts[n]``: the
    weights of (worst outcome, fighter afterwards), over the scale returned times the denominators of ``start``
    and ``counts``.

    The hits go round ``cycle`` (one hit per weapon, see :func:`strikes`); each meets the fighter as the
    earlier ones left him (:func:`resolution.chain_hits`): fewer wounds, more flesh wounds; a Down fighter hit
    again rolls injury dice again. The hits of every count are chained once, for every fighter at once.
    """
    series = resolution.chain_hits(
        cycle,
        {(NOT_HIT, target): w for target, w in start.items()},
        max(counts, default=0),
        order=FIGHT_OUTCOMES,
        keep_flesh_wounds=keep_flesh_wounds,
    )
    final = series[-1][0]
    out: dict = {}
    for count, ways in counts.items():
        scale, states = series[count]
        up = ways * (final // scale)
        for key, w in states.items():
            out[key] = out.get(key, 0) + w * up
    return final, out


def _worst(weights: dict[tuple[str, Target], int], one_on_one: bool = False) -> dict[str, int]:
    out: dict[str, int] = {}
    for (worst, _), w in weights.items():
        key = finished(worst, one_on_one)
        out[key] = out.get(key, 0) + w
    return out


def _hits_on(counts: tuple, side: str) -> dict[int, int]:
    """The ways ``side`` wins the bout striking each number of hits."""
    return {hits: ways for (winner, hits), ways in counts if winner == side}


def finished(worst: str, one_on_one: bool) -> str:
    """In a one-on-one fight a fighter who goes down is finished off: Out of Action (Fighters Down)."""
    return OUT_OF_ACTION if worst == DOWN and one_on_one else worst


def _blank_outcomes() -> dict[str, Fraction]:
    return {k: Fraction(0) for k in FIGHT_OUTCOMES}


def fight_odds(att: Combatant, dfn: Combatant, *, one_on_one: bool = True) -> dict:
    """Everything a one-on-one bout can lead to: winner, hits per side, each fighter's fate."""
    den, counts = score_counts(att, dfn)
    win = {ATTACKER: Fraction(0), DEFENDER: Fraction(0), STANDOFF: Fraction(0)}
    hits = {ATTACKER: {0: Fraction(0)}, DEFENDER: {0: Fraction(0)}}
    fate = {ATTACKER: _blank_outcomes(), DEFENDER: _blank_outcomes()}
    for (winner, count), ways in counts:
        p = Fraction(ways, den)
        win[winner] += p
        for side in (ATTACKER, DEFENDER):
            n = count if winner == side else 0
            hits[side][n] = hits[side].get(n, 0) + p
    for winner, striker, loser, loser_side in ((ATTACKER, att, dfn, DEFENDER), (DEFENDER, dfn, att, ATTACKER)):
        scale, after = struck(strikes(striker), {loser.as_target(): 1}, _hits_on(counts, winner))
        fate[winner][NOT_HIT] += win[winner]
        for worst, w in _worst(after, one_on_one).items():
            fate[loser_side][worst] += Fraction(w, den * scale)
    for side in (ATTACKER, DEFENDER):
        fate[side][NOT_HIT] += win[STANDOFF]
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

    Counted in whole numbers: the lone fighter while he stands is weights over one denominator; his states with
    the same WS left by flesh wounds fight alike, so a bout is scored once per WS and its hits chained once for
    all of them (:func:`struck`), not once per wounds and flesh wounds he may carry.
    """
    opponents = list(opponents)
    # The lone fighter while he stands, as the hits so far left him (flesh wounds counted from 0): weights over den.
    den, standing = 1, {fighter.as_target(): 1}
    bouts = []
    fighter_out = Fraction(0)
    for k, opponent in enumerate(opponents):
        opponent = replace(opponent, extra_dice=opponent.extra_dice + k, bonus=opponent.bonus + k)
        p_fought = Fraction(sum(standing.values()), den)
        by_ws: dict[int, dict[Target, int]] = {}
        for now, w in standing.items():
            by_ws.setdefault(max(0, fighter.WS - now.flesh_wounds), {})[now] = w
        # Each part is (its denominator over den, its weights), added up once the bout is counted.
        winners, stays, falls, hits_on_opponent = [], [], [], []
        for ws, fighters in by_ws.items():
            score_den, counts = score_counts(opponent, replace(fighter, WS=ws))
            total = sum(fighters.values())
            ways_won: dict[str, int] = {}
            for (winner, _), ways in counts:
                ways_won[winner] = ways_won.get(winner, 0) + ways
            winners.append((score_den, {winner: total * ways for winner, ways in ways_won.items()}))
            not_lost = ways_won.get(DEFENDER, 0) + ways_won.get(STANDOFF, 0)
            stays.append((score_den, {now: w * not_lost for now, w in fighters.items()}))
            scale, after = struck(strikes(opponent), fighters, _hits_on(counts, ATTACKER), keep_flesh_wounds=True)
            for (worst, then), w in after.items():
                (falls if _falls(worst) else stays).append((score_den * scale, {then: w}))
            not_hit = ways_won.get(ATTACKER, 0) + ways_won.get(STANDOFF, 0)
            hits = {0: not_hit, **_hits_on(counts, DEFENDER)}
            hits_on_opponent.append((score_den, {n: total * ways for n, ways in hits.items()}))
        won_den, won = _summed(winners)
        hits_den, hits = _summed(hits_on_opponent)
        scale, after = struck(strikes(fighter), {opponent.as_target(): 1}, hits)
        opp_fate = _blank_outcomes()
        for worst, w in _worst(after).items():
            opp_fate[worst] += Fraction(w, den * hits_den * scale)
        opp_fate[NOT_HIT] += 1 - p_fought  # no bout: the lone fighter was already out
        falls_den, fell = _summed(falls)
        fighter_out += Fraction(sum(fell.values()), den * falls_den)
        bouts.append(
            {
                "opponent": k + 1,
                "extra_dice": k,
                "bonus": k,
                **prob("p_fought", p_fought),
                **prob("p_opponent_wins", Fraction(won.get(ATTACKER, 0), den * won_den)),
                **prob("p_fighter_wins", Fraction(won.get(DEFENDER, 0), den * won_den)),
                **prob("p_standoff", Fraction(won.get(STANDOFF, 0), den * won_den)),
                **dist("opponent_outcome", opp_fate),
            }
        )
        stays_den, standing = _summed(stays)
        den, standing = _reduced(den * stays_den, standing)
    return {
        "bouts": bouts,
        **prob("p_fighter_out_of_action", fighter_out),
        **prob("p_fighter_standing", 1 - fighter_out),
        "assumptions": [
            "opponents fight in the order given; the k-th later one rolls k extra dice and adds k",
            "the lone fighter going down leaves all his side down: he counts as Out of Action",
        ],
    }


def _falls(worst: str) -> bool:
    """The lone fighter of a multiple combat who goes down leaves all his side down: he is out of the fight."""
    return worst in (DOWN, OUT_OF_ACTION)


def _reduced(den: int, weights: dict) -> tuple[int, dict]:
    """The same chances over the smallest denominator, so the numbers do not grow from bout to bout."""
    common = gcd(den, *weights.values())
    return den // common, {key: w // common for key, w in weights.items()}


# --- breaking from combat ----------------------------------------------------------------------


def break_off_odds(opponent: Combatant, fleeing: Combatant) -> dict:
    """The one automatic hit a fighter takes as he breaks from combat (Breaking from Combat).

    It is struck with the opponent's first weapon. The fleeing fighter is no longer in the
    fight, so a Down result stays Down.
    """
    scale, after = struck(strikes(opponent)[:1], {fleeing.as_target(): 1}, {1: 1})
    return {
        "why": ["a fighter breaking from hand-to-hand takes one automatic hit from his opponent before he runs"],
        **dist("outcome", {k: Fraction(_worst(after).get(k, 0), scale) for k in FIGHT_OUTCOMES if k != NOT_HIT}),
    }
