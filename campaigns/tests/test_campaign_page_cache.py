"""The campaign page comes from the cache (campaigns.cache): a warm page costs the same few queries however many
gangs, battles, cycles, log entries and fighters the campaign has, and every kind of change it shows appears on
the next render, on the local-memory cache and on a real Redis."""

import html
import re

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from campaigns import services
from campaigns.models import Campaign, CampaignGang
from campaigns.services import house_rules
from gangs import services as gang_services
from gangs.ledger import ledger_record
from gangs.models import LedgerKind
from rulebook.dice import ScriptedDice

pytestmark = pytest.mark.django_db

# The warm page: the session, the user, the campaign (with whether the viewer arbitrates it and the versions its
# key is made of) and the viewer's gangs in it. An arbitrator reads the join requests only while one waits (the
# cached page says so; the territory pool's form is drawn into a cached fragment).
WARM_PLAYER = 3
WARM_ARBITRATOR = 3


def _page_url(campaign) -> str:
    return reverse("campaigns:campaign-detail", args=[campaign.pk])


def _warm_queries(client, user, campaign) -> list[str]:
    client.force_login(user)
    client.get(_page_url(campaign))  # the cache and the session warmed
    with CaptureQueriesContext(connection) as warm:
        assert client.get(_page_url(campaign)).status_code == 200
    return [query["sql"] for query in warm]


def _play(campaign, battles: int) -> None:
    """Confirm up to ``battles`` battles of the current cycle, the attacker winning."""
    for battle in campaign.battles.filter(status="scheduled")[:battles]:
        battle = services.battle_scenario_roll(battle=battle, dice=ScriptedDice([1, 1, 6, 1]))
        services.battle_report_submit(battle=battle, actor=campaign.created_by, winner=battle.attacker)
        services.battle_report_confirm(battle=battle, actor=campaign.created_by, is_arbitrator=True)


def _grown(make_campaign, make_fighter, *, gangs: int, fighters: int, cycles: int, entries: int):
    campaign = make_campaign(gangs=gangs, started=True)
    services.cycle_pair(campaign=campaign, dice=ScriptedDice([1] * gangs))
    _play(campaign, battles=gangs // 2)
    for _ in range(cycles - 1):
        campaign = services.cycle_advance(campaign=Campaign.objects.get(pk=campaign.pk), reason="Test").campaign
    for membership in campaign.memberships.select_related("gang"):
        for _ in range(fighters):
            make_fighter(membership.gang, "ganger")
        for n in range(entries):
            ledger_record(gang=membership.gang, kind=LedgerKind.CREDITS, credits=1, description=f"Income {n}")
    return Campaign.objects.get(pk=campaign.pk)


def test_a_warm_campaign_page_is_flat_in_gangs_battles_cycles_log_and_fighters(
    client, cache_backend, make_campaign, make_fighter
):
    small = _grown(make_campaign, make_fighter, gangs=2, fighters=1, cycles=1, entries=1)
    large = _grown(make_campaign, make_fighter, gangs=8, fighters=4, cycles=3, entries=30)
    for campaign in (small, large):
        player = campaign.memberships.first().gang.owner
        assert len(_warm_queries(client, player, campaign)) == WARM_PLAYER
        assert len(_warm_queries(client, campaign.created_by, campaign)) == WARM_ARBITRATOR
    assert large.battles.filter(status="confirmed").count() > small.battles.filter(status="confirmed").count()


@pytest.fixture
def league(make_user, make_gang, make_fighter, make_territory):
    """A started n18 campaign in Cycle 1: alice's and bob's gangs (a Ganger each) paired, an Old Ruins unclaimed."""
    arbitrator = make_user("arbitrator")
    campaign = services.campaign_create(user=arbitrator, edition="n18", name="Dust Falls")
    gangs = {}
    for name in ("alice", "bob"):
        gangs[name] = make_gang(owner=make_user(name), edition="n18", name=f"{name.title()}'s gang")
        make_fighter(gangs[name], "ganger")
        services.campaign_join(campaign=campaign, gang=gangs[name], user=gangs[name].owner)
    campaign = services.campaign_start(campaign=campaign)
    held = services.territory_add(campaign=campaign, territory=make_territory(name="Old Ruins"))
    return {"campaign": campaign, "arbitrator": arbitrator, "gangs": gangs, "held": held}


def _text(client, campaign) -> str:
    page = client.get(_page_url(campaign)).content.decode()
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page)).split())


def _confirm(league):
    battle = services.battle_arrange(
        campaign=league["campaign"], attacker=league["gangs"]["alice"], defender=league["gangs"]["bob"]
    )
    _play(Campaign.objects.get(pk=league["campaign"].pk), battles=1)
    return battle


def _rename_owner(league):
    owner = league["gangs"]["bob"].owner
    owner.username = "bob-the-bold"
    owner.save()


# (what changes, the change, what the next render says)
CHANGES = [
    (
        "campaign",
        lambda w: services.campaign_update(
            campaign=Campaign.objects.get(pk=w["campaign"].pk), name="Ash Falls", description="", house_rules=""
        ),
        "Ash Falls",
    ),
    (
        "arbitrator",
        lambda w: services.arbitrator_add(campaign=w["campaign"], user=w["gangs"]["bob"].owner),
        "Arbitrators: arbitrator, bob",
    ),
    (
        "battle",
        lambda w: services.battle_arrange(
            campaign=w["campaign"], attacker=w["gangs"]["alice"], defender=w["gangs"]["bob"]
        ),
        "Alice's gang v Bob's gang",
    ),
    ("standings", _confirm, "Alice's gang won"),
    (
        "territory",
        lambda w: services.territory_assign(held=w["held"], holder=w["gangs"]["bob"], actor=w["arbitrator"]),
        "Old Ruins : Bob's gang",
    ),
    (
        "log",
        lambda w: ledger_record(
            gang=w["gangs"]["alice"], kind=LedgerKind.CREDITS, credits=5, description="Found a cache of creds"
        ),
        "Found a cache of creds",
    ),
    (
        "rating",
        lambda w: gang_services.fighter_hire(
            gang=w["gangs"]["bob"],
            name="Young Rust",
            actor=w["gangs"]["bob"].owner,
            fighter_type=w["gangs"]["bob"].house.fighter_types.get(category="juve"),
        ),
        "Young Rust",
    ),
    (
        "gang name",
        lambda w: gang_services.gang_rename(gang=w["gangs"]["bob"], name="Rust Hounds", actor=w["gangs"]["bob"].owner),
        "Rust Hounds",
    ),
    ("player", _rename_owner, "bob-the-bold"),
    (
        "house rules",
        lambda w: house_rules.house_rules_change(
            campaign=w["campaign"], actor=w["arbitrator"], note="Richer winners", winner_credits=150
        ),
        "Richer winners",
    ),
    (
        "membership",
        lambda w: services.gang_remove(
            membership=CampaignGang.objects.get(gang=w["gangs"]["bob"]), actor=w["arbitrator"]
        ),
        "!Bob's gang",
    ),
    (
        "cycle",
        lambda w: services.cycle_advance(campaign=Campaign.objects.get(pk=w["campaign"].pk), reason="Test"),
        "Cycle 2: challenges",
    ),
]


@pytest.mark.parametrize(("what", "change", "expected"), CHANGES, ids=[c[0] for c in CHANGES])
def test_each_change_shows_on_the_next_render(client, cache_backend, league, what, change, expected):
    client.force_login(league["arbitrator"])
    _text(client, league["campaign"])
    before = _text(client, league["campaign"])  # from the cache
    shown = (lambda text: expected[1:] not in text) if expected.startswith("!") else (lambda text: expected in text)
    if what == "rating":  # the hire shows as Bob's rating, not by name: compare his standing row
        shown = lambda text: _bobs_row(text) != _bobs_row(before)  # noqa: E731
    assert not shown(before), expected
    change(league)
    after = _text(client, league["campaign"])
    if what == "rating":
        assert _bobs_row(after) != _bobs_row(before)
    elif what == "membership":
        assert "Bob's gang" not in after.split("Rating Rep.")[1].split("Over the campaign")[0]
    else:
        assert shown(after), expected


def test_a_join_request_shows_to_the_arbitrator_until_decided(client, cache_backend, league, make_gang):
    campaign = league["campaign"]
    client.force_login(league["arbitrator"])
    assert "Gangs asking to join" not in _text(client, campaign)
    newcomer = make_gang(edition="n18", name="Carol's gang")
    join = services.join_request(campaign=campaign, gang=newcomer, user=newcomer.owner)
    assert "Gangs asking to join Carol's gang" in _text(client, campaign)
    # While one waits the arbitrator's page reads it (and its gang's history) besides.
    assert len(_warm_queries(client, league["arbitrator"], campaign)) > WARM_ARBITRATOR
    services.join_refuse(join=join, actor=league["arbitrator"])
    assert "Carol's gang" not in _text(client, campaign)
    assert len(_warm_queries(client, league["arbitrator"], campaign)) == WARM_ARBITRATOR


def _bobs_row(text: str) -> str:
    return text.split("Rating Rep.")[1].split("Bob's gang")[1][:40]


def test_a_viewer_is_never_served_anothers_controls(client, cache_backend, league):
    """The data is shared; the arbitrator's tools and a player's own buttons are drawn for each request."""
    client.force_login(league["arbitrator"])
    assert "Finish the campaign" in client.get(_page_url(league["campaign"])).content.decode()
    client.force_login(league["gangs"]["alice"].owner)
    page = client.get(_page_url(league["campaign"])).content.decode()
    assert "Finish the campaign" not in page and "Remove</button>" not in page and "Dust Falls" in page
    assign = reverse("campaigns:territory-assign", args=[league["campaign"].pk, league["held"].pk])
    assert assign not in page and "Old Ruins" in page  # the territories drawn for players, not the arbitrator's


def _wants_to_play_url(league, name: str) -> str:
    return reverse("campaigns:membership-wants-to-play", args=[league["campaign"].pk, league["gangs"][name].pk])


def _form_token(page: str, action: str) -> str:
    form = page.split(f'action="{action}"')[1].split("</form>")[0]
    return re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', form).group(1)


def test_each_kind_of_viewer_gets_its_own_controls_and_a_working_token_after_a_change(cache_backend, league):
    """The fragments with controls are cached per kind of viewer (campaigns.permissions.Access.viewer_key) with
    each request's CSRF token put in: after a change every viewer sees it, with only their own controls, and the
    token in a cached form is one the site accepts."""
    viewers = {
        "arbitrator": league["arbitrator"],
        "alice": league["gangs"]["alice"].owner,
        "bob": league["gangs"]["bob"].owner,
    }
    clients = {name: Client(enforce_csrf_checks=True) for name in viewers}
    for name, user in viewers.items():
        clients[name].force_login(user)
        clients[name].get(_page_url(league["campaign"]))  # each kind's fragments cached
    alice, bob = _wants_to_play_url(league, "alice"), _wants_to_play_url(league, "bob")
    # A change by a POST through a form drawn from the cache: its token is the request's own.
    page = clients["alice"].get(_page_url(league["campaign"])).content.decode()
    assert clients["alice"].post(alice, {"csrfmiddlewaretoken": _form_token(page, alice)}).status_code == 302
    assert not CampaignGang.objects.get(gang=league["gangs"]["alice"]).wants_to_play
    pages = {name: client.get(_page_url(league["campaign"])).content.decode() for name, client in clients.items()}
    for name, page in pages.items():
        assert "csrftokenplaceholder" not in page
        rows = page.split("<tbody>")[1].split("</tbody>")[0]
        alices_row = rows.split("Alice&#x27;s gang")[1].split("</tr>")[0]
        assert "Sits out" in alices_row, name  # the change, for everyone
        assert (f'action="{alice}"' in page) == (name in ("arbitrator", "alice")), name
        assert (f'action="{bob}"' in page) == (name in ("arbitrator", "bob")), name
        assert ("Remove</button>" in page) == (name == "arbitrator"), name
        assert ("Finish the campaign" in page) == (name == "arbitrator"), name
    for name in ("arbitrator", "bob"):  # the token of a form another kind's request had cached is accepted
        token = _form_token(pages[name], bob)
        assert clients[name].post(bob, {"csrfmiddlewaretoken": token}).status_code == 302, name
    assert clients["bob"].post(bob, {"csrfmiddlewaretoken": "x" * 64}).status_code == 403


def test_a_stranger_is_not_served_the_cached_page(client, cache_backend, league, make_user):
    client.force_login(league["arbitrator"])
    client.get(_page_url(league["campaign"]))
    client.force_login(make_user("stranger"))
    assert client.get(_page_url(league["campaign"])).status_code == 404


def test_who_may_see_the_page_follows_each_change_on_the_next_render(client, cache_backend, league, make_user):
    """Who the viewer is to the campaign comes from the cached page (no query): each change to it moves the
    page's key, so the next request decides on the change."""
    campaign, alices_gang = league["campaign"], league["gangs"]["alice"]
    alice, bob, carol = alices_gang.owner, league["gangs"]["bob"].owner, make_user("carol")

    def status(user) -> int:
        client.force_login(user)
        return client.get(_page_url(campaign)).status_code

    def cached() -> None:  # the page's head kept for the version before the change (the arbitrator's request)
        assert status(league["arbitrator"]) == 200

    assert (status(alice), status(bob), status(carol)) == (200, 200, 404)
    services.arbitrator_add(campaign=campaign, user=carol)
    assert status(carol) == 200 and "Finish the campaign" in _text(client, campaign)
    cached()
    services.arbitrator_remove(campaign=campaign, user=carol)
    assert status(carol) == 404
    cached()
    services.gang_remove(membership=CampaignGang.objects.get(gang=league["gangs"]["bob"]), actor=league["arbitrator"])
    assert status(bob) == 404
    # A gang changing hands (no service does; the admin may): its new owner plays it here, the old one no longer.
    cached()
    alices_gang.owner = carol
    alices_gang.save()
    assert (status(carol), status(alice)) == (200, 404)
    assert "Finish the campaign" not in _text(client, campaign)


def _rules_in_force(text: str) -> str:
    return text.split("House rules that apply")[1].split("A change applies")[0]


def test_house_rules_scheduled_for_later_show_once_in_force_without_a_write(client, cache_backend, league, monkeypatch):
    """The settings' fragment is kept for the house rules in force, decided on each request."""
    from datetime import timedelta

    from django.utils import timezone

    from campaigns.models import HouseRules

    change = house_rules.house_rules_change(campaign=league["campaign"], actor=league["arbitrator"], winner_credits=150)
    HouseRules.objects.filter(pk=change.pk).update(in_force_from=change.in_force_from + timedelta(days=1))
    client.force_login(league["arbitrator"])
    before = _rules_in_force(_text(client, league["campaign"]))
    assert "150" not in before
    now = timezone.now
    monkeypatch.setattr(timezone, "now", lambda: now() + timedelta(days=2))
    assert "150" in _rules_in_force(_text(client, league["campaign"]))
