"""Rendered rosters come from the cache, and every kind of change shows on the next render (gangs.cache): each
ledger kind, a change that writes no ledger entry, on the local-memory cache and on a real Redis."""

import re

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from content.models import Equipment, Skill
from gangs import services
from gangs.ledger import ledger_record
from gangs.models import Gang, LedgerKind, Purchase
from gangs.selectors import roster_page
from rulebook.dice import ScriptedDice

pytestmark = pytest.mark.django_db


@pytest.fixture
def gang(make_gang, make_fighter):
    """An n18 gang with a Leader carrying an autopistol and a Ganger with a fighting knife."""
    gang = make_gang(edition="n18", name="Cinder Saints", extra_credits=500)
    leader = make_fighter(gang, "leader", name="Mother Ash")
    ganger = make_fighter(gang, "ganger", name="Brother Coal")
    services.purchase_buy(
        gang=gang, equipment=Equipment.objects.get(edition="n18", slug="autopistol"), fighter=leader, actor=gang.owner
    )
    services.purchase_buy(
        gang=gang,
        equipment=Equipment.objects.get(edition="n18", slug="fighting-knife"),
        fighter=ganger,
        actor=gang.owner,
    )
    return gang


def _fighter(gang, name):
    return gang.fighters.get(name=name)


def _move_knife(gang):
    knife = Purchase.objects.get(gang=gang, equipment__slug="fighting-knife")
    services.purchase_move(purchase=knife, fighter=_fighter(gang, "Mother Ash"), actor=gang.owner)


def _join_campaign(gang):
    from campaigns.services import campaign_create, campaign_join

    campaign = campaign_create(user=gang.owner, edition="n18", name="Ash Wastes League")
    campaign_join(campaign=campaign, gang=gang, user=gang.owner)


# (ledger kind, the change, what the next render of the gang page must say: text, "!" and a pattern it must not
# match, or a function of the gang before the change giving the text)
CHANGES = [
    (
        LedgerKind.CREDITS,
        lambda g: ledger_record(gang=g, kind=LedgerKind.CREDITS, credits=123, description="Income"),
        lambda g: f"{g.stash + 123} credits",
    ),
    (
        LedgerKind.HIRE,
        lambda g: services.fighter_hire(
            gang=g, fighter_type=g.house.fighter_types.get(category="juve"), name="Little Soot", actor=g.owner
        ),
        "Little Soot",
    ),
    (
        LedgerKind.PURCHASE,
        lambda g: services.purchase_buy(
            gang=g, equipment=Equipment.objects.get(slug="lasgun"), fighter=_fighter(g, "Brother Coal"), actor=g.owner
        ),
        "Lasgun",
    ),
    (
        LedgerKind.SALE,
        lambda g: services.purchase_sell(
            purchase=Purchase.objects.get(gang=g, equipment__slug="autopistol"), actor=g.owner, dice=ScriptedDice([1])
        ),
        "!Autopistol",
    ),
    (LedgerKind.EQUIPMENT, _move_knife, "!Brother Coal.*Fighting knife"),
    (
        LedgerKind.EXPERIENCE,
        lambda g: services.experience_award(
            fighter=_fighter(g, "Brother Coal"), amount=7, actor=g.owner, reason="Test"
        ),
        "7 XP",
    ),
    (
        LedgerKind.ADVANCEMENT,
        lambda g: services.advancement_record(
            fighter=_fighter(g, "Mother Ash"),
            kind="skill",
            description="Iron Jaw",
            actor=g.owner,
            reason="Test",
            skill=Skill.objects.get(edition="n18", name="Iron Jaw"),
        ),
        "Iron Jaw",
    ),
    (
        LedgerKind.REPUTATION,
        lambda g: ledger_record(gang=g, kind=LedgerKind.REPUTATION, reputation=4, description="Won"),
        "Reputation 4",
    ),
    (
        LedgerKind.STATUS,
        lambda g: services.fighter_status_set(
            fighter=_fighter(g, "Brother Coal"), status="recovery", actor=g.owner, reason="Test"
        ),
        "In Recovery",
    ),
    (
        LedgerKind.INJURY,
        lambda g: services.injury_record(
            fighter=_fighter(g, "Brother Coal"),
            code="eye",
            name="Eye Injury",
            stat_deltas={"BS": -1},
            actor=g.owner,
            reason="Test",
        ),
        "Eye Injury",
    ),
    (LedgerKind.TERRITORY, _join_campaign, "Home Settlement"),
    (
        LedgerKind.OVERRIDE,
        lambda g: services.gang_override(gang=g, actor=g.owner, reason="Fix", credits=-100),
        lambda g: f"{g.stash - 100} credits",
    ),
    (
        LedgerKind.OTHER,
        lambda g: services.fighter_rename(fighter=_fighter(g, "Brother Coal"), name="Brother Ember", actor=g.owner),
        "Brother Ember",
    ),
]


def test_every_ledger_kind_is_tried():
    assert {kind for kind, _, _ in CHANGES} == set(LedgerKind)


def _page(client, gang) -> str:
    return client.get(reverse("gangs:gang-detail", args=[gang.pk])).content.decode()


def _shows(page: str, expected: str) -> bool:
    """Whether the page's text (tags dropped, spaces folded) says ``expected`` (or, after "!", never matches it)."""
    text = " ".join(re.sub(r"<[^>]+>", " ", page).split())
    if expected.startswith("!"):
        return not re.search(expected[1:], text, re.S)
    return expected in text


@pytest.mark.parametrize(("kind", "change", "expected"), CHANGES, ids=[c[0] for c in CHANGES])
def test_each_ledger_kind_shows_on_the_next_render(client, cache_backend, gang, kind, change, expected):
    client.force_login(gang.owner)
    _page(client, gang)
    before = _page(client, gang)  # from the cache
    expected = expected(Gang.objects.get(pk=gang.pk)) if callable(expected) else expected
    assert not _shows(before, expected)
    version = Gang.objects.get(pk=gang.pk).version
    change(Gang.objects.get(pk=gang.pk))
    assert Gang.objects.get(pk=gang.pk).version > version
    after = _page(client, gang)
    assert _shows(after, expected), expected
    printed = client.get(reverse("gangs:gang-print", args=[gang.pk])).content.decode()
    assert kind == LedgerKind.TERRITORY or _shows(printed, expected)  # the sheet shows no territories yet


def test_a_change_with_no_ledger_entry_shows_too(client, cache_backend, gang):
    """Notes write no ledger entry; the fighter row's own save moves the version."""
    client.force_login(gang.owner)
    _page(client, gang)
    fighter = _fighter(gang, "Mother Ash")
    fighter.name = "Mother Cinder"
    fighter.save()
    assert "Mother Cinder" in _page(client, gang)


def test_a_warm_roster_reads_fewer_rows_and_each_viewer_keeps_its_controls(client, make_user, cache_backend, gang):
    """The cached page skips the roster's queries; a stranger served the owner's cached cards sees no forms."""
    client.force_login(gang.owner)
    cache.clear()
    with CaptureQueriesContext(connection) as cold:
        owner_page = _page(client, gang)
    with CaptureQueriesContext(connection) as warm:
        _page(client, gang)
    assert len(warm) < len(cold)
    assert "Hire a fighter" in owner_page
    client.force_login(make_user())
    stranger_page = _page(client, gang)
    assert "Mother Ash" in stranger_page and "Hire a fighter" not in stranger_page


def test_a_saved_copy_of_the_gang_never_puts_back_an_older_version(gang):
    stale = Gang.objects.get(pk=gang.pk)
    ledger_record(gang=gang, kind=LedgerKind.CREDITS, credits=5, description="Income")
    moved = Gang.objects.get(pk=gang.pk).version
    stale.notes = "Written from an old copy"
    stale.save()
    assert Gang.objects.get(pk=gang.pk).version > moved


def _queries(client, url) -> list[str]:
    client.get(url)  # warm
    with CaptureQueriesContext(connection) as warm:
        assert client.get(url).status_code == 200
    return [query["sql"] for query in warm]


@pytest.mark.parametrize("name", ["gangs:gang-detail", "gangs:gang-print"])
def test_a_warm_roster_reads_only_the_session_the_user_and_the_gang(client, cache_backend, gang, name):
    """Outside a campaign, with an empty Stash, the owner's warm page is the login's two queries and the gang's
    one: the hire form's fields, the Reputation notice's count and the Stash come from the cache too."""
    client.force_login(gang.owner)
    queries = _queries(client, reverse(name, args=[gang.pk]))
    assert len(queries) == 3, queries
    assert "gangs_gang" in queries[2]


def test_a_stash_with_items_reads_no_more_and_its_move_list_follows_the_roster(client, cache_backend, gang):
    """The Stash's items and where each may be handed are kept with the gang's version: the owner's warm page is
    still three queries with an item in the Stash, and a fighter hired shows in the item's move list at once."""
    services.purchase_buy(
        gang=gang, equipment=Equipment.objects.get(edition="n18", slug="autopistol"), fighter=None, actor=gang.owner
    )
    client.force_login(gang.owner)
    url = reverse("gangs:gang-detail", args=[gang.pk])
    assert len(_queries(client, url)) == 3
    assert "Little Soot" not in _page(client, gang)
    services.fighter_hire(
        gang=Gang.objects.get(pk=gang.pk),
        fighter_type=gang.house.fighter_types.get(category="juve"),
        name="Little Soot",
        actor=gang.owner,
    )
    move_list = _page(client, gang).split("Give Autopistol to")[1].split("</select>")[0]
    assert "Little Soot" in move_list and "Mother Ash" in move_list


def test_in_a_campaign_the_warm_page_reads_no_more(client, make_user, cache_backend, gang):
    """Whether the viewer arbitrates the campaign, the territories held and the coming battles are kept with the
    gang's version too; another viewer reads one more query (their own arbitrator check), once."""
    _join_campaign(gang)
    client.force_login(gang.owner)
    assert len(_queries(client, reverse("gangs:gang-detail", args=[gang.pk]))) == 3
    client.force_login(make_user())
    assert len(_queries(client, reverse("gangs:gang-detail", args=[gang.pk]))) == 4  # + can they see the campaign


def test_what_the_page_shows_of_its_campaign_moves_the_version(client, make_user, cache_backend, gang, make_gang):
    """The campaign's name, a new arbitrator and a battle arranged show on the next render of the gang page (the
    battle as one a Hired Gun may be hired for)."""
    from campaigns.models import Campaign
    from campaigns.services import arbitrator_add, battle_arrange, campaign_create, campaign_join, campaign_start

    arbitrator, rival = make_user(), make_gang(edition="n18")
    campaign = campaign_create(user=arbitrator, edition="n18", name="Ash Wastes League")
    for member in (gang, rival):
        campaign_join(campaign=campaign, gang=member, user=member.owner)
    campaign = campaign_start(campaign=campaign)
    client.force_login(gang.owner)
    assert "Ash Wastes League" in _page(client, gang)
    renamed = Campaign.objects.get(pk=campaign.pk)
    renamed.name = "Dust Falls League"
    renamed.save()
    page = _page(client, gang)
    assert "Dust Falls League" in page and 'name="override_reason"' not in page
    # An arbitrator who owns the gang is its player there: no override on his own gang (separation of duties) ...
    arbitrator_add(campaign=renamed, user=gang.owner)
    assert 'name="override_reason"' not in _page(client, gang)
    # ... while a user who looked at it before becoming an arbitrator sees the override on the next render.
    newcomer = make_user()
    client.force_login(newcomer)
    assert 'name="override_reason"' not in _page(client, gang)
    arbitrator_add(campaign=renamed, user=newcomer)
    assert 'name="override_reason"' in _page(client, gang)
    _page(client, gang)
    battle = battle_arrange(campaign=renamed, attacker=gang, defender=rival)
    assert battle in roster_page(gang.owner, gang.pk).facts.coming_battles


def test_campaign_memberships_and_territories_move_the_version(
    client, cache_backend, gang, make_gang, make_territory, make_user
):
    """The printed roster lists the territories held: joining, a territory changing hands and leaving each
    show on the next print, whatever the ledger says."""
    from campaigns.models import CampaignGang
    from campaigns.services import (
        arbitrator_add,
        campaign_create,
        campaign_join,
        gang_remove,
        territory_add,
        territory_assign,
    )

    client.force_login(gang.owner)
    url = reverse("gangs:gang-print", args=[gang.pk])
    assert "None held." in client.get(url).content.decode()
    campaign = campaign_create(user=gang.owner, edition="n18", name="Ash Wastes League")
    rival = make_gang(edition="n18")
    for member in (gang, rival):
        campaign_join(campaign=campaign, gang=member, user=member.owner)
    assert "Home Settlement" in client.get(url).content.decode()
    held = territory_add(campaign=campaign, territory=make_territory("n18", "Old Ruins"))
    territory_assign(held=held, holder=rival, actor=gang.owner, reason="Test")
    rival_version = Gang.objects.get(pk=rival.pk).version
    referee = make_user()  # the owner arbitrates but hands nothing to his own gang: a co-arbitrator does
    arbitrator_add(campaign=campaign, user=referee)
    territory_assign(held=held, holder=gang, actor=referee, reason="Won it")
    assert Gang.objects.get(pk=rival.pk).version > rival_version
    assert "Old Ruins" in client.get(url).content.decode()
    version = Gang.objects.get(pk=gang.pk).version
    CampaignGang.objects.filter(gang=gang).first().save()  # a row written outside the services moves it too
    assert Gang.objects.get(pk=gang.pk).version > version
    gang_remove(membership=CampaignGang.objects.get(gang=gang), actor=gang.owner)
    assert "None held." in client.get(url).content.decode()


def test_printed_territories_follow_the_campaigns_rule(client, make_user, cache_backend, gang):
    """The owner's cached sheet lists its Home Settlement; a stranger, who may not see the campaign, gets a sheet
    of its own that does not (README, Who sees what)."""
    _join_campaign(gang)
    url = reverse("gangs:gang-print", args=[gang.pk])
    client.force_login(gang.owner)
    assert "Home Settlement" in client.get(url).content.decode()
    client.force_login(make_user())
    stranger = client.get(url).content.decode()
    assert "Home Settlement" not in stranger and "None held." in stranger and "Mother Ash" in stranger


def test_the_cached_hire_form_follows_the_stash_and_the_viewer(client, make_user, cache_backend, gang):
    """The hire form's fields are cached with the roster: a change to the Stash changes what it offers, and an
    arbitrator (who may override) is never served the owner's form."""
    from campaigns.services import campaign_create, campaign_join

    client.force_login(gang.owner)
    _page(client, gang)
    stash = Gang.objects.get(pk=gang.pk).stash
    services.gang_override(gang=gang, actor=gang.owner, reason="Spent", credits=-stash)
    assert "the Stash holds 0" in _page(client, gang)
    arbitrator = make_user()
    campaign_join(campaign=campaign_create(user=arbitrator, edition="n18", name="League"), gang=gang, user=gang.owner)
    owner_page = _page(client, gang)
    client.force_login(arbitrator)
    arbitrator_page = _page(client, gang)
    assert 'name="override_reason"' in arbitrator_page and 'name="override_reason"' not in owner_page


def test_the_players_name_follows_the_owner_and_a_login_keeps_the_cache(client, cache_backend, gang):
    """The page and the sheet name the player from the cache; a username changed (the admin) shows on the next
    render, while a login, which only stamps last_login, moves nothing."""
    from django.contrib.auth.models import update_last_login

    client.force_login(gang.owner)
    print_url = reverse("gangs:gang-print", args=[gang.pk])
    assert f"run by {gang.owner.username}" in _page(client, gang)
    client.get(print_url)
    version = Gang.objects.get(pk=gang.pk).version
    update_last_login(None, gang.owner)  # what every login does
    owner = type(gang.owner).objects.get(pk=gang.owner_id)
    owner.set_password("Another-pass-2")
    owner.save()
    assert Gang.objects.get(pk=gang.pk).version == version
    owner.username = "ash-mother"
    owner.save()
    client.force_login(owner)
    assert "run by ash-mother" in _page(client, gang)
    assert "Player: ash-mother" in client.get(print_url).content.decode()
