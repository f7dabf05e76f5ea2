"""Exactly once (issue 22): each form that changes a battle carries a one-time token; the same form posted again
(a double tap, a retry) gets the first answer and changes nothing more. On PostgreSQL twenty threads post it at
once; on SQLite (a file database in its own process, as the site runs) two threads tap at once and neither hits
"database is locked"."""

import json
import os
import subprocess
import sys
from functools import partial
from pathlib import Path

import pytest
from django.urls import reverse

from battles.forms import new_token
from battles.models import BattleAction
from battles.services import action_resolve, battle_advance
from battles.tests.test_battles_views import a_leader, shoot_post
from core.testing import race_marks

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.django_db
def test_a_second_tap_on_the_roll_returns_the_first_answer(client, make_battle):
    battle = make_battle("classic", fighters=2)
    client.force_login(battle.player_a)
    data = {**shoot_post(battle), "once": new_token()}
    first = client.post(reverse("battles:battle-act", args=[battle.pk, "shoot"]), data)
    again = client.post(reverse("battles:battle-act", args=[battle.pk, "shoot"]), data, follow=True)
    assert first.status_code == 302 and again.redirect_chain[0][0] == first["Location"]
    assert battle.actions.filter(kind="shoot").count() == 1
    action = battle.actions.get(kind="shoot")
    words = "; ".join(action.changes) or action.summary
    assert words in again.content.decode()
    battle.refresh_from_db()
    assert battle.version == 1


@pytest.mark.django_db
def test_a_double_tap_whose_twin_acted_while_it_was_read_gets_the_twins_answer(client, make_battle, monkeypatch):
    """The race CI met on SQLite: the second tap asks whether its form was used before the first has written,
    then reads the battle after it (the situation moved: other odds, a target gone). It answers as its twin did
    rather than draw the form again."""
    from battles import selectors

    battle = make_battle("classic", fighters=2)
    client.force_login(battle.player_a)
    data = {**shoot_post(battle), "once": new_token()}
    url = reverse("battles:battle-act", args=[battle.pk, "shoot"])
    assert client.post(url, data).status_code == 302
    asked, real = [], selectors.action_made

    def not_yet_on_the_first_ask(battle, token):
        asked.append(token)
        return None if len(asked) == 1 else real(battle, token)

    monkeypatch.setattr(selectors, "action_made", not_yet_on_the_first_ask)
    battle.refresh_from_db()
    seen_before = battle.version
    again = client.post(url, data)
    assert again.status_code == 302 and len(asked) == 2
    battle.refresh_from_db()
    assert battle.actions.filter(kind="shoot").count() == 1 and battle.version == seen_before


@pytest.mark.django_db
def test_a_new_token_is_a_new_action(client, make_battle):
    battle = make_battle("classic", fighters=2)
    client.force_login(battle.player_a)
    for _ in range(2):
        client.post(reverse("battles:battle-advance", args=[battle.pk]), {"once": new_token(), "leave_untaken": "1"})
    battle.refresh_from_db()
    assert battle.phase == "hand_to_hand" and battle.actions.filter(kind="phase").count() == 2


@pytest.mark.django_db
def test_next_phase_tapped_twice_moves_one_phase(client, make_battle):
    battle = make_battle("classic", fighters=2)
    client.force_login(battle.player_a)
    token = new_token()
    for _ in range(2):
        client.post(reverse("battles:battle-advance", args=[battle.pk]), {"once": token, "leave_untaken": "1"})
    battle.refresh_from_db()
    assert battle.phase == "shooting" and battle.actions.filter(kind="phase").count() == 1


@pytest.mark.django_db
def test_the_forms_on_the_page_carry_a_token_each(client, make_battle):
    battle = make_battle("n18", fighters=2)
    client.force_login(battle.player_a)
    page = client.get(reverse("battles:battle-detail", args=[battle.pk])).content.decode()
    tokens = [part.split('"')[0] for part in page.split('name="once" value="')[1:]]
    assert len(tokens) > 3 and len(set(tokens)) == len(tokens)
    act = client.get(reverse("battles:battle-act", args=[battle.pk, "shoot"]) + f"?fighter={a_leader(battle).pk}")
    assert 'name="once"' in act.content.decode()


@pytest.mark.django_db
def test_leaving_the_end_phase_untaken_logs_the_reason(make_battle):
    battle = make_battle("n18", fighters=2)
    battle.fighters.filter(side="attacker", order=0).update(condition="seriously_injured", prone=True)
    for _ in range(2):  # Priority, Action: to the End phase, where the Recovery test is required
        battle_advance(session=battle, actor=battle.player_a)
    action = battle_advance(session=battle, actor=battle.player_a, leave_untaken=True, reason="rolled at the table")
    assert "Left untaken: " in action.changes[-1] and action.changes[-1].endswith("(why: rolled at the table)")


def race(test):
    """The project's marks for a race test: PostgreSQL, real transactions."""
    for mark in race_marks():
        test = mark(test)
    return test


@race
def test_twenty_taps_at_once_make_one_action(make_battle, at_once):
    battle = make_battle("classic", fighters=2)
    shooter, target = battle.fighters.order_by("side", "order")[:1].get(), battle.fighters.get(side="defender", order=0)
    pistol = next(f"{w['key']}:0" for w in shooter.profile["weapons"] if w["category"] == "pistol")
    params = {"fighter": shooter.pk, "target": target.pk, "weapon": pistol, "distance": 6}
    token = new_token()
    outcomes = at_once(
        20, partial(action_resolve, session=battle, kind="shoot", params=params, actor=battle.player_a, token=token)
    )
    assert outcomes == ["done"] * 20
    assert BattleAction.objects.filter(session=battle, kind="shoot").count() == 1


@pytest.mark.skipif(bool(os.environ.get("DATABASE_URL")), reason="the SQLite case; PostgreSQL has the race above")
def test_double_taps_on_sqlite_make_one_action_and_no_lock_errors(tmp_path):
    """The site on an SQLite file, in its own process: two threads post the same roll at once, then two different
    rolls at once, through the views; one action for the first pair, two for the second, no error."""
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp_path / 'taps.sqlite3'}", "DEBUG": "1"}
    env.pop("REDIS_TEST_URL", None)
    run = subprocess.run(
        [sys.executable, "-m", "battles.tests.sqlite_taps"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    answer = json.loads(run.stdout.strip().splitlines()[-1])
    assert answer == {"same_token": {"actions": 1, "errors": []}, "two_tokens": {"actions": 2, "errors": []}}
