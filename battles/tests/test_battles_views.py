"""The battle pages: who may act and who may only watch, each changing view's answers, and query budgets."""

import re

import pytest
from django.test import Client
from django.urls import reverse

from battles.models import BattleStatus, Condition
from battles.selectors import action_plan
from battles.views import _seen


def url(name, battle, *args):
    return reverse(f"battles:{name}", args=[battle.pk, *args])


def finished(battle):
    """End a battle in the database, so its gangs' fighters may start another (one open battle at a time)."""
    type(battle).objects.filter(pk=battle.pk).update(status=BattleStatus.ENDED)


def b_leader(battle):
    return battle.fighters.get(side="defender", order=0)


def a_leader(battle):
    return battle.fighters.get(side="attacker", order=0)


def seen(battle, kind, params):
    """The fingerprint the odds page hands over, for a test that rolls straight away."""
    return _seen(action_plan(session=battle, kind=kind, params=params))


def shoot_post(battle):
    shooter, target = a_leader(battle), b_leader(battle)
    pistol = next(w for w in shooter.profile["weapons"] if w["category"] == "pistol")
    params = {"fighter": shooter, "target": target, "weapon": f"{pistol['key']}:0", "distance": 6, "cover": "none"}
    return {
        "shooter": f"{shooter.pk}:{pistol['key']}:0",
        "target": target.pk,
        "distance": 6,
        "cover": "none",
        "op": "roll",
        "dice": "3 6 6",
        "seen": seen(battle, "shoot", {**params, "modifiers": [], "modifier": 0, "in_combat_with": 0}),
    }


# name, method, extra url args, post data (a function of the battle)
CHANGES = [
    ("battle-act", "post", ("shoot",), shoot_post),
    ("fighter-set", "post", "fighter", lambda b: {"field": "broken", "value": "1"}),
    ("battle-advance", "post", (), lambda b: {}),
    ("battle-priority", "post", (), lambda b: {"side": "defender"}),
    ("gang-flee", "post", (), lambda b: {"side": "defender"}),
    ("battle-reinforce", "post", (), lambda b: {"side": "attacker", "count": 1}),
    ("action-undo", "post", (), lambda b: {}),
    ("battle-end", "post", (), lambda b: {"winner": "attacker"}),
]


def change_url(battle, name, args):
    if args == "fighter":
        return url(name, battle, b_leader(battle).pk)
    return url(name, battle, *args)


@pytest.fixture
def battle(make_battle):
    return make_battle("classic", fighters=2)


@pytest.mark.django_db
@pytest.mark.parametrize(("name", "method", "args", "data"), CHANGES)
def test_anonymous_is_sent_to_log_in(client, battle, name, method, args, data):
    response = client.post(change_url(battle, name, args), data(battle))
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


@pytest.mark.django_db
@pytest.mark.parametrize(("name", "method", "args", "data"), CHANGES)
def test_a_watcher_may_not_act(client, make_user, battle, name, method, args, data):
    client.force_login(make_user())
    before = battle.version
    assert client.post(change_url(battle, name, args), data(battle)).status_code == 403
    battle.refresh_from_db()
    assert battle.version == before and battle.status == BattleStatus.IN_PROGRESS


@pytest.mark.django_db
@pytest.mark.parametrize(("name", "method", "args", "data"), CHANGES)
@pytest.mark.parametrize("who", ["player_a", "player_b"])
def test_each_player_acts(client, battle, name, method, args, data, who):
    client.force_login(getattr(battle, who))
    if name == "action-undo":
        client.post(url("battle-advance", battle))
    response = client.post(change_url(battle, name, args), data(battle))
    assert response.status_code == 302, response.content.decode()[:2000]
    battle.refresh_from_db()
    assert battle.version >= 1


@pytest.mark.django_db
@pytest.mark.parametrize(("name", "method", "args", "data"), CHANGES)
def test_an_arbitrator_acts_in_a_campaign_battle(client, make_user, battle, name, method, args, data):
    from campaigns.models import Battle, Campaign, CampaignArbitrator

    arbitrator = make_user()
    campaign = Campaign.objects.create(edition="classic", name="C", created_by=arbitrator)
    CampaignArbitrator.objects.create(campaign=campaign, user=arbitrator)
    battle.campaign_battle = Battle.objects.create(
        campaign=campaign, origin="arranged", attacker=battle.gang_a, defender=battle.gang_b, scenario="gang-fight"
    )
    battle.save()
    client.force_login(arbitrator)
    if name == "action-undo":
        client.post(url("battle-advance", battle))
    assert client.post(change_url(battle, name, args), data(battle)).status_code == 302


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("name", "method", "args", "data"),
    [c for c in CHANGES if c[0] in ("fighter-set", "battle-advance", "battle-priority", "gang-flee", "action-undo")],
)
def test_wrong_method(client, battle, name, method, args, data):
    client.force_login(battle.player_a)
    assert client.get(change_url(battle, name, args)).status_code == 405


@pytest.mark.django_db
def test_unknown_battle_is_404(client, make_user):
    client.force_login(make_user())
    assert client.get(reverse("battles:battle-detail", args=[999999])).status_code == 404
    assert client.post(reverse("battles:battle-advance", args=[999999])).status_code == 404


@pytest.mark.django_db
def test_shoot_shows_odds_then_rolls_the_entered_dice(client, battle):
    client.force_login(battle.player_a)
    data = shoot_post(battle)
    response = client.post(url("battle-act", battle, "shoot"), {**data, "op": "odds"})
    assert response.status_code == 200
    page = response.content.decode()
    assert "The odds" in page and "Out of action" in page
    response = client.post(url("battle-act", battle, "shoot"), data)
    assert response.status_code == 302
    target = b_leader(battle)
    assert target.condition == Condition.OUT_OF_ACTION


@pytest.mark.django_db
def test_a_roll_whose_odds_were_not_seen_shows_them_first(client, battle):
    client.force_login(battle.player_a)
    data = {**shoot_post(battle), "distance": 12}  # not the situation whose odds were seen
    response = client.post(url("battle-act", battle, "shoot"), data)
    assert response.status_code == 200 and "The odds" in response.content.decode()
    assert not battle.actions.exists()


@pytest.mark.django_db
def test_invalid_action_form_rerenders_with_errors(client, battle):
    client.force_login(battle.player_a)
    data = {**shoot_post(battle), "distance": "", "dice": "seven"}
    response = client.post(url("battle-act", battle, "shoot"), data, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    assert "errorlist" in response.content.decode()
    assert not battle.actions.exists()


@pytest.mark.django_db
def test_wrong_dice_are_refused_with_the_reason(client, battle):
    client.force_login(battle.player_a)
    response = client.post(url("battle-act", battle, "shoot"), {**shoot_post(battle), "dice": "3"})
    assert response.status_code == 200
    assert "ran out of dice" in response.content.decode()


@pytest.mark.django_db
def test_htmx_success_redirects_the_client(client, battle):
    client.force_login(battle.player_a)
    response = client.post(url("battle-advance", battle), HTTP_HX_REQUEST="true")
    assert response.status_code == 200 and response["HX-Redirect"] == url("battle-detail", battle)


@pytest.mark.django_db
def test_watcher_sees_the_follow_view_without_buttons(client, make_user, battle):
    client.force_login(make_user())
    page = client.get(url("battle-detail", battle)).content.decode()
    assert "read-only" in page and "Next phase" not in page and 'hx-trigger="every 3s"' in page
    page = client.get(url("battle-follow", battle)).content.decode()
    assert 'hx-trigger="every 3s"' in page and "Set state" not in page


@pytest.mark.django_db
def test_polling_an_unchanged_battle_answers_204(client, make_user, battle):
    client.force_login(make_user())
    follow = url("battle-follow", battle)
    assert client.get(follow, {"v": battle.version}, HTTP_HX_REQUEST="true").status_code == 204
    response = client.get(follow, {"v": battle.version - 1}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200 and 'id="battle-state"' in response.content.decode()


@pytest.mark.django_db
def test_test_menu_and_prompted_test(client, battle):
    client.force_login(battle.player_a)
    page = client.get(url("battle-act", battle, "test")).content.decode()
    assert "Bottle test" in page and "Escaping pinning" in page
    page = client.get(url("battle-act", battle, "test") + "?test=bottle&side=defender").content.decode()
    assert 'name="side"' in page and 'name="fighter"' not in page


@pytest.mark.django_db
def test_report_links_to_both_gangs_and_to_its_campaign_battle(client, battle):
    from campaigns.models import Battle, Campaign

    campaign = Campaign.objects.create(edition="classic", name="Links", created_by=battle.player_a)
    battle.campaign_battle = Battle.objects.create(
        campaign=campaign, origin="arranged", attacker=battle.gang_a, defender=battle.gang_b
    )
    battle.save(update_fields=["campaign_battle"])
    client.force_login(battle.player_b)
    client.post(url("battle-end", battle), {"winner": "defender"})
    page = client.get(url("battle-report", battle)).content.decode()
    for gang in (battle.gang_a, battle.gang_b):
        assert f'href="{reverse("gangs:gang-detail", args=[gang.pk])}"' in page
    campaign_battle = reverse("campaigns:battle-detail", args=[campaign.pk, battle.campaign_battle_id])
    assert f'href="{campaign_battle}"' in page


@pytest.mark.django_db
def test_start_page_names_the_edition_of_my_gangs_too(client, battle):
    client.force_login(battle.player_a)
    page = client.get(reverse("battles:battle-start")).content.decode()
    assert f">{battle.gang_a.name} (Classic (1995))</option>" in page


@pytest.mark.django_db
def test_shoot_form_says_why_no_shooter_is_offered(client, battle):
    battle.fighters.update(condition=Condition.OUT_OF_ACTION)
    client.force_login(battle.player_a)
    page = client.get(url("battle-act", battle, "shoot")).content.decode()
    assert "no fighter in play has a weapon that shoots" in page


@pytest.mark.django_db
def test_end_battle_then_report(client, battle):
    client.force_login(battle.player_b)
    assert client.get(url("battle-end", battle)).status_code == 200
    response = client.post(url("battle-end", battle), {"winner": "defender", "notes": "Close one"})
    assert response["Location"] == url("battle-report", battle)
    page = client.get(url("battle-report", battle)).content.decode()
    # Gang names are plural more often than not ("The Rust Rats"): the past tense reads right for both.
    assert f"{battle.gang_b.name} won after 1 round" in page and "Close one" in page
    assert client.post(url("battle-advance", battle)).status_code == 302
    battle.refresh_from_db()
    assert battle.round == 1 and battle.status == BattleStatus.ENDED


@pytest.mark.django_db
def test_start_a_friendly_battle(client, make_battle):
    old = make_battle("n18", fighters=2)
    finished(old)  # its fighters are free for a new battle (one open battle at a time)
    user = old.player_a
    client.force_login(user)
    data = {"gang_a": old.gang_a.pk, "gang_b": old.gang_b.pk, "scenario": "", "role_a": "", "step": "crew"}
    page = client.post(reverse("battles:battle-start"), data).content.decode()
    assert "Start the battle" in page
    fighter = old.gang_a.fighters.first()
    response = client.post(reverse("battles:battle-start"), {**data, "step": "start", "crew_a": [fighter.pk]})
    assert response.status_code == 302
    new = user.battle_sessions_as_a.exclude(pk=old.pk).get()
    assert new.fighters.filter(side="attacker").count() == 1 and new.fighters.filter(side="defender").count() == 2


@pytest.mark.django_db
def test_start_with_a_scenario_rolls_the_crews(client, make_battle):
    old = make_battle("n18", fighters=4)
    finished(old)
    client.force_login(old.player_a)
    data = {"gang_a": old.gang_a.pk, "gang_b": old.gang_b.pk, "scenario": "search-and-destroy", "role_a": "defender"}
    response = client.post(reverse("battles:battle-start"), {**data, "step": "start"})
    assert response.status_code == 302
    new = old.player_a.battle_sessions_as_a.exclude(pk=old.pk).get()
    defender = new.crews["attacker"]
    assert defender["method"] == "random" and defender["dice"]  # Random (D3+3): rolled and shown
    assert new.starting_crew_a == len(defender["fighters"]) == min(4, defender["random_count"])


def _grow(battle, more):
    """Add ``more`` fighters a side to a battle (copies of its first fighter)."""
    from battles.models import BattleFighter

    rows = []
    for f in battle.fighters.all():
        for i in range(more):
            f.pk, f.order = None, 10 + i
            rows.append(BattleFighter(**{k: v for k, v in f.__dict__.items() if not k.startswith("_")}))
        if rows:
            break
    BattleFighter.objects.bulk_create(rows)


@pytest.mark.django_db
@pytest.mark.parametrize("view", ["battle-detail", "battle-follow"])
def test_battle_page_query_budget_is_flat_in_the_number_of_fighters(client, battle, django_assert_num_queries, view):
    """Drawn afresh (the cache emptied: what the first viewer of each state of the battle pays)."""
    from django.core.cache import cache

    client.force_login(battle.player_a)
    client.post(url("battle-act", battle, "shoot"), shoot_post(battle))
    counts = []
    for grow in (0, 20):
        _grow(battle, grow)
        from django.db import connection
        from django.test.utils import CaptureQueriesContext

        cache.clear()
        with CaptureQueriesContext(connection) as queries:
            assert client.get(url(view, battle)).status_code == 200
        counts.append(len(queries))
    assert counts[0] == counts[1]
    cache.clear()
    with django_assert_num_queries(counts[0]):
        client.get(url(view, battle))


def _warm_count(client, target) -> int:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    client.get(target)
    with CaptureQueriesContext(connection) as queries:
        assert client.get(target).status_code == 200
    return len(queries)


@pytest.mark.django_db
def test_a_warm_battle_page_is_three_queries_however_many_fighters_and_actions(client, cache_backend, make_battle):
    """The session, the user and the battle: the fighters, the log and the prompts come from the cache, for a
    battle of 2 fighters a side with one action as for 8 a side with a dozen."""
    counts = []
    for fighters, actions in ((2, 1), (8, 12)):
        battle = make_battle("n18", fighters=fighters)
        client.force_login(battle.player_a)
        for _ in range(actions):
            client.post(url("fighter-set", battle, a_leader(battle).pk), {"field": "prone", "value": "1"})
            client.post(url("action-undo", battle))
        assert battle.actions.count() >= actions
        counts.append(_warm_count(client, url("battle-detail", battle)))
        finished(battle)
    assert counts == [3, 3], counts


@pytest.mark.django_db
def test_a_warm_battle_page_reads_its_two_fragments_and_not_what_they_are_drawn_from(client, cache_backend, battle):
    """What the fragments are drawn from (kept for the htmx answers, battles.fragments) is read from the cache only
    when a fragment is drawn: a warm page reads the two fragments and nothing else there."""
    from django.core.cache import caches

    client.force_login(battle.player_a)
    target = url("battle-detail", battle)
    client.get(target)
    backend, read = caches["default"], []
    get = backend.get
    backend.get = lambda key, *args, **kwargs: read.append(key) or get(key, *args, **kwargs)
    try:
        assert client.get(target).status_code == 200
    finally:
        del backend.get
    assert [key.split(".")[:2] for key in read] == [["template", "cache"]] * 2, read


@pytest.mark.django_db
def test_each_action_shows_at_once_and_a_watcher_never_gets_the_players_controls(
    client, cache_backend, battle, make_user
):
    """An action and its undo each show on the next render of the cached page; a watcher, served the same state,
    gets no buttons."""
    client.force_login(battle.player_a)
    target = url("battle-detail", battle)
    client.get(target)
    badges = client.get(target).content.decode().count('data-testid="state"')
    client.post(url("fighter-set", battle, a_leader(battle).pk), {"field": "broken", "value": "1"})
    after = client.get(target).content.decode()
    assert a_leader(battle).broken and after.count('data-testid="state"') == badges + 1
    client.post(url("action-undo", battle))
    assert client.get(target).content.decode().count('data-testid="state"') == badges
    client.force_login(make_user())
    watcher = client.get(target).content.decode()
    undo = f'action="{url("action-undo", battle)}"'
    assert undo in after and undo not in watcher and "Set state" not in watcher


def _card(page: str, fighter_pk: int) -> str:
    return page.split(f'data-testid="fighter-{fighter_pk}"')[1].split("</article>")[0]


def _set_state_form(page: str, fighter_pk: int, battle) -> str:
    """The last "Set state" form of ``fighter_pk``'s card in ``page``."""
    return _card(page, fighter_pk).split(f'action="{url("fighter-set", battle, fighter_pk)}"')[-1].split("</form>")[0]


def _hidden(form: str, name: str) -> str:
    return re.search(rf'name="{name}" value="([^"]*)"', form).group(1)


@pytest.mark.django_db
def test_each_viewer_gets_fresh_tokens_and_their_own_controls_after_a_change(cache_backend, battle, make_user):
    """The page's fragments are cached per state and kind of viewer (may act or not) with each request's CSRF
    token and a fresh one-time token in every form (core.fragments): a player's change through a form drawn from
    the cache goes through once, and shows to both players and a watcher, who still gets no controls."""
    viewers = {"player a": battle.player_a, "player b": battle.player_b, "watcher": make_user()}
    clients = {name: Client(enforce_csrf_checks=True) for name in viewers}
    target = url("battle-detail", battle)
    leader = b_leader(battle)
    badges = {}
    for name, user in viewers.items():
        clients[name].force_login(user)
        badges[name] = _card(clients[name].get(target).content.decode(), leader.pk).count('data-testid="state"')
    first, again = (clients["player b"].get(target).content.decode() for _ in range(2))
    onces = re.findall(r'name="once" value="([^"]*)"', first)
    assert onces and all(re.fullmatch(r"[0-9a-f]{32}", once) for once in onces)
    assert len(set(onces)) == len(onces) and not set(onces) & set(re.findall(r'name="once" value="([^"]*)"', again))
    form = _set_state_form(first, leader.pk, battle)
    data = {name: _hidden(form, name) for name in ("csrfmiddlewaretoken", "once", "field", "value")}
    assert clients["player b"].post(url("fighter-set", battle, leader.pk), data).status_code == 302
    assert clients["player b"].post(url("fighter-set", battle, leader.pk), data).status_code == 302  # a second tap
    assert battle.actions.count() == 1
    undo = f'action="{url("action-undo", battle)}"'
    for name, client in clients.items():
        page = client.get(target).content.decode()
        assert "placeholder" not in page, name
        assert _card(page, leader.pk).count('data-testid="state"') == badges[name] + 1, name  # for everyone
        assert (undo in page) == (name != "watcher") and ("Set state" in page) == (name != "watcher"), name
    assert clients["player a"].post(url("action-undo", battle), {"csrfmiddlewaretoken": "x" * 64}).status_code == 403


@pytest.mark.django_db
def test_a_watcher_cannot_open_an_action_form(client, make_user, battle):
    client.force_login(make_user())
    assert client.get(url("battle-act", battle, "shoot")).status_code == 403


@pytest.mark.django_db
def test_scenario_menu_and_a_relic_defiled_without_dice(client, make_battle):
    battle = make_battle("n18", fighters=2, scenario="border-dispute")
    client.force_login(battle.player_a)
    page = client.get(url("battle-act", battle, "scenario")).content.decode()
    assert "Defile the enemy relic" in page and "Open a loot casket" in page and "weapon cache" not in page
    fighter = battle.fighters.get(side="attacker", order=0)
    form = url("battle-act", battle, "scenario") + "?action=defile-relic"
    page = client.get(form).content.decode()
    assert 'name="dice"' not in page and "Do it" in page
    response = client.post(form, {"action": "defile-relic", "fighter": fighter.pk, "op": "roll"})
    assert response.status_code == 302
    battle.refresh_from_db()
    assert battle.facts["relics_defiled"]["defender"]["name"] == fighter.name


@pytest.mark.django_db
def test_priority_buttons_in_the_priority_phase(client, make_battle):
    battle = make_battle("n18", fighters=2)
    client.force_login(battle.player_b)
    page = client.get(url("battle-detail", battle)).content.decode()
    assert f"{battle.gang_b.name} has Priority" in page
    client.post(url("battle-priority", battle), {"side": "defender"})
    battle.refresh_from_db()
    assert battle.turn_side == "defender"


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["test/?test=bogus", "scenario/?action=loot-casket", "nonsense/"])
def test_unknown_actions_are_404(client, battle, path):
    client.force_login(battle.player_a)
    assert client.get(url("battle-detail", battle) + "act/" + path).status_code == 404


@pytest.mark.django_db
@pytest.mark.parametrize("name", ["battle-act", "battle-end", "battle-start-campaign"])
def test_wrong_method_on_form_views(client, battle, name):
    client.force_login(battle.player_a)
    target = {
        "battle-act": url("battle-act", battle, "shoot"),
        "battle-end": url("battle-end", battle),
        "battle-start-campaign": reverse("battles:battle-start-campaign", args=[1]),
    }[name]
    assert client.delete(target).status_code == 405


@pytest.mark.django_db
def test_start_from_a_campaign_battle_page(client, make_user, make_gang, battle):
    from campaigns.models import Battle, Campaign, CampaignGang

    campaign = Campaign.objects.create(edition="classic", name="C", created_by=battle.player_a)
    finished(battle)
    paired = Battle.objects.create(
        campaign=campaign, origin="arranged", attacker=battle.gang_a, defender=battle.gang_b, scenario="gang-fight"
    )
    start = reverse("battles:battle-start-campaign", args=[paired.pk])
    stranger = make_user()
    client.force_login(stranger)
    # Issue 26 #14: a stranger to the campaign gets the README's 404; one who sees it but is not in this battle, 403.
    assert client.post(start).status_code == 404
    assert client.get(start).status_code == 404
    other = CampaignGang.objects.create(campaign=campaign, gang=make_gang(owner=stranger, edition="classic"))
    assert client.post(start).status_code == 403
    other.delete()
    client.force_login(battle.player_b)
    assert client.get(start).status_code == 200
    response = client.post(start)
    assert response.status_code == 302
    session = paired.sessions.get()
    assert session.gang_a_id == battle.gang_a_id
    page = client.get(response["Location"]).content.decode()
    assert reverse("campaigns:battle-detail", args=[campaign.pk, paired.pk]) in page


@pytest.mark.django_db
def test_n18_fight_offers_reaction_attacks_and_shows_their_odds(client, make_battle):
    battle = make_battle("n18", fighters=2)
    client.force_login(battle.player_a)
    page = client.get(url("battle-act", battle, "fight")).content.decode()
    assert 'name="reaction"' in page and "checked" in page
    attacker, target = a_leader(battle), b_leader(battle)
    data = {"attacker": f"{attacker.pk}::", "target": target.pk, "reaction": "on", "op": "odds"}
    page = client.post(url("battle-act", battle, "fight"), data).content.decode()
    assert "Opponent strikes back" in page and "The attacker, after Reaction attacks" in page


@pytest.mark.django_db
@pytest.mark.parametrize("view", ["battle-detail", "battle-follow"])
def test_the_battle_page_links_each_gang_to_its_gang_page(client, battle, view):
    client.force_login(battle.player_a)
    body = client.get(url(view, battle)).content.decode()
    for gang in (battle.gang_a, battle.gang_b):
        link = f'<a href="{reverse("gangs:gang-detail", args=[gang.pk])}">{gang.name}</a>'
        assert body.count(link) == 2  # the heading and the gang's own section


def _repeat_actions(battle, more):
    """Add ``more`` copies of the battle's first action to the current phase (what a long Shooting phase holds)."""
    from battles.models import BattleAction

    first = battle.actions.order_by("pk").first()
    last = battle.actions.order_by("number").last().number
    rows = []
    for n in range(more):
        copy = {k: v for k, v in first.__dict__.items() if not k.startswith("_") and k != "id"}
        rows.append(BattleAction(**{**copy, "number": last + 1 + n}))
    BattleAction.objects.bulk_create(rows)


@pytest.mark.django_db
@pytest.mark.parametrize("view", ["battle-detail", "battle-follow"])
def test_battle_page_query_budget_is_flat_in_the_actions_of_the_phase(client, battle, view):
    """2 actions in the phase against 20: the same queries (the prompts read every action of the phase), drawn
    afresh (the cache emptied)."""
    from django.core.cache import cache
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    client.force_login(battle.player_a)
    client.post(url("battle-act", battle, "shoot"), shoot_post(battle))
    counts = []
    for more in (1, 18):
        _repeat_actions(battle, more)
        cache.clear()
        with CaptureQueriesContext(connection) as queries:
            assert client.get(url(view, battle)).status_code == 200
        counts.append(len(queries))
    assert battle.actions.filter(undone=False, round=battle.round, phase=battle.phase).count() == 20
    assert counts[0] == counts[1], counts


@pytest.mark.django_db
def test_next_phase_waits_for_what_the_rules_require_and_moves_on_only_when_told(client, make_battle):
    """The End phase's Recovery test left open: Next phase says so and changes nothing; the page offers to move on
    anyway, and doing so logs what was left untaken. A Nerve test (only if within 3") never holds it."""
    from battles.services import action_resolve

    battle = make_battle("n18", fighters=2)
    shooter, target = a_leader(battle), battle.fighters.get(side="defender", order=1)
    pistol = next(w for w in shooter.profile["weapons"] if w["category"] == "pistol")
    params = {"fighter": shooter, "target": target, "weapon": f"{pistol['key']}:0", "distance": 3}
    action_resolve(session=battle, kind="shoot", params=params, actor=battle.player_a, dice=[4, 1, 5, 4])
    client.force_login(battle.player_a)
    page = client.get(url("battle-detail", battle)).content.decode()
    assert "Nerve test" in page and 'data-testid="leave-untaken"' not in page
    for phase in ("action", "end"):
        client.post(url("battle-advance", battle))
        battle.refresh_from_db()
        assert battle.phase == phase
    page = client.get(url("battle-detail", battle)).content.decode()
    assert "Recovery test" in page and 'data-testid="leave-untaken"' in page
    response = client.post(url("battle-advance", battle), follow=True)
    assert "The End phase still requires" in response.content.decode()
    battle.refresh_from_db()
    assert battle.phase == "end"
    client.post(url("battle-advance", battle), {"leave_untaken": "1"})
    battle.refresh_from_db()
    assert (battle.phase, battle.round) == ("priority", 2)
    assert "Left untaken" in " ".join(battle.actions.filter(undone=False).latest("pk").changes)
