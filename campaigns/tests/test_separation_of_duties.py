"""Separation of duties (issues 21 and 26): an arbitrator who plays a gang in the campaign decides nothing an
arbitrator decides for that gang or its battles (re-rolling the scenario, confirming his own report,
cancelling, setting aside or reverting post-battle dice, overrides of credits, Reputation, hires, purchases,
the fighter's record, territories); another arbitrator does. Arbitrators can be removed, never the last.
Each path is refused by the service, whatever the page shows."""

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from campaigns import services
from campaigns.models import BattleStatus, Outcome
from gangs import services as gang_services
from gangs.permissions import gang_access
from gangs.services import record
from postbattle import services as postbattle
from rulebook.dice import ScriptedDice

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(two_player_campaign, make_user):
    """Alice plays her gang and is also a co-arbitrator; ``arbitrator`` is the campaign's other arbitrator."""
    campaign, users, gangs = (two_player_campaign[k] for k in ("campaign", "users", "gangs"))
    services.arbitrator_add(campaign=campaign, user=users["alice"])
    battle = services.battle_arrange(campaign=campaign, attacker=gangs["alice"], defender=gangs["bob"])
    battle = services.battle_scenario_roll(battle=battle, dice=ScriptedDice([1, 1, 5, 2]), actor=users["alice"])
    return {**two_player_campaign, "battle": battle}


def _report(battle, actor):
    mine, enemy = battle.attacker.fighters.first(), battle.defender.fighters.first()
    return services.battle_report_submit(
        battle=battle,
        actor=actor,
        winner=battle.attacker,
        fighter_results=[
            {"fighter": enemy.pk, "outcome": Outcome.OUT_OF_ACTION, "caused_by": mine.pk},
            {"fighter": mine.pk, "outcome": Outcome.OUT_OF_ACTION, "caused_by": enemy.pk},
        ],
    )


def test_a_playing_arbitrator_cannot_roll_his_own_scenario_again_another_can(played):
    battle, users = played["battle"], played["users"]
    with pytest.raises(ValidationError, match="you play Alice's gang in this battle"):
        services.battle_scenario_roll(battle=battle, dice=ScriptedDice([6, 6]), actor=users["alice"], reason="bad")
    battle = services.battle_scenario_roll(
        battle=battle, dice=ScriptedDice([6, 6, 1, 2]), actor=users["arbitrator"], reason="the table rolled 6 6"
    )
    assert battle.scenario_roll["roll"] == 12 and battle.scenario_roll["set_aside"][0]["by"] == "arbitrator"


def test_a_playing_arbitrator_cannot_confirm_his_own_report_another_can(played):
    battle, users = played["battle"], played["users"]
    battle = _report(battle, users["alice"])
    with pytest.raises(ValidationError, match="not the player who entered it"):
        services.battle_report_confirm(battle=battle, actor=users["alice"], is_arbitrator=True)
    battle = services.battle_report_confirm(battle=battle, actor=users["arbitrator"], is_arbitrator=True)
    assert battle.status == BattleStatus.CONFIRMED


def test_a_playing_arbitrator_still_confirms_his_opponents_report_as_a_player(played):
    battle, users = played["battle"], played["users"]
    battle = _report(battle, users["bob"])
    battle = services.battle_report_confirm(battle=battle, actor=users["alice"], is_arbitrator=True)
    assert battle.status == BattleStatus.CONFIRMED


def test_the_battle_page_treats_a_playing_arbitrator_as_a_player(client, played):
    battle, users = played["battle"], played["users"]
    _report(battle, users["alice"])
    client.force_login(users["alice"])
    url = reverse("campaigns:battle-detail", args=[battle.campaign_id, battle.pk])
    page = client.get(url)
    assert page.status_code == 200 and not page.context["is_arbitrator"] and not page.context["can_confirm"]
    confirm = reverse("campaigns:battle-confirm", args=[battle.campaign_id, battle.pk])
    client.post(confirm)
    battle.refresh_from_db()
    assert battle.status == BattleStatus.REPORTED
    client.force_login(users["arbitrator"])
    assert client.get(url).context["is_arbitrator"]
    client.post(confirm)
    battle.refresh_from_db()
    assert battle.status == BattleStatus.CONFIRMED


def test_a_playing_arbitrator_cannot_cancel_his_own_battle(client, played):
    battle, users = played["battle"], played["users"]
    client.force_login(users["alice"])
    response = client.post(
        reverse("campaigns:battle-cancel", args=[battle.campaign_id, battle.pk]), {"reason": "I would rather not"}
    )
    assert response.status_code == 403
    with pytest.raises(ValidationError, match="another arbitrator decides"):
        services.battle_cancel(battle=battle, actor=users["alice"], reason="I would rather not")


@pytest.fixture
def confirmed(played):
    battle, users = played["battle"], played["users"]
    battle = services.battle_report_confirm(
        battle=_report(battle, users["bob"]), actor=users["arbitrator"], is_arbitrator=True
    )
    return {**played, "battle": battle}


@pytest.mark.parametrize("side", ["attacker", "defender"])
def test_a_playing_arbitrator_cannot_set_aside_post_battle_dice_of_his_battle(client, confirmed, side):
    battle, users = confirmed["battle"], confirmed["users"]
    gang = battle.gang_of(side)
    sequence = postbattle.sequence_start(battle=battle, gang=gang, actor=gang.owner)
    sequence = postbattle.sequence_step_submit(sequence=sequence, dice=ScriptedDice([]), entered=True, actor=gang.owner)
    sequence = postbattle.sequence_step_submit(
        sequence=sequence, dice=ScriptedDice([4, 4]), entered=True, actor=gang.owner
    )
    with pytest.raises(ValidationError, match="you play Alice's gang"):
        postbattle.sequence_dice_set_aside(sequence=sequence, step=1, reason="misread", actor=users["alice"])
    client.force_login(users["alice"])
    url = reverse("postbattle:sequence-set-aside", args=[battle.pk, gang.pk, 1])
    assert client.post(url, {"reason": "misread"}).status_code == 403
    sequence = postbattle.sequence_dice_set_aside(
        sequence=sequence, step=1, reason="misread", actor=users["arbitrator"]
    )
    assert sequence.step == 1


def test_a_playing_arbitrator_cannot_revert_a_sequence_of_his_battle(confirmed):
    battle, users = confirmed["battle"], confirmed["users"]
    gang = battle.attacker
    sequence = postbattle.sequence_start(battle=battle, gang=gang, actor=gang.owner)
    for _ in range(6):
        sequence = postbattle.sequence_step_submit(
            sequence=sequence, dice=ScriptedDice([3] * 12), actor=gang.owner, choices={"recruit": False}
        )
    postbattle.sequence_apply(sequence=sequence, actor=gang.owner)
    with pytest.raises(ValidationError, match="you play Alice's gang"):
        postbattle.sequence_revert(sequence=sequence, actor=users["alice"], reason="bad luck")
    sequence = postbattle.sequence_revert(sequence=sequence, actor=users["arbitrator"], reason="a die misread")
    assert sequence.state == "reverted"


def test_no_override_for_ones_own_gang_another_arbitrator_may(played):
    users, gangs = played["users"], played["gangs"]
    alice_gang, ganger = gangs["alice"], gangs["alice"].fighters.order_by("pk").last()
    refused = [
        lambda actor: gang_services.gang_override(gang=alice_gang, actor=actor, reason="why not", credits=500),
        lambda actor: gang_services.gang_override(gang=alice_gang, actor=actor, reason="why not", reputation=5),
        lambda actor: record.record_experience(
            fighter=ganger, amount=10, reason="why not", actor=actor, token=f"t-{actor.pk}"
        ),
    ]
    stash = alice_gang.stash
    for change in refused:
        with pytest.raises(ValidationError, match="your own gang"):
            change(users["alice"])
    alice_gang.refresh_from_db()
    assert alice_gang.stash == stash
    gang_services.gang_override(gang=alice_gang, actor=users["arbitrator"], reason="a missed payout", credits=20)
    alice_gang.refresh_from_db()
    assert alice_gang.stash == stash + 20
    assert not gang_access(users["alice"], alice_gang).is_arbitrator  # no override fields on her gang's pages
    assert gang_access(users["alice"], gangs["bob"]).is_arbitrator  # still the arbitrator of Bob's gang


def test_a_hire_over_the_limits_is_no_override_for_ones_own_gang(played):
    users, gang = played["users"], played["gangs"]["alice"]
    leader = gang.fighters.get(name__contains="leader").fighter_type  # a second Leader breaks the house list
    with pytest.raises(ValidationError, match="your own gang"):
        gang_services.fighter_hire(
            gang=gang, fighter_type=leader, name="Second", actor=users["alice"], override_reason="why not"
        )
    gang_services.fighter_hire(
        gang=gang, fighter_type=leader, name="Second", actor=users["arbitrator"], override_reason="the club allows it"
    )


def test_no_territory_handed_to_ones_own_gang(played, make_territory):
    campaign, users, gangs = played["campaign"], played["users"], played["gangs"]
    held = services.territory_add(campaign=campaign, territory=make_territory())
    with pytest.raises(ValidationError, match="your own gang"):
        services.territory_assign(held=held, holder=gangs["alice"], actor=users["alice"])
    services.territory_assign(held=held, holder=gangs["alice"], actor=users["arbitrator"])
    with pytest.raises(ValidationError, match="your own gang"):
        services.territory_assign(held=held, holder=None, actor=users["alice"])


def test_an_arbitrator_can_be_removed_but_never_the_last(client, two_player_campaign):
    campaign, users = two_player_campaign["campaign"], two_player_campaign["users"]
    with pytest.raises(ValidationError, match="last arbitrator"):
        services.arbitrator_remove(campaign=campaign, user=users["arbitrator"])
    services.arbitrator_add(campaign=campaign, user=users["alice"])
    client.force_login(users["bob"])
    url = reverse("campaigns:arbitrator-remove", args=[campaign.pk, users["alice"].pk])
    assert client.post(url).status_code == 403  # a player may not
    client.force_login(users["arbitrator"])
    page = client.get(reverse("campaigns:campaign-detail", args=[campaign.pk])).content.decode()
    assert url in page
    assert client.post(url).status_code == 302
    assert list(campaign.arbitrators.values_list("user__username", flat=True)) == ["arbitrator"]
    last = reverse("campaigns:arbitrator-remove", args=[campaign.pk, users["arbitrator"].pk])
    client.post(last)
    assert campaign.arbitrators.count() == 1
