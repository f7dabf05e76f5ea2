"""An action on the battle page is answered in place (issue 28): the page is not reloaded, the scroll stays where
the player was (issue 22: "after every action the page reloads at the top"), and the card that changed shows it."""

import pytest
from playwright.sync_api import expect

from battles.tests.test_battles_table_speed_browser import no_horizontal_scroll

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


def test_a_shot_opens_in_the_panel_and_its_roll_answers_in_place(page, log_in_browser, make_battle, tmp_path):
    """At 412 px: a card's Shoot opens the form in the battle page's panel, the odds come as the choices are made,
    and the roll answers in place (no reload): the panel empties, the result in the log and on the target's card."""
    battle = make_battle("classic", fighters=2)
    shooter, target = battle.fighters.get(side="attacker", order=0), battle.fighters.get(side="defender", order=0)
    log_in_browser(battle.player_a)
    page.goto(f"/battles/{battle.pk}/")
    marker = page.evaluate("window.__kept = Math.random()")
    version = page.locator("#battle-shown").get_attribute("hx-get")

    page.get_by_test_id(f"fighter-{shooter.pk}").get_by_role("link", name="Shoot").click()
    panel = page.locator("#act-panel")
    panel.locator("#action-form").wait_for()
    assert page.url.endswith(f"/battles/{battle.pk}/")  # no history entry: Back still leaves the battle
    panel.locator(".field-target").get_by_text(target.name, exact=True).click()
    panel.locator("input[name=distance]").fill("6")
    page.keyboard.press("Tab")  # the choice is complete: the odds come without a tap
    expect(panel.get_by_test_id("odds")).to_contain_text("Out of action")
    assert no_horizontal_scroll(page)
    page.screenshot(path=str(tmp_path / "shot-in-panel.png"), full_page=True)
    panel.locator("summary", has_text="Type them instead").click()
    panel.locator("input[name=dice]").fill("3 6 6")
    panel.get_by_role("button", name="Apply the typed dice").click()

    expect(panel).to_be_empty()
    expect(page.locator("#battle-shown")).not_to_have_attribute("hx-get", version)
    expect(page.get_by_test_id(f"fighter-{target.pk}")).to_contain_text("Out of Action")
    expect(page.locator(".action-log li").first).to_contain_text(f"{shooter.name} shoots {target.name}")
    assert page.evaluate("window.__kept") == marker  # the same page: not reloaded
    assert no_horizontal_scroll(page)
