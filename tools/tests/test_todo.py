"""The home page's to-do list: what a player must do next, what an arbitrator's campaign waits for, and a
query count that stays flat as campaigns, battles and sequences grow."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from campaigns import services as campaigns
from campaigns.models import Battle, BattleOrigin, Outcome
from gangs.ledger import ledger_record
from gangs.models import LedgerKind
from gangs.selectors import classic_advances_due
from gangs.services import fighter_hire, gang_override
from gangs.testing import build_gang_additions
from postbattle import services as postbattle
from rulebook.dice import ScriptedDice
from tools.todo import home_todos

pytestmark = pytest.mark.django_db


def texts(rows):
    return [todo.text for todo in rows]


def arranged(campaign, attacker, defender):
    return Battle.objects.create(
        campaign=campaign,
        origin=BattleOrigin.ARRANGED,
        attacker=attacker,
        defender=defender,
        cycle=campaign.cycles.get(number=campaign.cycle),
    )


def test_a_battle_from_play_to_sequence_on_both_players_and_the_arbitrators_lists(two_player_campaign, client):
    campaign, users, gangs = two_player_campaign["campaign"], two_player_campaign["users"], two_player_campaign["gangs"]
    alice, bob = gangs["alice"], gangs["bob"]
    battle = arranged(campaign, alice, bob)
    name = f"{alice.name} v {bob.name}"
    assert texts(home_todos(users["alice"]).campaigns[0].mine) == [f"Play and report {name}."]
    arbitrator = home_todos(users["arbitrator"]).campaigns[0]
    assert (arbitrator.mine, texts(arbitrator.waiting)) == ([], [f"{name}: not reported yet."])
    battle = campaigns.battle_scenario_roll(battle=battle, dice=ScriptedDice([4, 5, 6, 1]))
    campaigns.battle_report_submit(
        battle=battle,
        actor=users["alice"],
        winner=alice,
        defender_bottled=True,
        fighter_results=[{"fighter": bob.fighters.first().pk, "outcome": Outcome.OK}],
    )
    assert home_todos(users["alice"]).campaigns[0].mine == []  # she reported: bob confirms
    assert texts(home_todos(users["bob"]).campaigns[0].mine) == [f"Confirm the report of {name}."]
    battle = campaigns.battle_report_confirm(battle=battle, actor=users["bob"], is_arbitrator=False)
    assert texts(home_todos(users["bob"]).campaigns[0].mine) == [f"Run {bob.name}'s post-battle sequence after {name}."]
    postbattle.sequence_start(battle=battle, gang=bob, actor=users["bob"])
    assert texts(home_todos(users["bob"]).campaigns[0].mine) == [
        f"Finish {bob.name}'s post-battle sequence after {name}."
    ]
    assert texts(home_todos(users["arbitrator"]).campaigns[0].waiting) == [
        f"{alice.name} (alice) has not applied its post-battle sequence after {name}.",
        f"{bob.name} (bob) has not applied its post-battle sequence after {name}.",
    ]
    client.force_login(users["bob"])
    page = client.get(reverse("home")).content.decode()
    assert "What needs doing" in page and reverse("postbattle:sequence-detail", args=[battle.pk, bob.pk]) in page


def test_whose_turn_it_is_to_challenge(make_campaign, make_fighter):
    campaign = make_campaign(gangs=2, started=True)
    campaigns.cycle_advance(campaign=campaign)
    low, high = [m.gang for m in campaign.memberships.select_related("gang").order_by("pk")]
    make_fighter(high, "leader")
    assert texts(home_todos(low.owner).campaigns[0].mine) == [f"{low.name}: your turn to issue a challenge (or pass)."]
    assert home_todos(high.owner).campaigns[0].mine == []
    assert texts(home_todos(campaign.created_by).campaigns[0].waiting) == [
        f"{low.name} ({low.owner}) is to challenge next."
    ]
    campaigns.challenge_pass(campaign=campaign, gang=low)
    assert home_todos(low.owner).campaigns[0].mine == []
    assert texts(home_todos(high.owner).campaigns[0].mine) == [
        f"{high.name}: your turn to issue a challenge (or pass)."
    ]


def test_advance_rolls_due_and_hangers_on_to_let_go(make_gang, make_fighter):
    classic = make_gang(edition="classic", name="Old Guard")
    veteran = make_fighter(classic, "ganger", name="Vet")
    ledger_record(gang=classic, kind=LedgerKind.EXPERIENCE, fighter=veteran, experience=30, description="Test")
    n18 = make_gang(owner=classic.owner, edition="n18", name="New Blood")
    additions = build_gang_additions()
    ledger_record(gang=n18, kind=LedgerKind.REPUTATION, reputation=5, description="Test Reputation")
    for slug, name in (("rogue-doc", "Doc"), ("dome-runner", "Runner")):
        fighter_hire(gang=n18, fighter_type=additions[slug], name=name, actor=n18.owner)
    gang_override(gang=n18, actor=n18.owner, reason="Lost badly", reputation=-1)
    todos = home_todos(classic.owner)
    assert todos.campaigns == []
    veteran.refresh_from_db()
    rolls = classic_advances_due(veteran, 0)
    assert rolls >= 1
    assert sorted(texts(todos.other_gangs)) == [
        "New Blood: Reputation 4 keeps 1 Hangers-on and Brutes; let 1 go.",
        f"Old Guard: Vet has {rolls} advance roll{'s' if rolls > 1 else ''} due.",
    ]


def _grow(make_campaign, make_fighter, make_user, user, size: int):
    """``size`` campaigns the user plays in (one gang each) and arbitrates, each with ``size`` open battles
    and ``size`` confirmed ones with a sequence begun."""
    for _ in range(size):
        campaign = make_campaign(gangs=2, started=True, arbitrator=user)
        mine, other = [m.gang for m in campaign.memberships.select_related("gang").order_by("pk")]
        mine.owner = user
        mine.save()
        make_fighter(mine, "leader"), make_fighter(other, "leader")
        for _ in range(size):
            arranged(campaign, mine, other)
            done = arranged(campaign, mine, other)
            Battle.objects.filter(pk=done.pk).update(status="confirmed", scenario="the-trap", scenario_name="The Trap")
            postbattle.sequence_start(battle=Battle.objects.get(pk=done.pk), gang=other, actor=other.owner)


def test_the_home_page_costs_the_same_queries_however_much_waits(make_campaign, make_fighter, make_user, client):
    small, large = make_user("small"), make_user("large")
    _grow(make_campaign, make_fighter, make_user, small, 1)
    _grow(make_campaign, make_fighter, make_user, large, 3)
    counts = {}
    for user, campaigns_shown in ((small, 1), (large, 3)):
        client.force_login(user)
        with CaptureQueriesContext(connection) as queries:
            response = client.get(reverse("home"))
        assert response.content.decode().count('data-testid="todo-campaign"') == campaigns_shown
        counts[user.username] = len(queries.captured_queries)
    assert counts["small"] == counts["large"] <= 14, counts
