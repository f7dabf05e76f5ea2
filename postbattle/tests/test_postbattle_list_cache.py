"""The post-battle list comes from the cache (postbattle.selectors.battle_list_key): a warm list costs the same few
queries however many battles it pages through, and every write that changes what it shows appears on the next
render, for the player and the arbitrator, on the local-memory cache and on a real Redis."""

import html
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from campaigns import services as campaigns
from campaigns.models import Campaign
from gangs.services import gang_rename
from postbattle import engine, selectors, services
from postbattle.tests.test_postbattle_list_pages import _grow
from postbattle.tests.test_postbattle_views import OOA, SI, applied
from postbattle.views import BATTLE_LIST_PAGE_SIZE
from rulebook.dice import ScriptedDice

pytestmark = pytest.mark.django_db

# The session, the user and the list's key (the versions of the viewer's campaigns): its page and rows are cached.
WARM = 3
URL = reverse("postbattle:battle-list")


def _battle(make_confirmed_battle):
    """The battle the sequence tests walk (postbattle.tests.test_postbattle_views): two of the attacker's down."""
    return make_confirmed_battle(edition="n18", results=[("attacker", 0, OOA, 2, {}), ("attacker", 1, SI, 3, {})])


def _text(client) -> str:
    page = client.get(URL).content.decode()
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page)).split())


def _viewer(battle, who: str):
    return battle.attacker.owner if who == "player" else battle.campaign.created_by


def _another_battle(battle):
    campaign = Campaign.objects.get(pk=battle.campaign_id)
    new = campaigns.battle_arrange(campaign=campaign, attacker=battle.defender, defender=battle.attacker)
    new = campaigns.battle_scenario_roll(battle=new, dice=ScriptedDice([1, 1, 6, 1]))
    campaigns.battle_report_submit(battle=new, actor=campaign.created_by, winner=new.attacker)
    campaigns.battle_report_confirm(battle=new, actor=campaign.created_by, is_arbitrator=True)
    return new


def _step(battle):
    sequence = services.sequence_start(battle=battle, gang=battle.attacker, actor=None)
    services.sequence_step_submit(sequence=sequence, dice=ScriptedDice([4]), entered=True)


def _steps(battle) -> int:
    return len(engine.steps_for(battle.campaign.edition))


def _revert(battle):
    services.sequence_revert(
        sequence=selectors.live_sequence(battle, battle.attacker),
        actor=battle.campaign.created_by,
        reason="a die was misread",
    )


# (what changes, what is there before the first render, the change, what the next render says)
CHANGES = [
    (
        "sequence started",
        None,
        lambda b: services.sequence_start(battle=b, gang=b.attacker, actor=None),
        lambda b: f"{b.attacker.name}: In progress (0 of {_steps(b)} steps done)",
    ),
    ("step applied", None, _step, lambda b: f"{b.attacker.name}: In progress (1 of {_steps(b)} steps done)"),
    ("sequence applied", None, applied, lambda b: f"{b.attacker.name}: Applied"),
    ("sequence reverted", applied, _revert, lambda b: f"{b.attacker.name}: not started"),
    (
        "gang renamed",
        None,
        lambda b: gang_rename(gang=b.attacker, name="The Renamed", actor=b.attacker.owner),
        lambda b: "The Renamed: not started",
    ),
    (
        "campaign renamed",
        None,
        lambda b: campaigns.campaign_update(campaign=b.campaign, name="Ash Falls", description="", house_rules=""),
        lambda b: "Ash Falls",
    ),
    ("battle confirmed", None, _another_battle, lambda b: f"{b.defender.name} v {b.attacker.name}"),
]


@pytest.mark.parametrize("who", ["player", "arbitrator"])
@pytest.mark.parametrize(("what", "prepare", "change", "expected"), CHANGES, ids=[c[0] for c in CHANGES])
def test_each_change_shows_on_the_next_render(
    client, cache_backend, make_confirmed_battle, who, what, prepare, change, expected
):
    battle = _battle(make_confirmed_battle)
    if prepare:
        prepare(battle)
    client.force_login(_viewer(battle, who))
    before = _text(client)
    assert _text(client) == before  # from the cache now
    change(battle)
    battle.refresh_from_db()
    after = _text(client)
    assert expected(battle) in after and expected(battle) not in before


def test_becoming_arbitrator_shows_the_campaigns_battles_and_stepping_down_hides_them(
    client, cache_backend, make_confirmed_battle, make_user
):
    battle = _battle(make_confirmed_battle)
    newcomer = make_user("newcomer")
    client.force_login(newcomer)
    assert "No confirmed battle yet." in _text(client)
    campaigns.arbitrator_add(campaign=battle.campaign, user=newcomer)
    assert f"{battle.attacker.name}: not started" in _text(client)
    campaigns.arbitrator_remove(campaign=battle.campaign, user=newcomer)
    assert "No confirmed battle yet." in _text(client)


def test_a_gang_joining_shows_its_battles_and_one_leaving_keeps_them(
    client, cache_backend, make_confirmed_battle, make_gang
):
    battle = _battle(make_confirmed_battle)
    owner = battle.attacker.owner
    newcomer = make_gang(owner=owner, edition="n18", name="Second Gang")
    client.force_login(owner)
    assert "Second Gang" not in _text(client)
    campaign = Campaign.objects.get(pk=battle.campaign_id)
    campaigns.campaign_join(campaign=campaign, gang=newcomer, user=owner)
    joined = campaigns.battle_arrange(campaign=campaign, attacker=newcomer, defender=battle.defender)
    joined = campaigns.battle_scenario_roll(battle=joined, dice=ScriptedDice([1, 1, 6, 1]))
    campaigns.battle_report_submit(battle=joined, actor=campaign.created_by, winner=newcomer)
    campaigns.battle_report_confirm(battle=joined, actor=campaign.created_by, is_arbitrator=True)
    assert "Second Gang: not started" in _text(client)
    campaigns.gang_remove(membership=campaign.memberships.get(gang=newcomer), actor=campaign.created_by)
    # A gang that left keeps its history: its battles stay on its player's list, and its name follows it.
    gang_rename(gang=newcomer, name="Gone Gang", actor=owner)
    after = _text(client)
    assert "Gone Gang: not started" in after and f"{battle.attacker.name}: not started" in after


def test_each_viewer_gets_its_own_list(client, cache_backend, make_confirmed_battle, make_gang):
    battle = _battle(make_confirmed_battle)
    campaign = Campaign.objects.get(pk=battle.campaign_id)
    third = make_gang(edition="n18", name="Third Gang")
    campaigns.campaign_join(campaign=campaign, gang=third, user=third.owner)
    client.force_login(campaign.created_by)
    assert f"{battle.attacker.name}: not started" in _text(client)
    client.force_login(third.owner)
    assert "No confirmed battle yet." in _text(client)


@pytest.mark.parametrize("who", ["player", "arbitrator"])
def test_a_warm_list_reads_only_the_session_the_user_and_its_key(
    client, cache_backend, make_confirmed_battle, django_assert_num_queries, who
):
    battle = _battle(make_confirmed_battle)
    _grow(battle, BATTLE_LIST_PAGE_SIZE + 5)  # two pages
    services.sequence_start(battle=battle, gang=battle.attacker, actor=None)
    client.force_login(_viewer(battle, who))
    with CaptureQueriesContext(connection) as cold:
        client.get(URL)
    assert len(cold) > WARM  # the rows read once
    for page in ("1", "2"):
        client.get(URL, {"page": page})
        with django_assert_num_queries(WARM):
            assert client.get(URL, {"page": page}).status_code == 200
