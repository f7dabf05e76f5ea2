"""The one visibility rule (README.md, "Who sees what"), one row per page.

A gang's roster is open to anyone logged in; a campaign and everything it holds (its battles, their
logs and reports, the battle assistant's session of a campaign battle, post-battle sequences, the
campaign's name and territories on a member gang's page) only to its arbitrators and the players of
its gangs; the two players of a battle keep it. Anonymous visitors are sent to log in.
"""

import pytest
from django.urls import reverse

from rulebook.dice import SeededDice

ROLES = ["anonymous", "stranger", "member", "arbitrator", "player"]


@pytest.fixture
def world(make_user, make_battle, make_gang):
    """A classic campaign with three gangs; a campaign battle between two of them, in the battle assistant."""
    from campaigns.models import Battle, BattleStatus
    from campaigns.services import campaign_create, campaign_join

    session = make_battle("classic")
    arbitrator = make_user("arbitrator")
    campaign = campaign_create(user=arbitrator, edition="classic", name="Secret Sump War")
    third = make_gang(edition="classic")
    for seat, gang in enumerate((session.gang_a, session.gang_b, third)):
        campaign_join(campaign=campaign, gang=gang, user=gang.owner, dice=SeededDice(seat))
    battle = Battle.objects.create(
        campaign=campaign,
        origin="arranged",
        attacker=session.gang_a,
        defender=session.gang_b,
        scenario="gang-fight",
        scenario_name="Gang Fight",
        status=BattleStatus.SCHEDULED,
    )
    session.campaign_battle = battle
    session.save(update_fields=["campaign_battle"])
    users = {
        "stranger": make_user("stranger"),
        "member": third.owner,
        "arbitrator": arbitrator,
        "player": session.player_a,
        "anonymous": None,
    }
    return {"campaign": campaign, "battle": battle, "session": session, "gang": session.gang_a, "users": users}


def _pages(w):
    c, b, s, g = w["campaign"], w["battle"], w["session"], w["gang"]
    return {
        "campaign page": reverse("campaigns:campaign-detail", args=[c.pk]),
        "campaign battle page": reverse("campaigns:battle-detail", args=[c.pk, b.pk]),
        "battle assistant page": reverse("battles:battle-detail", args=[s.pk]),
        "battle assistant follow view": reverse("battles:battle-follow", args=[s.pk]),
        "battle assistant report and log": reverse("battles:battle-report", args=[s.pk]),
        "post-battle sequence": reverse("postbattle:sequence-detail", args=[b.pk, g.pk]),
    }


# Who gets the page (200) and who gets a 404 (as if it did not exist); anonymous visitors go to log in.
CAMPAIGN_CONTENT = {"stranger": 404, "member": 200, "arbitrator": 200, "player": 200}


@pytest.mark.django_db
@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize(
    "page",
    [
        "campaign page",
        "campaign battle page",
        "battle assistant page",
        "battle assistant follow view",
        "battle assistant report and log",
    ],
)
def test_campaign_content_is_for_the_campaign(client, world, page, role):
    user = world["users"][role]
    if user is not None:
        client.force_login(user)
    response = client.get(_pages(world)[page])
    if role == "anonymous":
        assert response.status_code in (302, 404)
        assert response.status_code == 404 or "/accounts/login/" in response["Location"]
    else:
        assert response.status_code == CAMPAIGN_CONTENT[role]
        if response.status_code == 404:
            assert "Secret Sump War" not in response.content.decode()


@pytest.mark.django_db
@pytest.mark.parametrize("role", ["stranger", "member", "arbitrator", "player"])
def test_post_battle_sequence_follows_the_campaign(client, world, role):
    from campaigns.models import BattleStatus

    world["battle"].status = BattleStatus.CONFIRMED
    world["battle"].save(update_fields=["status"])
    client.force_login(world["users"][role])
    response = client.get(_pages(world)["post-battle sequence"])
    assert response.status_code == CAMPAIGN_CONTENT[role]


@pytest.mark.django_db
@pytest.mark.parametrize("role", ["stranger", "member", "arbitrator", "owner"])
def test_a_member_gangs_page_names_its_campaign_only_to_those_who_see_it(client, make_campaign, make_user, role):
    campaign = make_campaign(edition="n18", gangs=2, name="Secret Sump War")
    gang, other = [m.gang for m in campaign.memberships.order_by("pk")]
    viewer = {
        "stranger": make_user(),
        "member": other.owner,
        "arbitrator": campaign.arbitrators.first().user,
        "owner": gang.owner,
    }[role]
    client.force_login(viewer)
    response = client.get(reverse("gangs:gang-detail", args=[gang.pk]))
    assert response.status_code == 200  # the roster itself is open to anyone logged in
    assert ("Secret Sump War" in response.content.decode()) is (role != "stranger")


@pytest.mark.django_db
@pytest.mark.parametrize("role", ["stranger", "member"])
def test_the_battle_list_offers_a_campaign_battle_to_watch_only_to_those_who_see_it(client, world, role):
    client.force_login(world["users"][role])
    page = client.get(reverse("battles:battle-list")).content.decode()
    link = reverse("battles:battle-detail", args=[world["session"].pk])
    assert (link in page) is (role == "member")


@pytest.mark.django_db
def test_a_friendly_battle_is_open_to_anyone_logged_in(client, make_battle, make_user):
    session = make_battle("classic")
    client.force_login(make_user())
    for name in ("battle-detail", "battle-follow", "battle-report"):
        assert client.get(reverse(f"battles:{name}", args=[session.pk])).status_code == 200


@pytest.mark.django_db
def test_visible_campaigns_and_campaign_access_agree(world):
    """The campaign pages' ``campaign_access`` and ``visible_campaigns`` (every other page) are one rule."""
    from django.contrib.auth.models import AnonymousUser
    from django.http import Http404

    from campaigns.permissions import campaign_access, visible_campaigns

    campaign = world["campaign"]
    for role, user in world["users"].items():
        user = user or AnonymousUser()
        try:
            campaign_access(user, campaign.pk)
            sees = True
        except Http404:
            sees = False
        assert sees is visible_campaigns(user).filter(pk=campaign.pk).exists(), role


@pytest.mark.django_db
@pytest.mark.parametrize("role", ["stranger", "member", "arbitrator", "owner"])
def test_a_member_gangs_history_tells_its_campaign_only_to_those_who_see_it(
    client, make_campaign, make_user, make_fighter, role
):
    """Issue 26 #6: the gang's history and its fighters' pages follow the campaign's rule like the gang page."""
    from campaigns.services import cycle_pair
    from rulebook.dice import SeededDice

    campaign = make_campaign(edition="n18", gangs=2, started=True, name="Secret Sump War")
    gang, other = [m.gang for m in campaign.memberships.order_by("pk")]
    cycle_pair(campaign=campaign, dice=SeededDice(1), actor=campaign.arbitrators.first().user)
    fighter = make_fighter(gang, "leader", name="Krag")
    viewer = {
        "stranger": make_user(),
        "member": other.owner,
        "arbitrator": campaign.arbitrators.first().user,
        "owner": gang.owner,
    }[role]
    client.force_login(viewer)
    sees = role != "stranger"
    history = client.get(reverse("gangs:gang-history", args=[gang.pk])).content.decode()
    for words in ("Secret Sump War", "Cycle 1 pairing", other.name):
        assert (words in history) is sees, words
    assert "+1" in history  # the Home Settlement's Reputation still adds up, whoever looks
    page = client.get(reverse("gangs:fighter-detail", args=[gang.pk, fighter.pk]))
    assert page.status_code == 200


@pytest.mark.django_db
def test_the_cached_history_never_tells_a_campaign_to_a_viewer_who_does_not_see_it(
    client, make_campaign, make_user, make_gang
):
    """Issue 28: the history's rows are cached per version and per what the viewer sees, so a stranger reading
    after the arbitrator gets the hidden words, and once a gang of theirs joins the campaign (which moves no
    version of this gang) the names."""
    from campaigns.services import cycle_pair
    from rulebook.dice import SeededDice

    campaign = make_campaign(edition="n18", gangs=2, started=True, name="Secret Sump War")
    gang = campaign.memberships.order_by("pk").first().gang
    arbitrator = campaign.arbitrators.first().user
    cycle_pair(campaign=campaign, dice=SeededDice(1), actor=arbitrator)
    url = reverse("gangs:gang-history", args=[gang.pk])
    stranger = make_user()
    for viewer, sees in ((arbitrator, True), (stranger, False), (gang.owner, True), (stranger, False)):
        client.force_login(viewer)
        assert ("Secret Sump War" in client.get(url).content.decode()) is sees, viewer
    campaign.memberships.create(gang=make_gang(owner=stranger, edition="n18"))  # moves the joining gang only
    client.force_login(stranger)
    assert "Secret Sump War" in client.get(url).content.decode()


# The campaign export holds every gang's ledger: its arbitrators only (a player may see the campaign, not take it).
EXPORT = {"stranger": 404, "member": 403, "arbitrator": 200, "player": 403}


@pytest.mark.django_db
@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize(("page", "allowed"), [("campaign-export", EXPORT), ("standings-csv", CAMPAIGN_CONTENT)])
def test_the_campaign_export_is_the_arbitrators_and_the_standings_the_campaigns(client, world, page, allowed, role):
    user = world["users"][role]
    if user is not None:
        client.force_login(user)
    response = client.get(reverse(f"campaign_exchange:{page}", args=[world["campaign"].pk]))
    if role == "anonymous":
        assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    else:
        assert response.status_code == allowed[role]
