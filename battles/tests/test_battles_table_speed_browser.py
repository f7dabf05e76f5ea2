"""Speed at the table, counted in taps at 412 px: a shot and a fight from the battle page to the result, with the
server's dice and with dice rolled at the table and entered by their faces."""

import re

import pytest
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


class Taps:
    """Clicks that a player makes, counted."""

    def __init__(self, page):
        self.page, self.count = page, 0

    def __call__(self, locator):
        locator.click()
        self.count += 1


def no_horizontal_scroll(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def stat_lines_fit(page) -> bool:
    return page.evaluate(
        "[...document.querySelectorAll('.fighter .stats')].every(e => e.scrollWidth <= e.clientWidth + 1)"
    )


def back_on_the_battle(page, battle):
    """After a roll: the battle page, its action panel emptied by the roll's answer, which swapped the parts that
    changed in the same swap (in place from the panel; a redirect from the action's own page)."""
    page.wait_for_url(f"**/battles/{battle.pk}/")
    expect(page.locator("#act-panel")).to_be_empty()
    page.get_by_test_id("turn").wait_for()


def choose(page, select: str, index: int) -> None:
    """Pick option ``index`` of the action form's ``select`` once htmx has bound the form that the panel just
    loaded: a choice made in the moment between the swap and htmx processing the new form fires a change nobody
    listens to (a person's tap is never that quick; a script's can be)."""
    page.wait_for_function(
        "() => { const f = document.querySelector('#action-form'); "
        "return !!(f && f['htmx-internal-data'] && f['htmx-internal-data'].initHash); }"
    )
    page.locator(f"select[name={select}]").select_option(index=index)


def card(page, fighter):
    return page.get_by_test_id(f"fighter-{fighter.pk}")


def test_a_shot_in_four_taps_then_three_with_the_target_remembered(page, log_in_browser, make_battle, tmp_path):
    battle = make_battle("n18", fighters=2)
    first, second = battle.fighters.get(side="attacker", order=0), battle.fighters.get(side="attacker", order=1)
    target = battle.fighters.get(side="defender", order=0)
    log_in_browser(battle.player_a)
    page.goto(f"/battles/{battle.pk}/")
    assert no_horizontal_scroll(page) and stat_lines_fit(page)
    page.screenshot(path=str(tmp_path / "battle-page.png"), full_page=True)
    tap = Taps(page)

    tap(card(page, first).get_by_role("link", name="Shoot"))
    assert page.get_by_label("Autopistol").is_checked()  # the only weapon that shoots: already chosen
    tap(page.locator(".field-target").get_by_text(target.name, exact=True))
    tap(page.get_by_text("Short range", exact=True))
    page.get_by_test_id("odds").wait_for()  # no separate tap: the choice is complete (cover: in the open)
    assert no_horizontal_scroll(page)
    page.screenshot(path=str(tmp_path / "shoot-odds.png"), full_page=True)
    tap(page.get_by_test_id("roll"))
    back_on_the_battle(page, battle)
    assert tap.count == 4
    assert f"{first.name} shoots {target.name}" in page.locator(".action-log").inner_text()

    target.refresh_from_db()
    if target.out_of_action:
        return  # the server's dice took the target out: nothing to remember
    tap.count = 0
    tap(card(page, second).get_by_role("link", name="Shoot"))
    assert page.get_by_role("radio", name=target.name, exact=True).is_checked()  # the gang's last target
    page.get_by_test_id("odds").wait_for()  # Short range is the default band: the odds are there already
    short = page.get_by_test_id("odds").locator("p.muted").first.inner_text()
    tap(page.get_by_text("Long range", exact=True))
    expect(page.get_by_test_id("odds").locator("p.muted").first).not_to_have_text(short)  # the long range odds
    tap(page.get_by_test_id("roll"))
    back_on_the_battle(page, battle)
    assert tap.count == 3


def test_table_dice_entered_by_their_faces_and_a_wrong_die_named(page, log_in_browser, make_battle, tmp_path):
    battle = make_battle("n18", fighters=2)
    shooter, target = battle.fighters.get(side="attacker", order=0), battle.fighters.get(side="defender", order=0)
    log_in_browser(battle.player_a)
    page.goto(f"/battles/{battle.pk}/act/shoot/?fighter={shooter.pk}&target={target.pk}")
    page.get_by_text("Short range", exact=True).click()
    page.get_by_test_id("odds").wait_for()
    order = page.locator(".dice-order").inner_text()
    assert order.index("Hit: 1 D6") < order.index("Firepower dice") < order.index("wound 1 D6")

    # A mistake: a 7 typed for the hit roll. The odds and the choices stay; the message names the die.
    page.locator("summary", has_text="Type them instead").click()
    page.fill("input[name=dice]", "7")
    page.get_by_role("button", name="Apply the typed dice").click()
    error = page.get_by_test_id("dice-error")
    error.wait_for()
    assert "roll 1 (7) is not a face of the D6 die rolled for hit roll" in error.inner_text()
    assert page.get_by_test_id("odds").is_visible()
    assert page.get_by_label("Short range").is_checked()

    # The wrong die is asked for again; the dice one at a time, each by name: the hit roll misses (1), then the
    # Firepower dice.
    assert "hit roll" in page.get_by_test_id("next-die").inner_text()
    page.locator(".die-face", has_text="1").first.click()
    page.get_by_test_id("next-die").filter(has_text="Firepower").wait_for()
    faces = page.locator(".die-face").all_inner_texts()
    assert faces == ["1 hit", "2 hits", "3 hits", "1 hit + Ammo"]
    page.screenshot(path=str(tmp_path / "table-dice.png"), full_page=True)
    page.get_by_role("button", name="2 hits").click()
    page.get_by_test_id("apply-dice").click()
    back_on_the_battle(page, battle)
    wounds = target.wounds_left
    target.refresh_from_db()
    assert target.wounds_left == wounds and not target.out_of_action  # the hit roll missed


def test_a_fight_in_four_taps_and_injury_dice_as_results(page, log_in_browser, make_battle, tmp_path):
    battle = make_battle("n18", fighters=2)
    attacker, defender = battle.fighters.get(side="defender", order=1), battle.fighters.get(side="attacker", order=1)
    other_attacker, other_defender = (
        battle.fighters.get(side="defender", order=0),
        battle.fighters.get(side="attacker", order=0),
    )
    log_in_browser(battle.player_b)
    page.goto(f"/battles/{battle.pk}/")
    tap = Taps(page)
    tap(card(page, attacker).get_by_role("link", name="Fight"))
    tap(page.locator("#act-panel").get_by_text("Fighting knife", exact=True).first)
    tap(page.locator("#act-panel").get_by_text(defender.name, exact=True))
    page.get_by_test_id("odds").wait_for()
    odds = page.get_by_test_id("odds").inner_text()
    assert "The attacker, after Reaction attacks" in odds  # a Standing opponent strikes back
    assert no_horizontal_scroll(page)
    page.screenshot(path=str(tmp_path / "fight-odds.png"), full_page=True)

    # Entered dice: the Attack dice hits (6), wounds (6); the Injury dice is asked for by its results.
    tap(page.locator(".die-face", has_text="6").first)
    page.get_by_test_id("next-die").filter(has_text="wound").wait_for()
    tap(page.locator(".die-face", has_text="6").first)
    page.get_by_test_id("next-die").filter(has_text="Injury").wait_for()
    assert page.locator(".die-face").all_inner_texts() == [
        "Flesh Wound (1-2)",
        "Seriously Injured (3-5)",
        "Out of Action (6)",
    ]
    tap(page.get_by_role("button", name="Out of Action (6)"))
    tap(page.get_by_test_id("apply-dice"))
    back_on_the_battle(page, battle)
    assert tap.count == 7  # with the table's dice: Fight, the weapon, the opponent, three dice, Apply
    defender.refresh_from_db()
    assert defender.out_of_action
    attacker.refresh_from_db()
    assert attacker.condition == "active" and not attacker.prone  # a melee fight pins nobody
    # Activated fighters are marked and listed last among those in play.
    cards = page.locator(f"section[aria-label='{battle.gang_b.name}'] article.fighter")
    # (expect waits out htmx's settle, during which the swapped card carries its htmx-added classes only)
    expect(cards.nth(1)).to_have_class(re.compile(r"\bis-activated\b"))
    assert cards.nth(1).get_attribute("data-testid") == f"fighter-{attacker.pk}"

    # A fight with the server's dice, counted: the card's Fight, the weapon, the opponent, Roll.
    tap.count = 0
    tap(card(page, other_attacker).get_by_role("link", name="Fight"))
    tap(page.locator("#act-panel").get_by_text("Fighting knife", exact=True).first)
    tap(page.locator("#act-panel").get_by_text(other_defender.name, exact=True))
    page.get_by_test_id("odds").wait_for()
    tap(page.get_by_test_id("roll"))
    back_on_the_battle(page, battle)
    assert tap.count == 4
    assert f"{other_attacker.name} fights {other_defender.name}" in page.locator(".action-log").inner_text()
