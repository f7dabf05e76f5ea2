"""An action on the battle page is answered in place (issue 28): the page is not reloaded, the scroll stays where
the player was (issue 22: "after every action the page reloads at the top"), and the card that changed shows it."""

import pytest
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_state_set_on_a_card_far_down_keeps_the_scroll_and_shows_on_the_card(page, log_in_browser, make_battle):
    battle = make_battle("classic", fighters=4)
    fighter = battle.fighters.get(side="defender", order=3)
    log_in_browser(battle.player_a)
    page.goto(f"/battles/{battle.pk}/")
    card = page.get_by_test_id(f"fighter-{fighter.pk}")
    card.scroll_into_view_if_needed()
    card.locator("summary", has_text="Set state").click()
    marker = page.evaluate("window.__kept = Math.random()")
    before = page.evaluate("window.scrollY")
    assert before > 500  # far down the page

    with page.expect_response(lambda response: response.url.endswith(f"/fighters/{fighter.pk}/set/")) as answer:
        card.get_by_role("button", name="Hidden", exact=True).click()
    assert 'id="battle-state"' not in answer.value.text()  # the parts that changed, not the page's state
    expect(card.get_by_test_id("state").filter(has_text="Hidden")).to_be_visible()
    expect(page.locator(".action-log li").first).to_contain_text(f"{fighter.name} is Hidden")
    assert page.evaluate("window.__kept") == marker  # the same page: not reloaded
    assert abs(page.evaluate("window.scrollY") - before) < 50  # not back at the top

    # Undo, also in place: the card as it was, the entry marked undone.
    page.get_by_role("button", name="Undo last action").click()
    expect(page.locator(".action-log li").first).to_contain_text("undone")
    expect(card.get_by_test_id("state").filter(has_text="Hidden")).to_have_count(0)
    assert page.evaluate("window.__kept") == marker
