"""The bound on the work one answer may do (rulebook.budget): counted in steps, so the same query is refused on
every machine; nothing is counted without a bound."""

import pytest

from rulebook import budget, editions
from rulebook.query import Query

# Six opponents of ten Attack dice, two weapons each, against a fighter with two swords: the worst multiple
# combat the battle pages can send. Unbounded it is answered (the command line); a page's bound refuses it.
SIX_OPPONENTS = {
    "fighter": {"WS": 4, "BS": 4, "A": 3, "I": 4, "wounds_left": 3, "weapons": ["sword", "sword"]},
    "opponents": [{"WS": 3, "A": 3, "I": 3, "wounds_left": 2, "weapons": ["club", "knife"]}] * 6,
}


def odds(query):
    return editions.action("classic", "multi-fight").odds(Query(query))


def test_without_a_bound_nothing_is_counted():
    assert len(odds(SIX_OPPONENTS)["bouts"]) == 6


def test_a_query_over_the_bound_is_refused_with_the_reason():
    with budget.bounded(1_000), pytest.raises(budget.OverBudget) as refused:
        odds(SIX_OPPONENTS)
    assert "1,000 steps" in str(refused.value)


def test_the_bound_ends_with_its_block():
    with budget.bounded(1_000), pytest.raises(budget.OverBudget):
        odds(SIX_OPPONENTS)
    budget.spend(10**9)  # no bound any more: nothing is refused
