"""Campaign services: membership, cycles, pairing and challenge order, scenario roll, crews, reports."""

import pytest
from django.core.exceptions import ValidationError

from campaigns import services
from campaigns.models import Battle, BattleOrigin, BattleStatus, CampaignStatus, CampaignTerritory, Outcome, Side
from campaigns.selectors import challenge_queue, gang_territories, rating_of, roles_pending, standings
from gangs.ledger import ledger_totals
from gangs.models import FighterStatus, LedgerEntry, LedgerKind
from rulebook.dice import ScriptedDice

pytestmark = pytest.mark.django_db


def members(campaign):
    return [m.gang for m in campaign.memberships.select_related("gang").order_by("gang__name", "gang_id")]


def test_create_makes_the_creator_an_arbitrator(make_user):
    user = make_user()
    campaign = services.campaign_create(user=user, edition="n18", name="Dust Falls")
    assert list(campaign.arbitrators.values_list("user", flat=True)) == [user.pk]
    assert campaign.status == CampaignStatus.NOT_STARTED and campaign.invite_token


def test_join_gives_a_home_settlement_with_its_reputation(make_campaign, make_gang):
    campaign = make_campaign()
    gang = make_gang(edition="n18")
    services.campaign_join(campaign=campaign, gang=gang, user=gang.owner)
    [home] = gang_territories(gang)
    assert home.is_home_settlement and home.territory.income == "D6x10"
    gang.refresh_from_db()
    assert gang.reputation == 1
    assert ledger_totals(gang)["reputation"] == gang.reputation
    assert campaign.snapshots.filter(gang=gang, reason="joined").exists()


@pytest.mark.parametrize("problem", ["not_owner", "edition", "twice", "other_campaign"])
def test_join_refusals(problem, make_campaign, make_gang, make_user):
    campaign = make_campaign()
    gang = make_gang(edition="classic" if problem == "edition" else "n18")
    user = make_user() if problem == "not_owner" else gang.owner
    if problem == "twice":
        services.campaign_join(campaign=campaign, gang=gang, user=user)
    if problem == "other_campaign":
        services.campaign_join(campaign=make_campaign(), gang=gang, user=user)
    with pytest.raises(ValidationError):
        services.campaign_join(campaign=campaign, gang=gang, user=user)


def test_remove_returns_territories_to_the_pool(make_campaign, make_territory):
    campaign = make_campaign(gangs=2)
    gang = members(campaign)[0]
    held = services.territory_add(campaign=campaign, territory=make_territory())
    services.territory_assign(held=held, holder=gang, actor=campaign.created_by)
    services.gang_remove(membership=campaign.memberships.get(gang=gang), actor=campaign.created_by)
    held.refresh_from_db()
    gang.refresh_from_db()
    assert held.holder is None
    assert gang.reputation == 0
    assert not CampaignTerritory.objects.filter(campaign=campaign, holder=gang).exists()
    assert set(gang.ledger.filter(kind=LedgerKind.TERRITORY).values_list("description", flat=True)) >= {
        f"Lost {held.territory.name}",
        f"Left {campaign.name}: Home Settlement given up",
    }


def test_start_opens_cycle_one_and_advance_the_next(make_campaign):
    campaign = make_campaign(gangs=2, started=True)
    assert campaign.status == CampaignStatus.IN_PROGRESS and campaign.cycle == 1
    cycle = services.cycle_advance(campaign=campaign)
    assert cycle.number == 2
    campaign.refresh_from_db()
    assert campaign.cycle == 2


def test_classic_campaigns_have_no_cycles(make_campaign):
    campaign = make_campaign(edition="classic", gangs=2, started=True)
    assert campaign.cycle == 0 and not campaign.cycles.exists()
    with pytest.raises(ValidationError):
        services.cycle_advance(campaign=campaign)
    a, b = members(campaign)
    battle = services.battle_arrange(campaign=campaign, attacker=a, defender=b)
    assert battle.cycle is None and battle.origin == BattleOrigin.ARRANGED


def test_start_needs_two_gangs(make_campaign):
    with pytest.raises(ValidationError):
        services.campaign_start(campaign=make_campaign(gangs=1))


# --- Cycle 1 pairing -------------------------------------------------------------------------------


def test_cycle_one_pairs_the_willing_gangs_and_records_the_odd_one_out(make_campaign):
    campaign = make_campaign(gangs=6, started=True)
    gangs = members(campaign)
    services.wants_to_play_set(membership=campaign.memberships.get(gang=gangs[5]), wants_to_play=False)
    # five willing gangs: a D6 of 1 leaves the first (by name) out; then the next opponent is the first left
    cycle = services.cycle_pair(campaign=campaign, dice=ScriptedDice([1, 1]))
    assert cycle.odd_gang_out == gangs[0]
    pairs = {(b.attacker_id, b.defender_id) for b in cycle.battles.all()}
    assert pairs == {(gangs[1].pk, gangs[2].pk), (gangs[3].pk, gangs[4].pk)}
    assert [d["value"] for d in cycle.pairing_dice] == [1, 1]


def test_re_rolling_keeps_reported_battles(make_campaign):
    campaign = make_campaign(gangs=4, started=True)
    a, b, c, d = members(campaign)
    cycle = services.cycle_pair(campaign=campaign, dice=ScriptedDice([1]))  # a-b, c-d
    played = cycle.battles.get(attacker=a)
    played.status = BattleStatus.REPORTED
    played.save()
    with pytest.raises(ValidationError, match="Give the reason to pair again"):
        services.cycle_pair(campaign=campaign, dice=ScriptedDice([]))
    cycle = services.cycle_pair(campaign=campaign, dice=ScriptedDice([]), reason="Carol cannot play this week")
    assert set(cycle.battles.values_list("attacker", "defender")) == {(a.pk, b.pk), (c.pk, d.pk)}
    assert cycle.battles.count() == 2
    # The set-aside pairing stays in the log with its dice and the reason.
    aside = LedgerEntry.objects.filter(gang=c, data__pairing="set aside").get()
    assert aside.reason == "Set aside: Carol cannot play this week" and [d["value"] for d in aside.dice] == [1]


def test_the_pairing_dice_and_how_they_paired_are_in_the_campaign_log(make_campaign):
    from campaigns.selectors import campaign_log

    campaign = make_campaign(gangs=5, started=True)
    a, b, c, d, e = members(campaign)
    services.cycle_pair(campaign=campaign, dice=ScriptedDice([5, 3]))  # 5 of 1-5: e sits out; then a v c (3: 3-4 of 3)
    log = {(entry.gang_id, entry.description): entry for entry in campaign_log(campaign)}
    paired = log[(a.pk, f"Cycle 1 pairing: {a.name} v {c.name}")]
    assert (
        paired.reason
        == f"{c.name} drawn as the opponent of {a.name} (D6 3 for Cycle 1 pairing: opponent of {a.name}, among 3)"
    )
    assert (c.pk, f"Cycle 1 pairing: {a.name} v {c.name}") in log
    assert log[(b.pk, f"Cycle 1 pairing: {b.name} v {d.name}")].reason.endswith("(the last two gangs: no die)")
    assert [x["value"] for x in log[(e.pk, "Cycle 1 pairing: sits out (an odd number of gangs)")].dice] == [5]


def test_pairing_only_in_cycle_one(make_campaign):
    campaign = make_campaign(gangs=2, started=True)
    services.cycle_advance(campaign=campaign)
    with pytest.raises(ValidationError):
        services.cycle_pair(campaign=campaign, dice=ScriptedDice([1]))


# --- challenges --------------------------------------------------------------------------------------


@pytest.fixture
def cycle_two(make_campaign, make_fighter, make_territory):
    """Four gangs in Cycle 2 with ratings 50 < 100 < 150 < 200 (one to four gangers) and a territory each."""
    campaign = make_campaign(gangs=4, started=True)
    services.cycle_advance(campaign=campaign)
    gangs = members(campaign)
    for count, gang in enumerate(reversed(gangs), start=1):
        for _ in range(count):
            make_fighter(gang, "ganger")
        held = services.territory_add(campaign=campaign, territory=make_territory())
        services.territory_assign(held=held, holder=gang, actor=campaign.created_by)
    return campaign, sorted(gangs, key=rating_of)


def test_lowest_rated_gang_challenges_first(cycle_two):
    campaign, (low, second, third, high) = cycle_two
    stake = CampaignTerritory.objects.get(campaign=campaign, holder=high, is_home_settlement=False)
    with pytest.raises(ValidationError, match="not .*turn"):
        services.challenge_issue(campaign=campaign, challenger=second, target=high, stakes=stake)
    battle = services.challenge_issue(campaign=campaign, challenger=low, target=high, stakes=stake)
    assert (battle.attacker, battle.defender, battle.origin) == (low, high, BattleOrigin.CHALLENGE)
    # the challenged gang is engaged: next is the second lowest, who cannot challenge the engaged gang
    other = CampaignTerritory.objects.get(campaign=campaign, holder=third, is_home_settlement=False)
    # (a territory challenge: a Rescue Mission stands outside the challenge order, see the test after this one)
    mine = CampaignTerritory.objects.get(campaign=campaign, holder=low, is_home_settlement=False)
    with pytest.raises(ValidationError, match="already has a battle"):
        services.challenge_issue(campaign=campaign, challenger=second, target=low, stakes=mine)
    services.challenge_issue(campaign=campaign, challenger=second, target=third, stakes=other)


def test_a_rescue_mission_is_issued_whatever_the_order_passes_or_battles(cycle_two):
    """Issue 21: a lower-rated captor that passed, or already fights this cycle, cannot escape the rescuers; the
    rescuers need not wait for their turn; the arbitrator can arrange one too; it takes nobody's challenge."""
    campaign, (low, second, third, high) = cycle_two
    captive = high.fighters.first()
    captive.status, captive.captured_by = FighterStatus.CAPTURED, low
    captive.save()
    services.challenge_pass(campaign=campaign, gang=low)  # the captor passes
    stake = CampaignTerritory.objects.get(campaign=campaign, holder=third, is_home_settlement=False)
    services.challenge_issue(campaign=campaign, challenger=second, target=third, stakes=stake)
    battle = services.challenge_issue(campaign=campaign, challenger=high, target=low, rescue=True)
    assert (battle.attacker, battle.defender, battle.is_rescue) == (high, low, True)
    with pytest.raises(ValidationError, match="Rescue Mission against .* to play already"):
        services.challenge_issue(campaign=campaign, challenger=high, target=low, rescue=True)
    services.battle_cancel(battle=battle, reason="played another night")
    arranged = services.battle_arrange(campaign=campaign, attacker=high, defender=low, rescue=True)
    assert arranged.is_rescue and arranged.origin == BattleOrigin.ARRANGED
    # high still challenges in its turn: the Rescue Mission took nobody's challenge.
    queue = [row.gang for row in challenge_queue(campaign, standings(campaign), campaign.cycles.last())]
    assert queue == [high]


def test_passing_hands_the_turn_on(cycle_two):
    campaign, (low, second, third, high) = cycle_two
    services.challenge_pass(campaign=campaign, gang=low)
    stake = CampaignTerritory.objects.get(campaign=campaign, holder=third, is_home_settlement=False)
    battle = services.challenge_issue(campaign=campaign, challenger=second, target=third, stakes=stake)
    assert battle.attacker == second


@pytest.mark.parametrize("stake_kind", ["home", "other_gang"])
def test_challenge_stakes_refusals(cycle_two, stake_kind):
    campaign, (low, second, third, high) = cycle_two
    holder = high if stake_kind == "home" else third
    stake = CampaignTerritory.objects.get(campaign=campaign, holder=holder, is_home_settlement=stake_kind == "home")
    with pytest.raises(ValidationError):
        services.challenge_issue(campaign=campaign, challenger=low, target=high, stakes=stake)


def test_rescue_mission_needs_a_captive(cycle_two):
    campaign, (low, second, third, high) = cycle_two
    with pytest.raises(ValidationError, match="captive"):
        services.challenge_issue(campaign=campaign, challenger=low, target=high, rescue=True)
    captive = low.fighters.first()
    captive.status, captive.captured_by = FighterStatus.CAPTURED, high
    captive.save()
    battle = services.challenge_issue(campaign=campaign, challenger=low, target=high, rescue=True)
    battle = services.battle_scenario_roll(battle=battle, dice=ScriptedDice([]))
    assert battle.scenario == "rescue-mission" and battle.scenario_roll["roll"] is None


def test_challenges_start_in_cycle_two(make_campaign):
    campaign = make_campaign(gangs=2, started=True)
    a, b = members(campaign)
    with pytest.raises(ValidationError, match="Cycle 2"):
        services.challenge_issue(campaign=campaign, challenger=a, target=b, rescue=True)


# --- scenario roll and crews --------------------------------------------------------------------------


@pytest.fixture
def challenge(cycle_two):
    campaign, (low, second, third, high) = cycle_two
    stake = CampaignTerritory.objects.get(campaign=campaign, holder=high, is_home_settlement=False)
    return services.challenge_issue(campaign=campaign, challenger=low, target=high, stakes=stake)


@pytest.mark.parametrize(
    ("dice", "slug"),
    [
        ([1, 1], "smash-and-grab"),
        ([2, 2], "smash-and-grab"),
        ([3, 2], "border-dispute"),
        ([4, 4], "border-dispute"),
        ([4, 5], "the-trap"),
        ([5, 5], "the-trap"),
        ([5, 6], "search-and-destroy"),
        ([6, 6], "search-and-destroy"),
    ],
)
def test_scenario_roll_reads_the_2d6_table_with_11_12(challenge, dice, slug):
    battle = services.battle_scenario_roll(battle=challenge, dice=ScriptedDice(dice), entered=True)
    assert battle.scenario == slug
    assert battle.scenario_roll["roll"] == sum(dice)
    assert [d["value"] for d in battle.scenario_roll["dice"]] == dice
    assert battle.scenario_roll["entered"] is True
    assert battle.has_roles == (slug != "border-dispute")
    assert battle.rewards  # the scenario's rewards, for the post-battle sequence


def test_scenario_distribution_over_every_pair_of_dice(challenge):
    counts = {}
    for first in range(1, 7):
        for second in range(1, 7):
            battle = services.battle_scenario_roll(battle=challenge, dice=ScriptedDice([first, second]), reason="again")
            counts[battle.scenario] = counts.get(battle.scenario, 0) + 1
    assert counts == {"smash-and-grab": 6, "border-dispute": 20, "the-trap": 7, "search-and-destroy": 3}


def test_pairing_battle_rolls_off_for_attacker(make_campaign):
    campaign = make_campaign(gangs=2, started=True)
    cycle = services.cycle_pair(campaign=campaign, dice=ScriptedDice([]))
    battle = cycle.battles.get()
    first, second = battle.attacker, battle.defender
    # 2D6 = 2 (Smash & Grab, attacker and defender), then the roll-off 2 v 5: the second gang chooses
    battle = services.battle_scenario_roll(battle=battle, dice=ScriptedDice([1, 1, 2, 5]))
    assert roles_pending(battle) and battle.scenario_roll["roll_off"]["winner"] == second.pk
    with pytest.raises(ValidationError, match="won the roll-off and chooses"):
        services.battle_roles_choose(battle=battle, chooser=first, attack=True)
    battle = services.battle_roles_choose(battle=battle, chooser=second, attack=True)
    assert (battle.attacker, battle.defender) == (second, first) and not roles_pending(battle)
    assert [d["value"] for d in battle.scenario_roll["roll_off"]["dice"]] == [2, 5]


def test_random_crew_skips_fighters_in_recovery_or_captured(challenge, make_fighter):
    defender = challenge.defender
    fighters = list(defender.fighters.all())  # four gangers
    fighters[0].status = FighterStatus.RECOVERY
    fighters[0].save()
    fighters[1].status = FighterStatus.CAPTURED
    fighters[1].save()
    # 11-12 Search & Destroy: the defender's crew is Random (D3+3)
    battle = services.battle_scenario_roll(battle=challenge, dice=ScriptedDice([6, 6]))
    battle = services.battle_crew_select(battle=battle, side=Side.DEFENDER, chosen=[], dice=ScriptedDice([1, 1]))
    crew = battle.crews[Side.DEFENDER]
    assert crew["random_count"] == 4  # D3 of 1, +3
    assert crew["fighters"] == [str(fighters[2].pk), str(fighters[3].pk)]  # the only two available
    assert set(crew["unavailable"]) == {str(fighters[0].pk), str(fighters[1].pk)}


def test_hybrid_crew_chosen_then_random(challenge):
    attacker_fighters = list(challenge.attacker.fighters.all())
    defender_fighters = list(challenge.defender.fighters.all())
    battle = services.battle_scenario_roll(battle=challenge, dice=ScriptedDice([1, 1]))  # Smash & Grab
    # defender: Hybrid (3+D6): three chosen, D6 at random; a D6 of 1 picks one more among the one left
    chosen = [f.pk for f in defender_fighters[:3]]
    battle = services.battle_crew_select(battle=battle, side=Side.DEFENDER, chosen=chosen, dice=ScriptedDice([1]))
    assert battle.crews[Side.DEFENDER]["fighters"] == [str(f.pk) for f in defender_fighters]
    # attacker: Custom (8): the player's choice, no dice
    battle = services.battle_crew_select(
        battle=battle, side=Side.ATTACKER, chosen=[attacker_fighters[0].pk], dice=ScriptedDice([])
    )
    assert battle.crews[Side.ATTACKER]["fighters"] == [str(attacker_fighters[0].pk)]
    with pytest.raises(ValidationError, match="already"):
        services.battle_crew_select(battle=battle, side=Side.ATTACKER, chosen=[], dice=ScriptedDice([]))


def test_border_dispute_rolls_the_crew_size_before_choosing(challenge):
    battle = services.battle_scenario_roll(battle=challenge, dice=ScriptedDice([3, 4]))
    with pytest.raises(ValidationError, match="crew size"):
        services.battle_crew_select(battle=battle, side=Side.ATTACKER, chosen=[], dice=ScriptedDice([]))
    battle = services.battle_crew_size_roll(battle=battle, side=Side.ATTACKER, dice=ScriptedDice([2]))
    assert battle.crews[Side.ATTACKER]["size"] == [2, 3]
    fighter = challenge.attacker.fighters.first()
    battle = services.battle_crew_select(battle=battle, side=Side.ATTACKER, chosen=[fighter.pk], dice=ScriptedDice([]))
    assert battle.crews[Side.ATTACKER]["fighters"] == [str(fighter.pk)]


# --- report and confirmation -----------------------------------------------------------------------------


def report(battle, actor, **overrides):
    enemy = battle.defender.fighters.first()
    mine = battle.attacker.fighters.first()
    fields = {
        "winner": battle.attacker,
        "defender_bottled": True,
        "fighter_results": [
            {"fighter": enemy.pk, "outcome": Outcome.OUT_OF_ACTION, "caused_by": mine.pk, "captured": True},
            {"fighter": mine.pk, "outcome": Outcome.SERIOUSLY_INJURED, "caused_by": enemy.pk},
        ],
        "scenario_facts": {"caskets_opened": 3},
    }
    return services.battle_report_submit(battle=battle, actor=actor, **{**fields, **overrides})


def test_report_then_confirm_moves_the_stakes(challenge):
    battle = services.battle_scenario_roll(battle=challenge, dice=ScriptedDice([1, 1]))
    battle = report(battle, battle.attacker.owner)
    assert battle.status == BattleStatus.REPORTED
    assert battle.fighter_results.count() == 2
    with pytest.raises(ValidationError, match="opponent"):
        services.battle_report_confirm(battle=battle, actor=battle.attacker.owner, is_arbitrator=False)
    battle = services.battle_report_confirm(battle=battle, actor=battle.defender.owner, is_arbitrator=False)
    assert battle.status == BattleStatus.CONFIRMED and battle.confirmed_by == battle.defender.owner
    challenge.stakes.refresh_from_db()
    assert challenge.stakes.holder == battle.attacker
    took = LedgerEntry.objects.get(
        battle_link__battle=battle, gang=battle.attacker, kind=LedgerKind.TERRITORY
    )  # linked
    assert took.description.startswith("Took ")
    with pytest.raises(ValidationError, match="confirmed"):
        services.battle_report_confirm(battle=battle, actor=battle.defender.owner, is_arbitrator=True)
    with pytest.raises(ValidationError, match="confirmed"):
        report(battle, battle.attacker.owner)
    row = next(r for r in standings(battle.campaign) if r.gang == battle.attacker)
    assert (row.wins, row.losses, len(row.territories)) == (1, 0, 3)


def test_the_reporting_arbitrator_may_confirm(challenge):
    battle = services.battle_scenario_roll(battle=challenge, dice=ScriptedDice([1, 1]))
    arbitrator = battle.campaign.created_by
    # Smash & Grab: two caskets opened, the defender's battle (the record refuses a result its facts contradict).
    battle = report(battle, arbitrator, winner=battle.defender, scenario_facts={"caskets_opened": 2})
    battle = services.battle_report_confirm(battle=battle, actor=arbitrator, is_arbitrator=True)
    challenge.stakes.refresh_from_db()
    assert challenge.stakes.holder == battle.defender  # the defender kept it


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"winner": None}, "winner"),
        ({"is_draw": True}, "winner"),
        ({"attacker_fled": True}, "bottling"),
        ({"attacker_bottled": True, "attacker_fled": True}, "fled loses"),
        ({"fighter_results": [{"fighter": 0}]}, "not in either gang"),
    ],
)
def test_report_refusals(challenge, overrides, message):
    battle = services.battle_scenario_roll(battle=challenge, dice=ScriptedDice([1, 1]))
    with pytest.raises(ValidationError, match=message):
        report(battle, battle.attacker.owner, **overrides)


def test_report_needs_a_scenario(challenge):
    with pytest.raises(ValidationError, match="scenario"):
        report(challenge, challenge.attacker.owner)


def test_taken_down_by_a_friend_is_refused(challenge):
    battle = services.battle_scenario_roll(battle=challenge, dice=ScriptedDice([1, 1]))
    a, b = list(battle.defender.fighters.all())[:2]
    results = [{"fighter": a.pk, "outcome": Outcome.OUT_OF_ACTION, "caused_by": b.pk}]
    with pytest.raises(ValidationError, match="enemy"):
        report(battle, battle.attacker.owner, fighter_results=results)


def test_cancel_only_scheduled(challenge):
    battle = services.battle_scenario_roll(battle=challenge, dice=ScriptedDice([1, 1]))
    report(battle, battle.attacker.owner)
    with pytest.raises(ValidationError):
        services.battle_cancel(battle=battle)
    assert Battle.objects.filter(pk=battle.pk).exists()


# --- classic: free pairing and the 1995 Scenario table -------------------------------------------------


@pytest.fixture
def classic_battle(make_campaign, make_fighter):
    campaign = make_campaign(edition="classic", gangs=2, started=True)
    weaker, stronger = members(campaign)
    make_fighter(stronger, "ganger")
    return services.battle_arrange(campaign=campaign, attacker=weaker, defender=stronger)


def test_webbed_is_a_2018_rule_refused_in_a_classic_report(classic_battle, make_fighter):
    weaker = classic_battle.attacker
    ganger = make_fighter(weaker, "ganger")
    battle = services.battle_scenario_roll(battle=classic_battle, dice=ScriptedDice([2, 3]))
    with pytest.raises(ValidationError, match=f"{ganger.name}: the Webbed condition is a 2018\\+ rule"):
        services.battle_report_submit(
            battle=battle,
            actor=weaker.owner,
            winner=weaker,
            fighter_results=[{"fighter": ganger.pk, "outcome": "out_of_action", "webbed": True}],
        )
    assert not battle.fighter_results.exists()


def test_classic_gang_fight_straight_from_the_table(classic_battle):
    battle = services.battle_scenario_roll(battle=classic_battle, dice=ScriptedDice([2, 3]))
    assert (battle.scenario, battle.scenario_name, battle.has_roles) == ("gang-fight", "Gang Fight", False)
    assert battle.rewards == []


def test_classic_table_lets_the_higher_rated_gang_choose_and_attack(classic_battle):
    weaker, stronger = classic_battle.attacker, classic_battle.defender
    battle = services.battle_scenario_roll(battle=classic_battle, dice=ScriptedDice([1, 1]))
    assert battle.scenario == "" and battle.scenario_roll["chooser"] == "higher rating"
    assert "cave-ins" in battle.scenario_roll["special"]
    with pytest.raises(ValidationError, match="higher rating"):
        services.battle_scenario_choose(battle=battle, scenario="hit-and-run", chooser=weaker)
    battle = services.battle_scenario_choose(battle=battle, scenario="hit-and-run", chooser=stronger)
    assert (battle.attacker, battle.defender, battle.has_roles) == (stronger, weaker, True)
    with pytest.raises(ValidationError):
        services.battle_scenario_choose(battle=battle, scenario="ambush", chooser=stronger)


def test_classic_battles_have_no_crew_selection(classic_battle):
    battle = services.battle_scenario_roll(battle=classic_battle, dice=ScriptedDice([2, 3]))
    with pytest.raises(ValidationError, match="whole gang"):
        services.battle_crew_select(battle=battle, side=Side.ATTACKER, chosen=[], dice=ScriptedDice([]))


def test_classic_gang_rolls_five_starting_territories(make_campaign, make_gang, make_territory):
    for name in ("Chem Pit", "Old Ruins", "Slag"):
        make_territory(edition="classic", name=name, income="10")
    campaign = make_campaign(edition="classic")
    gang = make_gang(edition="classic")
    # D66 rolls 11, 12, 21, 11 and 66 (not in this content library, so not held)
    dice = ScriptedDice([1, 1, 1, 2, 2, 1, 1, 1, 6, 6])
    services.campaign_join(campaign=campaign, gang=gang, user=gang.owner, dice=dice)
    assert dice.remaining == 0  # five D66 rolls, every die the table's
    held = [t.territory.slug for t in CampaignTerritory.objects.filter(campaign=campaign, holder=gang).order_by("pk")]
    assert held == ["chem-pit", "old-ruins", "slag", "chem-pit"]
    entries = gang.ledger.filter(kind=LedgerKind.TERRITORY).order_by("pk")
    assert [e.dice[0]["value"] for e in entries] == [1, 1, 2, 1]
    assert not CampaignTerritory.objects.filter(campaign=campaign, is_home_settlement=True).exists()


def test_confirming_a_battle_between_the_longest_gang_names_keeps_every_word(make_campaign, make_fighter):
    """Each description composed of names (the snapshot's "<scenario>: <gang> v <gang>", the ledger's) holds the
    longest names the forms allow; on PostgreSQL a character limit here was a server error."""
    campaign = make_campaign(gangs=2, started=True, name="C" * 100)
    first, second = members(campaign)
    for gang, letter in ((first, "A"), (second, "B")):
        gang.name = letter * 80
        gang.save(update_fields=["name"])
        make_fighter(gang, "leader", name=letter.lower() * 80)
    battle = services.battle_arrange(campaign=campaign, attacker=first, defender=second)
    battle = services.battle_scenario_roll(battle=battle, dice=ScriptedDice([1, 1, 6, 1]))
    battle = services.battle_report_submit(battle=battle, actor=first.owner, winner=first)
    services.battle_report_confirm(battle=battle, actor=second.owner, is_arbitrator=False)
    reason = campaign.snapshots.filter(gang=first).latest("pk").reason
    assert reason == f"{battle.scenario_name}: {'A' * 80} v {'B' * 80}"
