"""Gang pages: who may do what, htmx fragments and plain posts, and query budgets."""

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from content.models import Equipment
from gangs import services
from gangs.ledger import ledger_record
from gangs.models import Fighter, LedgerKind, Purchase

# +2 for the owner: the Hangers-on, Brutes and Hired Guns on offer and the coming battles to hire a Hired Gun for.
# +1 on a render the cache missed: the edition's rule summaries (then cached under the content's version).
# +2 more: the roster's types, so the hire form offers only what the composition maximums allow, and where each
# Stash item may be given (the fighters whose list or the Trading Post allows it).
QUERY_BUDGET = 17


@pytest.fixture
def gang_with_kit(make_gang, make_fighter):
    gang = make_gang()
    make_fighter(gang, "leader", name="Kal")
    ganger = make_fighter(gang, "ganger", name="Vex")
    lasgun = Equipment.objects.get(edition="classic", slug="lasgun")
    services.purchase_buy(gang=gang, equipment=lasgun, fighter=ganger, actor=gang.owner)
    return gang


@pytest.fixture
def arbitrator(make_user, make_campaign, gang_with_kit):
    """An arbitrator of a campaign the gang has joined (``gangs.permissions`` asks the campaigns app)."""
    from campaigns.services import campaign_join
    from rulebook.dice import SeededDice

    user = make_user("arbitrator")
    campaign = make_campaign(edition=gang_with_kit.edition, arbitrator=user)
    campaign_join(campaign=campaign, gang=gang_with_kit, user=gang_with_kit.owner, dice=SeededDice(0))
    return user


def change_requests(gang):
    """(name, url, data) for every view that changes a gang."""
    ganger = gang.fighters.get(name="Vex")
    purchase = Purchase.objects.filter(gang=gang).first()
    lasgun = Equipment.objects.get(edition="classic", slug="lasgun")
    ganger_type = gang.house.fighter_types.get(category="ganger")
    return [
        ("gang-rename", reverse("gangs:gang-rename", args=[gang.pk]), {"name": "Renamed"}),
        (
            "fighter-hire",
            reverse("gangs:fighter-hire", args=[gang.pk]),
            {"fighter_type": ganger_type.pk, "name": "New"},
        ),
        ("stash-buy", reverse("gangs:stash-buy", args=[gang.pk]), {"equipment": lasgun.pk}),
        ("fighter-rename", reverse("gangs:fighter-rename", args=[gang.pk, ganger.pk]), {"name": "Vexx"}),
        ("fighter-notes", reverse("gangs:fighter-notes", args=[gang.pk, ganger.pk]), {"notes": "Limps"}),
        ("purchase-buy", reverse("gangs:purchase-buy", args=[gang.pk, ganger.pk]), {"equipment": lasgun.pk}),
        ("purchase-move", reverse("gangs:purchase-move", args=[gang.pk, purchase.pk]), {"to": "stash"}),
        ("purchase-sell", reverse("gangs:purchase-sell", args=[gang.pk, purchase.pk]), {}),
        ("purchase-discard", reverse("gangs:purchase-discard", args=[gang.pk, purchase.pk]), {}),
        (
            "fighter-advance",
            reverse("gangs:fighter-advance", args=[gang.pk, ganger.pk]),
            {"dice": "3 3 5", "skill_table": "Combat"},
        ),
        ("fighter-retire", reverse("gangs:fighter-retire", args=[gang.pk, ganger.pk]), {}),
    ]


CHANGE_VIEWS = [
    "gang-rename",
    "stash-buy",
    "fighter-hire",
    "fighter-rename",
    "fighter-notes",
    "purchase-buy",
    "purchase-move",
    "purchase-sell",
    "purchase-discard",
    "fighter-advance",
    "fighter-retire",
]


CONFIRM_PAGES = ("stash-buy", "purchase-sell", "purchase-discard")


def request_for(gang, name):
    return next((url, data) for view, url, data in change_requests(gang) if view == name)


def snapshot(gang):
    gang.refresh_from_db()
    fighters = list(gang.fighters.values_list("name", "notes", "status"))
    return (gang.name, gang.stash, gang.ledger.count(), Purchase.objects.filter(gang=gang).count(), fighters)


@pytest.mark.django_db
@pytest.mark.parametrize("name", CHANGE_VIEWS)
def test_anonymous_is_sent_to_log_in(client, gang_with_kit, name):
    url, data = request_for(gang_with_kit, name)
    before = snapshot(gang_with_kit)
    response = client.post(url, data)
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))
    assert snapshot(gang_with_kit) == before


@pytest.mark.django_db
@pytest.mark.parametrize("name", CHANGE_VIEWS)
def test_a_stranger_gets_403_and_changes_nothing(client, make_user, gang_with_kit, name):
    url, data = request_for(gang_with_kit, name)
    client.force_login(make_user("stranger"))
    before = snapshot(gang_with_kit)
    assert client.post(url, data).status_code == 403
    assert snapshot(gang_with_kit) == before


@pytest.mark.django_db
@pytest.mark.parametrize("name", CHANGE_VIEWS)
@pytest.mark.parametrize("who", ["owner", "arbitrator"])
def test_owner_and_arbitrator_may_change(client, gang_with_kit, arbitrator, name, who):
    gang = gang_with_kit
    if name == "fighter-advance":
        services.experience_award(fighter=gang.fighters.get(name="Vex"), amount=40, actor=gang.owner, reason="Test")
    url, data = request_for(gang, name)
    client.force_login(gang.owner if who == "owner" else arbitrator)
    before = snapshot(gang)
    response = client.post(url, data)
    assert response.status_code == 302
    after = snapshot(gang)
    assert after != before
    if after[2] != before[2]:  # notes are not in the ledger; every other change is
        last = gang.ledger.order_by("-pk").first()
        assert last.actor == (gang.owner if who == "owner" else arbitrator)


@pytest.mark.django_db
# stash-buy is a page with its form; sell and discard show what they do and ask to confirm.
@pytest.mark.parametrize("name", [name for name in CHANGE_VIEWS if name not in CONFIRM_PAGES])
def test_change_views_refuse_get(client, gang_with_kit, name):
    url, _ = request_for(gang_with_kit, name)
    client.force_login(gang_with_kit.owner)
    assert client.get(url).status_code == 405


@pytest.mark.django_db
def test_a_missing_gang_is_404(client, make_user):
    client.force_login(make_user())
    assert client.get(reverse("gangs:gang-detail", args=[999])).status_code == 404
    assert client.post(reverse("gangs:gang-rename", args=[999]), {"name": "x"}).status_code == 404


@pytest.mark.django_db
def test_anyone_logged_in_sees_a_gang_read_only(client, make_user, gang_with_kit):
    client.force_login(make_user("viewer"))
    page = client.get(gang_with_kit.get_absolute_url()).content.decode()
    assert "Kal" in page and "Lasgun" in page
    assert "Hire a fighter" not in page and "Arbitrator override" not in page
    ganger = gang_with_kit.fighters.get(name="Vex")
    page = client.get(reverse("gangs:fighter-detail", args=[gang_with_kit.pk, ganger.pk])).content.decode()
    assert "Lasgun" in page and ">Sell<" not in page and "Buy from" not in page


@pytest.mark.django_db
def test_the_override_is_for_arbitrators_only(client, gang_with_kit, arbitrator):
    url = reverse("gangs:gang-override", args=[gang_with_kit.pk])
    client.force_login(gang_with_kit.owner)
    assert client.post(url, {"credits": 100, "reputation": 0, "reason": "Gift"}).status_code == 403
    client.force_login(arbitrator)
    assert client.post(url, {"credits": 100, "reputation": 1, "reason": "Gift"}).status_code == 302
    entry = gang_with_kit.ledger.order_by("-pk").first()
    assert (entry.kind, entry.credits, entry.reputation, entry.reason) == ("override", 100, 1, "Gift")


@pytest.mark.django_db
def test_hire_with_htmx_returns_the_roster_fragment(client, gang_with_kit):
    client.force_login(gang_with_kit.owner)
    url, data = request_for(gang_with_kit, "fighter-hire")
    response = client.post(url, data, HTTP_HX_REQUEST="true")
    body = response.content.decode()
    assert response.status_code == 200
    assert body.lstrip().startswith('<section id="roster"')
    assert "New" in body and "<html" not in body
    assert "Hired New for 50 credits." in body  # the message arrives as an out-of-band swap


@pytest.mark.django_db
def test_a_refused_hire_shows_the_rule_in_the_fragment_and_on_the_page(client, gang_with_kit):
    client.force_login(gang_with_kit.owner)
    leader_type = gang_with_kit.house.fighter_types.get(category="leader")
    url = reverse("gangs:fighter-hire", args=[gang_with_kit.pk])
    data = {"fighter_type": leader_type.pk, "name": "Second"}
    for headers in ({"HTTP_HX_REQUEST": "true"}, {}):
        response = client.post(url, data, **headers)
        assert response.status_code == 200
        assert "at most one Leader" in response.content.decode()
    assert not Fighter.objects.filter(name="Second").exists()


@pytest.mark.django_db
def test_buy_and_advance_with_htmx_return_the_fighter_fragment(client, gang_with_kit):
    gang = gang_with_kit
    client.force_login(gang.owner)
    ganger = gang.fighters.get(name="Vex")
    services.experience_award(fighter=ganger, amount=40, actor=gang.owner, reason="Test")
    url, data = request_for(gang, "fighter-advance")
    body = client.post(url, data, HTTP_HX_REQUEST="true").content.decode()
    assert body.lstrip().startswith('<div id="fighter"')
    assert "+1 BS" in body
    url, data = request_for(gang, "purchase-buy")
    body = client.post(url, data, HTTP_HX_REQUEST="true").content.decode()
    assert body.count(">Lasgun") >= 2


@pytest.mark.django_db
def test_an_invalid_htmx_advance_is_200_with_errors(client, gang_with_kit):
    gang = gang_with_kit
    client.force_login(gang.owner)
    url, _ = request_for(gang, "fighter-advance")
    response = client.post(url, {"dice": "3 3 5", "skill_table": "Combat"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    assert "no advance roll due" in response.content.decode()
    vex = gang.fighters.get(name="Vex")
    services.experience_award(fighter=vex, amount=40, actor=gang.owner, reason="Test")
    response = client.post(url, {"dice": "3 9", "skill_table": "Combat"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    assert "is not a face of the D6 die" in response.content.decode()
    response = client.post(url, {"dice": "3 3 5", "skill_table": "Techno"}, HTTP_HX_REQUEST="true")
    # A choice that is not on offer is refused in the game's words, not Django's "Select a valid choice".
    assert "That choice is not on offer now" in response.content.decode()
    assert "Select a valid choice" not in response.content.decode()
    assert not vex.advancements.exists()


@pytest.mark.django_db
def test_create_a_gang_from_the_form(client, make_user, make_house_list):
    house = make_house_list("n18")
    user = make_user()
    client.force_login(user)
    page = client.get(reverse("gangs:gang-create")).content.decode()
    assert "2018+ rules" in page and "Goliath" in page
    response = client.post(reverse("gangs:gang-create"), {"name": "Forge Kings", "house": house.pk})
    gang = user.gangs.get()
    assert response["Location"] == gang.get_absolute_url()
    assert (gang.edition, gang.stash) == ("n18", 1000)
    assert "Forge Kings" in client.get(reverse("gangs:gang-list")).content.decode()


def add_fighters(gang, make_fighter, count):
    lasgun = Equipment.objects.get(edition="classic", slug="lasgun")
    for n in range(count):
        fighter = make_fighter(gang, "leader" if n == 0 else "ganger")
        services.purchase_buy(gang=gang, equipment=lasgun, fighter=fighter, actor=gang.owner)
        if n % 3 == 0:
            services.injury_record(
                fighter=fighter,
                code="leg-wound",
                name="Leg Wound",
                stat_deltas={"M": -1},
                actor=gang.owner,
                reason="Test",
            )


@pytest.mark.django_db
@pytest.mark.parametrize("page", ["gangs:gang-detail", "gangs:gang-print"])
@pytest.mark.parametrize("viewer", ["owner", "other"])
def test_gang_and_print_pages_cost_the_same_queries_for_1_and_30_fighters(
    client, make_user, make_gang, make_fighter, django_assert_num_queries, page, viewer
):
    counts = []
    for size in (1, 30):
        gang = make_gang(extra_credits=5000)
        add_fighters(gang, make_fighter, size)
        client.force_login(gang.owner if viewer == "owner" else make_user())
        url = reverse(page, args=[gang.pk])
        client.get(url)  # warm the session
        cache.clear()  # count the render that builds the roster, not the one the cache answers
        with CaptureQueriesContext(connection) as queries:
            response = client.get(url)
        assert response.status_code == 200
        assert response.content.decode().count("Leg Wound") == (size + 2) // 3
        if page == "gangs:gang-detail":
            assert reverse("postbattle:gang-history", args=[gang.pk]) in response.content.decode()
        counts.append(len(queries))
    assert counts[0] == counts[1] <= QUERY_BUDGET
    cache.clear()
    with django_assert_num_queries(counts[1]):
        client.get(url)


@pytest.mark.django_db
def test_removing_with_htmx_updates_the_part_of_the_page_it_came_from(client, gang_with_kit):
    gang = gang_with_kit
    client.force_login(gang.owner)
    carried = Purchase.objects.get(gang=gang)
    body = client.post(reverse("gangs:purchase-sell", args=[gang.pk, carried.pk]), HTTP_HX_REQUEST="true")
    assert body.content.decode().lstrip().startswith('<div id="fighter"')
    assert "Sold Lasgun for 12 credits." in body.content.decode()
    lasgun = Equipment.objects.get(edition="classic", slug="lasgun")
    stashed = services.purchase_buy(gang=gang, equipment=lasgun, actor=gang.owner)
    body = client.post(reverse("gangs:purchase-discard", args=[gang.pk, stashed.pk]), HTTP_HX_REQUEST="true")
    assert body.content.decode().lstrip().startswith('<section id="roster"')
    assert not Purchase.objects.filter(gang=gang).exists()


@pytest.mark.django_db
def test_the_stash_page_offers_house_lists_and_the_trading_post(client, make_user, gang_with_kit):
    url = reverse("gangs:stash-buy", args=[gang_with_kit.pk])
    client.force_login(make_user())
    assert client.get(url).status_code == 403
    client.force_login(gang_with_kit.owner)
    page = client.get(url).content.decode()
    assert "Flak armour — 10 credits (Trading Post)" in page
    assert "Heavy stubber — 120 credits (house lists)" in page
    assert "Mesh armour" not in page  # rare: not for sale outside a campaign's Trading Post roll


@pytest.mark.django_db
def test_buying_for_the_stash_says_the_price_paid_like_buying_for_a_fighter(client, gang_with_kit):
    client.force_login(gang_with_kit.owner)
    lasgun = Equipment.objects.get(edition="classic", slug="lasgun")
    page = client.post(reverse("gangs:stash-buy", args=[gang_with_kit.pk]), {"equipment": lasgun.pk}, follow=True)
    assert "Bought Lasgun for 25 credits, into the Stash." in page.content.decode()


@pytest.mark.django_db
def test_fighters_and_purchases_of_another_gang_are_404_through_my_gang(client, make_gang, gang_with_kit):
    mine = make_gang()
    client.force_login(mine.owner)
    theirs = gang_with_kit
    fighter = theirs.fighters.get(name="Vex")
    purchase = Purchase.objects.get(gang=theirs)
    for name, args in [("fighter-detail", [mine.pk, fighter.pk]), ("purchase-sell", [mine.pk, purchase.pk])]:
        method = client.get if name == "fighter-detail" else client.post
        assert method(reverse(f"gangs:{name}", args=args)).status_code == 404
    assert Purchase.objects.filter(pk=purchase.pk).exists()


@pytest.mark.django_db
def test_the_history_links_an_entry_to_its_battles_post_battle_account(client, make_confirmed_battle):
    battle = make_confirmed_battle()
    gang = battle.attacker
    ledger_record(gang=gang, kind=LedgerKind.CREDITS, credits=10, description="Scenario reward", battle=battle)
    client.force_login(gang.owner)
    body = client.get(reverse("gangs:gang-history", args=[gang.pk])).content.decode()
    assert f"{reverse('postbattle:gang-history', args=[gang.pk])}#battle-{battle.pk}" in body
    log = client.get(reverse("campaigns:campaign-detail", args=[battle.campaign.pk]))
    battle_url = reverse("campaigns:battle-detail", args=[battle.campaign.pk, battle.pk])
    assert f'Scenario reward · <a href="{battle_url}">battle</a>' in log.content.decode()


@pytest.mark.django_db
def test_a_classic_advance_of_2_or_12_takes_the_any_table_chosen_on_the_page(client, make_gang, make_fighter):
    gang = make_gang()
    ganger = make_fighter(gang, "ganger")
    services.experience_award(fighter=ganger, amount=10, actor=gang.owner, reason="Test")
    client.force_login(gang.owner)
    url = reverse("gangs:fighter-advance", args=[gang.pk, ganger.pk])
    response = client.post(url, {"dice": "6 6 1", "skill_table": "Combat", "any_table": "Techno"})
    assert response.status_code == 302
    assert ganger.advancements.get().description == "Armourer (Techno)"  # the page's choice, not the Combat table


@pytest.mark.django_db
def test_an_n18_ganger_rolls_on_the_gangers_table_from_the_fighter_page(client, make_gang, make_fighter):
    gang = make_gang(edition="n18")
    bruiser = make_fighter(gang, "ganger", name="Krag")
    services.experience_award(fighter=bruiser, amount=6, actor=gang.owner, reason="Test")
    client.force_login(gang.owner)
    page = client.get(reverse("gangs:fighter-detail", args=[gang.pk, bruiser.pk])).content.decode()
    assert "Roll on the Gangers' table (6 XP)" in page and 'name="prefer"' in page
    url = reverse("gangs:fighter-advance", args=[gang.pk, bruiser.pk])
    response = client.post(url, {"dice": "1 2", "prefer": ["BS"], "random_table": "Brawn"})
    assert response.status_code == 302
    assert bruiser.advancements.get().description == "+1 BS"
    response = client.post(url, {"dice": "1 2", "random_table": "Brawn"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200 and "costs 6 XP" in response.content.decode()


@pytest.mark.django_db
def test_the_n18_spend_experience_choices_list_only_what_the_fighter_can_afford(client, make_gang, make_fighter):
    gang = make_gang(edition="n18")
    champion = make_fighter(gang, "champion", name="Vorn")
    client.force_login(gang.owner)
    url = reverse("gangs:fighter-detail", args=[gang.pk, champion.pk])
    page = client.get(url).content.decode()
    assert "+1 M — 5 XP" not in page and 'name="advance"' not in page
    assert "the cheapest advancement costs 3 XP" in page
    services.experience_award(fighter=champion, amount=5, actor=gang.owner, reason="Test")
    page = client.get(url).content.decode()
    assert "+1 M — 5 XP" in page and "+1 WS — 6 XP" not in page
    assert "the cheapest other costs 6 XP" in page
    response = client.post(reverse("gangs:fighter-advance", args=[gang.pk, champion.pk]), {"advance": "stat:WS"})
    assert response.status_code == 200 and not champion.advancements.exists()


@pytest.mark.django_db
def test_the_print_roster_says_so_when_a_fighter_carries_no_weapons(client, make_gang, make_fighter):
    gang = make_gang()
    unarmed = make_fighter(gang, "ganger", name="Empty Hands")
    assert not unarmed.purchases.exists()
    client.force_login(gang.owner)
    page = client.get(reverse("gangs:gang-print", args=[gang.pk])).content.decode()
    assert page.count("<strong>Weapons:</strong> —") == 1
    cards = client.get(reverse("gangs:gang-print", args=[gang.pk]) + "?cards=1").content.decode()
    assert cards.count("<strong>Weapons:</strong> —") == 1 and cards.count('class="fcard') == 1


@pytest.mark.django_db
def test_my_gangs_shows_rating_credits_and_fighters_in_a_fixed_number_of_queries(
    client, make_user, make_gang, make_fighter, django_assert_num_queries
):
    owner = make_user()
    counts = []
    for size in (1, 4):
        gang = make_gang(owner=owner, name=f"Gang of {size}")
        fighters = [make_fighter(gang, "leader" if n == 0 else "ganger") for n in range(size)]
        lasgun = Equipment.objects.get(edition="classic", slug="lasgun")
        services.purchase_buy(gang=gang, equipment=lasgun, fighter=fighters[-1], actor=owner)
        client.force_login(owner)
        with CaptureQueriesContext(connection) as queries:
            page = client.get(reverse("gangs:gang-list")).content.decode()
        counts.append(len(queries))
    assert counts[0] == counts[1]
    from gangs.selectors import gang_queryset, lazy_roster

    for gang in owner.gangs.all():
        roster = lazy_roster(gang_queryset().get(pk=gang.pk))
        assert f"<dt>Rating</dt><dd>{roster.rating}</dd>" in page
        assert f"<dt>Credits</dt><dd>{gang.stash}</dd>" in page
        assert f"<dt>Fighters</dt><dd>{len(roster.active_fighters)}</dd>" in page


@pytest.mark.django_db
def test_dead_and_retired_fighters_come_after_the_active_ones(client, gang_with_kit):
    gang = gang_with_kit
    kal = gang.fighters.get(name="Kal")
    services.fighter_retire(fighter=kal, actor=gang.owner)
    client.force_login(gang.owner)
    page = client.get(reverse("gangs:gang-detail", args=[gang.pk])).content.decode()
    assert page.index(">Vex<") < page.index("Dead and retired") < page.index(">Kal<")
    assert page.index(">Vex<") < page.index("Hire a fighter")  # the fighters come first


@pytest.mark.django_db
def test_the_equipment_picker_is_grouped_by_category_with_a_filter_box(client, gang_with_kit):
    gang = gang_with_kit
    vex = gang.fighters.get(name="Vex")
    client.force_login(gang.owner)
    for url in (reverse("gangs:fighter-detail", args=[gang.pk, vex.pk]), reverse("gangs:stash-buy", args=[gang.pk])):
        page = client.get(url).content.decode()
        assert '<optgroup label="Basic weapon">' in page and '<optgroup label="Armour">' in page
        assert 'class="select-filter" data-filters="id_equipment"' in page and "js/filter-select.js" in page


@pytest.mark.django_db
def test_skills_and_rules_carry_their_one_line_summaries(client, gang_with_kit):
    from content.models import Rule, Skill
    from gangs.models import FighterSkill

    gang = gang_with_kit
    vex = gang.fighters.get(name="Vex")
    skill = Skill.objects.filter(edition="classic").first()
    Skill.objects.filter(pk=skill.pk).update(summary="Our own words for the skill.")
    FighterSkill.objects.create(fighter=vex, skill=skill)
    Rule.objects.create(edition="classic", slug="x", name="Knock-back", kind="weapon", summary="Shoves the target.")
    Equipment.objects.filter(edition="classic", slug="lasgun").update(special_rules=["Knock-back"])
    client.force_login(gang.owner)
    card = client.get(reverse("gangs:gang-detail", args=[gang.pk])).content.decode()
    assert (
        '<abbr title="Our own words for the skill.">' in card and '<abbr title="Shoves the target.">Knock-back' in card
    )
    assert "What these rules do" in card
    fighter = client.get(reverse("gangs:fighter-detail", args=[gang.pk, vex.pk])).content.decode()
    assert "Our own words for the skill." in fighter and "<dt>Knock-back</dt><dd>Shoves the target.</dd>" in fighter
    printed = client.get(reverse("gangs:gang-print", args=[gang.pk]) + "?cards=1").content.decode()
    assert f"<b>{skill.name}</b>: Our own words for the skill." in printed
    assert "<dt>Knock-back</dt><dd>Shoves the target.</dd>" in printed  # the rules reference after the cards


@pytest.mark.django_db
def test_the_roster_sheet_has_territories_stash_and_experience(client, gang_with_kit):
    gang = gang_with_kit
    lasgun = Equipment.objects.get(edition="classic", slug="lasgun")
    services.purchase_buy(gang=gang, equipment=lasgun, actor=gang.owner)
    client.force_login(gang.owner)
    page = client.get(reverse("gangs:gang-print", args=[gang.pk]) + "?size=letter").content.decode()
    assert "<h2>Territories</h2>" in page and "None held." in page
    assert "and: Lasgun" in page and "Reputation <strong>" in page
    assert page.count('<p class="xp"><strong>') == 2
    assert "gangs/paper-letter.css" in page and "gangs/paper-a4.css" not in page


@pytest.mark.django_db
def test_blank_cards_fill_a_sheet(client, gang_with_kit):
    client.force_login(gang_with_kit.owner)
    page = client.get(reverse("gangs:gang-print", args=[gang_with_kit.pk]) + "?cards=blank").content.decode()
    assert page.count('class="fcard blank"') == 9
    assert page.count('<span class="box"></span>') == 9 * 20


@pytest.mark.django_db
@pytest.mark.parametrize("page", ["gangs:gang-detail", "gangs:gang-print"])
def test_gang_pages_carry_no_inline_script(client, gang_with_kit, page):
    """A Content Security Policy without 'unsafe-inline' must not break them: scripts are files."""
    client.force_login(gang_with_kit.owner)
    body = client.get(reverse(page, args=[gang_with_kit.pk])).content.decode()
    assert "onclick=" not in body and "<style>" not in body
    assert all('src="' in tag for tag in body.split("<script")[1:])


@pytest.mark.django_db
def test_a_changed_rule_summary_shows_on_the_next_render(client, gang_with_kit):
    """Summaries are cached under the content's version, which every content change moves (content.versioning)."""
    from content.models import Rule

    gang = gang_with_kit
    Equipment.objects.filter(edition="classic", slug="lasgun").update(special_rules=["Knock-back"])
    rule = Rule.objects.create(edition="classic", slug="kb", name="Knock-back", kind="weapon", summary="Old words.")
    client.force_login(gang.owner)
    vex = gang.fighters.get(name="Vex")
    pages = [reverse("gangs:gang-detail", args=[gang.pk]), reverse("gangs:fighter-detail", args=[gang.pk, vex.pk])]
    assert all("Old words." in client.get(url).content.decode() for url in pages)
    rule.summary = "New words."
    rule.save()
    assert all("New words." in client.get(url).content.decode() for url in pages)


@pytest.mark.django_db
@pytest.mark.parametrize("name", ["purchase-sell", "purchase-discard"])
def test_an_item_sold_by_another_request_a_moment_ago_is_refused_in_words(client, gang_with_kit, monkeypatch, name):
    """The view found the item, then the request racing it sold it: the service's lock refuses, the page says so."""
    from gangs import views

    gang = gang_with_kit
    carried = Purchase.objects.select_related("equipment", "fighter", "gang").get(gang=gang)
    monkeypatch.setattr(views, "_purchase", lambda request, pk, purchase_pk: carried)
    Purchase.objects.filter(pk=carried.pk).delete()
    client.force_login(gang.owner)
    response = client.post(reverse(f"gangs:{name}", args=[gang.pk, carried.pk]), follow=True)
    assert response.status_code == 200
    assert "Lasgun is no longer in" in response.content.decode()
    assert not gang.ledger.filter(kind=LedgerKind.SALE).exists()


@pytest.mark.django_db
def test_moving_an_item_to_another_fighter_through_the_page(client, gang_with_kit):
    """Issue 26 #7: the move list's fighters carry their type, so handing an item to one is not a 500."""
    purchase = Purchase.objects.get(gang=gang_with_kit)
    kal = gang_with_kit.fighters.get(name="Kal")
    client.force_login(gang_with_kit.owner)
    url = reverse("gangs:purchase-move", args=[gang_with_kit.pk, purchase.pk])
    response = client.post(url, {"to": str(kal.pk)})
    assert response.status_code == 302
    purchase.refresh_from_db()
    assert purchase.fighter == kal
    assert gang_with_kit.ledger.filter(description__contains="to Kal").exists()
