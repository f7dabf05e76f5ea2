"""Issue 22's measure for the area and special actions, at 412 px: the taps of a Rapid Fire shot whose spare hit
goes to a second fighter, a Blast that misses with the table's dice and scatters, the fighter the scattered marker
lands on, an Agility test and a Reload test."""

import re

import pytest
from django.db.models import F
from playwright.sync_api import expect

from battles.models import BattleSession
from battles.tests.test_battles_n18_effects import arm
from battles.tests.test_battles_table_speed_browser import Taps, back_on_the_battle, card, choose, no_horizontal_scroll

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def table_dice(page, tap, faces: list) -> None:
    """Each die by its face button, waiting for the page to ask for it, then Apply."""
    for number, face in enumerate(faces, start=1):
        expect(page.get_by_test_id("next-die")).to_contain_text(f"Die {number} ")
        tap(page.locator(f'.die-face[value="{face}"]').first)
    tap(page.get_by_test_id("apply-dice"))


def settled(page) -> None:
    page.wait_for_load_state("networkidle")


def test_split_scatter_and_reload_in_counted_taps(page, log_in_browser, make_battle, tmp_path):
    battle = make_battle("n18", fighters=3)
    shooter, bomber = battle.fighters.get(side="attacker", order=0), battle.fighters.get(side="attacker", order=1)
    target, other = battle.fighters.get(side="defender", order=1), battle.fighters.get(side="defender", order=2)
    arm(bomber, "frag-grenade", "grenade", "4+")
    log_in_browser(battle.player_a)
    page.goto(f"/battles/{battle.pk}/")
    tap, taps = Taps(page), {}

    # Rapid Fire, server dice: Shoot, the target, the fighter for the spare hits, Roll (the only gun already chosen).
    tap(card(page, shooter).get_by_role("link", name="Shoot"))
    tap(page.locator(".field-target").get_by_text(target.name, exact=True))
    settled(page)
    tap(page.locator(".field-split_to").get_by_text(other.name, exact=True))
    settled(page)
    expect(page.get_by_test_id("odds")).to_be_visible()
    assert no_horizontal_scroll(page)
    page.screenshot(path=str(tmp_path / "rapid-fire-split.png"), full_page=True)
    tap(page.get_by_test_id("roll"))
    back_on_the_battle(page, battle)
    assert f"spare hits to {other.name}" in page.locator(".action-log").inner_text()
    taps["Rapid Fire split (server dice)"] = tap.count

    # A missed Blast, the table's dice: Shoot, the grenade, the target, then hit 1, the Ammo test 6, the Scatter
    # dice's arrow and 4", Apply.
    tap.count = 0
    tap(card(page, bomber).get_by_role("link", name="Shoot"))
    tap(page.get_by_label("Frag Grenade", exact=True))
    settled(page)
    tap(page.locator(".field-target").get_by_text(target.name, exact=True))
    settled(page)
    table_dice(page, tap, [1, 6, "arrow", 4])
    back_on_the_battle(page, battle)
    assert 'scatters 4" towards the arrow' in page.locator(".action-log").inner_text()
    taps["Missed Blast and its scatter (table dice)"] = tap.count

    # The fighter the scattered marker lands on, server dice: the prompt, the fighter, Roll.
    tap.count = 0
    tap(page.get_by_role("link", name=re.compile("under the Blast marker")).first)
    tap(page.locator(".field-target").get_by_text(other.name, exact=True))
    settled(page)
    expect(page.get_by_test_id("odds")).to_be_visible()
    tap(page.get_by_test_id("roll"))
    back_on_the_battle(page, battle)
    assert f"also hits {other.name}" in page.locator(".action-log").inner_text()
    taps["Fighter under the scattered marker (server dice)"] = tap.count

    # An Agility test with the table's die: Test, Agility test, the fighter, the die, Apply.
    tap.count = 0
    tap(page.get_by_role("link", name="Test", exact=True))
    tap(page.get_by_role("link", name="Agility test"))
    choose(page, "fighter", 1)
    tap.count += 1
    table_dice(page, tap, [4])
    back_on_the_battle(page, battle)
    taps["Agility test (table dice)"] = tap.count

    # Reload: Test, Reload, the weapon (Out of Ammo as the table left it), then the die and Apply (a 1: still
    # Out of Ammo), then again with Roll.
    pistol = next(w["key"] for w in shooter.profile["weapons"] if w["category"] == "pistol")
    shooter.refresh_from_db()
    shooter.failed_weapons = [pistol]
    shooter.save(update_fields=["failed_weapons"])
    BattleSession.objects.filter(pk=battle.pk).update(version=F("version") + 1)  # the page is kept per version
    page.reload()
    tap.count = 0
    tap(page.get_by_role("link", name="Test", exact=True))
    tap(page.get_by_role("link", name="Reload (Ammo test)"))
    choose(page, "weapon", 1)
    tap.count += 1
    table_dice(page, tap, [1])
    back_on_the_battle(page, battle)
    taps["Reload (table dice)"] = tap.count
    tap.count = 0
    tap(page.get_by_role("link", name="Test", exact=True))
    tap(page.get_by_role("link", name="Reload (Ammo test)"))
    choose(page, "weapon", 1)
    tap.count += 1
    expect(page.get_by_test_id("odds")).to_be_visible()
    tap(page.get_by_test_id("roll"))
    back_on_the_battle(page, battle)
    taps["Reload (server dice)"] = tap.count
    assert no_horizontal_scroll(page)
    print("TAPS", taps)
    assert taps == {
        "Rapid Fire split (server dice)": 4,
        "Missed Blast and its scatter (table dice)": 8,
        "Fighter under the scattered marker (server dice)": 3,
        "Agility test (table dice)": 5,
        "Reload (table dice)": 5,
        "Reload (server dice)": 4,
    }
