"""The battle assistant writes the campaign battle's one record: caskets by the scenario's rules (and paid to
the opener's gang), captures and rescues from the end form, fleeing fighters as fled; Undo re-uses the dice."""

from html import unescape

import pytest
from django.core.exceptions import ValidationError

from battles.models import BattleSession, BattleStatus
from battles.services import (
    action_resolve,
    action_undo,
    battle_end,
    battle_reinforce,
    battle_start_from_campaign,
)
from campaigns.models import Battle, Campaign, CampaignArbitrator
from campaigns.services import battle_report_confirm
from gangs.models import FighterStatus
from postbattle import engine
from postbattle.selectors import battle_context
from rulebook.dice import ScriptedDice, SeededDice

pytestmark = pytest.mark.django_db


@pytest.fixture
def campaign_battle(make_battle):
    def make(scenario="the-trap", **fields):
        friendly = make_battle("n18", fighters=3)
        # Only its gangs are wanted: a fighter plays one open battle at a time.
        BattleSession.objects.filter(pk=friendly.pk).update(status=BattleStatus.ENDED)
        campaign = Campaign.objects.create(edition="n18", name="Record test", created_by=friendly.player_a)
        CampaignArbitrator.objects.create(campaign=campaign, user=friendly.player_a)
        return Battle.objects.create(
            campaign=campaign,
            origin="arranged",
            attacker=friendly.gang_a,
            defender=friendly.gang_b,
            scenario=scenario,
            scenario_name=scenario.replace("-", " ").title(),
            **fields,
        )

    return make


def sides(battle):
    fighters = list(battle.fighters.all())
    return [f for f in fighters if f.side == "attacker"], [f for f in fighters if f.side == "defender"]


def rescue_mission(cb, captive):
    """``captive`` (of ``cb``'s defender) held by ``cb``'s attacker, and the Rescue Mission his gang issues for him."""
    captive.status, captive.captured_by = FighterStatus.CAPTURED, cb.attacker
    captive.save()
    return Battle.objects.create(
        campaign=cb.campaign,
        origin="challenge",
        attacker=cb.defender,
        defender=cb.attacker,
        scenario="rescue-mission",
        scenario_name="Rescue Mission",
        is_rescue=True,
    )


def casket(battle, fighter, dice=None):
    params = {"action": "loot-casket", "fighter": fighter}
    return action_resolve(session=battle, kind="scenario", params=params, actor=battle.player_a, dice=dice)


def test_smash_and_grab_the_defender_cannot_open_a_casket_and_there_are_five(campaign_battle):
    cb = campaign_battle("smash-and-grab")
    battle = battle_start_from_campaign(campaign_battle=cb, started_by=cb.attacker.owner, dice=SeededDice(4))
    attackers, defenders = sides(battle)
    with pytest.raises(ValidationError, match=f"{defenders[0].name}: in Smash & Grab the defender cannot open"):
        casket(battle, defenders[0], [3, 2])
    for _ in range(5):
        casket(battle, attackers[0], [3, 2])
    with pytest.raises(ValidationError, match="Every loot casket is open: this battle has 5"):
        casket(battle, attackers[1], [3, 2])


@pytest.mark.parametrize(
    ("scenario", "action", "offered"),
    [
        ("smash-and-grab", "loot-casket", "attacker"),
        ("search-and-destroy", "destroy-cache", "attacker"),
        ("search-and-destroy", "recover-cache", "defender"),
        ("search-and-destroy", "loot-casket", "both"),
    ],
)
def test_a_scenario_actions_form_offers_only_the_fighters_whose_side_may_take_it(
    campaign_battle, scenario, action, offered
):
    """Issue 21's walk: the assistant's casket form listed the defender's fighters in Smash & Grab, only for the
    choice to be refused; a cache is destroyed by the attacker and carried off by the defender."""
    from battles.forms import ScenarioForm

    cb = campaign_battle(scenario)
    battle = battle_start_from_campaign(campaign_battle=cb, started_by=cb.attacker.owner, dice=SeededDice(4))
    attackers, defenders = sides(battle)
    form = ScenarioForm(action=action, session=battle, fighters=attackers + defenders)
    choices = {str(value) for value, _ in form.fields["fighter"].choices if value}
    wanted = {"attacker": attackers, "defender": defenders, "both": attackers + defenders}[offered]
    assert choices == {str(f.pk) for f in wanted}


def test_a_casket_opened_in_the_assistant_pays_the_openers_gang(campaign_battle):
    cb = campaign_battle("smash-and-grab")
    battle = battle_start_from_campaign(campaign_battle=cb, started_by=cb.attacker.owner, dice=SeededDice(4))
    (leader, *_), _ = sides(battle)
    casket(battle, leader, [6, 6, 6, 1])  # Jackpot: 3D6x10 = 130
    battle.refresh_from_db()
    assert battle.facts["caskets"][0]["credits"] == 130
    battle_end(session=battle, actor=battle.player_a, winner="defender")
    confirmed = battle_report_confirm(battle=cb, actor=cb.defender.owner, is_arbitrator=True)
    assert confirmed.scenario_facts["caskets"] == [
        {"side": "attacker", "fighter": str(leader.fighter_id), "result": "jackpot", "credits": 130}
    ]
    context, start = battle_context(confirmed, confirmed.attacker)
    rewards = next(s for s in engine.steps_for("n18") if s.slug == "rewards")
    outcome = rewards.run(context, start, ScriptedDice([1, 1, 1, 1, 1]), {})
    assert [e["amount"] for e in outcome.effects if e["op"] == "credits" and "casket" in e["reason"]] == [130]


def test_undo_then_the_same_casket_again_reuses_its_dice(campaign_battle):
    cb = campaign_battle("smash-and-grab")
    battle = battle_start_from_campaign(campaign_battle=cb, started_by=cb.attacker.owner, dice=SeededDice(4))
    (leader, *_), _ = sides(battle)
    first = casket(battle, leader)  # rolled on the server
    for _ in range(4):
        action_undo(session=battle, actor=battle.player_a)
        again = casket(battle, leader)
        assert again.dice == first.dice and again.result == first.result


def test_the_end_form_records_captures_and_a_rescue_frees_the_captive(campaign_battle, make_fighter):
    cb = campaign_battle()
    battle = battle_start_from_campaign(campaign_battle=cb, started_by=cb.attacker.owner, dice=SeededDice(4))
    (leader, *_), (_, target, _) = sides(battle)
    params = {
        "fighter": leader,
        "target": target,
        "distance": 3,
        "weapon": next(f"{w['key']}:0" for w in leader.profile["weapons"] if w["category"] == "pistol"),
    }
    action_resolve(session=battle, kind="shoot", params=params, actor=battle.player_a, dice=[4, 1, 5, 6])
    battle_end(session=battle, actor=battle.player_a, winner="attacker", captured=[target.fighter_id])
    cb.refresh_from_db()
    assert cb.fighter_results.get(fighter=target.fighter).captured
    battle_report_confirm(battle=cb, actor=cb.defender.owner, is_arbitrator=True)
    # Held: the captive's gang comes back for them with a Rescue Mission played in the assistant, and wins.
    captive = target.fighter
    rescue = rescue_mission(cb, captive)
    played = battle_start_from_campaign(campaign_battle=rescue, started_by=rescue.attacker.owner, dice=SeededDice(4))
    from battles.forms import BattleEndForm

    freer = next(f.fighter for f in played.fighters.all() if f.side == "attacker" and f.fighter_id)
    data = {"winner": "attacker", f"freed-{captive.pk}": "on", f"freed_by-{captive.pk}": str(freer.pk)}
    form = BattleEndForm(data, session=played)
    assert form.is_valid(), form.errors
    assert (form.cleaned_data["captives_freed"], form.cleaned_data["freed_by"]) == (
        [captive.pk],
        {captive.pk: freer.pk},
    )
    battle_end(session=played, actor=played.player_a, **form.cleaned_data)
    battle_report_confirm(battle=rescue, actor=rescue.defender.owner, is_arbitrator=True)
    captive.refresh_from_db()
    assert captive.status == FighterStatus.ACTIVE and captive.captured_by_id is None
    # The record says who freed the captive, and the rescuers' rewards follow it (2023 Core Rulebook): the freer's
    # D3 (2), the captive's 1 XP, the Leader's D3 (3), +2 Reputation.
    rescue.refresh_from_db()
    assert rescue.scenario_facts["freed_by"] == [{"captive": captive.pk, "fighter": freer.pk}]
    context, start = battle_context(rescue, rescue.attacker)
    step = next(s for s in engine.steps_for("n18") if s.slug == "rewards")
    outcome = step.run(context, start, ScriptedDice([2, 3]), {})
    xp = {(e["fighter"], e["amount"]) for e in outcome.effects if e["op"] == "xp" and e["reason"].startswith("exp")}
    assert {(str(freer.pk), 2), (str(captive.pk), 1)} <= xp
    assert [e["amount"] for e in outcome.effects if e["op"] == "reputation"] == [2]


@pytest.mark.parametrize(("winner", "freed"), [("defender", True), ("attacker", False)])
def test_a_rescue_mission_ended_in_the_assistant_against_its_captives_is_refused(campaign_battle, winner, freed):
    """Issue 21's walk: the assistant's end form gave the captors the win of a Rescue Mission whose captive it
    freed (the captive went home, the captors were credited with the win), where the hand report refuses the
    same record: every captive freed is the rescuers' win, none freed the captors' (the Rescue Mission's
    Victory)."""
    cb = campaign_battle()
    captive = cb.defender.fighters.first()
    rescue = rescue_mission(cb, captive)
    played = battle_start_from_campaign(campaign_battle=rescue, started_by=rescue.attacker.owner, dice=SeededDice(4))
    with pytest.raises(ValidationError, match="By the scenario.s facts"):
        battle_end(session=played, actor=played.player_a, winner=winner, captives_freed=[captive.pk] if freed else [])
    rescue.refresh_from_db()
    played.refresh_from_db()
    assert rescue.status == "scheduled" and not played.is_over


def test_a_fighter_who_succumbed_to_the_web_is_recorded_webbed_in_the_campaign_battle(campaign_battle):
    from battles.models import Condition
    from battles.rules.n18.effects import WEBBED_OUT_OF_ACTION

    cb = campaign_battle()
    battle = battle_start_from_campaign(campaign_battle=cb, started_by=cb.attacker.owner, dice=SeededDice(4))
    _, (webbed, other, _) = sides(battle)
    for fighter in (webbed, other):
        fighter.condition = Condition.OUT_OF_ACTION
        fighter.save(update_fields=["condition"])
    battle.facts = {**battle.facts, WEBBED_OUT_OF_ACTION: [webbed.pk]}  # as a Recovery failed while Webbed leaves it
    battle.save(update_fields=["facts"])
    battle_end(session=battle, actor=battle.player_a, winner="")  # The Trap: nobody took them down, 0 to 0
    assert cb.fighter_results.get(fighter=webbed.fighter).webbed
    assert not cb.fighter_results.get(fighter=other.fighter).webbed


def test_a_fighter_who_flees_is_recorded_as_fled(client, campaign_battle):
    cb = campaign_battle()
    battle = battle_start_from_campaign(campaign_battle=cb, started_by=cb.attacker.owner, dice=SeededDice(4))
    _, (runner, *_) = sides(battle)
    battle.bottled_b = True
    battle.save(update_fields=["bottled_b"])
    action_resolve(
        session=battle, kind="test", params={"test": "flee", "fighter": runner}, actor=battle.player_b, dice=[1, 1]
    )
    battle_end(session=battle, actor=battle.player_a, winner="")  # The Trap: nobody taken down, 0 to 0
    result = cb.fighter_results.get(fighter=runner.fighter)
    assert result.outcome == "fled" and result.caused_by_id is None
    from django.urls import reverse

    client.force_login(battle.player_a)
    page = client.get(reverse("battles:battle-report", args=[battle.pk])).content.decode()
    assert "Fled the battlefield" in page


def test_a_booby_trapped_casket_hits_the_fighter_who_opened_it(campaign_battle):
    from rulebook.dice import ReplayDice

    cb = campaign_battle("smash-and-grab")
    battle = battle_start_from_campaign(campaign_battle=cb, started_by=cb.attacker.owner, dice=SeededDice(4))
    (leader, *_), _ = sides(battle)
    trapped = ReplayDice(
        [{"die": "D6", "for": "Loot casket (Smash & Grab, opened by the attacker) table", "value": 1}], SeededDice(6)
    )
    action = casket(battle, leader, trapped)
    trap = action.result["trap"]
    assert action.result["slug"] == "booby-trapped" and trap["hits"] == 1 and trap["weapon"] == "Booby Trapped casket"
    leader.refresh_from_db()
    assert leader.wounds_left == trap["target_after"]["wounds"]
    assert leader.prone or leader.condition != "active"  # hit by the blast: Pinned at least
    # Undone and opened again: the same dice, the same blast.
    action_undo(session=battle, actor=battle.player_a)
    again = casket(battle, leader)
    assert again.result == action.result and again.dice == action.dice


def test_the_campaign_battle_page_shows_the_crews_the_assistant_picked(client, campaign_battle):
    from django.urls import reverse

    cb = campaign_battle()
    battle = battle_start_from_campaign(campaign_battle=cb, started_by=cb.attacker.owner, dice=SeededDice(4))
    client.force_login(battle.player_a)  # the campaign's arbitrator
    page = client.get(reverse("campaigns:battle-detail", args=[cb.campaign_id, cb.pk])).content.decode()
    assert "Not picked yet" not in page
    attackers, defenders = sides(battle)
    assert all(f.name in page for f in attackers + defenders)


def test_smash_and_grab_the_caskets_left_when_the_defender_flees_go_to_the_attacker(campaign_battle):
    from battles.services import gang_flee

    cb = campaign_battle("smash-and-grab")
    battle = battle_start_from_campaign(campaign_battle=cb, started_by=cb.attacker.owner, dice=SeededDice(4))
    (leader, *_), _ = sides(battle)
    casket(battle, leader, [3, 2])  # Valuable Goods, 20 credits
    gang_flee(session=battle, side="defender", actor=battle.player_b)
    battle_end(session=battle, actor=battle.player_a, winner="attacker", dice=ScriptedDice([1, 6, 6, 6, 6, 2, 2, 2, 2]))
    cb.refresh_from_db()
    caskets = cb.scenario_facts["caskets"]
    assert len(caskets) == 5 and all(c["side"] == "attacker" for c in caskets)
    # Four left: Booby Trapped (1) does nothing now; Jackpot (6) 3D6x10 = 180; two Valuable Goods (2) D6x10 = 20.
    assert [(c["result"], c["credits"]) for c in caskets] == [
        ("valuable-goods", 20),
        ("booby-trapped", 0),
        ("jackpot", 180),
        ("valuable-goods", 20),
        ("valuable-goods", 20),
    ]
    assert [c["fighter"] for c in caskets[1:]] == [None] * 4


def test_border_dispute_the_relic_of_the_gang_that_fled_counts_as_defiled(campaign_battle):
    from battles.services import gang_flee

    cb = campaign_battle("border-dispute")
    battle = battle_start_from_campaign(campaign_battle=cb, started_by=cb.attacker.owner, dice=SeededDice(4))
    gang_flee(session=battle, side="defender", actor=battle.player_b)
    battle_end(session=battle, actor=battle.player_a, winner="attacker", dice=ScriptedDice([6]))  # the third of three
    cb.refresh_from_db(), battle.refresh_from_db()
    assert cb.scenario_facts["relic_defiled"] == {"attacker": False, "defender": True}
    defiler = next(
        f
        for f in battle.fighters.all()
        if f.side == "attacker" and f.pk == battle.facts["relics_defiled"]["defender"]["fighter"]
    )
    assert cb.fighter_results.get(fighter=defiler.fighter).awards.get("relic_defiled") == 1


def test_the_assistant_end_is_refused_when_the_result_contradicts_the_scenario(campaign_battle):
    """Issue 21: the assistant's end of battle writes through the record's check as the hand report does. Smash &
    Grab with no casket opened is the defender's (the guide's Victory); ending it as the attacker's is refused with
    the rule, and nothing is written."""
    cb = campaign_battle("smash-and-grab")
    battle = battle_start_from_campaign(campaign_battle=cb, started_by=cb.attacker.owner, dice=SeededDice(4))
    with pytest.raises(ValidationError, match=r"the defender wins|Gang .* wins \(0 loot caskets opened \(3 win\)\)"):
        battle_end(session=battle, actor=battle.player_a, winner="attacker")
    battle.refresh_from_db()
    cb.refresh_from_db()
    assert battle.status == BattleStatus.IN_PROGRESS and cb.status == "scheduled" and not cb.fighter_results.exists()
    battle_end(session=battle, actor=battle.player_a, winner="defender")
    cb.refresh_from_db()
    assert cb.winner_id == cb.defender_id


def arrived(battle, side):
    """The roster fighter the last Reinforcements brought on for ``side``."""
    return battle.fighters.filter(side=side).order_by("-order").first().fighter


def test_the_assistant_end_is_refused_for_reinforcements_the_scenario_does_not_have(campaign_battle, make_fighter):
    """The Trap sends no Reinforcements (the guide's crews): a fighter brought on anyway is refused at the end,
    naming the fighter and the rule."""
    cb = campaign_battle("the-trap")
    for _ in range(4):  # seven fighters: one left out of the crew of six
        make_fighter(cb.attacker)
    battle = battle_start_from_campaign(campaign_battle=cb, started_by=cb.attacker.owner, dice=SeededDice(4))
    battle_reinforce(session=battle, side="attacker", actor=battle.player_a, count=1, dice=SeededDice(1))
    spare = arrived(battle, "attacker")
    assert battle.fighters.filter(side="attacker").count() == 7
    with pytest.raises(ValidationError, match=f"{spare.name}: in The Trap the attacker receives no Reinforcements"):
        battle_end(session=battle, actor=battle.player_a, winner="")
    assert not Battle.objects.get(pk=cb.pk).fighter_results.exists()


def test_reinforcements_go_from_the_assistant_into_the_record_and_onto_the_battle_page(
    client, campaign_battle, make_fighter
):
    """Border Dispute reinforces both gangs: whoever the assistant brought on is in the campaign battle's record
    as a Reinforcement, and the battle page says so in words."""
    from django.urls import reverse

    cb = campaign_battle("border-dispute")
    make_fighter(cb.defender)  # one not in the starting crew, whatever the crew's dice
    battle = battle_start_from_campaign(campaign_battle=cb, started_by=cb.attacker.owner, dice=SeededDice(4))
    battle_reinforce(session=battle, side="defender", actor=battle.player_a, count=1, dice=SeededDice(1))
    spare = arrived(battle, "defender")
    battle_end(session=battle, actor=battle.player_a, winner="")  # both gangs stand, no relic defiled: a draw
    cb.refresh_from_db()
    assert cb.scenario_facts["reinforcements"] == [spare.pk]
    assert cb.fighter_results.filter(fighter=spare).exists()
    client.force_login(battle.player_a)
    page = client.get(reverse("campaigns:battle-detail", args=[cb.campaign_id, cb.pk])).content.decode()
    assert f"Reinforcements for {cb.defender.name}: {spare.name}" in unescape(page)
