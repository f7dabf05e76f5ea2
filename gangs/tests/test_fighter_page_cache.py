"""The fighter part of the fighter page comes from the cache with the owner's forms drawn in it (gangs.views.
_fighter_page, ``{% tokencache %}``): every change to what the forms offer shows on the next render, on the
local-memory cache and on a real Redis; each request's tokens are its own, and a viewer of another role never gets
the owner's fragment. The house rules' bans and a Trade action's level are tested where they are made
(campaigns/tests/test_campaign_house_rules.py, postbattle/tests/test_trade_action.py)."""

import re

import pytest
from django.urls import reverse

from content.models import Equipment
from gangs import services
from gangs.models import Purchase

pytestmark = pytest.mark.django_db


@pytest.fixture
def gang(make_gang, make_fighter):
    """An n18 gang with a Champion (Vex Thorn) carrying a fighting knife, and a Ganger (Brother Coal)."""
    gang = make_gang(edition="n18", extra_credits=500)
    vex = make_fighter(gang, "champion", name="Vex Thorn")
    make_fighter(gang, "ganger", name="Brother Coal")
    services.purchase_buy(
        gang=gang, equipment=Equipment.objects.get(edition="n18", slug="fighting-knife"), fighter=vex, actor=gang.owner
    )
    return gang


def _page(client, gang) -> str:
    vex = gang.fighters.get(name="Vex Thorn")
    response = client.get(reverse("gangs:fighter-detail", args=[gang.pk, vex.pk]))
    assert response.status_code == 200
    return response.content.decode()


def _select(html: str, name: str) -> str:
    return re.search(rf'<select name="{name}"[^>]*>(.*?)</select>', html, re.S).group(1)


def _sell_links(html: str) -> set[str]:
    return set(re.findall(r"/purchases/(\d+)/sell/", html))


def _warm(client, gang) -> str:
    client.force_login(gang.owner)
    _page(client, gang)
    return _page(client, gang)


def test_a_purchase_shows_in_the_kit_and_the_buy_list_at_once(client, cache_backend, gang):
    before = _warm(client, gang)
    vex = gang.fighters.get(name="Vex Thorn")
    bought = services.purchase_buy(
        gang=gang, equipment=Equipment.objects.get(edition="n18", slug="lasgun"), fighter=vex, actor=gang.owner
    )
    after = _page(client, gang)
    assert str(bought.pk) in _sell_links(after) - _sell_links(before)


def test_a_sale_and_a_move_take_the_item_and_its_controls_off_at_once(client, cache_backend, gang):
    knife = Purchase.objects.get(gang=gang, equipment__slug="fighting-knife")
    assert str(knife.pk) in _sell_links(_warm(client, gang))
    services.purchase_move(purchase=knife, fighter=gang.fighters.get(name="Brother Coal"), actor=gang.owner)
    assert str(knife.pk) not in _sell_links(_page(client, gang))
    services.purchase_move(purchase=knife, fighter=gang.fighters.get(name="Vex Thorn"), actor=gang.owner)
    assert str(knife.pk) in _sell_links(_page(client, gang))
    services.purchase_sell(purchase=knife, actor=gang.owner)
    assert str(knife.pk) not in _sell_links(_page(client, gang))


def test_experience_and_an_advancement_change_the_advancement_form_at_once(client, cache_backend, gang):
    assert 'data-testid="advance-out-of-reach"' in _warm(client, gang)
    vex = gang.fighters.get(name="Vex Thorn")
    services.experience_award(fighter=vex, amount=12, actor=gang.owner, reason="Test")
    page = _page(client, gang)
    assert 'data-testid="advance-out-of-reach"' not in page and "Spend experience" in page
    services.fighter_advance_n18(fighter=vex, actor=gang.owner, characteristic="Cl")
    assert "+1 Cl" in _page(client, gang).split('id="adv-title"')[1].split("</ul>")[0]


def test_a_status_change_changes_the_status_form_at_once(client, cache_backend, gang):
    assert 'value="recovery"' in _select(_warm(client, gang), "status-status")
    vex = gang.fighters.get(name="Vex Thorn")
    services.fighter_status_set(fighter=vex, status="recovery", actor=gang.owner, reason="Test")
    offered = _select(_page(client, gang), "status-status")
    assert 'value="recovery"' not in offered and 'value="active"' in offered


def test_each_request_has_its_own_tokens_and_a_stranger_never_the_owners_forms(client, cache_backend, gang, make_user):
    first = _warm(client, gang)
    second = _page(client, gang)
    tokens = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
    assert tokens.findall(first) and set(tokens.findall(first)).isdisjoint(tokens.findall(second))
    assert "placeholderxq" not in second
    client.force_login(make_user())
    stranger = _page(client, gang)
    assert "Fighting knife" in stranger and "buy-form" not in stranger and "/sell/" not in stranger


def test_the_owner_and_the_arbitrator_each_get_the_forms_of_their_role(
    client, cache_backend, make_campaign, make_fighter, make_user
):
    """In a campaign the arbitrator buys by override and keeps the record; the owner does neither: each is drawn a
    fighter part of their own, whoever comes first."""
    arbitrator = make_user()
    campaign = make_campaign(gangs=1, arbitrator=arbitrator)
    gang = campaign.memberships.get().gang
    fighter = make_fighter(gang, "champion")
    target = reverse("gangs:fighter-detail", args=[gang.pk, fighter.pk])
    for viewer in (gang.owner, arbitrator, gang.owner, arbitrator):
        client.force_login(viewer)
        page = client.get(target).content.decode()
        owns = viewer == gang.owner
        assert ('name="override_reason"' in page) is not owns
        assert ('data-testid="record-refusal"' in page) is owns


def test_the_gangs_first_battle_takes_the_hire_refund_off_at_once(client, cache_backend, gang, make_gang, make_user):
    """Whether the gang fought is kept with its version's facts (gangs.selectors.roster_facts): the first entry a
    campaign battle brought ends the founding, and the offer to take a hire back, on the next render."""
    from campaigns.services import battle_arrange, campaign_create, campaign_join, campaign_start
    from gangs.ledger import ledger_record
    from gangs.models import LedgerKind

    rival = make_gang(edition="n18")
    campaign = campaign_create(user=make_user(), edition="n18", name="Ash Wastes League")
    for member in (gang, rival):
        campaign_join(campaign=campaign, gang=member, user=member.owner)
    battle = battle_arrange(campaign=campaign_start(campaign=campaign), attacker=gang, defender=rival)
    assert 'data-testid="remove-fighter"' in _warm(client, gang)
    ledger_record(gang=gang, kind=LedgerKind.OTHER, description="Fought at the Sump", battle=battle)
    assert 'data-testid="remove-fighter"' not in _page(client, gang)


def test_an_import_marker_ends_the_founding_at_once(client, cache_backend, gang):
    from gangs.ledger import ledger_record
    from gangs.models import LedgerKind

    assert 'data-testid="remove-fighter"' in _warm(client, gang)
    ledger_record(gang=gang, kind=LedgerKind.OTHER, description="Imported", data={"imported": True})
    assert 'data-testid="remove-fighter"' not in _page(client, gang)
