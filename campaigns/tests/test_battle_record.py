"""One battle record (rulebook.n18.campaign.record) written by the hand report, read by the post-battle
sequence: caskets pay the gang whose fighter opened them, a capture ticked is a captive, a fighter who fled
rolls no Lasting Injury and credits nobody; the battle page shows the record in words."""

from html import unescape

import pytest
from django.urls import reverse

from campaigns import services
from campaigns.models import Battle, Outcome
from gangs.models import FighterStatus
from postbattle import engine
from postbattle.selectors import battle_context
from rulebook.dice import ScriptedDice, SeededDice

pytestmark = pytest.mark.django_db


@pytest.fixture
def world(two_player_campaign):
    campaign, gangs = two_player_campaign["campaign"], two_player_campaign["gangs"]

    def battle(scenario="the-trap", **fields):
        return Battle.objects.create(
            campaign=campaign,
            cycle=campaign.cycles.first(),
            attacker=gangs["alice"],
            defender=gangs["bob"],
            scenario=scenario,
            scenario_name=scenario.title(),
            origin="arranged",
            **fields,
        )

    return {**two_player_campaign, "battle": battle}


def roster(gang):
    return list(gang.fighters.order_by("pk"))


def row(fighter, outcome=Outcome.OK, by=None, **extra):
    data = {f"fighter-{fighter.pk}-took_part": "on", f"fighter-{fighter.pk}-outcome": outcome}
    if by is not None:
        data[f"fighter-{fighter.pk}-caused_by"] = str(by.pk)
    return data | {f"fighter-{fighter.pk}-{k}": v for k, v in extra.items()}


def report(client, world, battle, data):
    client.force_login(world["users"]["alice"])
    return client.post(reverse("campaigns:battle-report", args=[world["campaign"].pk, battle.pk]), data)


def confirm(world, battle):
    return services.battle_report_confirm(battle=battle, actor=world["users"]["bob"], is_arbitrator=False)


def run_step(battle, gang, slug, dice):
    context, start = battle_context(Battle.objects.get(pk=battle.pk), gang)
    step = next(s for s in engine.steps_for("n18") if s.slug == slug)
    return step.run(context, start, ScriptedDice(dice), {})


def test_a_casket_in_a_hand_report_pays_the_gang_whose_fighter_opened_it(client, world):
    battle = world["battle"]()
    _, _, a_ganger, _ = roster(world["gangs"]["alice"])
    _, _, b_ganger, _ = roster(world["gangs"]["bob"])
    # The Trap's Victory Points follow from the record (alice's Ganger took bob's Out of Action): none typed.
    data = {"result": "attacker"} | row(a_ganger) | row(b_ganger, Outcome.OUT_OF_ACTION, a_ganger)
    data |= {"casket-1-fighter": str(a_ganger.pk), "casket-1-result": "nothing-much", "casket-1-credits": "4"}
    data |= {"casket-2-fighter": str(b_ganger.pk), "casket-2-result": "ammo-cache"}
    assert report(client, world, battle, data).status_code == 302
    confirm(world, battle)
    paid = run_step(battle, world["gangs"]["alice"], "rewards", [3, 2, 1])
    assert [(e["amount"], e["reason"]) for e in paid.effects if e["op"] == "credits" and "casket" in e["reason"]] == [
        (4, "Loot casket: Nothing Much (4 credits)")
    ]
    # bob's fighter opened the other one: an ammo cache, no credits, and nothing of alice's casket.
    bob = run_step(battle, world["gangs"]["bob"], "rewards", [3])
    assert not [e for e in bob.effects if e["op"] == "credits" and "casket" in e["reason"]]
    assert any("opened a loot casket: Ammo Cache" in line["text"] for line in bob.lines)
    page = unescape(
        client.get(reverse("campaigns:battle-detail", args=[world["campaign"].pk, battle.pk])).content.decode()
    )
    assert f"{a_ganger.name} (Alice's gang) opened a loot casket: Nothing Much (4 credits)" in page
    assert "[{" not in page and "'side'" not in page


def test_smash_and_grab_the_defender_opens_no_casket_and_the_rest_are_owed_to_the_defender(client, world):
    battle = world["battle"]("smash-and-grab")
    _, _, a_ganger, _ = roster(world["gangs"]["alice"])
    _, _, b_ganger, _ = roster(world["gangs"]["bob"])
    data = {"result": "defender"} | row(a_ganger) | row(b_ganger)
    data |= {"casket-1-fighter": str(b_ganger.pk), "casket-1-result": "jackpot", "casket-1-credits": "130"}
    response = report(client, world, battle, data)
    assert response.status_code == 200  # bob's fighter is not even offered: the defender cannot open them
    assert battle.fighter_results.count() == 0
    data |= {"casket-1-fighter": str(a_ganger.pk), "casket-1-result": "jackpot", "casket-1-credits": "130"}
    assert report(client, world, battle, data).status_code == 302
    battle = confirm(world, battle)
    assert battle.scenario_facts["caskets_opened"] == 1
    alice = run_step(battle, world["gangs"]["alice"], "rewards", [1])
    assert [e["amount"] for e in alice.effects if e["op"] == "credits" and "casket" in e["reason"]] == [130]
    # Four caskets unopened: the defender's D6x10 for each, up to 4D6x10.
    bob = run_step(battle, world["gangs"]["bob"], "rewards", [1, 2, 3, 4, 1, 1])
    assert any(e["op"] == "credits" and e["amount"] == 100 for e in bob.effects)


def test_the_service_refuses_a_defender_casket_naming_the_fighter_and_the_rule(world):
    battle = world["battle"]("smash-and-grab")
    _, _, b_ganger, _ = roster(world["gangs"]["bob"])
    from django.core.exceptions import ValidationError

    with pytest.raises(ValidationError, match=f"{b_ganger.name} \\(casket 1\\): in Smash & Grab the defender cannot"):
        services.battle_report_submit(
            battle=battle,
            actor=world["users"]["alice"],
            winner=battle.defender,
            fighter_results=[{"fighter": b_ganger.pk, "outcome": "ok"}],
            scenario_facts={
                "caskets": [{"side": "defender", "fighter": str(b_ganger.pk), "result": "jackpot", "credits": 130}]
            },
        )


def test_a_capture_ticked_on_the_report_makes_a_captive_not_a_lasting_injury(client, world):
    from postbattle import services as postbattle
    from rulebook.dice import SeededDice

    battle = world["battle"]()
    _, _, a_ganger, _ = roster(world["gangs"]["alice"])
    _, _, b_ganger, _ = roster(world["gangs"]["bob"])
    data = {"result": "attacker"} | row(a_ganger)
    data |= row(b_ganger, Outcome.OUT_OF_ACTION, a_ganger, captured="on")
    assert report(client, world, battle, data).status_code == 302
    battle = confirm(world, battle)
    injuries = run_step(battle, world["gangs"]["bob"], "lasting-injuries", [])  # no die rolled for them
    assert [(e["op"], e["status"], e["captured_by"]) for e in injuries.effects] == [
        ("status", "captured", world["gangs"]["alice"].pk)
    ]
    gang = world["gangs"]["bob"]
    sequence = postbattle.sequence_start(battle=battle, gang=gang, actor=gang.owner)
    for _ in engine.steps_for("n18"):
        sequence = postbattle.sequence_step_submit(sequence=sequence, dice=SeededDice(3), actor=gang.owner)
    postbattle.sequence_apply(sequence=sequence, actor=gang.owner)
    b_ganger.refresh_from_db()
    assert b_ganger.status == FighterStatus.CAPTURED and b_ganger.captured_by_id == world["gangs"]["alice"].pk


def test_a_fighter_who_fled_rolls_no_lasting_injury_and_credits_nobody(world):
    battle = world["battle"]()
    _, _, a_ganger, _ = roster(world["gangs"]["alice"])
    _, _, b_ganger, _ = roster(world["gangs"]["bob"])
    services.battle_report_submit(
        battle=battle,
        actor=world["users"]["alice"],
        winner=battle.attacker,
        fighter_results=[{"fighter": a_ganger.pk, "outcome": "ok"}, {"fighter": b_ganger.pk, "outcome": "fled"}],
    )
    battle = confirm(world, battle)
    injuries = run_step(battle, world["gangs"]["bob"], "lasting-injuries", [])
    assert injuries.effects == []
    rewards = run_step(battle, world["gangs"]["alice"], "rewards", [1, 1, 1])
    assert not [e for e in rewards.effects if e["op"] == "xp" and e["fighter"] == str(a_ganger.pk)]


def test_the_captors_roster_lists_its_captives_and_the_owner_cannot_sell_a_captives_kit(client, world):
    from django.core.exceptions import ValidationError

    from content.models import Equipment
    from gangs.services import purchase_buy, purchase_discard, purchase_move, purchase_sell

    alice, bob = world["gangs"]["alice"], world["gangs"]["bob"]
    captive = roster(bob)[2]
    knife = purchase_buy(
        gang=bob,
        equipment=Equipment.objects.get(edition="n18", slug="fighting-knife"),
        fighter=captive,
        actor=bob.owner,
        override_reason="test",
    )
    captive.status, captive.captured_by = FighterStatus.CAPTURED, alice
    captive.save()
    for call in (
        lambda: purchase_sell(purchase=knife, actor=bob.owner),
        lambda: purchase_discard(purchase=knife, actor=bob.owner),
        lambda: purchase_move(purchase=knife, fighter=None, actor=bob.owner),
    ):
        with pytest.raises(ValidationError, match=f"{captive.name} is held captive by Alice's gang"):
            call()
    assert knife.__class__.objects.filter(pk=knife.pk, fighter=captive).exists()
    client.force_login(world["users"]["alice"])
    page = unescape(client.get(reverse("gangs:gang-detail", args=[alice.pk])).content.decode())
    assert "Captives held" in page and f'{captive.name} <span class="muted">of Bob\'s gang</span>' in page


def test_income_is_from_the_territories_held_when_the_battle_was_confirmed(world, make_territory):
    campaign, alice, bob = world["campaign"], world["gangs"]["alice"], world["gangs"]["bob"]
    mine = services.territory_add(campaign=campaign, territory=make_territory(name="Old Mine"))
    services.territory_assign(held=mine, holder=alice, actor=world["users"]["arbitrator"])
    battle = world["battle"]()
    services.battle_report_submit(battle=battle, actor=world["users"]["alice"], winner=battle.attacker)
    battle = confirm(world, battle)
    later = services.territory_add(campaign=campaign, territory=make_territory(name="Later Claim"))
    services.territory_assign(held=later, holder=alice, actor=world["users"]["arbitrator"])  # a cycle later
    services.territory_assign(held=mine, holder=bob, actor=world["users"]["arbitrator"])
    context, _ = battle_context(Battle.objects.get(pk=battle.pk), alice)
    assert "Old Mine" in [t.name for t in context.territories]
    assert "Later Claim" not in [t.name for t in context.territories]
    context, _ = battle_context(Battle.objects.get(pk=battle.pk), bob)
    assert "Old Mine" not in [t.name for t in context.territories]


def test_a_capture_recorded_by_hand_in_a_campaign_names_its_captor(world):
    import uuid

    from django.core.exceptions import ValidationError

    from gangs.forms import StatusForm
    from gangs.services import record

    alice, bob = world["gangs"]["alice"], world["gangs"]["bob"]
    arbitrator = world["users"]["arbitrator"]  # in a campaign the record is the arbitrator's (separation of duties)
    fighter = roster(bob)[2]
    assert list(StatusForm(fighter=fighter).fields["captor"].queryset) == [alice]
    with pytest.raises(ValidationError, match=f"Say which rival gang holds {fighter.name} captive"):
        record.record_status(
            fighter=fighter, status="captured", reason="Taken", actor=arbitrator, token=uuid.uuid4().hex
        )
    record.record_status(
        fighter=fighter, status="captured", reason="Taken", actor=arbitrator, token=uuid.uuid4().hex, captor=alice
    )
    fighter.refresh_from_db()
    assert fighter.status == FighterStatus.CAPTURED and fighter.captured_by_id == alice.pk


def test_a_hand_reported_battle_shows_its_crews_from_the_report(client, world):
    """Walked in issue 21: a battle reported by hand with no crews picked said "Crews: Not picked yet"."""
    battle = world["battle"]()
    _, _, a_ganger, _ = roster(world["gangs"]["alice"])
    _, _, b_ganger, _ = roster(world["gangs"]["bob"])
    data = {"result": "attacker"} | row(a_ganger) | row(b_ganger, Outcome.OUT_OF_ACTION, a_ganger)
    assert report(client, world, battle, data).status_code == 302
    page = client.get(reverse("campaigns:battle-detail", args=[world["campaign"].pk, battle.pk])).content.decode()
    for side, fighter in (("attacker", a_ganger), ("defender", b_ganger)):
        crew = page.split(f'data-testid="crew-{side}"')[1].split("</div>")[0]
        assert unescape(fighter.name) in unescape(crew) and "Not picked yet" not in crew


def test_a_fighter_in_recovery_cannot_be_reported_as_taking_part(client, world):
    """Walked in issue 21: a fighter sent into Recovery by the last battle's Medical Escort was accepted in the
    next battle's report. A correction of a report that already has him still stands."""
    battle = world["battle"]()
    _, _, a_ganger, a_other = roster(world["gangs"]["alice"])
    _, _, b_ganger, _ = roster(world["gangs"]["bob"])
    a_ganger.status = FighterStatus.RECOVERY
    a_ganger.save(update_fields=["status"])
    data = {"result": "attacker"} | row(a_ganger) | row(a_other) | row(b_ganger, Outcome.OUT_OF_ACTION, a_other)
    response = report(client, world, battle, data)
    assert response.status_code == 200 and f"{a_ganger.name} is In Recovery" in unescape(response.content.decode())
    assert battle.fighter_results.count() == 0
    a_ganger.status = FighterStatus.ACTIVE
    a_ganger.save(update_fields=["status"])
    assert report(client, world, battle, data).status_code == 302
    a_ganger.status = FighterStatus.RECOVERY  # put there by this battle's own sequence: the correction stands
    a_ganger.save(update_fields=["status"])
    assert report(client, world, battle, data).status_code == 302


def test_smash_and_grab_caskets_left_when_the_defender_fled_are_the_attackers_in_a_hand_report(client, world):
    """The guide's Smash & Grab, Fleeing the Battlefield: when the defender bottles out and flees, the attacker rolls
    for each casket left. The hand report says so as the assistant's end does, through the same record check."""
    battle = world["battle"]("smash-and-grab")
    _, _, a_ganger, _ = roster(world["gangs"]["alice"])
    _, _, b_ganger, _ = roster(world["gangs"]["bob"])
    data = {"result": "defender"} | row(a_ganger) | row(b_ganger)
    data |= {"casket-1-fighter": str(a_ganger.pk), "casket-1-result": "jackpot", "casket-1-credits": "130"}
    data |= {"casket-2-fighter": "left-behind", "casket-2-result": "jackpot", "casket-2-credits": "90"}
    # The defender did not flee: nothing is left behind for the attacker, and the record's check says why.
    refused = report(client, world, battle, data)
    assert refused.status_code == 200 and battle.fighter_results.count() == 0
    assert "only when the defender bottled out and fled" in unescape(refused.content.decode())
    data |= {"result": "attacker", "defender_bottled": "on", "defender_fled": "on"}
    assert report(client, world, battle, data).status_code == 302
    battle = confirm(world, battle)
    assert battle.scenario_facts["caskets_opened"] == 2
    assert battle.scenario_facts["caskets"][1] == {
        "side": "attacker",
        "fighter": None,
        "result": "jackpot",
        "credits": 90,
        "left_behind": True,
    }
    alice = run_step(battle, world["gangs"]["alice"], "rewards", [1, 1])
    assert sorted(e["amount"] for e in alice.effects if e["op"] == "credits" and "casket" in e["reason"]) == [90, 130]
    assert any(line["text"].startswith("A loot casket left behind") for line in alice.lines)
    page = unescape(
        client.get(reverse("campaigns:battle-detail", args=[world["campaign"].pk, battle.pk])).content.decode()
    )
    assert "A loot casket for Alice's gang, left behind by a gang that fled, rolled for: Jackpot (90 credits)" in page


def test_a_casket_left_behind_is_refused_where_the_scenario_has_none(world):
    from rulebook.errors import RulesInputError
    from rulebook.n18.campaign.record import BattleRecord, Casket, check_record

    with pytest.raises(RulesInputError, match="no casket is rolled for after a gang flees"):
        check_record(
            BattleRecord(
                "the-trap", caskets=(Casket("attacker", left_behind=True),), bottled=("defender",), fled=("defender",)
            )
        )
    with pytest.raises(RulesInputError, match="go to the attacker"):
        check_record(
            BattleRecord(
                "smash-and-grab",
                caskets=(Casket("defender", left_behind=True),),
                bottled=("attacker",),
                fled=("attacker",),
            )
        )


def test_a_rerun_after_a_revert_reads_the_roster_as_it_stood_at_confirmation(client, world, make_fighter):
    """The sequence reads each gang's roster as it stood when the battle was confirmed (Battle.roster_at_confirmation,
    as territories read Battle.held_at_confirmation): a re-run after a revert gives the same result with the same
    dice, although fighters gained experience, took injuries and were hired in between."""
    from gangs.services import experience_award, injury_record
    from postbattle import services as postbattle
    from rulebook.dice import SeededDice

    battle = world["battle"]()
    alice_gang = world["gangs"]["alice"]
    leader, _, a_ganger, _ = roster(alice_gang)
    _, _, b_ganger, _ = roster(world["gangs"]["bob"])
    data = {"result": "attacker"} | row(a_ganger, Outcome.OUT_OF_ACTION, by=b_ganger) | row(leader)
    data |= row(b_ganger, Outcome.OUT_OF_ACTION, by=leader)
    assert report(client, world, battle, data).status_code == 302
    battle = confirm(world, battle)
    assert set(battle.roster_at_confirmation) == {str(alice_gang.pk), str(world["gangs"]["bob"].pk)}
    context, start = battle_context(battle, alice_gang)
    owner, arbitrator = world["users"]["alice"], world["users"]["arbitrator"]
    sequence = postbattle.sequence_start(battle=battle, gang=alice_gang, actor=owner)
    for step in range(6):
        sequence = postbattle.sequence_step_submit(sequence=sequence, dice=SeededDice(step), actor=owner)
    postbattle.sequence_apply(sequence=sequence, actor=owner)
    effects = {slug: step["effects"] for slug, step in sequence.draft["steps"].items()}
    postbattle.sequence_revert(sequence=sequence, actor=arbitrator, reason="a die was misread")
    # Meanwhile the roster changes: experience, an injury with a characteristic change, a new hire.
    experience_award(fighter=a_ganger, amount=5, actor=arbitrator, reason="Another battle")
    injury_record(
        fighter=leader, code="head-injury", name="Head Injury", stat_deltas={"Int": 1}, actor=arbitrator, reason="War"
    )
    make_fighter(alice_gang, "ganger", name="Late Hire")
    assert battle_context(Battle.objects.get(pk=battle.pk), alice_gang) == (context, start)
    again = postbattle.sequence_rerun(sequence=sequence, actor=arbitrator, same_dice=True)
    assert again.draft["start"] == sequence.draft["start"]
    assert {slug: step["effects"] for slug, step in again.draft["steps"].items()} == effects


@pytest.mark.parametrize(("face", "captive"), [(4, False), (5, True)])
def test_a_fighter_webbed_when_taken_out_of_action_rolls_the_webbed_d6_not_a_lasting_injury(
    client, world, face, captive
):
    from campaigns.selectors import roster_facts
    from postbattle import services as postbattle

    alice, bob = world["gangs"]["alice"], world["gangs"]["bob"]
    battle = world["battle"]()
    _, _, a_ganger, _ = roster(alice)
    _, _, b_ganger, _ = roster(bob)
    data = {"result": "attacker"} | row(a_ganger) | row(b_ganger, Outcome.OUT_OF_ACTION, a_ganger, webbed="on")
    assert report(client, world, battle, data).status_code == 302
    battle = confirm(world, battle)
    assert battle.fighter_results.get(fighter=b_ganger).webbed
    injuries = run_step(battle, bob, "lasting-injuries", [face])  # one D6, no D66
    assert [line["text"] for line in injuries.lines] == [
        f"Webbed when taken Out of Action: D6 {face}, "
        + ("Captured: held by Alice's gang" if captive else "Out Cold (no lasting harm)")
    ]
    assert [(e["status"], e["captured_by"]) for e in injuries.effects] == ([("captured", alice.pk)] if captive else [])
    sequence = postbattle.sequence_start(battle=battle, gang=bob, actor=bob.owner)
    sequence = postbattle.sequence_step_submit(
        sequence=sequence, dice=ScriptedDice([]), entered=True, choices={}, actor=bob.owner
    )
    sequence = postbattle.sequence_step_submit(
        sequence=sequence, dice=ScriptedDice([face]), entered=True, choices={}, actor=bob.owner
    )
    for _ in engine.steps_for("n18")[2:]:
        sequence = postbattle.sequence_step_submit(sequence=sequence, dice=SeededDice(3), actor=bob.owner)
    postbattle.sequence_apply(sequence=sequence, actor=bob.owner)
    b_ganger.refresh_from_db()
    assert (b_ganger.status == FighterStatus.CAPTURED) is captive
    assert [c["name"] for c in roster_facts(alice)["captives"]] == ([b_ganger.name] if captive else [])


def test_webbed_is_refused_for_a_fighter_not_out_of_action(client, world):
    from django.core.exceptions import ValidationError

    battle = world["battle"]()
    _, _, a_ganger, _ = roster(world["gangs"]["alice"])
    _, _, b_ganger, _ = roster(world["gangs"]["bob"])
    data = {"result": "attacker"} | row(a_ganger) | row(b_ganger, Outcome.SERIOUSLY_INJURED, a_ganger, webbed="on")
    response = report(client, world, battle, data)
    assert response.status_code == 200 and "can be Webbed then" in unescape(response.content.decode())
    with pytest.raises(ValidationError, match=f"{b_ganger.name}: only a fighter taken Out of Action"):
        services.battle_report_submit(
            battle=battle,
            actor=world["users"]["alice"],
            winner=battle.attacker,
            fighter_results=[{"fighter": b_ganger.pk, "outcome": "seriously_injured", "webbed": True}],
        )
    assert battle.fighter_results.count() == 0


def test_reinforcements_on_a_hand_report_go_into_the_record_and_onto_the_battle_page(client, world):
    """Issue 21: Reinforcements lived only in the assistant. A hand report of Border Dispute (both gangs are
    reinforced) says who arrived as one; the record keeps them and the battle page names them."""
    battle = world["battle"]("border-dispute")
    _, _, a_ganger, _ = roster(world["gangs"]["alice"])
    _, _, b_ganger, b_ganger2 = roster(world["gangs"]["bob"])
    data = {"result": "draw"} | row(a_ganger) | row(b_ganger) | row(b_ganger2, reinforcement="on")
    assert report(client, world, battle, data).status_code == 302
    battle.refresh_from_db()
    assert battle.scenario_facts["reinforcements"] == [b_ganger2.pk]
    page = unescape(
        client.get(reverse("campaigns:battle-detail", args=[world["campaign"].pk, battle.pk])).content.decode()
    )
    assert f"Reinforcements for {world['gangs']['bob'].name}: {b_ganger2.name}" in page
    # A correction starts from the record: the box is ticked again.
    from campaigns.selectors import report_initial

    assert report_initial(battle)[f"fighter-{b_ganger2.pk}-reinforcement"] is True


def test_a_reinforcement_is_refused_from_the_starting_crew_and_where_the_scenario_has_none(client, world):
    battle = world["battle"]("border-dispute")
    _, _, a_ganger, _ = roster(world["gangs"]["alice"])
    _, _, b_ganger, _ = roster(world["gangs"]["bob"])
    Battle.objects.filter(pk=battle.pk).update(crews={"defender": {"fighters": [str(b_ganger.pk)]}})
    data = {"result": "draw"} | row(a_ganger) | row(b_ganger, reinforcement="on")
    page = unescape(report(client, world, battle, data).content.decode())
    assert f"{b_ganger.name} was in the defender's starting crew, so cannot also arrive as a Reinforcement" in page
    assert battle.fighter_results.count() == 0
    # The Trap sends none: the report does not ask, and the service refuses one all the same.
    trap = world["battle"]("the-trap")
    page = client.get(reverse("campaigns:battle-report", args=[world["campaign"].pk, trap.pk])).content.decode()
    assert "-reinforcement" not in page
    from django.core.exceptions import ValidationError

    with pytest.raises(ValidationError, match=f"{b_ganger.name}: in The Trap the defender receives no Reinforcements"):
        services.battle_report_submit(
            battle=trap,
            actor=world["users"]["alice"],
            winner=None,
            is_draw=True,
            fighter_results=[{"fighter": b_ganger.pk, "outcome": "ok"}],
            scenario_facts={"reinforcements": [b_ganger.pk]},
        )
