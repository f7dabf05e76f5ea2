"""Classic stray shots and jumps in the assistant (issue 22), as the command line answers them: a shot with a friend
within 1/2" of the line of fire shows the stray shot's odds before the dice and says when it hits him (Advanced
Rules: Stray Shots); a jump down is a fall, a jump across a gap covers D6" (Advanced Rules: Jumping)."""

import copy
from fractions import Fraction

import pytest
from django.urls import reverse

from battles.models import Condition
from battles.selectors import action_odds, action_plan
from battles.services import action_resolve
from rulebook import editions
from rulebook.query import Query

pytestmark = pytest.mark.django_db


def fighters(battle):
    return battle.fighters.get(side="attacker", order=0), battle.fighters.get(side="defender", order=0)


def pistol(fighter) -> str:
    return next(f"{w['key']}:0" for w in fighter.profile["weapons"] if w["category"] == "pistol")


def test_a_stray_shot_has_its_odds_before_the_dice_and_hits_the_friend_on_a_one(make_battle):
    battle = make_battle("classic", fighters=2)
    shooter, target = fighters(battle)
    params = {
        "fighter": shooter.pk,
        "target": target.pk,
        "weapon": pistol(shooter),
        "distance": 6,
        "friend_in_path": True,
    }
    plan = action_plan(session=battle, kind="shoot", params=params)
    assert plan.query["friend_in_path"] is True
    odds = action_odds(session=battle, plan=plan)
    cli = editions.action("classic", "shoot").odds(Query(copy.deepcopy(plan.query)))
    assert Fraction(odds["p_stray_hit_exact"]) == Fraction(cli["p_stray_hit_exact"]) == Fraction(1, 36)
    missed = action_resolve(session=battle, kind="shoot", params=params, actor=battle.player_a, dice=[1, 1])
    assert any("stray shot" in change for change in missed.changes)
    calm = action_resolve(session=battle, kind="shoot", params=params, actor=battle.player_a, dice=[1, 4])
    assert not any("stray shot" in change for change in calm.changes)


@pytest.mark.parametrize(
    "extra, dice, words, condition",
    [
        ({"gap": 3}, [4], "clears the gap", Condition.STANDING),  # D6" of 4 covers a 3" gap
        ({"gap": 3}, [2, 3], "is pinned", Condition.PINNED),  # short: falls 2", S2 against T3 needs 5+ to wound
        ({}, [3], "is pinned", Condition.PINNED),  # a jump down is a fall: S2 against T3 fails on a 3
    ],
)
def test_a_jump_as_the_command_line_answers_it(make_battle, extra, dice, words, condition):
    battle = make_battle("classic", fighters=2)
    jumper, _ = fighters(battle)
    params = {"test": "jump", "fighter": jumper.pk, "height": 2, **extra}
    plan = action_plan(session=battle, kind="test", params=params)
    odds = action_odds(session=battle, plan=plan)
    assert odds["kind"] == "jump" and odds == editions.action("classic", "test").odds(Query(copy.deepcopy(plan.query)))
    action = action_resolve(session=battle, kind="test", params=params, actor=battle.player_a, dice=dice)
    jumper.refresh_from_db()
    assert any(words in change for change in action.changes) and jumper.condition == condition


def test_the_classic_menus_offer_jumps_and_stray_shots(client, make_battle):
    battle = make_battle("classic", fighters=2)
    shooter, target = fighters(battle)
    client.force_login(battle.player_a)
    menu = client.get(reverse("battles:battle-act", args=[battle.pk, "test"])).content.decode()
    assert "Jumping (down, or across a gap)" in menu
    url = reverse("battles:battle-act", args=[battle.pk, "shoot"])
    data = {
        "shooter": f"{shooter.pk}:{pistol(shooter)}",
        "target": target.pk,
        "band": "short",
        "cover": "none",
        "friend_in_path": "on",
        "op": "odds",
    }
    page = client.post(url, data).content.decode()
    assert "stray shots" in page and "A stray shot hits the friend in the way" in page
    jump = client.post(
        f"{url.replace('shoot', 'test')}?test=jump", {"fighter": shooter.pk, "height": 2, "gap": 3, "op": "odds"}
    ).content.decode()
    assert "Clears the gap" in jump
