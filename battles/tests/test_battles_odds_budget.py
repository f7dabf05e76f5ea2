"""Issue 26, "no request takes a worker for long": a page's odds are counted within a bound of work; odds that
need more are left out with the reason and the action can still be rolled (never a 500, never a long wait)."""

import pytest
from django.urls import reverse

from battles.services import action_odds, action_plan, play


def multi_fight(battle):
    lone = battle.fighters.get(side="a", order=0)
    opponents = list(battle.fighters.filter(side="b").order_by("order"))
    return lone, opponents


@pytest.mark.django_db
def test_odds_over_the_bound_are_left_out_with_the_reason(make_battle, monkeypatch):
    battle = make_battle("classic", fighters=2)
    lone, opponents = multi_fight(battle)
    plan = action_plan(battle=battle, kind="multi-fight", params={"fighter": lone, "opponents": opponents})
    assert "bouts" in action_odds(battle=battle, plan=plan)
    monkeypatch.setattr(play, "ODDS_STEPS", 10)
    assert action_odds(battle=battle, plan=plan) == {"why": [play.ODDS_TOO_LONG]}


@pytest.mark.django_db
def test_the_page_says_why_and_still_rolls(client, make_battle, monkeypatch):
    battle = make_battle("classic", fighters=2)
    lone, opponents = multi_fight(battle)
    monkeypatch.setattr(play, "ODDS_STEPS", 10)
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
