"""Every territory applies its rule in the post-battle sequence and the campaign (issue 21): who may collect
(Workshop and Rogue Doc Shop pay only an Outlaw gang), Reputation while held (Settlement, enhanced boons),
the Settlement's recruit roll, a double's consequence, and income from the territories as held when the
battle was confirmed, so a re-run after a revert collects the same."""

import pytest

from campaigns import services as campaign_services
from campaigns.models import Battle, BattleStatus
from gangs.ledger import ledger_totals
from postbattle import services
from rulebook.dice import ScriptedDice

pytestmark = pytest.mark.django_db

STEPS = ("injury-tests", "lasting-injuries", "rewards", "income", "actions", "roster")


@pytest.fixture
def battle(make_confirmed_battle):
    return make_confirmed_battle(edition="n18", winner="attacker")


def hand_over(battle, make_territory, name, gang=None):
    held = campaign_services.territory_add(campaign=battle.campaign, territory=make_territory("n18", name))
    campaign_services.territory_assign(held=held, holder=gang or battle.attacker, actor=battle.campaign.created_by)
    return held


def up_to_income(battle, gang=None):
    """The gang's sequence with the steps before Collect Income done (server dice for them)."""
    gang = gang or battle.attacker
    sequence = services.sequence_start(battle=battle, gang=gang, actor=gang.owner)
    for _ in range(3):
        sequence = services.sequence_step_submit(sequence=sequence, dice=ScriptedDice([3] * 8), actor=gang.owner)
    return sequence


def income(sequence, dice, **choices):
    sequence = services.sequence_step_submit(
        sequence=sequence,
        dice=ScriptedDice(dice),
        entered=True,
        choices={"recruit": False, **choices},
        actor=sequence.gang.owner,
    )
    return sequence, sequence.draft["steps"]["income"]


def lines(record, name):
    return [line["text"] for line in record["lines"] if name in line["rule"]]


def credits_for(record, name=None):
    """The credits the step pays: for the territory ``name``, or all of them."""
    return sum(
        e["amount"]
        for e in record["effects"]
        if e["op"] == "credits" and (name is None or e["reason"] == f"Collect Income: {name}")
    )


def make_outlaw(gang):
    gang.house.gang_rules = [{"name": "Outlaw", "summary": "Always Outlaw."}]
    gang.house.save(update_fields=["gang_rules"])


def test_a_workshop_pays_no_income_to_a_law_abiding_gang(battle, make_territory):
    hand_over(battle, make_territory, "Workshop")
    _, record = income(up_to_income(battle), [4])  # the Home Settlement's D6 only: the Workshop rolls nothing
    assert credits_for(record, "Workshop") == 0
    assert "only an Outlaw gang collects it" in lines(record, "Workshop")[0]
    assert "Ammo-jack" in lines(record, "Workshop")[0]


def test_a_workshop_pays_an_outlaw_gang(battle, make_territory):
    make_outlaw(battle.attacker)
    hand_over(battle, make_territory, "Workshop")
    _, record = income(up_to_income(battle), [4, 5])
    assert credits_for(record, "Workshop") == 50 and lines(record, "Workshop") == ["income D6x10 = 50 credits"]


def test_a_settlement_gives_reputation_while_held_and_its_recruit_roll(battle, make_territory):
    gang = battle.attacker
    before = gang.reputation
    held = hand_over(battle, make_territory, "Settlement")
    gang.refresh_from_db()
    assert gang.reputation == before + 1 == ledger_totals(gang)["reputation"]
    sequence, record = income(
        up_to_income(battle), [2, 3, 6, 6], recruit_settlement=True, recruit_name_settlement="Gorm"
    )
    assert credits_for(record, "Settlement") == 30
    assert lines(record, "Settlement: Recruit") == ["two D6 rolled 6 and 6: Free Ganger"]
    [recruit] = [e for e in record["effects"] if e["op"] == "recruit"]
    assert (recruit["category"], recruit["name"]) == ("ganger", "Gorm")
    for _ in range(2):
        sequence = services.sequence_step_submit(sequence=sequence, dice=ScriptedDice([3] * 8), actor=gang.owner)
    services.sequence_apply(sequence=sequence, actor=gang.owner)
    assert gang.fighters.filter(name="Gorm").exists()
    gang.refresh_from_db()
    held_it = gang.reputation
    campaign_services.territory_assign(held=held, holder=battle.defender, actor=battle.campaign.created_by)
    gang.refresh_from_db()
    assert gang.reputation == held_it - 1 == ledger_totals(gang)["reputation"]  # lost with the territory


def test_an_enhanced_boon_follows_the_holders_house(battle, make_territory):
    gang = battle.attacker
    gang.house.name = "Cawdor"
    gang.house.save(update_fields=["name"])
    before = gang.reputation
    hand_over(battle, make_territory, "Bone Shrine (Cawdor)")
    gang.refresh_from_db()
    assert gang.reputation == before + 2
    _, record = income(up_to_income(battle), [4, 1, 2, 3, 4])  # Home 4; Cawdor: 4D6x5
    assert credits_for(record, "Bone Shrine (Cawdor)") == 50 and "enhanced boon" in record["lines"][-1]["rule"]


def test_a_double_on_the_collapsed_dome_pays_nothing_and_injures_a_random_fighter(battle, make_territory):
    hand_over(battle, make_territory, "Collapsed Dome")
    # Home 4; three dice 2, 5, 2: a double; fighter pick (4 fighters: one D6, 1-4) 1: the first; Lasting Injury 44.
    _, record = income(up_to_income(battle), [4, 2, 5, 2, 1, 4, 4], **{"dice_collapsed-dome": "3"})
    assert credits_for(record, "Collapsed Dome") == 0
    assert "a double: no income" in lines(record, "Collapsed Dome")[0]
    injured = battle.attacker.fighters.order_by("pk").first()
    assert any(e["op"] == "injury" and e["fighter"] == str(injured.pk) for e in record["effects"])


def test_a_rerun_after_a_revert_collects_from_the_territories_held_at_confirmation(battle, make_territory):
    Battle.objects.filter(pk=battle.pk).update(status=BattleStatus.REPORTED)
    battle = campaign_services.battle_report_confirm(
        battle=battle, actor=battle.campaign.created_by, is_arbitrator=True
    )
    gang = battle.attacker
    sequence, record = income(up_to_income(battle), [4])
    for _ in range(2):
        sequence = services.sequence_step_submit(sequence=sequence, dice=ScriptedDice([3] * 8), actor=gang.owner)
    services.sequence_apply(sequence=sequence, actor=gang.owner)
    services.sequence_revert(sequence=sequence, actor=battle.campaign.created_by, reason="a die was misread")
    hand_over(battle, make_territory, "Old Ruins")  # taken after the battle (a cycle later)
    again = services.sequence_rerun(sequence=sequence, actor=gang.owner, same_dice=True)
    rerun = again.draft["steps"]["income"]
    assert [line["rule"] for line in rerun["lines"]] == [line["rule"] for line in record["lines"]]
    assert credits_for(rerun) == credits_for(record) == 40


def test_a_law_abiding_gang_recruits_the_workshops_ammo_jack_for_free_once(battle, make_territory):
    """Workshop: a Law-abiding gang collects no income but may recruit an Ammo-jack Hanger-on for free (the 2023
    Dominion territories, necrovox copy); our ruling: once, not while one is on the roster (docs/campaigns.md)."""
    from content.models import House

    gang = battle.attacker
    additions = House.objects.create(edition="n18", slug="gang-additions", name="Gang additions")
    ammo_jack = gang.fighters.order_by("pk").first().fighter_type  # a copy of a Ganger's card, as a Hanger-on
    ammo_jack.pk, ammo_jack.slug, ammo_jack.name, ammo_jack.house = None, "ammo-jack", "Ammo-jack", additions
    ammo_jack.category = "hanger_on"
    ammo_jack.save()
    hand_over(battle, make_territory, "Workshop")
    sequence, record = income(up_to_income(battle), [4], hanger_on_workshop=True)
    [recruit] = [e for e in record["effects"] if e["op"] == "recruit"]
    assert (recruit["category"], recruit["fighter_type"], recruit["name"]) == ("hanger_on", "Ammo-jack", "Ammo-jack")
    for _ in range(2):
        sequence = services.sequence_step_submit(sequence=sequence, dice=ScriptedDice([3] * 8), actor=gang.owner)
    services.sequence_apply(sequence=sequence, actor=gang.owner)
    hired = gang.fighters.get(fighter_type__name="Ammo-jack")
    gang.refresh_from_db()
    assert ledger_totals(gang)["stash"] == gang.stash
    assert not hired.ledger.filter(credits__lt=0).exists()  # free: nothing paid from the Stash
    # The next battle's sequence does not offer a second one while this one is on the roster.
    again = make_confirmed_battle_like(battle)
    _, record = income(up_to_income(again), [4], hanger_on_workshop=True)
    assert not [e for e in record["effects"] if e["op"] == "recruit"]


def make_confirmed_battle_like(battle):
    return Battle.objects.create(
        campaign=battle.campaign,
        origin=battle.origin,
        attacker=battle.attacker,
        defender=battle.defender,
        scenario=battle.scenario,
        scenario_name=battle.scenario_name,
        status=BattleStatus.CONFIRMED,
        winner=battle.attacker,
        rewards=battle.rewards,
    )


def test_going_back_cannot_hand_the_settlements_recruit_the_home_settlements_dice(battle, make_territory):
    """Issue 21's walk: the Settlement's recruit roll asked its dice as the Home Settlement's, so a replay after going
    back matched by purpose: untick the Home Settlement's roll and the Settlement's took its double 6."""

    def settlement_recruit(record):
        return [line["text"] for line in record["lines"] if line["rule"] == "Settlement: Recruit"]

    hand_over(battle, make_territory, "Settlement")
    sequence = up_to_income(battle)
    # Home Settlement: income 2, recruit 6 6 (a free Ganger); Settlement: income 3, recruit 1 2 (nobody).
    sequence, record = income(sequence, [2, 6, 6, 3, 1, 2], recruit=True, recruit_settlement=True)
    assert settlement_recruit(record) == ["two D6 rolled 1 and 2: No recruit"]
    sequence = services.sequence_step_back(sequence=sequence, to=3, actor=battle.attacker.owner)
    sequence = services.sequence_step_submit(
        sequence=sequence,
        dice=ScriptedDice([]),
        choices={"recruit": False, "recruit_settlement": True},
        actor=battle.attacker.owner,
    )
    record = sequence.draft["steps"]["income"]
    assert settlement_recruit(record) == ["two D6 rolled 1 and 2: No recruit"]
    assert not [e for e in record["effects"] if e["op"] == "recruit"]
