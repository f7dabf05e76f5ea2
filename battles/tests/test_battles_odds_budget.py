"""Issue 26, "no request takes a worker for long": a page's odds are counted within a bound of work; odds that
need more are left out with the reason and the action can still be rolled (never a 500, never a long wait)."""

import pytest
from django.urls import reverse

from battles import selectors
from rulebook import budget
from rulebook.classic.combat_score import Combatant, HandWeapon, score_counts, score_odds


def multi_fight(battle):
    lone = battle.fighters.get(side="attacker", order=0)
    opponents = list(battle.fighters.filter(side="defender").order_by("order"))
    return lone, opponents


@pytest.mark.django_db
def test_odds_over_the_bound_are_left_out_with_the_reason(make_battle, monkeypatch):
    battle = make_battle("classic", fighters=2)
    lone, opponents = multi_fight(battle)
    plan = selectors.action_plan(session=battle, kind="multi-fight", params={"fighter": lone, "opponents": opponents})
    assert "bouts" in selectors.action_odds(session=battle, plan=plan)
    monkeypatch.setattr(selectors, "ODDS_STEPS", 10)
    assert selectors.action_odds(session=battle, plan=plan) == {"why": [selectors.ODDS_TOO_LONG]}


@pytest.mark.django_db
def test_the_page_says_why_and_still_rolls(client, make_battle, monkeypatch):
    battle = make_battle("classic", fighters=2)
    lone, opponents = multi_fight(battle)
    monkeypatch.setattr(selectors, "ODDS_STEPS", 10)
    client.force_login(battle.player_a)
    url = reverse("battles:battle-act", args=[battle.pk, "multi-fight"])
    data = {"fighter": lone.pk, "opponents": [o.pk for o in opponents]}
    response = client.post(url, {**data, "op": "odds"})
    assert response.status_code == 200
    page = response.content.decode()
    assert "No odds for this one" in page and 'data-testid="roll"' in page
    seen = response.context["seen"]
    response = client.post(url, {**data, "op": "roll", "seen": seen})
    assert response.status_code == 302
    assert battle.actions.get().kind == "multi-fight"


@pytest.mark.parametrize(("attacks", "hatred"), [(10, False), (9, True), (10, True)])
def test_the_fights_that_held_a_worker_for_seconds_fit_a_pages_bound(attacks, hatred):
    """Issue 26 #10: A10 against A10 took 2.6 s a request, A9 with hatred a minute on the command line (outcomes
    enumerated). Counted afresh (no cached answer), the dynamic programming answers them within the page's bound:
    steps, so the same on every machine."""
    score_counts.cache_clear()
    sword = HandWeapon("sword", parry=True)
    with budget.bounded(selectors.ODDS_STEPS):
        odds = score_odds(Combatant(WS=3, A=attacks, hatred=hatred), Combatant(WS=3, A=attacks, weapons=(sword,)))
    assert sum(odds.values()) == 1
