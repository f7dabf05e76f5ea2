"""The assistant's charge odds with a Versatile weapon (issue 25): the fight's weapons set how close the charge must
come, as ``python -m rulebook odds n18 charge`` answers with ``reach``."""

from fractions import Fraction as F
from types import SimpleNamespace

import pytest

from battles.rules import Plan
from battles.selectors import charge_reach_odds

BATTLE, CHARGER = SimpleNamespace(edition="n18"), SimpleNamespace(stats={"M": 4}, chems_working=list)


def odds(query: dict | None) -> F:
    plan = None if query is None else Plan("fight", "fight", query, "charges")
    return F(charge_reach_odds(session=BATTLE, fighter=CHARGER, distance=8, plan=plan)["p_reaches_exact"])


@pytest.mark.parametrize(
    ("query", "p"),
    [
        (None, F(0)),  # M4 + D3 never covers 8"
        ({"weapon": "fighting-knife"}, F(0)),
        ({"weapon": "whip"}, F(1)),  # 3" of reach: 5" is enough
        ({"weapon": "shock-stave"}, F(2, 3)),  # 2" of reach: 6" needed
        ({"weapon": "whip", "second_weapon": "fighting-knife"}, F(0)),  # both weapons must reach
    ],
)
def test_the_charge_need_only_come_within_the_fight_weapons_reach(query, p):
    assert odds(query) == p
