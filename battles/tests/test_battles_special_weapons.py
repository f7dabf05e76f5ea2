"""2018+ area and special weapons at the table (issue 22): a missed Blast marker's scatter asked for with the shot
(the table's dice or the server's) and who is under it where it lands; Rapid Fire hits split to fighters within 3";
Flash, Web, Smoke and Graviton Pulse shot and written onto the fighters."""

import pytest

from battles.forms import ShootForm
from battles.models import BattleSession, Condition
from battles.rules.n18.effects import BLIND, BLIND_NEXT_ROUND, WEBBED
from battles.selectors import action_next_die, action_plan, battle_prompts
from battles.services import action_resolve, battle_advance, battle_end, fighter_adjust, fighter_move
from battles.tests.test_battles_n18_effects import arm

pytestmark = pytest.mark.django_db


def setup(make_battle, slug: str, category: str, ammo: str | None, fighters: int = 2):
    battle = make_battle("n18", fighters=fighters)
    shooter = battle.fighters.get(side="attacker", order=0)
    targets = list(battle.fighters.filter(side="defender").order_by("order"))
    return battle, shooter, targets, arm(shooter, slug, category, ammo)


def shoot(battle, shooter, target, weapon, dice, **params):
    params = {"fighter": shooter.pk, "target": target.pk, "weapon": weapon, "distance": 4, **params}
    return action_resolve(session=battle, kind="shoot", actor=battle.player_a, dice=dice, params=params)


def area_prompts(battle):
    return [p for p in battle_prompts(battle) if p.params.get("also_under")]


# --- scatter -------------------------------------------------------------------------------------------------


def test_a_missed_blast_asks_the_table_for_the_scatter_dice_after_the_ammo_test(make_battle):
    battle, shooter, (target, _), grenade = setup(make_battle, "frag-grenade", "grenade", "4+")
    plan = action_plan(
        session=battle,
        kind="shoot",
        params={"fighter": shooter.pk, "target": target.pk, "weapon": grenade, "distance": 4},
    )
    assert plan.query["scatter"] is True
    needed = action_next_die(session=battle, plan=plan, dice=[1, 6])  # a miss, then the grenade's Ammo test
    assert needed.die.name == "Scatter"
    assert action_next_die(session=battle, plan=plan, dice=[1, 6, "arrow"]).purpose == "scatter distance in inches"


def test_the_scattered_marker_is_placed_and_the_players_name_who_is_under_it(make_battle):
    battle, shooter, (target, other, *_), grenade = setup(make_battle, "frag-grenade", "grenade", "4+", fighters=3)
    action = shoot(battle, shooter, target, grenade, [1, 6, "arrow", 4])
    assert action.changes[0] == 'The Blast marker scatters 4" towards the arrow'
    assert [d["die"] for d in action.dice] == ["D6", "D6", "Scatter", "D6"]
    (prompt,) = area_prompts(battle)
    assert 'scattered 4" towards the arrow' in prompt.text
    # The fighter it lands on: hit without a roll (wound 6, Injury dice 6), nothing rolled twice.
    hit = shoot(battle, shooter, other, grenade, [6, 6], distance=0, also_under=True)
    assert not any(d["die"] == "Scatter" for d in hit.dice)
    other.refresh_from_db()
    assert other.condition != Condition.ACTIVE


def test_a_dud_asks_for_nobody_and_a_misfire_lands_on_the_shooter(make_battle):
    battle, shooter, (target, _), grenade = setup(make_battle, "frag-grenade", "grenade", "4+")
    dud = shoot(battle, shooter, target, grenade, [1, 6, "hit", 1, 3])
    assert dud.changes[0] == "The Blast marker scatters: a dud, the attack ends" and not area_prompts(battle)
    shoot(battle, shooter, target, grenade, [1, 6, "hit", 1, 1])
    (prompt,) = area_prompts(battle)
    assert f"misfired: centred on {shooter.name}" in prompt.text
    form = ShootForm(session=battle, fighters=list(battle.fighters.all()), initial=prompt.params)
    assert shooter.pk in [pk for pk, _ in form.fields["target"].choices]  # the shooter may be under it


def test_the_server_rolls_the_scatter_once(make_battle):
    battle, shooter, (target, _), grenade = setup(make_battle, "frag-grenade", "grenade", "4+")
    for _ in range(12):  # server dice: a miss (1 in 2 at BS 4+ with no modifier) scatters, recorded with the shot
        action = shoot(battle, shooter, target, grenade, None)
        if "scatter" in action.result:
            scatter = [d for d in action.dice if d["die"] == "Scatter"]
            assert len(scatter) == 1 and scatter[0]["value"] == action.result["scatter"]["scatter_dice"]
            return
    pytest.fail("twelve server shots never missed")


# --- Rapid Fire hits split ------------------------------------------------------------------------------


def test_rapid_fire_hits_split_to_a_fighter_within_3(make_battle):
    battle, shooter, (target, other, *_), autogun = setup(make_battle, "autogun", "basic", "4+", fighters=3)
    fighters = list(battle.fighters.all())
    data = {
        "fighter": shooter.pk,
        "shooter": f"{shooter.pk}:{autogun}",
        "target": target.pk,
        "band": "short",
        "cover": "none",
        "split_to": [other.pk],
    }
    form = ShootForm(data, session=battle, fighters=fighters)
    assert form.is_valid(), form.errors
    assert form.params()["split_to"] == [next(f for f in fighters if f.pk == other.pk)]
    # Hit 6, Firepower dice 2 (two hits): the target's wound roll 1, the other fighter's wound roll 1.
    action = shoot(battle, shooter, target, autogun, [6, 2, 1, 1], split_to=[other.pk])
    assert (action.result["hits"], action.result["split"][0]["hits"]) == (1, 1)
    assert action.query["split_to"][0]["T"] == other.stats["T"]
    target.refresh_from_db()
    other.refresh_from_db()
    assert target.condition == other.condition == Condition.PINNED  # both hit by a ranged attack


def test_split_to_refuses_the_target_itself(make_battle):
    battle, shooter, (target, _), autogun = setup(make_battle, "autogun", "basic", "4+")
    data = {
        "fighter": shooter.pk,
        "shooter": f"{shooter.pk}:{autogun}",
        "target": target.pk,
        "band": "short",
        "cover": "none",
        "split_to": [target.pk],
    }
    form = ShootForm(data, session=battle, fighters=list(battle.fighters.all()))
    assert not form.is_valid() and "split_to" in form.errors


# --- Flash, Web, Smoke, Graviton Pulse -----------------------------------------------------------------------


def test_flash_blinds_a_ready_fighter_now_and_an_activated_one_next_round(make_battle):
    battle, shooter, (target, other, *_), flash = setup(
        make_battle, "photon-flash-grenade", "grenade", "5+", fighters=3
    )
    action = shoot(battle, shooter, target, flash, [6, 1, 6])  # hit, Initiative test 1 fails, Ammo test
    assert action.query["target"]["I"] == target.stats["I"]
    target.refresh_from_db()
    assert not target.ready and any("is Blind" in change for change in action.changes)
    shoot(battle, shooter, target, flash, [6, 1, 6])  # Blind again with no Ready marker left: none next round
    battle.refresh_from_db()
    assert battle.facts[BLIND_NEXT_ROUND] == [target.pk]
    round_now = battle.round
    while battle.round == round_now:
        battle_advance(session=battle, actor=battle.player_a, leave_untaken=True)
        battle.refresh_from_db()
    target.refresh_from_db()
    other.refresh_from_db()
    battle.refresh_from_db()
    assert (target.ready, other.ready, battle.facts.get(BLIND_NEXT_ROUND)) == (False, True, None)


def test_a_blind_fighter_strikes_back_on_natural_sixes_until_next_activated(make_battle):
    battle, shooter, (target, *_), flash = setup(make_battle, "photon-flash-grenade", "grenade", "5+")
    attacker = battle.fighters.get(side="attacker", order=1)
    shoot(battle, shooter, target, flash, [6, 1, 6])  # Blind, his Ready marker lost

    def reaction_query():
        fighter_adjust(session=battle, fighter=target, field="prone", value=False, actor=battle.player_b)
        params = {"fighter": attacker.pk, "target": target.pk, "reaction": True}
        battle.refresh_from_db()
        return action_plan(session=battle, kind="fight", params=params).query

    assert reaction_query()["target"]["blind"] is True
    assert battle.facts[BLIND] == [target.pk]
    round_now = battle.round
    while battle.round == round_now:
        battle_advance(session=battle, actor=battle.player_a, leave_untaken=True)
        battle.refresh_from_db()
    assert reaction_query()["target"]["blind"] is True  # a new round, not yet activated: still Blind
    fighter_move(session=battle, fighter=target, actor=battle.player_b)  # activated: he sees again
    assert "blind" not in reaction_query()["target"] and battle.facts[BLIND] == []


def test_web_leaves_the_fighter_webbed_and_its_recovery_follows_the_webbed_condition(make_battle):
    battle, shooter, (target, _), web = setup(make_battle, "web-gun", "special", "5+")
    shoot(battle, shooter, target, web, [6, 1], distance=0)  # the wound roll succeeds, the Firepower dice
    target.refresh_from_db()
    battle.refresh_from_db()
    assert target.condition == Condition.SERIOUSLY_INJURED and battle.facts[WEBBED] == [target.pk]
    flesh = target.flesh_wounds
    recover = {"test": "recovery", "fighter": target.pk, "assisted": False}
    stays = action_resolve(session=battle, kind="test", actor=battle.player_b, dice=[4], params=recover)
    target.refresh_from_db()
    assert stays.changes == [f"{target.name} stays Webbed"] and target.flesh_wounds == flesh  # no Flesh Wound
    action_resolve(session=battle, kind="test", actor=battle.player_b, dice=[1], params=recover)
    target.refresh_from_db()
    battle.refresh_from_db()
    assert target.condition == Condition.PINNED and battle.facts[WEBBED] == []


def test_a_fighter_still_webbed_at_the_end_recovers_with_no_injury_test(make_battle):
    battle, shooter, (target, other), web = setup(make_battle, "web-gun", "special", "5+")
    shoot(battle, shooter, target, web, [6, 1], distance=0)  # Webbed: treated as Seriously Injured
    other.condition = Condition.SERIOUSLY_INJURED  # Seriously Injured by other means: the injury test stands
    other.save(update_fields=["condition"])
    battle_end(session=battle, actor=battle.player_a, winner="attacker")
    outcomes = {f["fighter"]: f["outcome"] for f in BattleSession.objects.get(pk=battle.pk).report["fighters"]}
    assert (outcomes[target.fighter_id], outcomes[other.fighter_id]) == ("ok", "seriously_injured")


def test_a_fighter_who_succumbs_to_the_web_is_recorded_webbed_when_taken_out_of_action(make_battle):
    battle, shooter, (target, other), web = setup(make_battle, "web-gun", "special", "5+")
    shoot(battle, shooter, target, web, [6, 1], distance=0)  # Webbed
    recover = {"test": "recovery", "fighter": target.pk, "assisted": False}
    action_resolve(session=battle, kind="test", actor=battle.player_b, dice=[6], params=recover)  # Out of Action
    other.condition = Condition.OUT_OF_ACTION  # Out of Action by other means: a Lasting Injury as usual
    other.save(update_fields=["condition"])
    battle_end(session=battle, actor=battle.player_a, winner="attacker")
    rows = {f["fighter"]: f for f in BattleSession.objects.get(pk=battle.pk).report["fighters"]}
    assert (rows[target.fighter_id]["outcome"], rows[target.fighter_id]["webbed"]) == ("out_of_action", True)
    assert (rows[other.fighter_id]["outcome"], rows[other.fighter_id]["webbed"]) == ("out_of_action", False)


def test_smoke_hits_nobody_and_graviton_pulse_harms_with_no_save(make_battle):
    battle, shooter, (target, _), smoke = setup(make_battle, "smoke-grenade", "grenade", "4+")
    action = shoot(battle, shooter, target, smoke, [6, 6])
    target.refresh_from_db()
    assert target.condition == Condition.ACTIVE and "smoke cloud" in action.changes[0]
    assert not area_prompts(battle)
    grav = arm(shooter, "grav-gun", "special", "5+")
    action = shoot(battle, shooter, target, grav, None)  # the server's dice
    assert action.query["target"]["S"] == target.stats["S"]
    assert not any(d["for"].startswith("save roll") for d in action.dice)  # no armour save against it
    assert any("grav Blast marker stays" in change for change in action.changes)


def test_the_shoot_page_shows_the_spare_hits_and_the_blindness_odds(make_battle, client):
    from django.urls import reverse

    battle, shooter, (target, other, *_), autogun = setup(make_battle, "autogun", "basic", "4+", fighters=3)
    flash = arm(shooter, "photon-flash-grenade", "grenade", "5+")
    client.force_login(battle.player_a)
    url = reverse("battles:battle-act", args=[battle.pk, "shoot"])
    choice = {"fighter": shooter.pk, "target": target.pk, "band": "short", "cover": "none"}
    data = {**choice, "shooter": f"{shooter.pk}:{autogun}", "split_to": [other.pk], "op": "odds"}
    page = client.post(url, data).content.decode()
    assert f"{other.name} takes a spare hit" in page and "spare hits on each fighter within 3" in page
    page = client.post(
        url, {**choice, "shooter": f"{shooter.pk}:{flash}", "band": "long", "op": "odds"}
    ).content.decode()
    assert '<th scope="row">Blind</th>' in page and "Initiative test" in page


def test_a_classic_blast_that_misses_says_where_it_scattered(make_battle):
    battle = make_battle("classic", fighters=2)
    shooter, target = battle.fighters.get(side="attacker", order=0), battle.fighters.get(side="defender", order=0)
    grenade = arm(shooter, "frag-grenade", "grenade", None)
    # A 1 misses; the Scatter dice and the Artillery dice (halved for a grenade), the table's.
    action = shoot(battle, shooter, target, grenade, [1, "arrow", 4])
    assert 'The blast scatters 2" from the target, towards the arrow' in action.changes[-1]
    assert [d["die"] for d in action.dice] == ["D6", "Scatter", "Artillery"]
