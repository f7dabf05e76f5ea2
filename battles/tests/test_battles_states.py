"""States follow the rules (issue 22): standing up clears Pinned, a fighter whose opponent went Out of Action is
free, classic Overwatch is one shot, classic escape pinning only for a fighter pinned when his turn began (who
otherwise stands up at its end), Falling, Agility and Coup de Grace are acting, Seriously Injured fighters are
Ready again each round, a fighter who is down cannot fight (classic), a multiple combat applies the engine's
Out of Action, Fight preselects only an engaged enemy, and a fighter is in one open battle at a time."""

import pytest
from django.core.exceptions import ValidationError

from battles.forms import FightForm
from battles.models import Condition, Phase
from battles.rules import Plan
from battles.rules.classic import effects as classic_effects
from battles.selectors import action_plan
from battles.services import action_resolve, battle_advance, battle_start, fighter_adjust
from rulebook.dice import SeededDice

pytestmark = pytest.mark.django_db


def sides(battle):
    rows = list(battle.fighters.all())
    return [f for f in rows if f.side == "attacker"], [f for f in rows if f.side == "defender"]


def reload(*fighters):
    for f in fighters:
        f.refresh_from_db()


def set_state(battle, fighter, **fields):
    for name, value in fields.items():
        setattr(fighter, name, value)
    fighter.save()


def test_n18_standing_up_clears_pinned(make_battle):
    battle = make_battle("n18", fighters=2)
    (leader, _), _ = sides(battle)
    set_state(battle, leader, condition=Condition.PINNED, prone=True)
    action = fighter_adjust(session=battle, fighter=leader, field="prone", value=False, actor=battle.player_a)
    reload(leader)
    assert (leader.condition, leader.prone) == (Condition.ACTIVE, False)
    assert "stands up" in action.summary


def test_a_fighter_whose_opponent_went_out_of_action_is_no_longer_engaged(make_battle):
    battle = make_battle("n18", fighters=2)
    (leader, _), (enemy, _) = sides(battle)
    set_state(battle, leader, engaged=True)
    set_state(battle, enemy, engaged=True, condition=Condition.SERIOUSLY_INJURED, prone=True)
    action_resolve(
        session=battle, kind="coup-de-grace", params={"fighter": leader.pk, "target": enemy.pk}, actor=battle.player_a
    )
    reload(leader, enemy)
    assert enemy.out_of_action and not leader.engaged
    assert not leader.ready  # a Coup de Grace is acting


def test_classic_fight_winner_is_free_once_the_loser_is_out(make_battle):
    battle = make_battle("classic", fighters=2)
    (leader, _), (enemy, _) = sides(battle)
    plan = Plan("fight", "fight", {}, "", leader, enemy)
    result = {
        "loser": "defender",
        "winner": "attacker",
        "wounds": {"outcome": "out_of_action", "hits": [{"wounds_lost": 1}]},
    }
    classic_effects.apply_fight(plan, result, battle)
    assert enemy.out_of_action and not leader.engaged


def test_classic_multiple_combat_applies_the_engines_out_of_action(make_battle):
    battle = make_battle("classic", fighters=3)
    (lone, _, _), (one, two, _) = sides(battle)
    plan = Plan("multi-fight", "multi-fight", {}, "", lone, one, [one, two])
    result = {
        "bouts": [
            {
                "opponent": 1,
                "loser": "defender",
                "winner": "attacker",
                "wounds": {"outcome": "down", "hits": [{"wounds_lost": 1}]},
            },
            {"opponent": 2, "loser": None},
        ],
        "fighter": "out_of_action",
    }
    changes = classic_effects.apply_multi_fight(plan, result, battle)
    assert lone.condition == Condition.OUT_OF_ACTION and lone.taken_out_by == one
    assert "Out of Action" in " ".join(changes)
    assert not one.engaged and not two.engaged


def test_classic_overwatch_ends_after_the_shot(make_battle):
    battle = make_battle("classic", fighters=2)
    (leader, _), (enemy, _) = sides(battle)
    set_state(battle, leader, overwatch=True)
    pistol = next(f"{w['key']}:0" for w in leader.profile["weapons"] if w["category"] == "pistol")
    action_resolve(
        session=battle,
        kind="shoot",
        actor=battle.player_a,
        dice=[1],
        params={"fighter": leader.pk, "target": enemy.pk, "weapon": pistol, "distance": 6},
    )
    reload(leader)
    assert not leader.overwatch


def escape_prompts(battle):
    from battles.rules import classic

    fighters = list(battle.fighters.all())
    return [p for p in classic.prompts(battle, fighters, [], set()) if p.params.get("test") == "escape_pinning"]


def test_classic_escape_pinning_only_for_a_fighter_pinned_when_his_turn_began(make_battle):
    battle = make_battle("classic", fighters=2)
    (leader, _), (enemy, _) = sides(battle)
    set_state(battle, leader, condition=Condition.PINNED)  # pinned during his own turn (by overwatch fire)
    assert escape_prompts(battle) == []
    for _ in range(4):  # to the second gang's turn: the first gang's pinned fighter is still pinned
        battle_advance(session=battle, actor=battle.player_a, leave_untaken=True)
    battle.refresh_from_db()
    set_state(battle, enemy, condition=Condition.PINNED)  # pinned during his own turn too
    for _ in range(4):  # back to the first gang's turn: the leader was pinned as it began
        battle_advance(session=battle, actor=battle.player_a, leave_untaken=True)
    battle.refresh_from_db()
    reload(leader, enemy)
    prompts = escape_prompts(battle)
    assert [p.params["fighter"] for p in prompts] == [leader.pk]
    assert prompts[0].conditional
    for _ in range(4):  # the first gang's turn ends: the leader, who missed it, stands up
        battle_advance(session=battle, actor=battle.player_a, leave_untaken=True)
    reload(leader)
    assert leader.condition == Condition.STANDING


def test_classic_a_fighter_who_is_down_cannot_fight(make_battle):
    battle = make_battle("classic", fighters=2)
    (leader, _), (enemy, _) = sides(battle)
    set_state(battle, leader, condition=Condition.DOWN)
    with pytest.raises(ValidationError, match="down"):
        action_plan(session=battle, kind="fight", params={"fighter": leader.pk, "target": enemy.pk})


@pytest.mark.parametrize(
    ("test", "params", "dice"),
    [
        ("agility", {}, [5]),
        ("fall", {"height": 2, "cause": "fall"}, []),
    ],
)
def test_n18_falling_and_agility_are_acting(make_battle, test, params, dice):
    battle = make_battle("n18", fighters=2)
    (leader, _), _ = sides(battle)
    action_resolve(
        session=battle,
        kind="test",
        actor=battle.player_a,
        dice=dice or None,
        params={"test": test, "fighter": leader.pk, **params},
    )
    reload(leader)
    assert not leader.ready


def test_n18_seriously_injured_fighters_are_ready_next_round(make_battle):
    battle = make_battle("n18", fighters=2)
    (leader, _), _ = sides(battle)
    set_state(battle, leader, condition=Condition.SERIOUSLY_INJURED, prone=True, ready=False)
    while battle.phase != Phase.PRIORITY or battle.round == 1:
        battle_advance(session=battle, actor=battle.player_a, leave_untaken=True)
        battle.refresh_from_db()
    reload(leader)
    assert leader.ready


def test_fight_preselects_only_an_engaged_enemy(make_battle):
    battle = make_battle("n18", fighters=2)
    (leader, _), (enemy, other) = sides(battle)
    fighters = list(battle.fighters.all())
    form = FightForm(session=battle, fighters=fighters, initial={"fighter": leader.pk})
    assert "target" not in form.initial  # nobody is engaged: no enemy chosen for him
    set_state(battle, other, condition=Condition.OUT_OF_ACTION)
    fighters = list(battle.fighters.all())
    form = FightForm(session=battle, fighters=fighters, initial={"fighter": leader.pk})
    assert "target" not in form.initial  # the only enemy left is not in a fight with anyone
    set_state(battle, enemy, engaged=True)
    fighters = list(battle.fighters.all())
    form = FightForm(session=battle, fighters=fighters, initial={"fighter": leader.pk})
    assert form.initial["target"] == enemy.pk


def test_a_fighter_is_in_one_open_battle_at_a_time(make_battle):
    battle = make_battle("n18", fighters=2)
    with pytest.raises(ValidationError, match="one battle at a time"):
        battle_start(gang_a=battle.gang_a, gang_b=battle.gang_b, started_by=battle.player_a, dice=SeededDice(2))
    battle.status = "ended"
    battle.save()
    assert battle_start(gang_a=battle.gang_a, gang_b=battle.gang_b, started_by=battle.player_a, dice=SeededDice(2))


@pytest.mark.parametrize(
    ("test", "extra", "dice", "broken"),
    [
        ("terror", {"situation": "within_8"}, [6, 6], True),  # 12 > Ld: broken, runs for cover
        ("stupidity", {}, [1, 1], False),
        ("frenzy", {}, [1, 1], False),
        ("hatred", {}, [1, 1], False),
    ],
)
def test_classic_psychology_tests_as_the_command_line_answers_them(make_battle, test, extra, dice, broken):
    from battles.selectors import action_odds

    battle = make_battle("classic", fighters=2)
    (leader, _), _ = sides(battle)
    params = {"test": test, "fighter": leader.pk, **extra}
    odds = action_odds(session=battle, plan=action_plan(session=battle, kind="test", params=params))
    assert odds["kind"] == test and "p_pass" in odds
    action = action_resolve(session=battle, kind="test", params=params, actor=battle.player_a, dice=dice)
    reload(leader)
    assert leader.broken == broken and action.changes
