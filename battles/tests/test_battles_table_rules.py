"""The rules the assistant used to leave to the players, at the table: n18 Coup de Grace, the bottled gang's Cool
tests every End phase, Home Turf in the Bottle and Rally tests, friends within 3", Charge and two weapons in a
fight (odds equal the command line's), a classic fighter shot while down; and the next die the table rolls."""

import pytest
from django.core.exceptions import ValidationError

from battles.models import Condition, Phase
from battles.selectors import action_next_die, action_odds, action_plan, battle_prompts
from battles.services import action_resolve, battle_advance
from battles.tests.test_battles_odds_cli import cli_odds
from rulebook.dice import DiceSource


def sides(battle):
    rows = list(battle.fighters.all())
    return [f for f in rows if f.side == "attacker"], [f for f in rows if f.side == "defender"]


def weapon(fighter, category: str) -> str:
    return next(f"{w['key']}:0" for w in fighter.profile["weapons"] if w["category"] == category)


@pytest.mark.django_db
def test_coup_de_grace_takes_a_seriously_injured_enemy_out(make_battle):
    battle = make_battle("n18", fighters=2)
    (attacker, _), (target, _) = sides(battle)
    target.condition, target.prone = Condition.SERIOUSLY_INJURED, True
    target.save()
    params = {"fighter": attacker, "target": target}
    plan = action_plan(session=battle, kind="coup-de-grace", params=params)
    assert action_odds(session=battle, plan=plan) == cli_odds("n18", "coup-de-grace", plan.query)
    action = action_resolve(session=battle, kind="coup-de-grace", params=params, actor=battle.player_a)
    target.refresh_from_db()
    assert target.out_of_action and target.taken_out_by_id == attacker.pk and action.dice == []


@pytest.mark.django_db
def test_coup_de_grace_refuses_a_standing_enemy(make_battle):
    battle = make_battle("n18", fighters=2)
    (attacker, _), (target, _) = sides(battle)
    plan = action_plan(session=battle, kind="coup-de-grace", params={"fighter": attacker, "target": target})
    with pytest.raises(ValidationError, match="target.state"):
        action_odds(session=battle, plan=plan)


@pytest.mark.django_db
def test_a_bottled_gang_tests_cool_for_every_fighter_each_end_phase(make_battle):
    battle = make_battle("n18", fighters=2)
    (_, _), (leader, ganger) = sides(battle)
    battle.bottled_b = True
    battle.phase = Phase.END
    battle.save()
    flee = {p.params["fighter"] for p in battle_prompts(battle) if p.params.get("test") == "flee"}
    assert flee == {leader.pk, ganger.pk}
    action_resolve(
        session=battle, kind="test", params={"test": "flee", "fighter": ganger}, actor=battle.player_b, dice=[1, 1]
    )
    ganger.refresh_from_db()
    assert ganger.out_of_action  # a 2 fails any Cool test: the fighter flees
    flee = {p.params["fighter"] for p in battle_prompts(battle) if p.params.get("test") == "flee"}
    assert flee == {leader.pk}
    # Into the next round and back to its End phase: the one still in play is asked again.
    for _ in range(3):  # End -> Priority (round 2) -> Action -> End, the leader's test not taken
        battle_advance(session=battle, actor=battle.player_a, leave_untaken=True)
    battle.refresh_from_db()
    assert battle.phase == Phase.END and battle.round == 2
    assert {p.params["fighter"] for p in battle_prompts(battle) if p.params.get("test") == "flee"} == {leader.pk}


@pytest.mark.django_db
def test_home_turf_in_the_trap_for_the_defender(make_battle):
    battle = make_battle("n18", fighters=2, scenario="the-trap", role_a="defender")
    (leader, _), (enemy, _) = sides(battle)
    bottle = action_plan(session=battle, kind="test", params={"test": "bottle", "side": "attacker"})
    assert bottle.query["home_turf"] is True
    assert (
        action_plan(session=battle, kind="test", params={"test": "bottle", "side": "defender"}).query["home_turf"]
        is False
    )
    leader.broken = True
    leader.save()
    rally = action_plan(session=battle, kind="test", params={"test": "rally", "fighter": leader, "friends_within_3": 2})
    assert rally.query["home_turf"] is True and rally.query["friends_within_3"] == 2
    shown = action_odds(session=battle, plan=rally)
    assert shown == cli_odds("n18", "test", rally.query) and shown["modifier"] == 3


@pytest.mark.django_db
def test_a_charge_with_two_weapons_equals_the_command_line(make_battle):
    battle = make_battle("n18", fighters=2)
    (attacker, _), (target, _) = sides(battle)
    params = {
        "fighter": attacker,
        "target": target,
        "weapon": weapon(attacker, "close_combat"),
        "second_weapon": weapon(attacker, "pistol"),
        "charging": True,
        "reaction": True,
    }
    plan = action_plan(session=battle, kind="fight", params=params)
    shown = action_odds(session=battle, plan=plan)
    assert shown == cli_odds("n18", "fight", plan.query)
    # Attacks +1 charging +1 for two weapons: the pistol (a Sidearm) takes only one, the knife the rest.
    dice = plan.query["attacker"]["A"] + 1 + 1
    assert [w["attack_dice"] for w in shown["weapons"]] == [dice - 1, 1]
    assert shown["reaction"]["attack_dice"] == target.stats.get("A", 1) + 1  # the target's knife and pistol


@pytest.mark.django_db
def test_a_melee_hit_does_not_pin(make_battle):
    battle = make_battle("n18", fighters=2)
    (_, attacker), (_, target) = sides(battle)
    knife = weapon(attacker, "close_combat")
    # hit 6, wound 1 (no wound): a hit that does nothing else leaves the target Standing and Active
    action_resolve(
        session=battle,
        kind="fight",
        params={"fighter": attacker, "target": target, "weapon": knife},
        actor=battle.player_a,
        dice=[6, 1],
    )
    target.refresh_from_db()
    assert target.condition == Condition.ACTIVE and not target.prone and target.engaged


@pytest.mark.django_db
def test_the_next_die_is_named_and_a_wrong_one_is_pointed_at(make_battle):
    battle = make_battle("n18", fighters=2)
    (shooter, _), (target, _) = sides(battle)
    params = {"fighter": shooter, "target": target, "weapon": weapon(shooter, "pistol"), "distance": 3}
    plan = action_plan(session=battle, kind="shoot", params=params)
    first = action_next_die(session=battle, plan=plan, dice=[])
    assert first.index == 0 and first.die.name == "D6" and "hit roll" in first.purpose
    second = action_next_die(session=battle, plan=plan, dice=[4])
    assert second.die.name == "Firepower"
    with pytest.raises(ValidationError) as wrong:
        action_next_die(session=battle, plan=plan, dice=[4, 7])
    assert wrong.value.code == "wrong_die" and wrong.value.params == {"index": 1}
    with pytest.raises(ValidationError) as extra:
        action_next_die(session=battle, plan=plan, dice=[1, 1, 3])  # a miss needs only the hit and Firepower dice
    assert extra.value.params == {"index": 2}


@pytest.mark.django_db
def test_classic_shot_at_a_fighter_already_down(make_battle):
    battle = make_battle("classic", fighters=2)
    (shooter, _), (target, _) = sides(battle)
    target.condition, target.wounds_left = Condition.DOWN, 0
    target.save()
    params = {"fighter": shooter, "target": target, "weapon": weapon(shooter, "pistol"), "distance": 6}
    plan = action_plan(session=battle, kind="shoot", params=params)
    assert plan.query["target"]["down"] and action_odds(session=battle, plan=plan) == cli_odds(
        "classic", "shoot", plan.query
    )
    # hit 5, wound 4, Injury 3: Down again, which changes nothing; he is not pinned
    action_resolve(session=battle, kind="shoot", params=params, actor=battle.player_a, dice=[5, 4, 3])
    target.refresh_from_db()
    assert target.condition == Condition.DOWN


@pytest.mark.django_db
def test_the_end_phase_lists_what_it_requires_and_says_when_it_is_done(make_battle, client):
    battle = make_battle("n18", fighters=1)
    (_,), (enemy,) = sides(battle)
    battle.bottled_b, battle.phase = True, Phase.END
    battle.save()
    client.force_login(battle.player_a)
    page = client.get(f"/battles/{battle.pk}/").content.decode()
    assert "The End phase requires" in page and f"{enemy.name}: Cool test to stay" in page and "test=flee" in page
    assert "end-phase-done" not in page
    action_resolve(
        session=battle, kind="test", params={"test": "flee", "fighter": enemy}, actor=battle.player_b, dice=[6, 6]
    )
    page = client.get(f"/battles/{battle.pk}/").content.decode()
    assert "end-phase-done" in page and "test=flee" not in page


class LowestFaces(DiceSource):
    """Every die shows its first face (a D6 1, a Firepower dice one bullet hole): a hit that wounds nobody."""

    def _face(self, die, purpose):
        return die.faces[0]


@pytest.mark.django_db
def test_blaze_catches_burns_and_goes_out(make_battle):
    from battles.tests.test_battles_n18_effects import arm

    battle = make_battle("n18", fighters=2)
    (shooter, _), (target, _) = sides(battle)
    flamer = arm(shooter, "hand-flamer", "pistol", None)
    action_resolve(
        session=battle,
        kind="shoot",
        actor=battle.player_a,
        dice=LowestFaces(),
        params={"fighter": shooter, "target": target, "weapon": flamer, "distance": 0},
    )
    battle.refresh_from_db()
    catch = [p for p in battle_prompts(battle) if p.params.get("step") == "catch"]
    assert [p.params["fighter"] for p in catch] == [target.pk]
    plan = action_plan(session=battle, kind="test", params={"test": "blaze", "step": "catch", "fighter": target})
    assert action_odds(session=battle, plan=plan) == cli_odds("n18", "blaze", plan.query)
    action_resolve(
        session=battle, kind="test", params=catch[0].params | {"fighter": target}, actor=battle.player_b, dice=[4]
    )
    target.refresh_from_db()
    battle.refresh_from_db()
    assert target.ablaze and not [p for p in battle_prompts(battle) if p.params.get("step") == "catch"]

    battle_advance(session=battle, actor=battle.player_a)  # Priority -> Action: activated, the fighter burns
    battle.refresh_from_db()
    burn = [p for p in battle_prompts(battle) if p.params.get("test") == "blaze"]
    assert [p.params["fighter"] for p in burn] == [target.pk]
    params = {"test": "blaze", "fighter": target, "friends_within_1": 0}
    plan = action_plan(session=battle, kind="test", params=params)
    assert action_odds(session=battle, plan=plan) == cli_odds("n18", "blaze", plan.query)
    # the burn: wound roll 1 (no wound); Pinned, so stands and moves 2D6 (3, 3); puts the fire out on a 6
    action = action_resolve(session=battle, kind="test", params=params, actor=battle.player_b, dice=[1, 3, 3, 6])
    target.refresh_from_db()
    assert not target.ablaze and target.condition == Condition.ACTIVE and not target.prone
    assert f"{target.name} puts the fire out" in action.changes
    assert not [p for p in battle_prompts(battle) if p.params.get("test") == "blaze"]


@pytest.mark.django_db
def test_a_prone_target_strikes_back_only_when_charged_to_its_feet(make_battle):
    battle = make_battle("n18", fighters=2)
    (attacker, _), (target, _) = sides(battle)
    target.condition, target.prone = Condition.PINNED, True
    target.save()
    knife = weapon(attacker, "close_combat")
    params = {"fighter": attacker, "target": target, "weapon": knife, "reaction": True}
    assert "reaction" not in action_plan(session=battle, kind="fight", params=params).query  # Prone: no Reaction
    charged = action_plan(session=battle, kind="fight", params={**params, "charging": True})
    assert charged.query["reaction"] and charged.query["target"]["state"] == "engaged"
    assert charged.query["attacker"]["charging"]


@pytest.mark.django_db
def test_classic_falls_for_a_fighter_with_more_than_one_wound(make_battle):
    battle = make_battle("classic", fighters=2)
    (leader, _), _ = sides(battle)
    leader.wounds_left = 2
    leader.save()
    params = {"test": "fall", "fighter": leader, "height": 5}
    plan = action_plan(session=battle, kind="test", params=params)
    assert plan.query["wounds_left"] == 2 and action_odds(session=battle, plan=plan) == cli_odds(
        "classic", "test", plan.query
    )
    # 5": S5 against T3 wounds on 2+ (3), D6 wounds: 1 - one wound lost, still standing, pinned
    action_resolve(session=battle, kind="test", params=params, actor=battle.player_a, dice=[3, 1])
    leader.refresh_from_db()
    assert leader.wounds_left == 1 and leader.condition == Condition.PINNED
    # 13": out of action without dice, every wound gone
    action_resolve(session=battle, kind="test", params={**params, "height": 13}, actor=battle.player_a)
    leader.refresh_from_db()
    assert leader.out_of_action and leader.wounds_left == 0


@pytest.mark.django_db
def test_charge_from_the_fighters_card(make_battle, client):
    battle = make_battle("n18", fighters=1)
    (attacker,), (target,) = sides(battle)
    client.force_login(battle.player_a)
    page = client.get(f"/battles/{battle.pk}/").content.decode()
    assert f"/battles/{battle.pk}/act/fight/?fighter={attacker.pk}&amp;charging=1" in page
    # The only enemy is chosen; bare hands and the knife leave the weapon to pick, then the odds come.
    knife = weapon(attacker, "close_combat")
    answer = client.post(
        f"/battles/{battle.pk}/act/fight/?fighter={attacker.pk}&charging=1",
        {
            "fighter": attacker.pk,
            "attacker": f"{attacker.pk}:{knife}",
            "target": target.pk,
            "charging": "on",
            "reaction": "on",
        },
    )
    assert answer.status_code == 200
    odds = answer.context["odds"]
    assert odds and "Opponent strikes back" in [row[0] for row in odds["chances"]]
    assert answer.context["plan"].query["attacker"]["charging"] is True
    assert "charge_odds" not in answer.context  # no distance given: no chance to show


@pytest.mark.django_db
def test_a_charge_from_a_distance_shows_how_often_it_reaches(make_battle, client):
    """Movement + D3" against the distance given: the command line's answer (rulebook odds n18 charge) beside the
    fight's odds; the fight's own query is unchanged."""
    import json
    import subprocess
    import sys

    battle = make_battle("n18", fighters=1)
    (attacker,), (target,) = sides(battle)
    client.force_login(battle.player_a)
    distance = attacker.stats["M"] + 2  # needs a 2 or 3 on the D3
    answer = client.post(
        f"/battles/{battle.pk}/act/fight/?fighter={attacker.pk}&charging=1",
        {
            "fighter": attacker.pk,
            "attacker": f"{attacker.pk}:{weapon(attacker, 'close_combat')}",
            "target": target.pk,
            "charging": "on",
            "charge_distance": distance,
            "reaction": "on",
        },
    )
    assert answer.status_code == 200
    [(label, percent, exact)] = answer.context["charge_odds"]["chances"]
    cli = subprocess.run(
        [sys.executable, "-m", "rulebook", "odds", "n18", "charge"],
        input=json.dumps({"M": attacker.stats["M"], "distance": distance}),
        capture_output=True,
        text=True,
        check=True,
    )
    assert (label, exact) == ("The charge reaches", json.loads(cli.stdout)["p_reaches_exact"]) == (label, "2/3")
    assert "charge_distance" not in json.dumps(answer.context["plan"].query)
    assert "The charge reaches" in answer.content.decode()
    # A Movement the rulebook does not read (a fighter without one) is a message on the form, not an error page.
    profile = {**attacker.profile, "stats": {**attacker.stats, "M": 0}}
    type(attacker).objects.filter(pk=attacker.pk).update(profile=profile)
    refused = client.post(
        f"/battles/{battle.pk}/act/fight/?fighter={attacker.pk}&charging=1",
        {
            "fighter": attacker.pk,
            "attacker": f"{attacker.pk}:{weapon(attacker, 'close_combat')}",
            "target": target.pk,
            "charging": "on",
            "charge_distance": distance,
        },
    )
    assert refused.status_code == 200 and "The rulebook cannot answer this" in refused.content.decode()


@pytest.mark.django_db
@pytest.mark.parametrize("kind", ["shoot", "fight"])
def test_an_action_from_a_card_costs_the_same_queries_for_any_gang_size(make_battle, client, kind):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    counts = []
    for size in (1, 4):
        battle = make_battle("n18", fighters=size)
        (first, *_), _ = sides(battle)
        client.force_login(battle.player_a)
        with CaptureQueriesContext(connection) as queries:
            answer = client.get(f"/battles/{battle.pk}/act/{kind}/?fighter={first.pk}")
        assert answer.status_code == 200
        counts.append(len(queries))
    assert counts[0] == counts[1]


TEST_PARAMS = {
    "fall": {"height": 4},
    "fear": {"situation": "charged_by"},
    "recovery": {},
    "blaze": {"step": "activation"},
    "chem": {"chem": "spur"},
}


def _every_test(edition: str) -> list:
    from battles.rules import edition_rules

    return [(edition, test) for test in edition_rules(edition).TESTS]


@pytest.mark.django_db
@pytest.mark.parametrize(("edition", "test"), _every_test("classic") + _every_test("n18"))
def test_every_test_asks_the_rulebook_only_what_it_knows(make_battle, edition, test):
    """Each test the assistant offers sends a query the command line accepts whole (no unknown field) and shows
    the command line's odds for it."""
    battle = make_battle(edition, fighters=2)
    (fighter, _), _ = sides(battle)
    params = {"test": test, "fighter": fighter, "side": "attacker", **TEST_PARAMS.get(test, {})}
    if test == "recovery":
        fighter.condition = Condition.DOWN if edition == "classic" else Condition.SERIOUSLY_INJURED
        fighter.save()
    if test == "reload":
        key = weapon(fighter, "pistol")
        fighter.failed_weapons = [key.partition(":")[0]]
        fighter.save()
        params["weapon"] = key
    if test == "chem":  # a fighter who took Spur before the battle
        from rulebook.n18 import kit

        base = dict(fighter.stats)
        fighter.profile = {**fighter.profile, "chems": {"slugs": ["spur"], "base": base}}
        fighter.profile["stats"] = kit.under_chems(base, ["spur"])[0]
        fighter.save()
    plan = action_plan(session=battle, kind="test", params=params)
    assert action_odds(session=battle, plan=plan) == cli_odds(edition, plan.rule, plan.query)


@pytest.mark.django_db
def test_the_ammo_cache_asks_the_rulebook_only_what_it_knows(make_battle):
    battle = make_battle("n18", fighters=2)
    (fighter, _), _ = sides(battle)
    params = {"action": "ammo-cache", "fighter": fighter, "weapon": weapon(fighter, "pistol")}
    plan = action_plan(session=battle, kind="scenario", params=params)
    assert action_odds(session=battle, plan=plan) == cli_odds("n18", plan.rule, plan.query)


FIGHT_OPTIONS = [
    ("classic", {"charging": True, "higher_up": True, "obstacle": True}),
    ("classic", {"defender_higher_up": True}),
    ("n18", {"charging": True, "modifier": 1, "reaction": True}),
    ("n18", {"modifier": -1}),
]


@pytest.mark.django_db
@pytest.mark.parametrize(("edition", "options"), FIGHT_OPTIONS)
def test_every_fight_option_asks_the_rulebook_only_what_it_knows(make_battle, edition, options):
    battle = make_battle(edition, fighters=2)
    (attacker, _), (target, _) = sides(battle)
    params = {"fighter": attacker, "target": target, **options}
    if edition == "n18":
        params["weapon"] = weapon(attacker, "close_combat")
    plan = action_plan(session=battle, kind="fight", params=params)
    assert action_odds(session=battle, plan=plan) == cli_odds(edition, plan.rule, plan.query)


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("edition", "options"),
    [("classic", {"edge": "lost_combat"}), ("classic", {}), ("n18", {"cause": "forced"}), ("n18", {"cause": "fall"})],
)
def test_every_fall_asks_the_rulebook_only_what_it_knows(make_battle, edition, options):
    battle = make_battle(edition, fighters=2)
    (fighter, _), _ = sides(battle)
    plan = action_plan(session=battle, kind="test", params={"test": "fall", "fighter": fighter, "height": 6, **options})
    assert action_odds(session=battle, plan=plan) == cli_odds(edition, plan.rule, plan.query)
