"""Cycle 1 random pairing and the challenge order from Cycle 2 (campaign guide, Issuing Challenges)."""

import itertools
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rulebook.dice import ScriptedDice, SeededDice
from rulebook.errors import RulesInputError
from rulebook.n18.matchmaking import Contender, challenge_order, next_challenger, pair_at_random, roll_off


def matching(pairing) -> frozenset:
    return frozenset(frozenset(p) for p in pairing.pairs)


def exact_outcomes(gangs: list[str], dice_count: int) -> dict:
    """Every sequence of ``dice_count`` D6 (re-rolls use later dice), read as equally likely."""
    outcomes: dict = {}
    for faces in itertools.product(range(1, 7), repeat=dice_count):
        dice = ScriptedDice(faces)
        try:
            pairing = pair_at_random(gangs, dice)
        except RulesInputError:
            continue  # ran out of dice on a re-roll: not a complete sequence
        key = (matching(pairing), pairing.odd_one_out)
        used = len(pairing.dice)
        outcomes[key] = outcomes.get(key, 0) + Fraction(1, 6**used) / 6 ** (dice_count - used)
    return outcomes


def test_four_gangs_pair_into_three_equally_likely_matchings():
    outcomes = exact_outcomes(["a", "b", "c", "d"], 1)
    assert len(outcomes) == 3
    assert set(outcomes.values()) == {Fraction(1, 3)}
    assert sum(outcomes.values()) == 1


def test_three_gangs_each_sit_out_a_third_of_the_time():
    # one D6 picks the odd gang out (bands of 2); the last two play each other
    outcomes = exact_outcomes(["a", "b", "c"], 1)
    by_odd = {odd: p for (_, odd), p in outcomes.items()}
    assert by_odd == {"a": Fraction(1, 3), "b": Fraction(1, 3), "c": Fraction(1, 3)}


@pytest.mark.parametrize(
    ("dice", "pairs", "odd"),
    [
        ([1], (("a", "b"), ("c", "d")), None),
        ([3], (("a", "c"), ("b", "d")), None),
        ([6], (("a", "d"), ("b", "c")), None),
    ],
)
def test_scripted_pairings(dice, pairs, odd):
    pairing = pair_at_random(["a", "b", "c", "d"], ScriptedDice(dice))
    assert pairing.pairs == pairs
    assert pairing.odd_one_out == odd
    assert [d["value"] for d in pairing.dice] == dice


def test_five_gangs_rerolls_past_the_last_band():
    # five gangs: a D6 of 6 falls past the last whole band and is rolled again
    pairing = pair_at_random(["a", "b", "c", "d", "e"], ScriptedDice([6, 5, 1]))
    assert pairing.odd_one_out == "e"
    assert pairing.pairs == (("a", "b"), ("c", "d"))
    assert len(pairing.dice) == 3


@given(st.integers(min_value=2, max_value=33), st.integers(min_value=0, max_value=10_000))
def test_every_gang_plays_once_or_sits_out(count, seed):
    gangs = [f"g{i}" for i in range(count)]
    pairing = pair_at_random(gangs, SeededDice(seed))
    seen = [g for pair in pairing.pairs for g in pair] + ([pairing.odd_one_out] if pairing.odd_one_out else [])
    assert sorted(seen) == sorted(gangs)
    assert (pairing.odd_one_out is not None) == (count % 2 == 1)


@pytest.mark.parametrize("gangs", [[], ["a"], ["a", "a"]])
def test_bad_pairing_input(gangs):
    with pytest.raises(RulesInputError) as err:
        pair_at_random(gangs, ScriptedDice([1]))
    assert err.value.field == "gangs"


GANGS = [
    Contender("wolves", rating=1200, reputation=3, name="Wolves"),
    Contender("rats", rating=900, reputation=5, name="Rats"),
    Contender("moles", rating=900, reputation=2, name="Moles"),
    Contender("bats", rating=1500, reputation=0, name="Bats"),
]


def test_lowest_rated_gangs_challenge_first_ties_by_reputation():
    assert [c.id for c in challenge_order(GANGS)] == ["moles", "rats", "wolves", "bats"]


def test_gangs_that_played_or_passed_leave_the_order():
    assert next_challenger(GANGS, done={"moles", "rats"}).id == "wolves"
    assert next_challenger(GANGS, done={c.id for c in GANGS}) is None


def test_equal_rating_and_reputation_falls_back_to_name():
    gangs = [Contender("2", 1000, 1, "Zeta"), Contender("1", 1000, 1, "Alpha")]
    assert [c.name for c in challenge_order(gangs)] == ["Alpha", "Zeta"]


@pytest.mark.parametrize(("dice", "winner", "rolled"), [([5, 2], "a", 2), ([1, 6], "b", 2), ([3, 3, 2, 4], "b", 4)])
def test_roll_off_rerolls_ties(dice, winner, rolled):
    won, log = roll_off("a", "b", ScriptedDice(dice))
    assert won == winner
    assert len(log) == rolled


contenders = st.lists(
    st.builds(
        Contender,
        id=st.uuids().map(str),
        rating=st.integers(0, 3000),
        reputation=st.integers(0, 20),
        name=st.text(max_size=5),
    ),
    max_size=32,
    unique_by=lambda c: c.id,
)


@given(contenders, st.data())
def test_challenge_order_is_every_waiting_gang_by_rating(gangs, data):
    done = data.draw(st.sets(st.sampled_from([g.id for g in gangs]))) if gangs else set()
    order = challenge_order(gangs, done=done)
    assert sorted(c.id for c in order) == sorted(g.id for g in gangs if g.id not in done)
    assert [c.rating for c in order] == sorted(c.rating for c in order)
    assert next_challenger(gangs, done=done) == (order[0] if order else None)
