"""Issue 26, "no request takes a worker for long": a multiple combat's odds counted in whole numbers, the lone
fighter's states with the same WS taken together, give the same fractions as the state-by-state count in
Fractions they replaced (kept here, as it was, as the oracle for small fights)."""

from __future__ import annotations

import random
from dataclasses import replace
from fractions import Fraction

import pytest

from rulebook.classic import resolution
from rulebook.classic.combat import (
    NOT_HIT,
    _blank_outcomes,
    break_off_odds,
    fight_odds,
    finished,
    multi_fight_odds,
    strikes,
    worse,
)
from rulebook.classic.combat_score import ATTACKER, DEFENDER, STANDOFF, Combatant, HandWeapon, score_odds
from rulebook.classic.resolution import DOWN, OUT_OF_ACTION

WEAPONS = (
    HandWeapon("knife"),
    HandWeapon("sword", parry=True),
    HandWeapon("axe", None, 1, "1", -1),
    HandWeapon("hammer", 5, 0, "D3", -2),
    HandWeapon("chain", 4, 0, "2", -1),
)


# --- the count it replaced -------------------------------------------------------------------------------


def hits_odds(cycle, target, count):
    series = [{(NOT_HIT, target): Fraction(1)}]
    while len(series) <= count:
        hit = cycle[(len(series) - 1) % len(cycle)]
        out = {}
        for (worst, now), p in series[-1].items():
            if worst == OUT_OF_ACTION:
                out[worst, now] = out.get((worst, now), 0) + p
                continue
            for (outcome, after), q in resolution.hit_transitions(hit, now).items():
                key = (worse(worst, outcome), after)
                out[key] = out.get(key, 0) + p * q
        series.append(out)
    return series[count]


def fight_fates(att, dfn):
    fate = {ATTACKER: _blank_outcomes(), DEFENDER: _blank_outcomes()}
    for (winner, count), p in score_odds(att, dfn).items():
        if winner == STANDOFF:
            for side in (ATTACKER, DEFENDER):
                fate[side][NOT_HIT] += p
            continue
        striker, struck_fighter = (att, dfn) if winner == ATTACKER else (dfn, att)
        fate[winner][NOT_HIT] += p
        for (worst, _), q in hits_odds(strikes(striker), struck_fighter.as_target(), count).items():
            fate[DEFENDER if winner == ATTACKER else ATTACKER][finished(worst, True)] += p * q
    return fate


def state_by_state(fighter, opponents):
    standing, fighter_out, bouts = {fighter.as_target(): Fraction(1)}, Fraction(0), []
    for k, opponent in enumerate(opponents):
        opponent = replace(opponent, extra_dice=opponent.extra_dice + k, bonus=opponent.bonus + k)
        bout, opp_fate = {ATTACKER: 0, DEFENDER: 0, STANDOFF: 0}, _blank_outcomes()
        p_fought, after = sum(standing.values(), Fraction(0)), {}
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
        opp_fate[NOT_HIT] += 1 - p_fought
        standing = after
        bouts.append((p_fought, bout, opp_fate))
    return bouts, fighter_out


# --- the same fractions -----------------------------------------------------------------------------------


def fighter(r: random.Random, most_attacks: int) -> Combatant:
    return Combatant(
        WS=r.randint(0, 6),
        A=r.randint(0, most_attacks),
        I=r.randint(1, 5),
        S=r.randint(2, 5),
        weapons=tuple(r.sample(WEAPONS, r.randint(1, 2))),
        T=r.randint(2, 5),
        wounds_left=r.randint(1, 3),
        save=r.choice([None, 4, 5, 6]),
        BS=r.choice([None, 2, 3]),
        charging=r.random() < 0.3,
        hatred=r.random() < 0.2,
        frenzied=r.random() < 0.1,
        broken=r.random() < 0.1,
    )


@pytest.mark.parametrize("seed", range(12))
def test_multiple_combat_counts_as_state_by_state(seed):
    r = random.Random(seed)
    lone, opponents = fighter(r, 3), [fighter(r, 2) for _ in range(r.randint(1, 3))]
    answer = multi_fight_odds(lone, opponents)
    bouts, fighter_out = state_by_state(lone, opponents)
    assert Fraction(answer["p_fighter_out_of_action_exact"]) == fighter_out
    for shown, (p_fought, bout, opp_fate) in zip(answer["bouts"], bouts, strict=True):
        assert Fraction(shown["p_fought_exact"]) == p_fought
        assert Fraction(shown["p_opponent_wins_exact"]) == bout[ATTACKER]
        assert Fraction(shown["p_fighter_wins_exact"]) == bout[DEFENDER]
        assert {k: Fraction(v) for k, v in shown["opponent_outcome_exact"].items()} == opp_fate


@pytest.mark.parametrize("seed", range(12))
def test_one_on_one_and_break_off_count_as_before(seed):
    r = random.Random(seed)
    att, dfn = fighter(r, 4), fighter(r, 4)
    assert fight_odds(att, dfn)["fate"] == fight_fates(att, dfn)
    expected = {}
    for (worst, _), p in hits_odds(strikes(att)[:1], dfn.as_target(), 1).items():
        expected[worst] = expected.get(worst, 0) + p
    shown = {k: Fraction(v) for k, v in break_off_odds(att, dfn)["outcome_exact"].items() if Fraction(v)}
    assert shown == {k: p for k, p in expected.items() if p}
