"""A battle action answers (htmx) with the page's parts that changed, and its cost does not grow with the actions
already played (issue 28): the same queries and the same bytes, but for the digits of the action numbers, for the
last action whether 5 or 60 came before it; each part swapped is what a reload of the page shows."""

import re
from html.parser import HTMLParser

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from battles.forms import new_token
from battles.services import battle_advance, fighter_adjust

pytestmark = pytest.mark.django_db


def played(make_battle, actions: int):
    """A classic battle with ``actions`` played: a fighter's Hidden set and cleared, the phase moved on now and then."""
    battle = make_battle("classic", fighters=4)
    fighter = battle.fighters.get(side="attacker", order=1)
    for number in range(actions):
        if number % 5 == 4:
            battle_advance(session=battle, actor=battle.player_a, leave_untaken=True)
        else:
            fighter_adjust(
                session=battle, fighter=fighter, field="hidden", value=number % 2 == 0, actor=battle.player_a
            )
    battle.refresh_from_db()
    return battle


def one_more(client, battle, *, shown: bool = True):
    """One more action, a button on the page posted with htmx after the page was shown: (queries, response)."""
    client.force_login(battle.player_a)
    client.get(reverse("battles:battle-detail", args=[battle.pk]))
    target = battle.fighters.get(side="defender", order=2)
    url = reverse("battles:fighter-set", args=[battle.pk, target.pk])
    data = {"field": "hidden", "value": "1", "once": new_token(), **({"shown": battle.version} if shown else {})}
    with CaptureQueriesContext(connection) as queries:
        response = client.post(url, data, headers={"HX-Request": "true"})
    assert response.status_code == 200
    return len(queries), response


def test_an_actions_cost_does_not_grow_with_the_actions_played(client, make_battle):
    small_queries, small = one_more(client, played(make_battle, 5))
    large_queries, large = one_more(client, played(make_battle, 60))
    assert small_queries == large_queries
    # The same parts: the version shown, the turn, the prompts, the changed card, the new log entry (and, past the
    # log's window, the oldest entry's deletion: a line of its own).
    assert len(large.content) - len(small.content) < 80
    page = client.get(reverse("battles:battle-detail", args=[large.wsgi_request.resolver_match.kwargs["pk"]]))
    assert len(large.content) * 3 < len(page.content)  # not the page


class Parts(HTMLParser):
    """The outer HTML of each element with an id, from a page or an htmx answer (without hx-swap-oob)."""

    VOID = {"input", "br", "img", "meta", "link", "hr"}

    def __init__(self, html: str):
        super().__init__(convert_charrefs=False)
        self.html, self.parts, self.open = html, {}, []
        self.lines = [0]
        for line in html.splitlines(keepends=True):
            self.lines.append(self.lines[-1] + len(line))
        self.feed(html)

    def at(self) -> int:
        line, column = self.getpos()
        return self.lines[line - 1] + column

    def handle_starttag(self, tag, attrs):
        if tag not in self.VOID:
            self.open.append((tag, dict(attrs).get("id"), self.at()))

    def handle_endtag(self, tag):
        while self.open:
            name, ident, start = self.open.pop()
            if name == tag:
                break
        if ident:
            end = self.html.index(">", self.at()) + 1
            self.parts[ident] = self.html[start:end].replace(' hx-swap-oob="true"', "")


def tokens_out(html: str) -> str:
    html = re.sub(r'name="csrfmiddlewaretoken" value="\w+"', 'name="csrfmiddlewaretoken"', html)
    return re.sub(r'name="once" value="\w+"', 'name="once"', html)


def test_each_part_swapped_is_what_a_reload_shows(client, make_battle):
    battle = played(make_battle, 15)
    _, answer = one_more(client, battle)
    swapped = Parts(answer.content.decode()).parts
    assert {"battle-shown", "battle-turn", "battle-prompts", "action-16"} <= set(swapped)
    target = battle.fighters.get(side="defender", order=2)
    assert f"fighter-{target.pk}" in swapped and "side-a" not in swapped and "battle-next" not in swapped
    assert 'id="action-4" hx-swap-oob="delete"' in answer.content.decode()  # out of the log's window of 12
    page = Parts(client.get(reverse("battles:battle-detail", args=[battle.pk])).content.decode()).parts
    for ident, html in swapped.items():
        if ident not in ("messages", "action-4"):
            assert tokens_out(html) == tokens_out(page[ident]), ident


def test_without_the_shown_drawing_the_whole_state_is_swapped(client, make_battle):
    battle = played(make_battle, 2)
    client.force_login(battle.player_a)
    client.get(reverse("battles:battle-detail", args=[battle.pk]))
    cache.clear()  # the drawing of the version the page shows is gone (expired, another server's memory)
    target = battle.fighters.get(side="defender", order=2)
    url = reverse("battles:fighter-set", args=[battle.pk, target.pk])
    data = {"field": "hidden", "value": "1", "once": new_token(), "shown": battle.version}
    response = client.post(url, data, headers={"HX-Request": "true"})
    assert response["HX-Retarget"] == "#battle-state" and response["HX-Reswap"] == "outerHTML"
    assert response.content.decode().strip().startswith('<div id="battle-state">')


def test_without_htmx_or_the_shown_version_the_action_moves_to_the_page(client, make_battle):
    battle = played(make_battle, 2)
    client.force_login(battle.player_a)
    target = battle.fighters.get(side="defender", order=2)
    url = reverse("battles:fighter-set", args=[battle.pk, target.pk])
    plain = client.post(url, {"field": "hidden", "value": "1", "once": new_token(), "shown": battle.version})
    assert plain.status_code == 302 and plain["Location"] == reverse("battles:battle-detail", args=[battle.pk])
    _, response = one_more(client, battle, shown=False)
    assert response["HX-Redirect"] == reverse("battles:battle-detail", args=[battle.pk])


def test_the_prompts_read_no_state_set_by_hand(make_battle):
    from battles.selectors import battle_prompts, phase_actions

    battle = make_battle("classic", fighters=2)
    fighter = battle.fighters.get(side="attacker", order=1)
    for number in range(20):  # one phase of states set by hand: none answers a prompt
        fighter_adjust(session=battle, fighter=fighter, field="hidden", value=number % 2 == 0, actor=battle.player_a)
    battle.refresh_from_db()
    assert phase_actions(battle) == [] and battle.actions.count() == 20
    fighters = list(battle.fighters.all())
    assert battle_prompts(battle, fighters) == battle_prompts(battle, fighters, list(battle.actions.all()))


def panel_roll(client, battle, *, token: str | None = None):
    """A shot rolled (entered dice) in the battle page's panel, posted with htmx and the version the page shows:
    (queries, response)."""
    from battles.tests.test_battles_views import shoot_post

    client.force_login(battle.player_a)
    client.get(reverse("battles:battle-detail", args=[battle.pk]))
    url = reverse("battles:battle-act", args=[battle.pk, "shoot"])
    data = {**shoot_post(battle), "once": token or new_token(), "shown": battle.version}
    with CaptureQueriesContext(connection) as queries:
        response = client.post(url, data, headers={"HX-Request": "true", "HX-Target": "act-result"})
    assert response.status_code == 200
    return len(queries), response


def test_the_action_bar_opens_an_action_in_the_page_panel_and_keeps_its_plain_link(client, make_battle):
    battle = played(make_battle, 2)
    client.force_login(battle.player_a)
    page = client.get(reverse("battles:battle-detail", args=[battle.pk])).content.decode()
    shoot, test = (reverse("battles:battle-act", args=[battle.pk, kind]) for kind in ("shoot", "test"))
    assert '<div id="act-panel" class="act-panel"></div>' in page
    assert f'href="{shoot}" hx-get="{shoot}" hx-target="#act-panel"' in page
    in_panel = {"HX-Request": "true", "HX-Target": "act-panel"}
    menu = client.get(test, headers=in_panel).content.decode()
    assert "<html" not in menu and "<h2>Test</h2>" in menu  # the action's part, not its page
    assert f'hx-get="{test}?test=' in menu and 'hx-target="#act-panel"' in menu  # a choice opens in the panel too
    shooter = battle.fighters.get(side="attacker", order=0)
    form = client.get(f"{shoot}?fighter={shooter.pk}", headers=in_panel).content.decode()
    assert "<html" not in form and '<form id="action-form"' in form and 'hx-include="#battle-shown"' in form
    plain = client.get(test).content.decode()  # without htmx: the action's own page, as before
    assert "<html" in plain and "<h1>Test</h1>" in plain and 'hx-target="#act-panel"' not in plain


def test_a_roll_in_the_panel_answers_with_the_parts_that_changed_and_empties_the_panel(client, make_battle):
    battle = played(make_battle, 3)
    _, answer = panel_roll(client, battle)
    html = answer.content.decode()
    assert answer["HX-Reswap"] == "none show:window:top"  # the parts come out of band; the page at its top
    swapped = Parts(html).parts
    assert {"battle-shown", "battle-turn", "action-4", "act-panel", "messages"} <= set(swapped)
    assert 'id="battle-state"' not in html
    assert swapped["act-panel"] == '<div id="act-panel" class="act-panel"></div>'
    assert "Out of action" in swapped["messages"] or "Out of Action" in swapped["messages"]  # the roll's result
    battle.refresh_from_db()
    assert f"?v={battle.version}" in swapped["battle-shown"]


def test_a_roll_in_the_panel_without_the_shown_drawing_swaps_the_state_and_empties_the_panel(client, make_battle):
    from battles.tests.test_battles_views import shoot_post

    battle = played(make_battle, 3)
    client.force_login(battle.player_a)
    client.get(reverse("battles:battle-detail", args=[battle.pk]))
    cache.clear()  # the drawing of the version the page shows is gone
    data = {**shoot_post(battle), "once": new_token(), "shown": battle.version}
    url = reverse("battles:battle-act", args=[battle.pk, "shoot"])
    response = client.post(url, data, headers={"HX-Request": "true", "HX-Target": "act-result"})
    assert response["HX-Retarget"] == "#battle-state" and response["HX-Reswap"] == "outerHTML"
    assert 'id="act-panel" class="act-panel" hx-swap-oob="true"' in response.content.decode()


def test_a_roll_in_the_panel_posted_again_is_refused_and_answered_in_place(client, make_battle):
    battle = played(make_battle, 3)
    token = new_token()
    panel_roll(client, battle, token=token)
    _, again = panel_roll(client, battle, token=token)
    assert battle.actions.filter(kind="shoot").count() == 1
    assert 'id="act-panel" class="act-panel" hx-swap-oob="true"' in again.content.decode()


def test_an_invalid_roll_in_the_panel_is_shown_again_with_its_errors(client, make_battle):
    from battles.tests.test_battles_views import shoot_post

    battle = played(make_battle, 3)
    client.force_login(battle.player_a)
    data = {**shoot_post(battle), "distance": "", "dice": "seven", "once": new_token(), "shown": battle.version}
    url = reverse("battles:battle-act", args=[battle.pk, "shoot"])
    response = client.post(url, data, headers={"HX-Request": "true", "HX-Target": "act-result"})
    assert response.status_code == 200 and "errorlist" in response.content.decode()
    assert 'id="act-result"' in response.content.decode() and "HX-Reswap" not in response
    assert not battle.actions.filter(kind="shoot").exists()


def test_a_rolls_cost_in_the_panel_does_not_grow_with_the_actions_played(client, make_battle):
    # 21 and 60 actions: the same phase and turn (played moves the phase on every fifth action), so the same parts.
    small_queries, small = panel_roll(client, played(make_battle, 21))
    large_queries, large = panel_roll(client, played(make_battle, 60))
    assert small_queries == large_queries
    assert abs(len(large.content) - len(small.content)) < 80  # the digits of the action numbers, the log's window
    page = client.get(reverse("battles:battle-detail", args=[large.wsgi_request.resolver_match.kwargs["pk"]]))
    # Not the page (the target is Out of Action: his side comes whole, its order changed).
    assert len(large.content) * 2 < len(page.content)
