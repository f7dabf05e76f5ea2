"""A round flows like the game (issue 22): whose activation it is (the gangs alternate from the one with
Priority), Move and Done on each card, the next fighter who may act shown first, a button on the page answered
in place (htmx) with only the page's parts that changed, and the friends' tests of a casualty on one line."""

import pytest
from django.urls import reverse

from battles.forms import new_token
from battles.models import Phase
from battles.rules.n18 import activation_side
from battles.services import battle_advance, battle_priority_set, fighter_adjust, fighter_move

pytestmark = pytest.mark.django_db


def in_action_phase(make_battle, fighters=2):
    battle = make_battle("n18", fighters=fighters)
    battle_priority_set(session=battle, side="defender", actor=battle.player_a)
    battle_advance(session=battle, actor=battle.player_a)
    battle.refresh_from_db()
    assert battle.phase == Phase.ACTION
    return battle


def test_the_gangs_alternate_from_the_one_with_priority(make_battle):
    battle = in_action_phase(make_battle)
    a1, a2 = battle.fighters.filter(side="attacker").order_by("order")
    b1, b2 = battle.fighters.filter(side="defender").order_by("order")

    def side():
        battle.refresh_from_db()
        return activation_side(battle, list(battle.fighters.all()))

    assert side() == "defender"  # Priority
    fighter_move(session=battle, fighter=b1, actor=battle.player_b)
    assert side() == "defender"  # his activation has begun: still his gang's
    fighter_adjust(session=battle, fighter=b1, field="ready", value=False, actor=battle.player_b)
    assert side() == "attacker"
    fighter_adjust(session=battle, fighter=a1, field="ready", value=False, actor=battle.player_a)
    assert side() == "defender"
    fighter_adjust(session=battle, fighter=b2, field="ready", value=False, actor=battle.player_b)
    assert side() == "attacker"  # the second gang has no Ready fighter left: the first activates the rest
    fighter_adjust(session=battle, fighter=a2, field="ready", value=False, actor=battle.player_a)
    assert side() is None


def test_the_page_says_whose_activation_and_shows_the_next_fighter_first(client, make_battle):
    battle = in_action_phase(make_battle)
    b1 = battle.fighters.get(side="defender", order=0)
    client.force_login(battle.player_a)
    page = client.get(reverse("battles:battle-detail", args=[battle.pk])).content.decode()
    assert f"Next activation: <strong>{battle.gang_b.name}</strong>" in page
    next_up = page[page.index('data-testid="next-up"') : page.index('class="sides"')]
    assert f'data-testid="fighter-{b1.pk}"' in next_up and 'data-testid="move"' in next_up
    assert 'data-testid="done"' in next_up


def test_a_button_on_the_page_is_answered_in_place(client, make_battle):
    battle = in_action_phase(make_battle)
    b1, b2 = battle.fighters.filter(side="defender").order_by("order")
    client.force_login(battle.player_b)
    client.get(reverse("battles:battle-detail", args=[battle.pk]))  # the page, at the version it sends
    url = reverse("battles:fighter-set", args=[battle.pk, b1.pk])
    data = {"field": "ready", "value": "0", "once": new_token(), "shown": battle.version}
    response = client.post(url, data, headers={"HX-Request": "true"})
    body = response.content.decode().strip()
    assert response.status_code == 200 and "<html" not in body and 'id="battle-state"' not in body
    assert body.startswith('<div id="battle-shown"') and 'id="messages"' in body  # its parts, out of band
    a1 = battle.fighters.get(side="attacker", order=0)
    next_up = body[body.index('<div id="battle-next"') :]
    next_up = next_up[: next_up.index("</section>")]
    assert f'data-testid="fighter-{a1.pk}"' in next_up  # the other gang's turn to activate


def pistol_of(fighter) -> str:
    return next(f"{w['key']}:0" for w in fighter.profile["weapons"] if w["category"] == "pistol")


def test_a_casualtys_friends_tests_share_one_line(client, make_battle):
    from battles.services import action_resolve

    battle = in_action_phase(make_battle, fighters=4)
    shooter, other = battle.fighters.get(side="attacker", order=0), battle.fighters.get(side="attacker", order=1)
    target = battle.fighters.get(side="defender", order=1)  # a Ganger, 1 Wound
    # hit 6, wound 6, Injury dice 6: Out of Action
    action_resolve(
        session=battle,
        kind="shoot",
        actor=battle.player_a,
        dice=[6, 1, 6, 6],
        params={"fighter": shooter.pk, "target": target.pk, "weapon": pistol_of(shooter), "distance": 3},
    )
    target.refresh_from_db()
    assert target.out_of_action
    client.force_login(battle.player_a)
    page = client.get(reverse("battles:battle-detail", args=[battle.pk])).content.decode()
    prompts = page[page.index('data-testid="prompts"') :]
    prompts = prompts[: prompts.index("</ul>")]
    nerve = reverse("battles:battle-act", args=[battle.pk, "test"]) + "?test=nerve"
    assert prompts.count("<li>") == 1 and prompts.count(f'href="{nerve}') == 3  # a link a friend
    # The game moves on (another shot, a miss): those tests are moot and the line goes.
    action_resolve(
        session=battle,
        kind="shoot",
        actor=battle.player_a,
        dice=[1, 1],
        params={
            "fighter": other.pk,
            "target": battle.fighters.get(side="defender", order=2).pk,
            "weapon": pistol_of(other),
            "distance": 3,
        },
    )
    page = client.get(reverse("battles:battle-detail", args=[battle.pk])).content.decode()
    assert "test=nerve" not in page


def grouped_battle(make_battle, make_house_list, fighters=3):
    """A battle in its Action phase whose Leaders have Group Activation (2), as the 2023 gang lists give them."""
    from content.models import FighterType

    house = make_house_list("n18")
    FighterType.objects.filter(house=house, category="leader").update(special_rules=["Group Activation (2)"])
    return in_action_phase(make_battle, fighters=fighters)


def test_a_group_activation_is_one_activation_of_its_gang(make_battle, make_house_list):
    from battles.services import group_activate

    battle = grouped_battle(make_battle, make_house_list)
    b_leader, b2, b3 = battle.fighters.filter(side="defender").order_by("order")
    a1 = battle.fighters.get(side="attacker", order=0)
    assert b_leader.profile["group_activation"] == 2 and a1.profile["group_activation"] == 2
    assert b2.profile["group_activation"] == 0

    def side():
        battle.refresh_from_db()
        return activation_side(battle, list(battle.fighters.all()))

    group_activate(session=battle, leader=b_leader, members=[b2.pk, b3.pk], actor=battle.player_b)
    for fighter in (b2, b_leader, b3):  # in any order the player likes, the group goes on until each has acted
        assert side() == "defender"
        fighter_adjust(session=battle, fighter=fighter, field="ready", value=False, actor=battle.player_b)
    assert side() == "attacker"  # the group was one activation: the alternation passes after it
    fighter_adjust(session=battle, fighter=a1, field="ready", value=False, actor=battle.player_a)
    assert side() == "attacker"  # gang b has nobody Ready: gang a activates the rest
    battle_advance(session=battle, actor=battle.player_a, leave_untaken=True)
    battle_advance(session=battle, actor=battle.player_a, leave_untaken=True)
    battle.refresh_from_db()
    assert "groups" not in battle.facts  # a new round: no group made yet


@pytest.mark.parametrize(
    "who, members, refusal",
    [
        ("ganger", ["defender1"], "has no Group Activation"),
        ("leader", [], "Choose the friends"),
        ("leader", ["attacker0"], "cannot join"),
        ("leader", ["defender1", "defender2", "defender3"], "at most 2"),
    ],
)
def test_a_group_activation_follows_the_rule(make_battle, make_house_list, who, members, refusal):
    from django.core.exceptions import ValidationError

    from battles.services import group_activate

    battle = grouped_battle(make_battle, make_house_list, fighters=4)
    rows = {f"{f.side}{f.order}": f for f in battle.fighters.all()}
    leader = rows["defender0"] if who == "leader" else rows["defender1"]
    with pytest.raises(ValidationError, match=refusal):
        group_activate(session=battle, leader=leader, members=[rows[m].pk for m in members], actor=battle.player_b)


def test_the_group_button_chooses_the_group_from_the_card(client, make_battle, make_house_list):
    battle = grouped_battle(make_battle, make_house_list)
    b_leader, b2, b3 = battle.fighters.filter(side="defender").order_by("order")
    client.force_login(battle.player_b)
    page = client.get(reverse("battles:battle-detail", args=[battle.pk])).content.decode()
    url = reverse("battles:fighter-group", args=[battle.pk, b_leader.pk])
    assert f'href="{url}" data-testid="group"' in page
    once = new_token()
    for _ in range(2):  # a double tap: the second gets the first answer
        response = client.post(url, {"members": [b3.pk], "once": once})
        assert response.status_code == 302
    assert battle.actions.filter(kind="group").count() == 1
    battle.refresh_from_db()
    assert battle.facts["groups"] == [[b_leader.pk, b3.pk]]
    page = client.get(reverse("battles:battle-detail", args=[battle.pk])).content.decode()
    assert 'data-testid="group"' not in page  # one group at a time, and none while it is under way
    assert f"(Group Activation: {b_leader.name}, {b3.name} still to act)" in page
    too_many = client.post(url, {"members": [b2.pk, b3.pk], "once": new_token()})
    assert too_many.status_code == 200 and "activated this round already" in too_many.content.decode()


def test_who_may_open_the_group_activation(client, make_user, make_battle, make_house_list):
    battle = grouped_battle(make_battle, make_house_list, fighters=2)
    leader, friend = battle.fighters.filter(side="defender").order_by("order")
    url = reverse("battles:fighter-group", args=[battle.pk, leader.pk])
    data = {"members": [friend.pk], "once": new_token()}
    assert "/accounts/login/" in client.post(url, data)["Location"]
    client.force_login(make_user())
    assert client.post(url, data).status_code == 403
    client.force_login(battle.player_b)
    assert client.put(url).status_code == 405
    page = client.get(url)
    assert page.status_code == 200 and friend.name in page.content.decode()
    classic = make_battle("classic", fighters=2)
    client.force_login(classic.player_a)
    classic_leader = classic.fighters.get(side="attacker", order=0)
    assert client.get(reverse("battles:fighter-group", args=[classic.pk, classic_leader.pk])).status_code == 404
    battle.refresh_from_db()
    assert "groups" not in battle.facts


def test_a_new_round_begins_with_the_gang_that_has_priority_whoever_moved_last(make_battle):
    battle = in_action_phase(make_battle)
    rows = list(battle.fighters.order_by("side", "order"))
    fighter_move(session=battle, fighter=rows[2], actor=battle.player_b)  # gang b's first fighter moves
    for fighter in rows:
        fighter_adjust(session=battle, fighter=fighter, field="ready", value=False, actor=battle.player_a)
    battle_advance(session=battle, actor=battle.player_a, leave_untaken=True)  # the End phase
    battle_advance(session=battle, actor=battle.player_a, leave_untaken=True)  # round 2: the Priority phase
    battle_priority_set(session=battle, side="attacker", actor=battle.player_a)
    battle_advance(session=battle, actor=battle.player_a)
    battle.refresh_from_db()
    assert battle.round == 2 and battle.phase == Phase.ACTION
    assert activation_side(battle, list(battle.fighters.all())) == "attacker"  # not the side of last round's Move
