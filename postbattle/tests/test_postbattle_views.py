"""Post-battle pages: the sequence page and history, and every changing view for each kind of visitor."""

import pytest
from django.urls import reverse

from campaigns.selectors import rosters_at_confirmation
from postbattle import services
from postbattle.models import SequenceState
from rulebook.dice import ScriptedDice

pytestmark = pytest.mark.django_db

OOA, SI = "out_of_action", "seriously_injured"


@pytest.fixture
def battle(make_confirmed_battle):
    return make_confirmed_battle(edition="n18", results=[("attacker", 0, OOA, 2, {}), ("attacker", 1, SI, 3, {})])


def url(name, battle, *extra):
    return reverse(f"postbattle:{name}", args=[battle.pk, battle.attacker.pk, *extra])


def finished(battle):
    gang = battle.attacker
    leader, champion = list(gang.fighters.order_by("pk"))[2:]
    sequence = services.sequence_start(battle=battle, gang=gang, actor=gang.owner)
    choices = {f"action_{leader.pk}": "Trade", f"action_{champion.pk}": "Trade"}
    for dice, picked in [([4], {}), ([3, 1], {}), ([1, 1, 1], {}), ([1], {"recruit": False}), ([], choices), ([], {})]:
        sequence = services.sequence_step_submit(
            sequence=sequence, dice=ScriptedDice(dice), entered=True, choices=picked
        )
    return sequence


def applied(battle):
    sequence = finished(battle)
    services.sequence_apply(sequence=sequence, actor=battle.attacker.owner)
    return sequence


def visitor(kind, battle, make_user):
    return {
        "anonymous": None,
        "stranger": make_user(),
        "player": battle.defender.owner,
        "owner": battle.attacker.owner,
        "arbitrator": battle.campaign.created_by,
    }[kind]


# (view, url args, prepare, POST data, expected status per visitor)
CHANGES = [
    ("sequence-start", (), None, {}, {"owner": 302, "arbitrator": 302}),
    ("sequence-step", (), services.sequence_start, {"mode": "enter", "dice": "4"}, {"owner": 302, "arbitrator": 302}),
    ("sequence-back", (0,), "one-step", {}, {"owner": 302, "arbitrator": 302}),
    ("sequence-set-aside", (0,), "one-step", {"reason": "misread die"}, {"owner": 403, "arbitrator": 302}),
    ("sequence-apply", (), finished, {}, {"owner": 302, "arbitrator": 302}),
    ("sequence-revert", (), applied, {"reason": "misread die"}, {"owner": 403, "arbitrator": 302}),
    ("sequence-rerun", (), "reverted", {"same_dice": "1"}, {"owner": 302, "arbitrator": 302}),
]


def prepare(how, battle):
    if how is None:
        return
    if how is services.sequence_start:
        services.sequence_start(battle=battle, gang=battle.attacker, actor=None)
    elif how == "one-step":
        sequence = services.sequence_start(battle=battle, gang=battle.attacker, actor=None)
        services.sequence_step_submit(sequence=sequence, dice=ScriptedDice([4]), entered=True)
    elif how == "reverted":
        services.sequence_revert(sequence=applied(battle), actor=battle.campaign.created_by, reason="a die was misread")
    else:
        how(battle)


@pytest.mark.parametrize("kind", ["anonymous", "stranger", "player", "owner", "arbitrator"])
@pytest.mark.parametrize(("name", "args", "how", "data", "allowed"), CHANGES, ids=[c[0] for c in CHANGES])
def test_changing_views_by_visitor(client, make_user, battle, kind, name, args, how, data, allowed):
    prepare(how, battle)
    user = visitor(kind, battle, make_user)
    if user:
        client.force_login(user)
    response = client.post(url(name, battle, *args), data)
    expected = {"anonymous": 302, "stranger": 404, "player": 403, **allowed}[kind]
    assert response.status_code == expected
    if kind == "anonymous":
        assert "/accounts/login/" in response["Location"]


@pytest.mark.parametrize("name", [c[0] for c in CHANGES])
def test_changing_views_refuse_get(client, battle, name):
    client.force_login(battle.attacker.owner)
    args = (0,) if name in ("sequence-back", "sequence-set-aside") else ()
    assert client.get(url(name, battle, *args)).status_code == 405


def test_page_shows_the_step_rule_and_dice_and_htmx_gets_the_panel(client, battle):
    services.sequence_start(battle=battle, gang=battle.attacker, actor=None)
    client.force_login(battle.attacker.owner)
    page = client.get(url("sequence-detail", battle)).content.decode()
    assert "Prone &amp; Seriously Injured" in page and "3+" in page and "Roll this step" in page
    fragment = client.get(url("sequence-detail", battle), headers={"HX-Request": "true"}).content.decode()
    assert fragment.lstrip().startswith("<section") and "<html" not in fragment


def test_player_and_arbitrator_may_look_stranger_may_not(client, make_user, battle):
    for user, status in ((battle.defender.owner, 200), (battle.campaign.created_by, 200), (make_user(), 404)):
        client.force_login(user)
        assert client.get(url("sequence-detail", battle)).status_code == status


def test_htmx_step_with_bad_dice_re_renders_with_errors(client, battle):
    services.sequence_start(battle=battle, gang=battle.attacker, actor=None)
    client.force_login(battle.attacker.owner)
    response = client.post(url("sequence-step", battle), {"mode": "enter", "dice": "9"}, headers={"HX-Request": "true"})
    assert response.status_code == 200 and "not a face" in response.content.decode()
    response = client.post(url("sequence-step", battle), {"mode": "roll"}, headers={"HX-Request": "true"})
    assert response.status_code == 200 and "Lasting Injuries" in response.content.decode()


def test_double_apply_from_two_tabs_applies_once(client, battle):
    sequence = finished(battle)
    client.force_login(battle.attacker.owner)
    assert client.post(url("sequence-apply", battle)).status_code == 302
    second = client.post(url("sequence-apply", battle), headers={"HX-Request": "true"})
    assert second.status_code == 200 and "already been applied" in second.content.decode()
    sequence.refresh_from_db()
    assert sequence.state == SequenceState.APPLIED


def test_history_shows_the_account(client, make_user, battle, django_assert_max_num_queries):
    applied(battle)
    client.force_login(battle.attacker.owner)
    with django_assert_max_num_queries(12):
        page = client.get(reverse("postbattle:gang-history", args=[battle.attacker.pk])).content.decode()
    assert "Lasting Injury" in page and "Home Settlement" in page and "D6" in page


@pytest.mark.parametrize("who", ["opponent", "arbitrator", "stranger"])
def test_history_shows_a_campaign_battle_only_to_those_who_see_the_campaign(client, make_user, battle, who):
    """README "Who sees what": a post-battle sequence is campaign content."""
    applied(battle)
    viewer = {
        "opponent": battle.defender.owner,
        "arbitrator": battle.campaign.arbitrators.first().user,
        "stranger": make_user(),
    }[who]
    client.force_login(viewer)
    response = client.get(reverse("postbattle:gang-history", args=[battle.attacker.pk]))
    assert response.status_code == 200
    assert ("Lasting Injury" in response.content.decode()) is (who != "stranger")


@pytest.mark.parametrize("extra", [0, 8])
def test_sequence_page_queries_do_not_grow_with_the_gang(
    client, battle, make_fighter, extra, django_assert_num_queries
):
    for _ in range(extra):
        make_fighter(battle.attacker, "ganger")
    # As battle_report_confirm keeps them: the sequence reads the rosters as they stood at confirmation.
    battle.roster_at_confirmation = rosters_at_confirmation(battle)
    battle.save(update_fields=["roster_at_confirmation"])
    services.sequence_start(battle=battle, gang=battle.attacker, actor=None)
    client.force_login(battle.attacker.owner)
    client.get(url("sequence-detail", battle))  # warm the session
    # 11 at any gang size: the session, the user, the battle, its campaign, the viewer's gangs, the sequence, the
    # results, the territories, the house rules in force, the chems taken before the battle (their after-effects)
    # and the doses the gang holds (Stinger Mould on a Lasting Injury roll).
    with django_assert_num_queries(11):
        assert client.get(url("sequence-detail", battle)).status_code == 200


def test_after_battle_list_shows_players_and_arbitrators_their_battles(client, make_user, battle):
    services.sequence_start(battle=battle, gang=battle.attacker, actor=None)
    for user, shown in ((battle.attacker.owner, True), (battle.campaign.created_by, True), (make_user(), False)):
        client.force_login(user)
        page = client.get(reverse("postbattle:battle-list")).content.decode()
        assert (battle.attacker.name in page and "In progress" in page and "not started" in page) == shown


def test_a_step_form_from_a_second_tab_is_not_read_as_the_next_step(client, battle):
    services.sequence_start(battle=battle, gang=battle.attacker, actor=None)
    client.force_login(battle.attacker.owner)
    form = {"step": "0", "mode": "enter", "dice": "4"}
    assert client.post(url("sequence-step", battle), form).status_code == 302
    second = client.post(url("sequence-step", battle), form, headers={"HX-Request": "true"})
    assert second.status_code == 200 and "rolled already" in second.content.decode()
    sequence = battle.post_battle_sequences.get()
    assert sequence.step == 1


def test_sequence_page_links_to_its_campaign_battle_and_the_gang(client, battle):
    client.force_login(battle.attacker.owner)
    page = client.get(url("sequence-detail", battle)).content.decode()
    assert f'href="{reverse("campaigns:battle-detail", args=[battle.campaign_id, battle.pk])}"' in page
    assert f'href="{reverse("gangs:gang-detail", args=[battle.attacker.pk])}"' in page


def test_actions_step_says_when_no_fighter_may_act(client, battle):
    gang = battle.attacker
    gang.fighters.filter(pk__in=[f.pk for f in list(gang.fighters.order_by("pk"))[2:]]).update(status="recovery")
    sequence = services.sequence_start(battle=battle, gang=gang, actor=gang.owner)
    for dice, picked in [([4], {}), ([3, 1], {}), ([1, 1, 1], {}), ([1], {"recruit": False})]:
        sequence = services.sequence_step_submit(
            sequence=sequence, dice=ScriptedDice(dice), entered=True, choices=picked
        )
    client.force_login(gang.owner)
    page = client.get(url("sequence-detail", battle)).content.decode()
    assert "Post-battle actions" in page and "no fighter with Gang Hierarchy is free" in page


def _page_queries(client, target) -> int:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as queries:
        assert client.get(target).status_code == 200
    return len(queries)


def test_sequence_page_queries_do_not_grow_with_the_steps_taken(client, battle):
    """The sequence page costs the same at its first step and after each step taken, until the last."""
    gang = battle.attacker
    leader, champion = list(gang.fighters.order_by("pk"))[2:]
    sequence = services.sequence_start(battle=battle, gang=gang, actor=gang.owner)
    client.force_login(gang.owner)
    client.get(url("sequence-detail", battle))  # warm the session
    counts = [_page_queries(client, url("sequence-detail", battle))]
    choices = {f"action_{leader.pk}": "Trade", f"action_{champion.pk}": "Trade"}
    for dice, picked in [([4], {}), ([3, 1], {}), ([1, 1, 1], {}), ([1], {"recruit": False}), ([], choices)]:
        sequence = services.sequence_step_submit(
            sequence=sequence, dice=ScriptedDice(dice), entered=True, choices=picked
        )
        counts.append(_page_queries(client, url("sequence-detail", battle)))
    assert len(set(counts)) == 1, counts


def test_history_page_queries_do_not_grow_with_the_sequences_applied(client, make_user, make_confirmed_battle):
    """A gang's post-battle history after one applied sequence and after three: the same queries."""
    counts = []
    for battles in (1, 3):
        results = [("attacker", 0, OOA, 2, {}), ("attacker", 1, SI, 3, {})]
        first = make_confirmed_battle(edition="n18", results=results)
        for n in range(battles):
            applied(first if n == 0 else make_confirmed_battle(edition="n18", campaign=first.campaign, results=results))
        client.force_login(make_user())
        target = reverse("postbattle:gang-history", args=[first.attacker.pk])
        client.get(target)
        counts.append(_page_queries(client, target))
    assert counts[0] == counts[1], counts
