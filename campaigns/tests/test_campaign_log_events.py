"""The campaign log keeps every challenge, pass, cancellation (with its reason; the battle stays, cancelled),
scenario rolled again and post-battle revert (with its reason): entries that stay (issue 21)."""

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from campaigns import selectors, services
from campaigns.models import Battle, BattleStatus
from gangs.models import LedgerEntry
from rulebook.dice import ScriptedDice

pytestmark = pytest.mark.django_db


def events(campaign, gang=None):
    return [
        (e.data.get("campaign_log"), e.gang_id, e.reason)
        for e in selectors.campaign_log(campaign)
        if e.data.get("campaign_log") and (gang is None or e.gang_id == gang.pk)
    ]


@pytest.fixture
def cycle_two(make_campaign, make_territory):
    campaign = make_campaign(gangs=3, started=True)
    services.cycle_advance(campaign=campaign)
    held = services.territory_add(campaign=campaign, territory=make_territory())
    queue = selectors.challenge_queue(campaign, selectors.standings(campaign), selectors.current_cycle(campaign))
    return campaign, held, [row.gang for row in queue]


def test_a_challenge_and_a_pass_are_in_the_log(cycle_two):
    campaign, held, (first, second, third) = cycle_two
    battle = services.challenge_issue(
        campaign=campaign, challenger=first, target=second, stakes=held, actor=first.owner
    )
    services.challenge_pass(campaign=campaign, gang=third, actor=third.owner)
    log = {
        (e.data["campaign_log"], e.gang_id): e for e in selectors.campaign_log(campaign) if e.data.get("campaign_log")
    }
    challenge = log[("challenge", second.pk)]
    assert challenge.battle_id == battle.pk and challenge.actor == first.owner
    assert (
        challenge.description == f"Cycle 2 challenge: {first.name} challenges {second.name} for {held.territory.name}"
    )
    assert ("challenge", first.pk) in log
    assert log[("pass", third.pk)].description == f"Cycle 2: {third.name} passes (issues no challenge)"


def test_a_cancellation_needs_a_reason_keeps_the_battle_and_frees_the_gangs(client, cycle_two):
    campaign, held, (first, second, third) = cycle_two
    battle = services.challenge_issue(campaign=campaign, challenger=first, target=second, stakes=held)
    with pytest.raises(ValidationError, match="Give the reason"):
        services.battle_cancel(battle=battle, actor=campaign.created_by, reason="  ")
    client.force_login(campaign.created_by)
    url = reverse("campaigns:battle-cancel", args=[campaign.pk, battle.pk])
    client.post(url, {"reason": ""})
    assert Battle.objects.get(pk=battle.pk).status == BattleStatus.SCHEDULED
    client.post(url, {"reason": "Their player moved away"})
    battle.refresh_from_db()
    assert battle.status == BattleStatus.CANCELLED and battle.cancel_reason == "Their player moved away"
    assert sorted(events(campaign)) == sorted(
        [
            ("cancelled", first.pk, "Their player moved away"),
            ("cancelled", second.pk, "Their player moved away"),
            ("challenge", first.pk, ""),
            ("challenge", second.pk, ""),
        ]
    )
    page = client.get(reverse("campaigns:battle-detail", args=[campaign.pk, battle.pk])).content.decode()
    assert "Cancelled: Their player moved away" in page
    # Both gangs may fight another battle this cycle: the first challenges again.
    again = services.challenge_issue(campaign=campaign, challenger=first, target=third, stakes=held)
    assert again.status == BattleStatus.SCHEDULED


def test_rolling_the_scenario_again_is_in_the_log_with_the_dice_set_aside(make_campaign):
    campaign = make_campaign(gangs=2, started=True)
    a, b = [m.gang for m in campaign.memberships.order_by("pk")]
    battle = services.battle_arrange(campaign=campaign, attacker=a, defender=b)
    battle = services.battle_scenario_roll(battle=battle, dice=ScriptedDice([1, 1, 5, 2]))
    battle = services.battle_scenario_roll(
        battle=battle, dice=ScriptedDice([6, 6, 5, 2]), actor=campaign.created_by, reason="the die fell off the table"
    )
    entry = LedgerEntry.objects.get(gang=a, data__campaign_log="scenario rolled again")
    assert entry.reason == "the die fell off the table" and [d["value"] for d in entry.dice] == [1, 1, 5, 2]
    assert entry.battle_link.battle_id == battle.pk and entry.description.endswith(f"now {battle.scenario_name}")
    assert LedgerEntry.objects.filter(gang=b, data__campaign_log="scenario rolled again").count() == 1


def test_a_revert_needs_a_reason_and_is_in_the_log(make_confirmed_battle):
    from postbattle import services as postbattle

    battle = make_confirmed_battle(edition="n18")
    gang = battle.attacker
    sequence = postbattle.sequence_start(battle=battle, gang=gang, actor=gang.owner)
    for _ in range(6):
        sequence = postbattle.sequence_step_submit(
            sequence=sequence, dice=ScriptedDice([3] * 12), actor=gang.owner, choices={"recruit": False}
        )
    postbattle.sequence_apply(sequence=sequence, actor=gang.owner)
    arbitrator = battle.campaign.created_by
    with pytest.raises(ValidationError, match="Give the reason"):
        postbattle.sequence_revert(sequence=sequence, actor=arbitrator, reason="")
    postbattle.sequence_revert(sequence=sequence, actor=arbitrator, reason="the income die was misread")
    assert events(battle.campaign, gang) == [("reverted", gang.pk, "the income die was misread")]
    sequence.refresh_from_db()
    assert sequence.draft["history"][-1]["reason"] == "the income die was misread"


# --- cycle gating: unapplied post-battle sequences -------------------------------------------------------


def apply_sequence(battle, gang):
    from postbattle import services as postbattle

    sequence = postbattle.sequence_start(battle=battle, gang=gang, actor=gang.owner)
    for _ in range(6):
        sequence = postbattle.sequence_step_submit(
            sequence=sequence, dice=ScriptedDice([3] * 12), actor=gang.owner, choices={"recruit": False}
        )
    return postbattle.sequence_apply(sequence=sequence, actor=gang.owner)


@pytest.fixture
def confirmed_in_cycle_one(make_campaign, make_confirmed_battle):
    campaign = make_campaign(gangs=3, started=True)
    return make_confirmed_battle(edition="n18", campaign=campaign, cycle=campaign.cycles.get(number=1))


def test_a_cycle_waits_for_unapplied_sequences_unless_the_arbitrator_says_why(client, confirmed_in_cycle_one):
    battle = confirmed_in_cycle_one
    campaign, arbitrator = battle.campaign, battle.campaign.created_by
    apply_sequence(battle, battle.attacker)
    with pytest.raises(ValidationError, match=f"Cycle 2 cannot begin.*{battle.defender.name} after"):
        services.cycle_advance(campaign=campaign, from_cycle=1)
    client.force_login(arbitrator)
    page = client.get(reverse("campaigns:campaign-detail", args=[campaign.pk])).content.decode()
    assert f"Not applied yet: {battle.defender.name} after" in page and "1 post-battle sequence of Cycle 1" in page
    advance = reverse("campaigns:cycle-advance", args=[campaign.pk])
    client.post(advance, {"cycle": 1})
    campaign.refresh_from_db()
    assert campaign.cycle == 1
    client.post(advance, {"cycle": 1, "reason": "Bob's player is ill; he applies it next week"})
    campaign.refresh_from_db()
    assert campaign.cycle == 2
    assert events(campaign) == [
        ("cycle begun unapplied", battle.defender_id, "Bob's player is ill; he applies it next week")
    ]


def test_every_sequence_applied_the_cycle_begins_without_a_word(confirmed_in_cycle_one):
    battle = confirmed_in_cycle_one
    for gang in (battle.attacker, battle.defender):
        apply_sequence(battle, gang)
    assert services.cycle_advance(campaign=battle.campaign, from_cycle=1).number == 2


def test_a_gang_with_an_unapplied_sequence_cannot_be_challenged(confirmed_in_cycle_one, make_territory):
    battle = confirmed_in_cycle_one
    campaign = battle.campaign
    apply_sequence(battle, battle.attacker)
    services.cycle_advance(campaign=campaign, reason="testing")
    held = services.territory_add(campaign=campaign, territory=make_territory())
    waiting = battle.defender
    queue = selectors.challenge_queue(campaign, selectors.standings(campaign), selectors.current_cycle(campaign))
    challenger = queue[0].gang  # the third gang: no fighters, the lowest rating, challenges first
    assert challenger not in (battle.attacker, battle.defender)
    with pytest.raises(ValidationError, match=f"{waiting.name} cannot be challenged yet: its post-battle sequence"):
        services.challenge_issue(campaign=campaign, challenger=challenger, target=waiting, stakes=held)
    apply_sequence(battle, waiting)
    assert services.challenge_issue(campaign=campaign, challenger=challenger, target=waiting, stakes=held)
