"""2018+ shoot and fight answers written onto the fighters, with scripted dice: pins (not from Gas), Rapid Fire's
several hits, Out of Ammo and jammed weapons, Reaction attacks, a fighter left standing at 0 wounds, the cache."""

import pytest
from django.core.exceptions import ValidationError

from battles.models import Condition
from battles.rules import n18
from battles.selectors import action_plan
from battles.services import action_resolve, action_undo, fighter_adjust


def sides(battle):
    rows = list(battle.fighters.all())
    return [f for f in rows if f.side == "attacker"], [f for f in rows if f.side == "defender"]


def resolve(battle, kind, dice=None, **params):
    return action_resolve(session=battle, kind=kind, params=params, actor=battle.player_a, dice=dice)


def arm(fighter, slug: str, category: str, ammo: str | None) -> str:
    """Hand the fighter's snapshot one more weapon from the Trading Post; its choice for the forms."""
    entry = {
        "key": slug,
        "name": slug.replace("-", " ").title(),
        "slug": slug,
        "category": category,
        "shoots": True,
        "fights": False,
        "profiles": [{"name": "", "query": {"weapon": slug}, "ammo": ammo}],
    }
    fighter.profile = {**fighter.profile, "weapons": [*fighter.profile["weapons"], entry]}
    fighter.save(update_fields=["profile"])
    return f"{slug}:0"


def pistol(fighter) -> str:
    return next(f"{w['key']}:0" for w in fighter.profile["weapons"] if w["category"] == "pistol")


@pytest.mark.django_db
def test_rapid_fire_hits_each_land_and_leave_the_target_standing_at_zero_wounds(make_battle):
    battle = make_battle("n18", fighters=2)
    (leader, _), (_, target) = sides(battle)
    # hit 4; Firepower dice 2 (two hits); each hit: wound 5, Injury dice 1 (Flesh Wound)
    action = resolve(
        battle, "shoot", [4, 2, 5, 1, 5, 1], fighter=leader, target=target, weapon=pistol(leader), distance=3
    )
    target.refresh_from_db()
    assert action.result["hits"] == 2
    assert f"{target.name} takes 2 hits" in action.changes
    assert (target.wounds_left, target.flesh_wounds) == (0, 2)
    assert target.condition == Condition.PINNED and target.prone
    # the next query tells the rulebook the truth: no wounds left, on their feet
    plan = action_plan(
        session=battle,
        kind="shoot",
        params={"fighter": leader, "target": target, "weapon": pistol(leader), "distance": 3},
    )
    assert plan.query["target"]["W"] == 0 and plan.query["target"]["state"] == "prone"


@pytest.mark.django_db
def test_gas_does_not_pin(make_battle):
    battle = make_battle("n18", fighters=2)
    (leader, _), (_, target) = sides(battle)
    gas = arm(leader, "choke-gas-grenade", "grenade", "5+")
    # hit 4, the Gas roll 1 (no effect), the grenade's Ammo test 6
    action = resolve(battle, "shoot", [4, 1, 6], fighter=leader, target=target, weapon=gas, distance=3)
    target.refresh_from_db()
    assert action.result["hits"] == 1 and action.result["pins"] is False
    assert target.condition == Condition.ACTIVE and not target.prone


@pytest.mark.django_db
def test_a_grenade_out_of_ammo_is_out_for_the_battle(make_battle):
    battle = make_battle("n18", fighters=2)
    (leader, _), (_, target) = sides(battle)
    gas = arm(leader, "choke-gas-grenade", "grenade", "5+")
    # hit 4, the Gas roll 1, the grenade's Ammo test 1 fails: the last of them
    action = resolve(battle, "shoot", [4, 1, 1], fighter=leader, target=target, weapon=gas, distance=3)
    leader.refresh_from_db()
    assert leader.jammed_weapons == ["choke-gas-grenade"]
    assert f"{leader.name}'s Choke Gas Grenade is Out of Ammo for the rest of the battle" in action.changes
    with pytest.raises(ValidationError, match="cannot be reloaded"):
        resolve(battle, "test", [6], test="reload", fighter=leader, weapon=gas)


@pytest.mark.django_db
def test_a_failed_ammo_test_is_out_of_ammo_until_reloaded(make_battle):
    battle = make_battle("n18", fighters=2)
    (leader, _), (_, target) = sides(battle)
    # a miss (1), the Firepower dice shows the Ammo symbol, the Ammo test 2 fails
    action = resolve(battle, "shoot", [1, "1a", 2], fighter=leader, target=target, weapon=pistol(leader), distance=3)
    leader.refresh_from_db()
    key = pistol(leader).partition(":")[0]
    assert leader.failed_weapons == [key] and leader.jammed_weapons == []
    assert any("Out of Ammo" in c for c in action.changes)
    resolve(battle, "test", [4], test="reload", fighter=leader, weapon=pistol(leader))
    leader.refresh_from_db()
    assert leader.failed_weapons == []


@pytest.mark.django_db
def test_two_failed_ammo_tests_jam_a_rapid_fire_weapon_for_the_battle(make_battle, client):
    battle = make_battle("n18", fighters=2)
    (leader, _), (_, target) = sides(battle)
    stubber = arm(leader, "heavy-stubber", "heavy", "4+")
    # a miss (1), two Firepower dice with the Ammo symbol, both Ammo tests fail
    action = resolve(battle, "shoot", [1, "1a", "1a", 1, 2], fighter=leader, target=target, weapon=stubber, distance=10)
    leader.refresh_from_db()
    assert action.result["jammed"] is True
    assert leader.failed_weapons == leader.jammed_weapons == ["heavy-stubber"]
    assert f"{leader.name}'s Heavy Stubber jams for the rest of the battle" in action.changes
    with pytest.raises(ValidationError, match="cannot be reloaded"):
        resolve(battle, "test", [6], test="reload", fighter=leader, weapon=stubber)
    plan = action_plan(
        session=battle, kind="shoot", params={"fighter": leader, "target": target, "weapon": stubber, "distance": 10}
    )
    assert "The Heavy Stubber cannot be used again this battle" in plan.warnings
    client.force_login(battle.player_a)
    assert "Heavy Stubber (out for the battle)" in client.get(f"/battles/{battle.pk}/").content.decode()
    action_undo(session=battle, actor=battle.player_a)
    leader.refresh_from_db()
    assert leader.failed_weapons == leader.jammed_weapons == []


@pytest.mark.django_db
def test_reaction_attacks_hurt_the_attacker(make_battle):
    battle = make_battle("n18", fighters=2)
    (_, attacker), (_, target) = sides(battle)
    knife = next(f"{w['key']}:0" for w in attacker.profile["weapons"] if w["category"] == "close_combat")
    # the attacker's Attack dice misses (1); the target strikes back with its knife and pistol (two weapons: one
    # Attack dice each): knife 4 hits, pistol 1 misses; the knife's hit: wound 4, Injury dice 4
    action = resolve(battle, "fight", [1, 4, 1, 4, 4], fighter=attacker, target=target, weapon=knife, reaction=True)
    attacker.refresh_from_db()
    target.refresh_from_db()
    assert action.query["target"]["weapon"] == "fighting-knife" and action.query["attacker"]["T"]
    assert action.result["reaction"]["outcome"] == "seriously_injured"
    assert attacker.condition == Condition.SERIOUSLY_INJURED and attacker.seriously_injured_by_id == target.pk
    assert target.condition == Condition.ACTIVE
    assert f"{attacker.name} is Seriously Injured" in action.changes


@pytest.mark.django_db
def test_no_reaction_attacks_unless_asked(make_battle):
    battle = make_battle("n18", fighters=2)
    (_, attacker), (_, target) = sides(battle)
    action = resolve(battle, "fight", [1], fighter=attacker, target=target)
    assert "reaction" not in action.query and "reaction" not in action.result


@pytest.mark.django_db
@pytest.mark.parametrize(("face", "found"), [(5, True), (4, False)])
def test_search_for_the_weapon_cache(make_battle, face, found):
    battle = make_battle("n18", fighters=2, scenario="search-and-destroy", role_a="attacker")
    (leader, _), _ = sides(battle)
    assert "search-cache" in n18.scenario_actions(battle)
    action = resolve(battle, "scenario", [face], action="search-cache", fighter=leader)
    battle.refresh_from_db()
    assert action.rule == "cache-search" and action.result["found"] is found
    assert action.odds["p_found_exact"] == "1/3"
    assert len(battle.facts.get("caches_found", [])) == int(found)
    assert action.changes == [f"{leader.name} finds a weapon cache" if found else f"{leader.name} fails to find it"]


@pytest.mark.django_db
def test_only_an_active_fighter_finds_the_cache(make_battle):
    battle = make_battle("n18", fighters=2, scenario="search-and-destroy", role_a="attacker")
    (leader, _), _ = sides(battle)
    fighter_adjust(session=battle, fighter=leader, field="condition", value=Condition.PINNED, actor=battle.player_a)
    plan = action_plan(session=battle, kind="scenario", params={"action": "search-cache", "fighter": leader})
    assert plan.warnings == [f"{leader.name} is not Active: only an Active fighter finds the cache"]


@pytest.mark.django_db
def test_opening_a_casket_warns_as_shooting_does_when_the_fighter_may_not_act(make_battle):
    """Issue 21's walk: a Forge Tyrant left Prone and Pinned by a Booby Trapped casket, his activation spent, opened
    the next casket without a word, where Shoot and Fight name what the rules forbid."""
    battle = make_battle("n18", fighters=2, scenario="smash-and-grab", role_a="attacker")
    (leader, _), _ = sides(battle)
    fresh = action_plan(session=battle, kind="scenario", params={"action": "loot-casket", "fighter": leader})
    assert fresh.warnings == []
    fighter_adjust(session=battle, fighter=leader, field="condition", value=Condition.PINNED, actor=battle.player_a)
    fighter_adjust(session=battle, fighter=leader, field="ready", value=False, actor=battle.player_a)
    plan = action_plan(session=battle, kind="scenario", params={"action": "loot-casket", "fighter": leader})
    assert plan.warnings == [f"{leader.name} has been activated this round already", f"{leader.name} is Pinned"]
