"""The classic Income chart (S3 p93): profit by income and gang size, edges and refusals."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rulebook.classic.campaign.income import CHART_TOP, gang_profit
from rulebook.errors import RulesInputError


@pytest.mark.parametrize(
    ("income", "models", "profit", "row"),
    [
        (0, 1, 15, "0-29"),
        (29, 3, 15, "0-29"),
        (30, 4, 20, "30-49"),
        (95, 10, 30, "80-119"),
        (230, 7, 95, "230-299"),  # the row the fan site drops
        (669, 21, 70, "560-669"),
        (120, 19, 0, "120-169"),
        (-20, 5, 10, "0-29"),  # a Gambling Den's loss reads the first row
    ],
)
def test_chart(income, models, profit, row):
    found = gang_profit(income, models)
    assert (found["profit"], found["row"]) == (profit, row)


def test_off_the_chart_says_so():
    assert gang_profit(CHART_TOP + 100, 30)["notes"] and gang_profit(CHART_TOP + 100, 30)["profit"] == 70


def test_a_gang_has_models():
    with pytest.raises(RulesInputError) as err:
        gang_profit(50, 0)
    assert err.value.field == "models"


@given(st.integers(0, CHART_TOP), st.integers(1, 20))
def test_more_income_never_less_profit_and_more_models_never_more(income, models):
    assert gang_profit(income + 1, models)["profit"] >= gang_profit(income, models)["profit"]
    assert gang_profit(income, models + 1)["profit"] <= gang_profit(income, models)["profit"]
