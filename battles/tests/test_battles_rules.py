"""More of each edition's actions with scripted dice: multiple combats, falls, agility, scenario actions,
Priority and what may be set by hand."""

import pytest
from django.core.exceptions import ValidationError

from battles.models import Condition, Phase
from battles.rules import n18
from battles.selectors import action_plan, battle_prompts
from battles.services import (
    action_resolve,
    action_undo,
    battle_end,
    battle_priority_set,
    battle_reinforce,
    fighter_adjust,
)


def sides(battle):
    rows = list(battle.fighters.all())
    return [f for f in rows if f.side == "attacker"], [f for f in rows if f.side == "defender"]


def resolve(battle, kind, dice=None, **params):
    return action_resolve(session=battle, kind=kind, params=params, actor=battle.player_a, dice=dice)


@pytest.mark.django_db
def test_classic_multiple_combat_each_bout_strikes_its_loser(make_battle):
    battle = make_battle("classic", fighters=3)
    (lone, *_), (first, second, _) = sides(battle)
    action = resolve(battle, "multi-fight", fighter=lone, opponents=[first, second])
    assert len(action.result["bouts"]) in (1, 2)
    for row in (lone, first, second):
        row.refresh_from_db()
    struck = [f for f in (lone, first, second) if f.condition != Condition.STANDING or f.flesh_wounds]
    for bout in action.result["bouts"]:
        if bout.get("loser") and bout["wounds"]["outcome"] in ("down", "out_of_action", "flesh_wound"):
            assert struck
    # They stay locked in combat, except (issue 22) that a fighter whose every opponent went Out of Action is free.
    if lone.out_of_action:
        assert not first.engaged and not second.engaged
    elif first.out_of_action and second.out_of_action:
        assert not lone.engaged
    else:
        assert all(f.engaged or f.out_of_action for f in (lone, first, second))


@pytest.mark.django_db
def test_classic_shot_into_a_fight_names_the_other_fighters(make_battle):
    battle = make_battle("classic", fighters=2)
    (leader, _), (target, _) = sides(battle)
    pistol = next(f"{w['key']}:0" for w in leader.profile["weapons"] if w["category"] == "pistol")
    params = {"fighter": leader, "target": target, "weapon": pistol, "distance": 6, "in_combat_with": 1}
    plan = action_plan(session=battle, kind="shoot", params=params)
    assert plan.query["hand_to_hand_opponents"] == 1


@pytest.mark.django_db
def test_classic_fall_from_an_edge(make_battle):
    battle = make_battle("classic", fighters=2)
    (_, ganger), _ = sides(battle)
    # I 3: a 4 falls; 3" is S3, 1 wound: wound roll 4 (needs 4), injury 2: down
    resolve(battle, "test", [4, 4, 2], test="fall", fighter=ganger, height=3, edge="pinned_or_down")
    ganger.refresh_from_db()
    assert ganger.condition == Condition.DOWN
    resolve(battle, "test", [6], test="recovery", fighter=ganger)
    ganger.refresh_from_db()
    assert ganger.condition == Condition.OUT_OF_ACTION


@pytest.mark.django_db
def test_n18_fight_with_a_knife(make_battle):
    battle = make_battle("n18", fighters=2)
    (_, bruiser), (_, target) = sides(battle)
    knife = next(f"{w['key']}:0" for w in bruiser.profile["weapons"] if w["category"] == "close_combat")
    # WS 4+, 1 Attack: hit 4, S4 v T4 wound 4, no save, Injury dice 6: Out of Action
    action = resolve(battle, "fight", [4, 4, 6], fighter=bruiser, target=target, weapon=knife)
    target.refresh_from_db()
    bruiser.refresh_from_db()
    assert action.result["outcome"] == "out_of_action"
    assert target.out_of_action and target.taken_out_by_id == bruiser.pk
    # Issue 22: a fighter whose opponent went Out of Action is no longer Engaged (this said: still Engaged).
    assert not bruiser.engaged and not bruiser.ready


@pytest.mark.django_db
def test_n18_agility_and_fall(make_battle):
    battle = make_battle("n18", fighters=2)
    (_, bruiser), _ = sides(battle)
    action = resolve(battle, "test", [4], test="agility", fighter=bruiser)
    assert action.rule == "agility" and action.result["passed"]
    resolve(battle, "test", None, test="fall", fighter=bruiser, height=2, cause="fall")
    bruiser.refresh_from_db()
    assert bruiser.condition == Condition.PINNED and bruiser.prone  # a short fall: Pinned


@pytest.mark.django_db
def test_search_and_destroy_caches_become_facts_and_awards(make_battle):
    battle = make_battle("n18", fighters=2, scenario="search-and-destroy", role_a="attacker")
    (leader, bruiser), _ = sides(battle)
    menu = n18.scenario_actions(battle)
    assert "destroy-cache" in menu and "recover-cache" in menu and "defile-relic" not in menu
    action = resolve(battle, "scenario", [6, 6], action="destroy-cache", fighter=leader, friends_near=1)
    assert action.query == {"kind": "characteristic", "characteristic": "Int", "value": 7, "modifier": 1}
    resolve(battle, "scenario", None, action="recover-cache", fighter=bruiser)
    battle = battle_end(session=battle, actor=battle.player_a, winner="attacker")
    assert len(battle.facts["caches_destroyed"]) == len(battle.facts["caches_recovered"]) == 1
    awards = {f["name"]: f["awards"] for f in battle.report["fighters"]}
    assert awards[leader.name] == {"caches_destroyed": 1} and awards[bruiser.name] == {"caches_recovered": 1}


@pytest.mark.django_db
def test_border_dispute_offers_the_relic_not_the_caches(make_battle):
    battle = make_battle("n18", fighters=2, scenario="border-dispute")
    menu = n18.scenario_actions(battle)
    assert "defile-relic" in menu and "destroy-cache" not in menu and "loot-casket" in menu
    assert battle.scenario_name == "Border Dispute"


@pytest.mark.django_db
def test_relic_bonus_on_nerve_until_defiled(make_battle):
    battle = make_battle("n18", fighters=2, scenario="border-dispute")
    (_, bruiser), (enemy, _) = sides(battle)
    params = {"test": "nerve", "fighter": bruiser, "near_relic": True}
    assert action_plan(session=battle, kind="test", params=params).query["modifier"] == 2
    resolve(battle, "scenario", None, action="defile-relic", fighter=enemy)
    battle.refresh_from_db()
    assert action_plan(session=battle, kind="test", params=params).query["modifier"] == 0


@pytest.mark.django_db
def test_priority_is_set_and_undone(make_battle):
    battle = make_battle("n18", fighters=2)
    battle_priority_set(session=battle, side="defender", actor=battle.player_b)
    battle.refresh_from_db()
    assert battle.turn_side == "defender"
    action_undo(session=battle, actor=battle.player_b)
    battle.refresh_from_db()
    assert battle.turn_side == "attacker"


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("edition", "field", "value"),
    [
        ("classic", "condition", Condition.DOWN),  # the dice decide who goes down
        ("classic", "prone", True),  # a 2018+ state
        ("n18", "hidden", True),  # a classic state
        ("n18", "wounds_left", 0),
        ("n18", "broken", "maybe"),
    ],
)
def test_only_table_states_are_set_by_hand(make_battle, edition, field, value):
    battle = make_battle(edition, fighters=2)
    (leader, _), _ = sides(battle)
    with pytest.raises(ValidationError):
        fighter_adjust(session=battle, fighter=leader, field=field, value=value, actor=battle.player_a)


@pytest.mark.django_db
def test_set_by_hand_is_logged(make_battle):
    battle = make_battle("classic", fighters=2)
    (leader, _), _ = sides(battle)
    action = fighter_adjust(session=battle, fighter=leader, field="overwatch", value=True, actor=battle.player_a)
    leader.refresh_from_db()
    assert leader.overwatch and action.kind == "adjust" and "Overwatch" in action.summary


@pytest.mark.django_db
def test_border_dispute_reinforcements_in_the_end_phase(make_battle, make_fighter):
    from battles.services import battle_advance
    from rulebook.dice import ScriptedDice

    battle = make_battle("n18", fighters=2, scenario="border-dispute")
    waiting = [make_fighter(battle.gang_a, "ganger", name=f"Reserve {i}") for i in range(3)]
    battle_advance(session=battle, actor=battle.player_a)
    battle_advance(session=battle, actor=battle.player_a)
    battle.refresh_from_db()
    assert battle.phase == Phase.END
    prompts = [p for p in battle_prompts(battle) if p.kind == "reinforce"]
    assert [p.params["side"] for p in prompts] == ["attacker", "defender"]
    # D3 rolled 2 (a D3 face), then picks among 3 (D6 3: the second) and among 2 (D6 5: the second)
    action = battle_reinforce(session=battle, side="attacker", actor=battle.player_a, dice=ScriptedDice([2, 3, 5]))
    arrived = list(battle.fighters.filter(side="attacker", fighter__in=waiting).values_list("name", flat=True))
    assert sorted(arrived) == ["Reserve 1", "Reserve 2"] and "Reserve 1" in action.summary
    assert [p.params["side"] for p in battle_prompts(battle) if p.kind == "reinforce"] == ["defender"]
    action_undo(session=battle, actor=battle.player_a)
    assert not battle.fighters.filter(fighter__in=waiting).exists()


@pytest.mark.django_db
def test_search_and_destroy_reinforces_the_defender_from_round_two(make_battle):
    from battles.services import battle_advance

    battle = make_battle("n18", fighters=2, scenario="search-and-destroy", role_a="attacker")
    for _ in range(2):
        battle_advance(session=battle, actor=battle.player_a)
    battle.refresh_from_db()
    assert not [p for p in battle_prompts(battle) if p.kind == "reinforce"]  # round 1
    for _ in range(3):
        battle_advance(session=battle, actor=battle.player_a)
    battle.refresh_from_db()
    assert battle.round == 2 and battle.phase == Phase.END
    assert [p.params["side"] for p in battle_prompts(battle) if p.kind == "reinforce"] == ["defender"]


@pytest.mark.django_db
@pytest.mark.parametrize("edition", ["classic", "n18"])
def test_undoing_every_action_restores_the_start_whatever_was_rolled(make_battle, edition):
    """Property: any run of shots, fights, phases and hand-set states, undone action by action, leaves the
    battle exactly as it began."""
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    from battles.services import battle_advance, battle_state
    from rulebook.dice import SeededDice

    battle = make_battle(edition, fighters=2)
    start = battle_state(battle, list(battle.fighters.all()))
    step = st.tuples(st.sampled_from(["shoot", "fight", "advance", "adjust"]), st.integers(0, 10_000))

    @settings(max_examples=12, deadline=None, suppress_health_check=list(HealthCheck))
    @given(st.lists(step, min_size=1, max_size=6))
    def run(steps):
        done = 0
        for kind, seed in steps:
            mine, theirs = sides(battle)
            shooter, target = mine[seed % 2], theirs[(seed // 2) % 2]
            if shooter.out_of_action or target.out_of_action:
                continue
            if kind == "advance":
                battle_advance(session=battle, actor=battle.player_a, leave_untaken=True)
            elif kind == "adjust":
                fighter_adjust(
                    session=battle, fighter=shooter, field="broken", value=not shooter.broken, actor=battle.player_a
                )
            elif kind == "shoot":
                pistol = next(f"{w['key']}:0" for w in shooter.profile["weapons"] if w["category"] == "pistol")
                resolve(battle, "shoot", SeededDice(seed), fighter=shooter, target=target, weapon=pistol, distance=4)
            else:
                resolve(battle, "fight", SeededDice(seed), fighter=shooter, target=target)
            done += 1
        for _ in range(done):
            action_undo(session=battle, actor=battle.player_a)
        battle.refresh_from_db()
        assert battle_state(battle, list(battle.fighters.all())) == start

    run()


@pytest.mark.django_db
def test_warnings_beside_the_odds_when_the_rules_say_no(make_battle):
    battle = make_battle("classic", fighters=2)
    (leader, ganger), (target, _) = sides(battle)
    fighter_adjust(session=battle, fighter=leader, field="condition", value=Condition.PINNED, actor=battle.player_a)
    fighter_adjust(session=battle, fighter=target, field="hidden", value=True, actor=battle.player_a)
    pistol = next(f"{w['key']}:0" for w in leader.profile["weapons"] if w["category"] == "pistol")
    plan = action_plan(
        session=battle, kind="shoot", params={"fighter": leader, "target": target, "weapon": pistol, "distance": 6}
    )
    assert any("pinned: he may not shoot" in w for w in plan.warnings)
    assert any("hidden" in w for w in plan.warnings)

    battle = make_battle("n18", fighters=2)
    (leader, _), (target, _) = sides(battle)
    fighter_adjust(session=battle, fighter=leader, field="ready", value=False, actor=battle.player_a)
    leader.refresh_from_db()
    plan = action_plan(session=battle, kind="fight", params={"fighter": leader, "target": target})
    assert plan.warnings == [f"{leader.name} has been activated this round already"]


@pytest.mark.django_db
def test_n18_reload_a_weapon_out_of_ammo(make_battle, client):
    battle = make_battle("n18", fighters=2)
    (leader, _), _ = sides(battle)
    pistol = next(w for w in leader.profile["weapons"] if w["category"] == "pistol")
    leader.failed_weapons = [pistol["key"]]
    leader.save()
    client.force_login(battle.player_a)
    page = client.get(f"/battles/{battle.pk}/act/test/?test=reload").content.decode()
    assert f"{leader.name}: Autopistol — failed" in page
    action = resolve(battle, "test", [3], test="reload", fighter=leader, weapon=f"{pistol['key']}:0")
    assert action.query == {"kind": "ammo", "ammo": 4} and not action.result["passed"]
    resolve(battle, "test", [4], test="reload", fighter=leader, weapon=f"{pistol['key']}:0")
    leader.refresh_from_db()
    assert leader.failed_weapons == []
