"""The rules at the joins of report, confirmation and post-battle sequence (2018+): the standard experience
from who took whom Out of Action, scenario rewards to the fighter named, and Rescue Missions both ways."""

from html import unescape

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from campaigns import services
from campaigns.models import Battle, Outcome
from gangs.ledger import ledger_totals
from gangs.models import FighterStatus, LedgerEntry
from postbattle import engine
from postbattle import services as postbattle
from postbattle.selectors import battle_context
from rulebook.dice import ScriptedDice, SeededDice

pytestmark = pytest.mark.django_db


@pytest.fixture
def world(two_player_campaign):
    """alice's and bob's gangs in a started campaign (conftest's ``two_player_campaign``); ``battle(scenario)``
    arranges a battle between them with that scenario."""
    campaign, gangs = two_player_campaign["campaign"], two_player_campaign["gangs"]

    def battle(scenario="the-trap", **fields):
        fields = {"origin": "arranged", **fields}
        return Battle.objects.create(
            campaign=campaign,
            cycle=campaign.cycles.first(),
            attacker=gangs["alice"],
            defender=gangs["bob"],
            scenario=scenario,
            scenario_name=scenario.title(),
            **fields,
        )

    return {**two_player_campaign, "battle": battle}


def roster(gang):
    leader, champion, ganger, ganger2 = gang.fighters.order_by("pk")
    return leader, champion, ganger, ganger2


def report(client, world, battle, data, who="alice"):
    client.force_login(world["users"][who])
    target = reverse("campaigns:battle-report", args=[world["campaign"].pk, battle.pk])
    return client.post(target, data)


def row(fighter, outcome=Outcome.OK, by=None, **extra):
    data = {f"fighter-{fighter.pk}-took_part": "on", f"fighter-{fighter.pk}-outcome": outcome}
    if by is not None:
        data[f"fighter-{fighter.pk}-caused_by"] = str(by.pk)
    data.update({f"fighter-{fighter.pk}-{k}": v for k, v in extra.items()})
    return data


def confirm(world, battle):
    """Confirm as bob (the opponent); returns the battle as it stands now."""
    return services.battle_report_confirm(battle=battle, actor=world["users"]["bob"], is_arbitrator=False)


def rewards_step(battle, gang, dice):
    """Run the rewards step alone over the gang's fighters now: its lines and effects."""
    context, start = battle_context(Battle.objects.get(pk=battle.pk), gang)
    step = next(s for s in engine.steps_for("n18") if s.slug == "rewards")
    return step.run(context, start, ScriptedDice(dice), {})


def xp_effects(outcome):
    return {(e["fighter"], e["amount"]) for e in outcome.effects if e["op"] == "xp"}


def test_a_hand_entered_report_gives_each_fighter_the_standard_experience(client, world):
    battle = world["battle"]()
    a_leader, a_champion, a_ganger, _ = roster(world["gangs"]["alice"])
    b_leader, b_champion, b_ganger, b_ganger2 = roster(world["gangs"]["bob"])
    data = {"result": "attacker"}  # The Trap's Victory Points follow from the record below
    # alice's Ganger takes two of bob's Gangers Out of Action; her Champion kills bob's Leader.
    data |= row(a_ganger) | row(a_champion, rallies="1") | row(a_leader)
    data |= row(b_ganger, Outcome.OUT_OF_ACTION, a_ganger) | row(b_ganger2, Outcome.OUT_OF_ACTION, a_ganger)
    data |= row(b_leader, Outcome.OUT_OF_ACTION, a_champion, killed="on")
    data |= row(b_champion, Outcome.SERIOUSLY_INJURED, a_leader)  # Seriously Injured earns nothing
    assert report(client, world, battle, data).status_code == 302
    confirm(world, battle)
    outcome = rewards_step(battle, world["gangs"]["alice"], [3, 2, 1])
    # The Trap: D6x10 credits, the Leader's D3 XP (2), D3 Reputation; then +1 per enemy, +1 Leader, +1 kill, +1 Rally.
    by_fighter: dict = {}
    for effect in outcome.effects:
        if effect["op"] == "xp":
            by_fighter[effect["fighter"]] = by_fighter.get(effect["fighter"], 0) + effect["amount"]
    assert by_fighter == {str(a_leader.pk): 2, str(a_ganger.pk): 2, str(a_champion.pk): 1 + 1 + 1 + 1}
    # bob's side: nobody of his took anyone down; his killed Leader is dead with no Lasting Injury roll.
    assert xp_effects(rewards_step(battle, world["gangs"]["bob"], [1])) == set()


def test_the_whole_sequence_awards_and_the_ledger_says_why(client, world):
    battle = world["battle"]()
    _, _, a_ganger, _ = roster(world["gangs"]["alice"])
    _, _, b_ganger, b_ganger2 = roster(world["gangs"]["bob"])
    data = {"result": "attacker"} | row(a_ganger)
    data |= row(b_ganger, Outcome.OUT_OF_ACTION, a_ganger) | row(b_ganger2, Outcome.OUT_OF_ACTION, a_ganger)
    report(client, world, battle, data)
    battle = confirm(world, battle)
    gang = world["gangs"]["alice"]
    sequence = postbattle.sequence_start(battle=battle, gang=gang, actor=gang.owner)
    for _ in engine.steps_for("n18"):
        sequence = postbattle.sequence_step_submit(sequence=sequence, dice=SeededDice(5), actor=gang.owner)
    postbattle.sequence_apply(sequence=sequence, actor=gang.owner)
    a_ganger.refresh_from_db()
    assert a_ganger.experience == a_ganger.starting_experience + 2
    entry = LedgerEntry.objects.get(fighter=a_ganger, battle_link__battle=battle, experience=2)
    assert "enemy taken Out of Action" in entry.reason
    assert ledger_totals(gang)["stash"] == gang.__class__.objects.get(pk=gang.pk).stash


def test_the_assistant_record_gives_the_same_experience(world):
    """The battle assistant hands its record over as caused_by (who took whom Out of Action); any count it
    also sends is not added on top."""
    battle = world["battle"]()
    _, _, a_ganger, _ = roster(world["gangs"]["alice"])
    b_leader, _, _, _ = roster(world["gangs"]["bob"])
    results = [
        {
            "fighter": a_ganger.pk,
            "outcome": "ok",
            "awards": {"out_of_action": 1, "leader_or_champion_out_of_action": 1},
        },
        {"fighter": b_leader.pk, "outcome": "out_of_action", "caused_by": a_ganger.pk},
    ]
    services.battle_report_submit(
        battle=battle, actor=world["users"]["alice"], winner=battle.attacker, fighter_results=results
    )
    confirm(world, battle)
    outcome = rewards_step(battle, world["gangs"]["alice"], [3, 2, 1])
    assert sum(e["amount"] for e in outcome.effects if e["op"] == "xp" and e["fighter"] == str(a_ganger.pk)) == 2


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        ({"defender_relic_defiled": "on"}, "Say which of Alice's gang's fighters defiled Bob's gang's relic."),
        ({"killed_row": True}, "a fighter killed during the battle is Out of Action"),
    ],
)
def test_the_report_asks_who_did_it(client, world, extra, message):
    battle = world["battle"]("border-dispute")
    _, _, a_ganger, _ = roster(world["gangs"]["alice"])
    data = {"result": "draw"} | row(a_ganger, killed="on" if extra.pop("killed_row", False) else "")
    response = report(client, world, battle, data | extra)
    assert response.status_code == 200 and message in unescape(response.content.decode())


def test_scenario_rewards_go_to_the_fighter_named(client, world):
    battle = world["battle"]("border-dispute")
    _, a_champion, _, _ = roster(world["gangs"]["alice"])
    data = {"result": "attacker"} | row(a_champion, relic_defiled="on")
    assert report(client, world, battle, data).status_code == 302
    battle.refresh_from_db()
    assert battle.scenario_facts["relic_defiled"] == {"defender": True}
    from campaigns.selectors import facts_display

    assert f"{world['gangs']['bob'].name}'s relic defiled by {a_champion.name}" in facts_display(battle)
    confirm(world, battle)
    # Border Dispute, alice's relic safe: D6x10 credits (4), the defiler's D3 XP (3), the Leader's D3 XP (1),
    # D3 Reputation (2).
    outcome = rewards_step(battle, world["gangs"]["alice"], [4, 3, 1, 2])
    assert (str(a_champion.pk), 3) in xp_effects(outcome)


def test_caches_name_their_fighters_and_the_counts_follow(client, world):
    battle = world["battle"]("search-and-destroy")
    _, _, a_ganger, a_ganger2 = roster(world["gangs"]["alice"])
    _, b_champion, _, _ = roster(world["gangs"]["bob"])
    data = {"result": "attacker"} | row(a_ganger, caches_destroyed="2") | row(a_ganger2, caches_destroyed="1")
    data |= row(b_champion, caches_recovered="1")
    assert report(client, world, battle, data).status_code == 302
    battle.refresh_from_db()
    assert (battle.scenario_facts["caches_destroyed"], battle.scenario_facts["caches_recovered"]) == (3, 1)
    from campaigns.selectors import facts_display

    said = facts_display(battle)
    assert f"Caches destroyed: 3 ({a_ganger.name} 2, {a_ganger2.name} 1)" in said
    assert f"Caches recovered: 1 ({b_champion.name} 1)" in said
    confirm(world, battle)
    # Attacker: D6x10 per cache destroyed (3 dice), then each destroyer's D3 XP per cache, D3 Reputation.
    outcome = rewards_step(battle, world["gangs"]["alice"], [1, 1, 1, 3, 2, 1, 1])
    assert {(str(a_ganger.pk), 5), (str(a_ganger2.pk), 1)} <= xp_effects(outcome)
    outcome = rewards_step(battle, world["gangs"]["bob"], [1, 2])
    assert (str(b_champion.pk), 2) in xp_effects(outcome)
    wrong = {"result": "attacker", "caches_destroyed": "3"} | row(a_ganger, caches_destroyed="2")
    wrong |= row(b_champion)
    Battle.objects.filter(pk=battle.pk).update(status="scheduled")
    response = report(client, world, Battle.objects.get(pk=battle.pk), wrong)
    assert "3 caches destroyed, but the fighters' rows name 2" in unescape(response.content.decode())


def capture(world, fighter):
    from gangs.services import fighter_status_set

    captors = world["gangs"]["bob"]
    return fighter_status_set(
        fighter=fighter,
        status=FighterStatus.CAPTURED,
        captured_by_id=captors.pk,
        actor=captors.owner,
        reason="Captured (test)",
    )


def rescue(world):
    """alice's Rescue Mission against bob, as a Cycle 2 challenge makes it (challenges are tested elsewhere)."""
    battle = world["battle"](scenario="", is_rescue=True, origin="challenge")
    return services.battle_scenario_roll(battle=battle, dice=ScriptedDice([]))


@pytest.mark.parametrize("freed", [True, False])
def test_a_rescue_mission_resolves_the_captive_both_ways(client, world, freed):
    _, a_champion, a_ganger, _ = roster(world["gangs"]["alice"])
    capture(world, a_champion)
    battle = rescue(world)
    data = {"result": "attacker" if freed else "defender"} | row(a_ganger)
    if freed:
        data[f"captive-{a_champion.pk}-freed"] = "on"
    page = unescape(report(client, world, battle, {}).content.decode())
    assert f"{a_champion.name} freed and taken flight" in page
    assert report(client, world, battle, data).status_code == 302
    confirm(world, battle)
    a_champion.refresh_from_db()
    if freed:
        assert (a_champion.status, a_champion.captured_by_id) == (FighterStatus.ACTIVE, None)
        assert LedgerEntry.objects.filter(
            fighter=a_champion, battle_link__battle=battle, reason__startswith="Rescued"
        ).exists()
    else:
        assert (a_champion.status, a_champion.captured_by) == (FighterStatus.CAPTURED, world["gangs"]["bob"])
    # The captors can dispose of a captive they still hold, never of one rescued.
    context, _ = battle_context(battle, world["gangs"]["bob"])
    assert (str(a_champion.pk) in context.captives) is not freed


def test_a_captive_rescued_after_a_disposal_was_rolled_cannot_be_disposed_of(client, world):
    """The captors' earlier sequence chose to dispose of the captive; the Rescue Mission confirmed since
    freed them: applying that sequence is refused, nothing written."""
    _, a_champion, a_ganger, _ = roster(world["gangs"]["alice"])
    b_leader, _, _, _ = roster(world["gangs"]["bob"])
    capture(world, a_champion)
    earlier = world["battle"]()
    services.battle_report_submit(battle=earlier, actor=world["users"]["alice"], winner=earlier.defender)
    earlier = confirm(world, earlier)
    captors = world["gangs"]["bob"]
    sequence = postbattle.sequence_start(battle=earlier, gang=captors, actor=captors.owner)
    for step in engine.steps_for("n18"):
        choices = {}
        if step.slug == "actions":
            choices = {
                f"action_{b_leader.pk}": "Dispose of Captives",
                f"target_{b_leader.pk}": f"captive:{a_champion.pk}",
            }
        sequence = postbattle.sequence_step_submit(
            sequence=sequence, dice=SeededDice(2), choices=choices, actor=captors.owner
        )
    battle = rescue(world)
    report(client, world, battle, {"result": "attacker", f"captive-{a_champion.pk}-freed": "on"} | row(a_ganger))
    confirm(world, battle)
    with pytest.raises(ValidationError, match="no longer held captive"):
        postbattle.sequence_apply(sequence=sequence, actor=captors.owner)
    a_champion.refresh_from_db()
    assert a_champion.status == FighterStatus.ACTIVE


def rescue_won(client, world):
    """alice's Champion, held by bob, freed by her Ganger in a Rescue Mission she wins (the hand report)."""
    a_leader, a_champion, a_ganger, _ = roster(world["gangs"]["alice"])
    capture(world, a_champion)
    battle = rescue(world)
    data = {"result": "attacker", f"captive-{a_champion.pk}-freed": "on"} | row(a_ganger)
    data[f"captive-{a_champion.pk}-freed_by"] = str(a_ganger.pk)
    assert report(client, world, battle, data).status_code == 302
    battle.refresh_from_db()
    assert battle.scenario_facts["freed_by"] == [{"captive": a_champion.pk, "fighter": a_ganger.pk}]
    return confirm(world, battle), (a_leader, a_champion, a_ganger)


def run_sequence(battle, gang):
    sequence = postbattle.sequence_start(battle=battle, gang=gang, actor=gang.owner)
    for _ in engine.steps_for("n18"):
        sequence = postbattle.sequence_step_submit(sequence=sequence, dice=SeededDice(3), actor=gang.owner)
    postbattle.sequence_apply(sequence=sequence, actor=gang.owner)


def test_a_rescue_mission_won_pays_the_rulebooks_rewards(client, world):
    """2023 Core Rulebook, Rescue Mission: Rewards: D3 XP to who freed the captive, 1 XP to the captive freed and
    taken flight, D3 XP to the rescuers' Leader (every captive freed), +2 Reputation to the rescuers and -1 to the
    captors per captive freed."""
    battle, (a_leader, a_champion, a_ganger) = rescue_won(client, world)
    from campaigns.selectors import facts_display

    said = f"Freed from {world['gangs']['bob'].name}: {a_champion.name} (freed by {a_ganger.name})"
    assert said in facts_display(battle)
    outcome = rewards_step(battle, world["gangs"]["alice"], [3, 2])  # the freer's D3, then the Leader's
    assert xp_effects(outcome) == {(str(a_ganger.pk), 3), (str(a_champion.pk), 1), (str(a_leader.pk), 2)}
    assert [e["amount"] for e in outcome.effects if e["op"] == "reputation"] == [2]
    captors = rewards_step(battle, world["gangs"]["bob"], [])
    assert xp_effects(captors) == set()
    assert [e["amount"] for e in captors.effects if e["op"] == "reputation"] == [-1]


def test_a_rescue_mission_won_writes_its_rewards_in_the_ledger_and_reconciles(client, world):
    from django.db.models import Q

    from tools.simulation import invariants

    battle, (_, a_champion, a_ganger) = rescue_won(client, world)
    for gang in (world["gangs"]["alice"], world["gangs"]["bob"]):
        run_sequence(battle, gang)
    rescued = LedgerEntry.objects.get(fighter=a_champion, battle_link__battle=battle, experience__gt=0)
    assert rescued.experience == 1 and rescued.reason.startswith("experience for captive freed (freed and took")
    freer = LedgerEntry.objects.get(fighter=a_ganger, battle_link__battle=battle, experience__gt=0)
    assert 1 <= freer.experience <= 3 and "Rescue Mission" in freer.reason and len(freer.dice) == 1
    rescue_reputation = Q(reputation__lt=0) | Q(reason__startswith="reputation for attacker")
    reputation = dict(
        LedgerEntry.objects.filter(rescue_reputation, battle_link__battle=battle).values_list(
            "gang__name", "reputation"
        )
    )
    assert reputation == {world["gangs"]["alice"].name: 2, world["gangs"]["bob"].name: -1}
    assert invariants.reconciled(battle) == ""
    # The freed fighter's experience left unpaid, then paid to another fighter: the reconciliation finds both.
    LedgerEntry.objects.filter(pk=rescued.pk).update(experience=0)
    assert "experience for captive freed" in invariants.reconciled(battle)
    LedgerEntry.objects.filter(pk=rescued.pk).update(experience=1, fighter=a_ganger)
    assert "owed to fighters" in invariants.reconciled(battle)


def test_a_rescue_mission_lost_pays_nothing_for_the_rescue(client, world):
    """No captive freed: the captors win; no Reputation moves and no Leader earns anything for it."""
    _, a_champion, a_ganger, _ = roster(world["gangs"]["alice"])
    capture(world, a_champion)
    battle = rescue(world)
    assert report(client, world, battle, {"result": "defender"} | row(a_ganger)).status_code == 302
    battle = confirm(world, battle)
    for gang in (world["gangs"]["alice"], world["gangs"]["bob"]):
        outcome = rewards_step(battle, gang, [])
        assert outcome.effects == []
        assert [line["text"] for line in outcome.lines] == ["Nothing is owed to this gang."]


def test_a_captive_freed_by_a_fighter_is_freed_by_one_of_the_rescuers(client, world):
    _, a_champion, a_ganger, _ = roster(world["gangs"]["alice"])
    capture(world, a_champion)
    battle = rescue(world)
    data = {"result": "defender", f"captive-{a_champion.pk}-freed_by": str(a_ganger.pk)} | row(a_ganger)
    page = unescape(report(client, world, battle, data).content.decode())
    assert f"{a_champion.name} was not freed: tick them, or say nobody." in page
    a_leader = roster(world["gangs"]["alice"])[0]
    data |= {"result": "attacker", f"captive-{a_champion.pk}-freed": "on"}
    data[f"captive-{a_champion.pk}-freed_by"] = str(a_leader.pk)
    page = unescape(report(client, world, battle, data).content.decode())
    assert f"{a_champion.name}: {a_leader.name} did not take part, so freed nobody." in page
    with pytest.raises(ValidationError, match="did not take part"):
        services.battle_report_submit(
            battle=battle,
            actor=world["users"]["alice"],
            winner=battle.attacker,
            fighter_results=[{"fighter": a_ganger.pk, "outcome": "ok"}],
            captives_freed=[a_champion.pk],
            freed_by={a_champion.pk: roster(world["gangs"]["alice"])[0].pk},
        )


def test_captors_who_flee_leave_every_captive_freed(world):
    """2023 Core Rulebook, Rescue Mission: Fleeing the Battlefield: the rescuers win and the captives are freed,
    so a report keeping the captive held is refused; freed, the captive's rewards are owed (by nobody's hand)."""
    _, a_champion, a_ganger, _ = roster(world["gangs"]["alice"])
    capture(world, a_champion)
    battle = rescue(world)
    fled = {"defender_bottled": True, "defender_fled": True, "fighter_results": [{"fighter": a_ganger.pk}]}
    with pytest.raises(ValidationError, match="fled the battlefield, so every captive is freed"):
        services.battle_report_submit(battle=battle, actor=world["users"]["alice"], winner=battle.attacker, **fled)
    services.battle_report_submit(
        battle=battle, actor=world["users"]["alice"], winner=battle.attacker, captives_freed=[a_champion.pk], **fled
    )
    battle = confirm(world, battle)
    outcome = rewards_step(battle, world["gangs"]["alice"], [1])  # the Leader's D3; nobody freed them by hand
    assert (str(a_champion.pk), 1) in xp_effects(outcome)
    assert not any("fighter who freed" in line["text"] for line in outcome.lines)


def test_the_traps_victory_points_must_follow_from_the_record(client, world):
    """Walked in issue 23: Victory Points typed were never checked against whom each gang took Out of Action."""
    battle = world["battle"]("the-trap")
    _, _, a_ganger, _ = roster(world["gangs"]["alice"])
    b_leader, b_champion, _, _ = roster(world["gangs"]["bob"])
    data = {"result": "attacker", "attacker_victory_points": "2", "defender_victory_points": "0"}
    data |= row(a_ganger) | row(b_champion) | row(b_leader, Outcome.OUT_OF_ACTION, a_ganger)
    page = unescape(report(client, world, battle, data).content.decode())
    assert "Alice's gang's Victory Points: the record gives 3, not 2 (The Trap: 3 for each enemy Leader" in page
    assert battle.fighter_results.count() == 0
    assert report(client, world, battle, data | {"attacker_victory_points": "3"}).status_code == 302


def test_the_report_asks_only_the_facts_its_scenario_reads(client, world):
    """Walked in issue 23: relic, cache and Victory Point fields were shown (and kept) for every scenario."""
    battle = world["battle"]("smash-and-grab")
    client.force_login(world["users"]["alice"])
    page = client.get(reverse("campaigns:battle-report", args=[world["campaign"].pk, battle.pk])).content.decode()
    assert 'name="caskets_opened"' in page
    for name in ("attacker_victory_points", "attacker_relic_defiled", "caches_destroyed"):
        assert f'name="{name}"' not in page
    _, _, a_ganger, _ = roster(world["gangs"]["alice"])
    data = {"result": "attacker", "caskets_opened": "3", "attacker_victory_points": "7", "defender_relic_defiled": "on"}
    assert report(client, world, battle, data | row(a_ganger)).status_code == 302
    battle.refresh_from_db()
    facts = battle.scenario_facts
    assert not facts.get("victory_points", {}).get("attacker") and not facts.get("relic_defiled", {}).get("defender")


@pytest.mark.parametrize(
    ("scenario", "extra", "result", "message"),
    [
        ("smash-and-grab", {"caskets_opened": "2"}, "attacker", "Bob's gang wins (2 loot caskets opened (3 win))"),
        (
            "the-trap",
            {"attacker_victory_points": "0", "defender_victory_points": "0"},
            "attacker",
            "the battle is a draw (Victory Points 0 to 0)",
        ),
        ("search-and-destroy", {"caches_recovered_by": "1"}, "attacker", "Bob's gang wins (loot points 0 to 2)"),
        ("border-dispute", {"bottled_and_fled": "defender"}, "draw", "Alice's gang wins (the defender fled"),
    ],
)
def test_the_result_must_agree_with_the_scenario_facts(client, world, scenario, extra, result, message):
    battle = world["battle"](scenario)
    _, _, a_ganger, _ = roster(world["gangs"]["alice"])
    _, b_champion, _, _ = roster(world["gangs"]["bob"])
    data = {"result": result} | row(a_ganger) | row(b_champion)
    if extra.pop("caches_recovered_by", None):
        data[f"fighter-{b_champion.pk}-caches_recovered"] = "1"
    if side := extra.pop("bottled_and_fled", None):
        data |= {f"{side}_bottled": "on", f"{side}_fled": "on"}
    response = report(client, world, battle, data | extra)
    assert response.status_code == 200 and message in unescape(response.content.decode())
