"""A whole 2018+ round and a classic turn played at 412 px with the server's dice, counting the taps of each action
(issue 22's measure): Priority, Next phase, a Group Activation, Move and Done on the card of the fighter whose
activation it is (shown first, answered in place), a shot in three taps at most, a charge, an Agility test from the Test menu, Stand up;
then a classic turn through its four phases with a shot and a fight."""

import re

import pytest
from playwright.sync_api import expect

from battles.models import BattleSession
from battles.services import fighter_adjust
from battles.tests.test_battles_table_speed_browser import Taps, back_on_the_battle, choose, no_horizontal_scroll

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def next_up(page):
    return page.get_by_test_id("next-up")


def fighter_name(page) -> str:
    return next_up(page).locator("article header strong").inner_text()


def shoot(page, tap, battle, card=None) -> int:
    """The next fighter (or the one of ``card``) shoots the first enemy offered (the one already chosen, else the
    first button); the taps it took."""
    start = tap.count
    tap((card or next_up(page)).get_by_role("link", name="Shoot"))
    # Whether a target is already chosen can only be read once the form has loaded (else a tap too many).
    page.locator(".field-target").wait_for()
    target = page.locator("input[name=target]:checked")
    if not target.count():
        tap(page.locator(".field-target label").first)
    page.get_by_test_id("odds").wait_for()
    assert no_horizontal_scroll(page)
    tap(page.get_by_test_id("roll"))
    back_on_the_battle(page, battle)
    return tap.count - start


def in_place(page, tap, locator, old_version: str):
    """A button on the battle page, answered in place: the page shows a newer version, and is not reloaded."""
    marker = page.evaluate("window.__kept = Math.random()")
    tap(locator)
    expect(page.locator("#battle-shown")).not_to_have_attribute("hx-get", re.compile(f"v={old_version}$"))
    assert page.evaluate("window.__kept") == marker  # the same page: no reload


def version(page) -> str:
    return page.locator("#battle-shown").get_attribute("hx-get").rsplit("=", 1)[1]


def test_an_n18_round_and_a_classic_turn_in_counted_taps(page, log_in_browser, make_battle, make_house_list, tmp_path):
    from content.models import FighterType

    # The Leaders have Group Activation (2), as the 2023 gang lists give them.
    FighterType.objects.filter(house=make_house_list("n18"), category="leader").update(
        special_rules=["Group Activation (2)"]
    )
    battle = make_battle("n18", fighters=2)
    log_in_browser(battle.player_a)
    page.goto(f"/battles/{battle.pk}/")
    tap, taps = Taps(page), {}

    # Priority and the Action phase: one tap each, in place.
    in_place(page, tap, page.get_by_role("button", name=f"{battle.gang_b.name} has Priority"), version(page))
    in_place(page, tap, page.get_by_role("button", name="Next phase"), version(page))
    taps["Priority, Next phase"] = 1
    assert battle.gang_b.name in page.get_by_test_id("to-act").inner_text()
    page.screenshot(path=str(tmp_path / "round-next-up.png"), full_page=True)
    assert no_horizontal_scroll(page)
    box = next_up(page).bounding_box()
    assert box["y"] < 700  # the fighter whose activation it is, near the top (it was some 1,150 px down)

    # Activation 1 (the gang with Priority): a Group Activation, the Leader bringing his friend; the Leader moves,
    # then shoots.
    tap.count = 0
    tap(next_up(page).get_by_test_id("group"))
    tap(page.get_by_test_id("group-members").locator("label").first)
    tap(page.get_by_test_id("group-start"))
    back_on_the_battle(page, battle)
    taps["Group activation"] = tap.count
    first = fighter_name(page)
    tap.count = 0
    in_place(page, tap, next_up(page).get_by_test_id("move"), version(page))
    taps["Move"] = tap.count
    assert fighter_name(page) == first  # his activation has begun: still first
    taps["Shoot (server dice)"] = shoot(page, tap, battle)
    assert taps["Shoot (server dice)"] <= 3

    # The group's second fighter: a charge.
    page.get_by_test_id("to-act").wait_for()
    charge = page.locator("article.fighter").get_by_role("link", name="Charge")
    if charge.count():
        tap.count = 0
        tap(charge.first)
        page.locator(".field-target").wait_for()
        weapon = page.locator("input[name=attacker]:checked")
        if not weapon.count():
            tap(page.locator(".field-attacker label").first)
        if not page.locator("input[name=target]:checked").count():
            tap(page.locator(".field-target label").first)
        page.get_by_test_id("odds").wait_for()
        tap(page.get_by_test_id("roll"))
        back_on_the_battle(page, battle)
        taps["Charge and fight (server dice)"] = tap.count

    # An Agility test from the Test menu.
    tap.count = 0
    tap(page.get_by_role("link", name="Test", exact=True))
    tap(page.get_by_role("link", name="Agility test"))
    choose(page, "fighter", 1)
    tap.count += 1
    page.get_by_test_id("odds").wait_for()
    tap(page.get_by_test_id("roll"))
    back_on_the_battle(page, battle)
    taps["Agility test"] = tap.count

    # Done for whoever may still act, then the End phase and the next round.
    while next_up(page).count() and next_up(page).get_by_test_id("done").count():
        tap.count = 0
        in_place(page, tap, next_up(page).get_by_test_id("done"), version(page))
        taps["Done"] = tap.count
    in_place(page, tap, page.get_by_role("button", name="Next phase"), version(page))
    leave = page.get_by_test_id("leave-untaken")
    if leave.count():
        page.fill("input[name=reason]", "rolled at the table")
        in_place(page, tap, leave, version(page))
        assert "rolled at the table" in page.locator(".action-log").inner_text()
    else:
        in_place(page, tap, page.get_by_role("button", name="Next phase"), version(page))
    battle.refresh_from_db()
    assert battle.round == 2 and battle.phase == "priority"

    # A pinned fighter stands up and shoots.
    # One still on their feet: the shots above roll real dice, and a Seriously Injured fighter does not stand up.
    fighter = battle.fighters.filter(condition__in=["active", "pinned"]).order_by("side", "order").first()
    # Pinned at the table's word, as a player sets it (a row written behind the service would not bump the
    # battle's version, and the page drawn for that version is kept).
    fighter_adjust(session=battle, fighter=fighter, field="prone", value=True, actor=battle.player_a)
    page.reload()
    tap.count = 0
    in_place(page, tap, page.get_by_test_id(f"fighter-{fighter.pk}").get_by_test_id("stand-up"), version(page))
    fighter.refresh_from_db()
    assert fighter.condition == "active" and not fighter.prone
    stood = tap.count
    card = page.get_by_test_id(f"fighter-{fighter.pk}")
    taps["Stand up, then shoot (server dice)"] = stood + shoot(page, tap, battle, card)

    # A classic turn: Movement, Shooting (a shot), Hand-to-hand, Recovery, then the other player's turn.
    classic = make_battle("classic", fighters=2)
    log_in_browser(classic.player_a)
    page.goto(f"/battles/{classic.pk}/")
    in_place(page, tap, page.get_by_role("button", name="Next phase"), version(page))
    taps["Classic shot (server dice)"] = shoot(page, tap, classic)
    for _ in range(3):
        in_place(page, tap, page.get_by_role("button", name="Next phase"), version(page))
        leave = page.get_by_test_id("leave-untaken")
        if leave.count() and BattleSession.objects.get(pk=classic.pk).phase == "recovery":
            break
    classic.refresh_from_db()
    assert classic.turn_side == "defender" or classic.phase == "recovery"
    assert no_horizontal_scroll(page)
    (tmp_path / "taps.txt").write_text("\n".join(f"{k}: {v}" for k, v in taps.items()))
    print("TAPS", taps)
    assert taps == {
        "Priority, Next phase": 1,
        "Group activation": 3,
        "Move": 1,
        "Shoot (server dice)": 3,
        "Charge and fight (server dice)": 3,
        "Agility test": 4,
        "Done": 1,
        "Stand up, then shoot (server dice)": 3,
        "Classic shot (server dice)": 3,
    }
