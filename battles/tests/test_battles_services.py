"""State changes of both editions with scripted dice, undo, prompts and the end of a battle."""

import pytest
from django.core.exceptions import ValidationError

from battles.models import BattleStatus, Condition, Phase
from battles.selectors import battle_prompts, proposed_winner
from battles.services import (
    action_resolve,
    action_undo,
    battle_advance,
    battle_end,
    battle_start_from_campaign,
    battle_state,
    fighter_adjust,
    gang_flee,
)


def sides(battle):
    fighters = list(battle.fighters.all())
    return [f for f in fighters if f.side == "attacker"], [f for f in fighters if f.side == "defender"]


def weapon(fighter, category):
    entry = next(w for w in fighter.profile["weapons"] if w["category"] == category)
    return f"{entry['key']}:0"


def shoot(battle, shooter, target, dice, distance=6, **extra):
    params = {"fighter": shooter, "target": target, "weapon": weapon(shooter, "pistol"), "distance": distance}
    return action_resolve(session=battle, kind="shoot", params={**params, **extra}, actor=battle.player_a, dice=dice)


@pytest.mark.django_db
def test_battle_start_snapshots_each_fighter_and_fresh_state(make_battle):
    battle = make_battle("classic", fighters=3)
    mine, theirs = sides(battle)
    assert len(mine) == len(theirs) == 3
    assert battle.phase == Phase.MOVEMENT and battle.round == 1 and battle.starting_crew_a == 3
    leader = mine[0]
    assert leader.profile["category"] == "leader" and leader.profile["stats"]["BS"] == 4
    assert {w["slug"] for w in leader.profile["weapons"]} == {"laspistol", "sword"}
    assert leader.wounds_left == 1 and leader.condition == Condition.STANDING
    laspistol = next(w for w in leader.profile["weapons"] if w["slug"] == "laspistol")
    assert laspistol["profiles"][0]["query"] == {"weapon": "laspistol"}


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("dice", "condition", "flesh", "pinned_shooter_weapon"),
    [
        ([3, 6, 2], Condition.DOWN, 0, False),  # hit on 3 (needs 2 at short range with BS 4), wound 6, injury 2: down
        ([3, 6, 1], Condition.PINNED, 1, False),  # injury 1: flesh wound, and pinned by the hit
        ([3, 6, 6], Condition.OUT_OF_ACTION, 0, False),
        ([3, 2], Condition.PINNED, 0, False),  # hit, no wound: pinned
        ([1], Condition.STANDING, 0, False),  # a 1 always misses
        (
            [6, 2, 1],
            Condition.PINNED,
            0,
            True,
        ),  # a 6 to hit calls the Ammo roll: laspistol 2+ fails on 1, no explosion on 2
    ],
)
def test_classic_shoot_applies_the_outcome(make_battle, dice, condition, flesh, pinned_shooter_weapon):
    battle = make_battle("classic", fighters=2)
    (leader, _), (target, _) = sides(battle)
    action = shoot(battle, leader, target, [*dice, *([2] if pinned_shooter_weapon else [])])
    target.refresh_from_db()
    leader.refresh_from_db()
    assert target.condition == condition
    assert target.flesh_wounds == flesh
    assert bool(leader.failed_weapons) == pinned_shooter_weapon
    assert action.dice[0]["value"] == dice[0] and action.dice_entered
    if condition == Condition.OUT_OF_ACTION:
        assert target.taken_out_by_id == leader.pk


@pytest.mark.django_db
def test_classic_fight_winner_strikes_the_loser(make_battle):
    battle = make_battle("classic", fighters=2)
    (leader, _), (enemy, _) = sides(battle)
    # attack dice: leader has 1 A + sword & laspistol (2 weapons: 2 dice) and the enemy the same.
    action = action_resolve(
        session=battle,
        kind="fight",
        params={"fighter": leader, "target": enemy, "charging": True},
        actor=battle.player_a,
        dice=None,
    )
    enemy.refresh_from_db()
    leader.refresh_from_db()
    assert action.result["winner"] in ("attacker", "defender", "standoff")
    loser = {"attacker": leader, "defender": enemy}.get(action.result.get("loser"))
    if loser is not None and action.result["wounds"]["outcome"] in ("down", "out_of_action"):
        assert loser.condition == Condition.OUT_OF_ACTION  # down in a one-on-one fight is out of action
    assert action.odds["p_attacker_wins"] > 0


@pytest.mark.django_db
def test_classic_test_leadership_breaks_and_nerve_recovers(make_battle):
    battle = make_battle("classic", fighters=2)
    (_, ganger), _ = sides(battle)
    action_resolve(
        session=battle,
        kind="test",
        params={"test": "leadership", "fighter": ganger},
        actor=battle.player_a,
        dice=[6, 6],
    )
    ganger.refresh_from_db()
    assert ganger.broken
    action_resolve(
        session=battle,
        kind="test",
        params={"test": "nerve", "fighter": ganger, "in_cover_unseen": True},
        actor=battle.player_a,
        dice=[1, 2],
    )
    ganger.refresh_from_db()
    assert not ganger.broken


@pytest.mark.django_db
def test_classic_bottle_prompt_after_a_quarter_down(make_battle):
    battle = make_battle("classic", fighters=3)
    (leader, _, _), (target, _, _) = sides(battle)
    shoot(battle, leader, target, [3, 6, 2])  # down
    battle.refresh_from_db()
    prompts = [p.text for p in battle_prompts(battle)]
    assert any("Leadership test" in p for p in prompts)  # friends of the fighter who went down
    for _ in range(4):  # to side b's movement phase, the Leadership tests not taken
        battle_advance(session=battle, actor=battle.player_a, leave_untaken=True)
    battle.refresh_from_db()
    assert battle.turn_side == "defender" and battle.phase == Phase.MOVEMENT
    prompts = battle_prompts(battle)
    bottle = next(p for p in prompts if p.params.get("test") == "bottle")
    action_resolve(session=battle, kind="test", params=bottle.params, actor=battle.player_b, dice=[6, 6])
    battle.refresh_from_db()
    assert battle.bottled_b
    assert not any(p.params.get("test") == "bottle" for p in battle_prompts(battle))


@pytest.mark.django_db
def test_classic_recovery_roll_in_the_recovery_phase(make_battle):
    battle = make_battle("classic", fighters=2)
    (leader, _), (target, _) = sides(battle)
    shoot(battle, leader, target, [3, 6, 2])
    for _ in range(7):  # side b's recovery phase, the tests on the way not taken
        battle_advance(session=battle, actor=battle.player_a, leave_untaken=True)
    battle.refresh_from_db()
    assert battle.phase == Phase.RECOVERY and battle.turn_side == "defender"
    prompt = next(p for p in battle_prompts(battle) if p.params.get("test") == "recovery")
    action_resolve(session=battle, kind="test", params=prompt.params, actor=battle.player_b, dice=[1])
    target.refresh_from_db()
    assert target.condition == Condition.PINNED and target.flesh_wounds == 1


@pytest.mark.django_db
def test_n18_shoot_seriously_injures_and_pins(make_battle):
    battle = make_battle("n18", fighters=2)
    (leader, _), (_, target) = sides(battle)
    # hit (BS 4+ with +1 short), Firepower 1, wound S3 v T4 needs 5, no save, Injury dice 4: Seriously Injured
    action = shoot(battle, leader, target, [4, 1, 5, 4], distance=3)
    target.refresh_from_db()
    leader.refresh_from_db()
    assert action.result["outcome"] == "seriously_injured", action.result
    assert target.condition == Condition.SERIOUSLY_INJURED and target.prone
    assert target.seriously_injured_by_id == leader.pk
    assert not leader.ready


@pytest.mark.django_db
def test_an_action_writes_only_the_fighters_and_fields_it_changed(make_battle):
    """A shot that pins its target writes the target's condition and stance and the shooter's readiness, not the
    twelve state fields of every fighter in play; undoing it writes the same few back."""
    import re

    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    battle = make_battle("n18", fighters=4)
    (leader, *_), (_, target, *_) = sides(battle)
    condition = target.condition
    for step in (
        lambda: shoot(battle, leader, target, [4, 1, 1], distance=3),
        lambda: action_undo(session=battle, actor=battle.player_a),
    ):
        with CaptureQueriesContext(connection) as queries:
            step()
        writes = [q["sql"] for q in queries if q["sql"].startswith('UPDATE "battles_battlefighter"')]
        assert writes and all('"wounds_left"' not in sql and '"jammed_weapons"' not in sql for sql in writes), writes
        written = {int(pk) for sql in writes for pk in re.search(r'"id" IN \(([\d, ]+)\)', sql)[1].split(",")}
        assert written == {leader.pk, target.pk}, writes
    target.refresh_from_db()
    assert target.condition == condition and not target.prone


@pytest.mark.django_db
def test_n18_shoot_hit_pins_a_standing_fighter(make_battle):
    battle = make_battle("n18", fighters=2)
    (leader, _), (_, target) = sides(battle)
    shoot(battle, leader, target, [4, 1, 1], distance=3)  # hit, Firepower 1, no wound
    target.refresh_from_db()
    assert target.condition == Condition.PINNED and target.prone


@pytest.mark.django_db
def test_n18_end_phase_prompts_bottle_recovery_and_rally(make_battle):
    battle = make_battle("n18", fighters=2)
    (leader, ganger), (enemy_leader, target) = sides(battle)
    shoot(battle, leader, target, [4, 1, 5, 4], distance=3)
    prompts = battle_prompts(battle)
    nerve = next(p for p in prompts if p.params.get("test") == "nerve")
    action_resolve(session=battle, kind="test", params=nerve.params, actor=battle.player_b, dice=[1, 1])
    battle_advance(session=battle, actor=battle.player_a)
    battle_advance(session=battle, actor=battle.player_a)
    battle.refresh_from_db()
    assert battle.phase == Phase.END
    kinds = {(p.params["test"], p.params.get("side") or p.params.get("fighter")) for p in battle_prompts(battle)}
    assert ("bottle", "defender") in kinds and ("recovery", target.pk) in kinds and ("rally", enemy_leader.pk) in kinds
    action_resolve(
        session=battle, kind="test", params={"test": "recovery", "fighter": target}, actor=battle.player_b, dice=[1]
    )
    target.refresh_from_db()
    assert target.condition == Condition.PINNED and target.flesh_wounds == 1
    with pytest.raises(ValidationError, match=r"The End phase still requires: .*Rally test") as refused:
        battle_advance(session=battle, actor=battle.player_a)
    assert "Recovery" not in str(refused.value)  # taken
    battle.refresh_from_db()
    assert battle.phase == Phase.END
    moved = battle_advance(session=battle, actor=battle.player_a, leave_untaken=True)
    assert any(change.startswith("Left untaken: ") and "Rally test" in change for change in moved.changes)
    battle.refresh_from_db()
    leader.refresh_from_db()
    assert battle.round == 2 and battle.phase == Phase.PRIORITY and leader.ready


@pytest.mark.django_db
def test_n18_loot_casket_and_relic_become_scenario_facts(make_battle):
    battle = make_battle("n18", fighters=2)
    (leader, ganger), _ = sides(battle)
    action_resolve(
        session=battle,
        kind="scenario",
        params={"action": "loot-casket", "fighter": leader},
        actor=battle.player_a,
        dice=[3, 4],
    )
    action_resolve(
        session=battle, kind="scenario", params={"action": "defile-relic", "fighter": ganger}, actor=battle.player_a
    )
    battle.refresh_from_db()
    assert battle.facts["caskets"] == [
        {"side": "attacker", "fighter": leader.pk, "result": "Nothing Much", "credits": 4}
    ]
    assert battle.facts["relics_defiled"]["defender"]["fighter"] == ganger.pk


@pytest.mark.django_db
@pytest.mark.parametrize("edition", ["classic", "n18"])
def test_undo_restores_the_exact_state(make_battle, edition):
    battle = make_battle(edition, fighters=3)
    (leader, ganger, _), (_, target, _) = sides(battle)
    fighters = list(battle.fighters.all())
    before = battle_state(battle, fighters)
    shoot(battle, leader, target, [3, 6, 6] if edition == "classic" else [4, 1, 5, 6], distance=3)
    fighter_adjust(session=battle, fighter=ganger, field="broken", value=True, actor=battle.player_a)
    battle_advance(session=battle, actor=battle.player_a, leave_untaken=True)
    for _ in range(3):
        action_undo(session=battle, actor=battle.player_a)
    battle.refresh_from_db()
    assert battle_state(battle, list(battle.fighters.all())) == before
    assert battle.actions.filter(undone=False).count() == 0
    with pytest.raises(ValidationError):
        action_undo(session=battle, actor=battle.player_a)


@pytest.mark.django_db
def test_entered_dice_must_all_be_used(make_battle):
    battle = make_battle("classic", fighters=2)
    (leader, _), (target, _) = sides(battle)
    with pytest.raises(ValidationError, match="dice"):
        shoot(battle, leader, target, [1, 4, 4])
    with pytest.raises(ValidationError, match="ran out of dice"):
        shoot(battle, leader, target, [3])
    assert not battle.actions.exists()


@pytest.mark.django_db
def test_battle_end_writes_the_report(make_battle):
    battle = make_battle("classic", fighters=2)
    (leader, _), (target, _) = sides(battle)
    shoot(battle, leader, target, [3, 6, 6])
    battle = battle_end(session=battle, actor=battle.player_a, winner="attacker")
    assert battle.status == BattleStatus.ENDED
    report = battle.report
    assert report["winner"] == "attacker" and report["sides"]["attacker"]["bottled_out"] is False
    ended = {f["name"]: f for f in report["fighters"]}
    assert ended[target.name]["outcome"] == "out_of_action"
    assert ended[target.name]["by"] == leader.fighter_id
    # Classic: the hit wounded (6) with no armour to save it: a wounding hit, +5 XP after the battle.
    awards = {"out_of_action": 1, "leader_or_champion_out_of_action": 1, "wounding_hits": 1}
    assert ended[leader.name]["awards"] == awards
    with pytest.raises(ValidationError):
        shoot(battle, leader, target, [3, 6, 6])


@pytest.fixture
def campaign_battle(make_battle):
    """A campaign battle (The Trap) between two fresh gangs, with an arbitrator."""
    from campaigns.models import Battle, Campaign, CampaignArbitrator

    friendly = make_battle("n18", fighters=3)
    friendly.status = "ended"  # its gangs' fighters are free for the campaign battle (one open battle at a time)
    friendly.save(update_fields=["status"])
    campaign = Campaign.objects.create(edition="n18", name="Cycle test", created_by=friendly.player_a)
    CampaignArbitrator.objects.create(campaign=campaign, user=friendly.player_a)
    return Battle.objects.create(
        campaign=campaign,
        origin="arranged",
        attacker=friendly.gang_a,
        defender=friendly.gang_b,
        scenario="the-trap",
        scenario_name="The Trap",
    )


@pytest.mark.django_db
def test_campaign_battle_starts_with_its_scenario_and_ends_into_its_report(campaign_battle):
    from campaigns.models import BattleStatus as CampaignStatus
    from rulebook.dice import SeededDice

    battle = battle_start_from_campaign(
        campaign_battle=campaign_battle, started_by=campaign_battle.attacker.owner, dice=SeededDice(4)
    )
    assert battle.scenario == "the-trap" and battle.role_a == "attacker" and battle.role_b == "defender"
    assert battle.crews["attacker"]["label"] == "Custom (6)" and battle.starting_crew_a == 3
    (leader, *_), (_, target, _) = sides(battle)
    shoot(battle, leader, target, [4, 1, 5, 6], distance=3)  # out of action
    battle_end(session=battle, actor=battle.player_a, winner="attacker")
    campaign_battle.refresh_from_db()
    assert campaign_battle.status == CampaignStatus.REPORTED
    assert campaign_battle.winner_id == battle.gang_a_id
    result = campaign_battle.fighter_results.get(fighter=target.fighter)
    assert result.outcome == "out_of_action" and result.caused_by_id == leader.fighter_id
    assert campaign_battle.fighter_results.get(fighter=leader.fighter).awards == {"out_of_action": 1}


@pytest.mark.django_db
def test_campaign_battle_uses_the_crews_the_campaign_picked(campaign_battle):
    attacker = list(campaign_battle.attacker.fighters.values_list("pk", flat=True))[:2]
    defender = list(campaign_battle.defender.fighters.values_list("pk", flat=True))[:1]
    campaign_battle.crews = {
        "attacker": {"fighters": [str(pk) for pk in attacker], "dice": []},
        "defender": {"fighters": [str(pk) for pk in defender], "dice": []},
    }
    campaign_battle.save()
    battle = battle_start_from_campaign(campaign_battle=campaign_battle, started_by=campaign_battle.attacker.owner)
    assert [f.fighter_id for f in battle.fighters.filter(side="attacker")] == attacker
    assert battle.starting_crew_b == 1


@pytest.mark.django_db
def test_a_gang_that_flees_loses_in_the_campaign_report(campaign_battle):
    battle = battle_start_from_campaign(campaign_battle=campaign_battle, started_by=campaign_battle.attacker.owner)
    gang_flee(session=battle, side="defender", actor=battle.player_b)
    battle.refresh_from_db()
    assert battle.bottled_b and battle.facts["fled"] == ["defender"]
    with pytest.raises(ValidationError, match="wins"):
        battle_end(session=battle, actor=battle.player_a, winner="")  # the campaign: the gang that fled loses
    battle_end(session=battle, actor=battle.player_a, winner="attacker")
    campaign_battle.refresh_from_db()
    assert campaign_battle.defender_fled and campaign_battle.defender_bottled and not campaign_battle.attacker_fled


@pytest.mark.django_db
def test_fleeing_is_undone(make_battle):
    battle = make_battle("classic", fighters=2)
    gang_flee(session=battle, side="attacker", actor=battle.player_a)
    action_undo(session=battle, actor=battle.player_a)
    battle.refresh_from_db()
    assert not battle.bottled_a and "fled" not in battle.facts


@pytest.mark.django_db
def test_a_campaign_battle_played_in_the_assistant_awards_the_standard_experience(campaign_battle):
    """The assistant's record (who took whom Out of Action) is what the post-battle sequence awards from."""
    from campaigns.services import battle_report_confirm
    from postbattle import engine
    from postbattle.selectors import battle_context
    from rulebook.dice import ScriptedDice, SeededDice

    battle = battle_start_from_campaign(
        campaign_battle=campaign_battle, started_by=campaign_battle.attacker.owner, dice=SeededDice(4)
    )
    (leader, *_), (_, target, _) = sides(battle)
    shoot(battle, leader, target, [4, 1, 5, 6], distance=3)  # out of action
    # The Trap: 1 Victory Point to none, both gangs still on the battlefield: the end proposes the attacker.
    side, why = proposed_winner(battle, list(battle.fighters.all()))
    assert side == "attacker" and why.startswith("Victory Points 1 to 0")
    battle_end(session=battle, actor=battle.player_a, winner="attacker")
    confirmed = battle_report_confirm(battle=campaign_battle, actor=campaign_battle.defender.owner, is_arbitrator=True)
    context, start = battle_context(confirmed, confirmed.attacker)
    rewards = next(s for s in engine.steps_for("n18") if s.slug == "rewards")
    outcome = rewards.run(context, start, ScriptedDice([1, 1, 1]), {})
    xp = [e for e in outcome.effects if e["op"] == "xp" and e["fighter"] == str(leader.fighter_id)]
    standard = [e for e in xp if "enemy taken Out of Action" in e["reason"]]
    assert [e["amount"] for e in standard] == [1]
