"""Campaign changes race nothing (PostgreSQL row locks; each thread has its own connection): concurrent
confirmations confirm once and move the challenged territory once; 20 submits of the begin-cycle form
begin one cycle; 20 joins enter a gang once; 20 starts of a campaign battle start one battle."""

from functools import partial

from campaigns import services
from campaigns.models import Battle, BattleStatus, Campaign, CampaignGang, CampaignTerritory
from core.testing import race_marks
from gangs.ledger import ledger_totals
from gangs.models import Gang, LedgerEntry, LedgerKind
from rulebook.dice import ScriptedDice

pytestmark = race_marks()


def test_ten_concurrent_confirmations_confirm_once(make_campaign, make_fighter, make_territory, at_once):
    campaign = make_campaign(gangs=2, started=True)
    services.cycle_advance(campaign=campaign)
    low, high = [m.gang for m in campaign.memberships.select_related("gang")]
    make_fighter(high, "ganger")
    held = services.territory_add(campaign=campaign, territory=make_territory())
    services.territory_assign(held=held, holder=high, actor=campaign.created_by)
    battle = services.challenge_issue(campaign=campaign, challenger=low, target=high, stakes=held)
    battle = services.battle_scenario_roll(battle=battle, dice=ScriptedDice([1, 1]))
    battle = services.battle_report_submit(battle=battle, actor=low.owner, winner=low)
    confirm = partial(services.battle_report_confirm, battle=battle, actor=high.owner, is_arbitrator=False)
    assert at_once(10, confirm) == ["done"] + ["refused"] * 9
    battle.refresh_from_db()
    assert battle.status == BattleStatus.CONFIRMED
    assert CampaignTerritory.objects.get(pk=held.pk).holder == low
    assert LedgerEntry.objects.filter(gang=low, kind=LedgerKind.TERRITORY, description__startswith="Took").count() == 1
    assert campaign.snapshots.filter(reason__contains=battle.scenario_name).count() == 2


def test_twenty_submits_of_the_begin_cycle_form_begin_one_cycle(make_campaign, at_once):
    campaign = make_campaign(gangs=2, started=True)
    outcomes = at_once(
        20,
        lambda c: services.cycle_advance(campaign=c, from_cycle=1),
        load=lambda: Campaign.objects.get(pk=campaign.pk),
    )
    assert outcomes == ["done"] + ["refused"] * 19
    campaign.refresh_from_db()
    assert campaign.cycle == 2 and campaign.cycles.count() == 2


def test_twenty_joins_of_one_gang_enter_it_once(make_campaign, make_gang, at_once):
    campaign = make_campaign(gangs=1)
    gang = make_gang(edition="n18")
    outcomes = at_once(
        20,
        lambda g: services.campaign_join(campaign=campaign, gang=g, user=g.owner),
        load=lambda: Gang.objects.get(pk=gang.pk),
    )
    assert outcomes == ["done"] + ["refused"] * 19
    assert CampaignGang.objects.filter(gang=gang).count() == 1
    gang.refresh_from_db()
    assert gang.reputation == 1  # one Home Settlement
    assert ledger_totals(gang)["reputation"] == gang.reputation


def test_twenty_starts_of_a_campaign_battle_start_one_battle(make_campaign, make_fighter, at_once):
    from battles.models import BattleSession
    from battles.services import battle_start_from_campaign

    campaign = make_campaign(gangs=2, started=True)
    attacker, defender = [m.gang for m in campaign.memberships.select_related("gang").order_by("pk")]
    for gang in (attacker, defender):
        make_fighter(gang, "leader"), make_fighter(gang, "ganger")
    battle = Battle.objects.create(
        campaign=campaign,
        origin="arranged",
        attacker=attacker,
        defender=defender,
        scenario="the-trap",
        scenario_name="The Trap",
    )
    outcomes = at_once(
        20,
        lambda b: battle_start_from_campaign(campaign_battle=b, started_by=attacker.owner),
        load=lambda: Battle.objects.select_related("attacker", "defender", "campaign").get(pk=battle.pk),
    )
    assert outcomes == ["done"] * 20  # the first starts it; the others are shown the battle in play
    assert BattleSession.objects.filter(campaign_battle=battle).count() == 1
