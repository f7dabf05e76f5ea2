"""The flows at the table, in a phone-sized browser: a shooting action, a fight, and ending a battle into its report."""

import pytest
from playwright.sync_api import expect

from battles.tests.test_battles_table_speed_browser import back_on_the_battle

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def no_horizontal_scroll(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def test_shoot_shows_the_odds_then_rolls_the_entered_dice(page, log_in_browser, make_battle, tmp_path):
    battle = make_battle("classic", fighters=2)
    shooter = battle.fighters.get(side="attacker", order=0)
    target = battle.fighters.get(side="defender", order=0)
    log_in_browser(battle.player_a)
    page.goto(f"/battles/{battle.pk}/")
    assert no_horizontal_scroll(page)
    page.get_by_role("navigation", name="Actions", exact=True).get_by_role("link", name="Shoot").click()
    page.select_option("select[name=shooter]", label=f"{shooter.name}: Laspistol")
    page.select_option("select[name=target]", str(target.pk))
    page.fill("input[name=distance]", "6")
    page.keyboard.press("Tab")  # the choice is complete: the odds come without a tap
    odds = page.get_by_test_id("odds")
    odds.wait_for()
    assert "Out of action" in odds.inner_text()
    assert no_horizontal_scroll(page)
    page.screenshot(path=str(tmp_path / "battle-shoot-odds.png"), full_page=True)
    page.locator("summary", has_text="Type them instead").click()
    page.fill("input[name=dice]", "3 6 6")
    page.get_by_role("button", name="Apply the typed dice").click()
    back_on_the_battle(page, battle)
    card = page.get_by_test_id(f"fighter-{target.pk}")
    assert "Out of Action" in card.inner_text()
    assert "Laspistol" in page.locator(".action-log").inner_text()
    page.screenshot(path=str(tmp_path / "battle-detail.png"), full_page=True)


def test_a_fight_rolled_on_the_server(page, log_in_browser, make_battle, tmp_path):
    battle = make_battle("n18", fighters=2)
    attacker = battle.fighters.get(side="attacker", order=1)
    defender = battle.fighters.get(side="defender", order=1)
    log_in_browser(battle.player_b)
    page.goto(f"/battles/{battle.pk}/act/fight/")
    page.select_option("select[name=attacker]", label=f"{attacker.name}: Fighting knife")
    page.select_option("select[name=target]", str(defender.pk))
    page.get_by_test_id("odds").wait_for()
    odds = page.get_by_test_id("odds").inner_text()
    assert "Out of action" in odds and "The attacker, after Reaction attacks" in odds  # strikes back by default
    assert no_horizontal_scroll(page)
    page.screenshot(path=str(tmp_path / "battle-fight-odds.png"), full_page=True)
    page.get_by_role("button", name="Roll here").click()
    back_on_the_battle(page, battle)
    assert f"{attacker.name} fights {defender.name}" in page.locator(".action-log").inner_text()
    attacker.refresh_from_db()
    # The server's dice decide whether the Reaction attacks took the attacker Out of Action; either way they have
    # activated, and they stay engaged unless taken out (battles.rules.lock_in_combat).
    assert not attacker.ready and attacker.engaged == (not attacker.out_of_action)


def test_end_the_battle_into_its_report(page, log_in_browser, make_battle, tmp_path):
    battle = make_battle("classic", fighters=2)
    log_in_browser(battle.player_a)
    page.goto(f"/battles/{battle.pk}/")
    page.get_by_role("link", name="End the battle").click()
    page.get_by_label(battle.gang_b.name).check()
    page.fill("textarea[name=notes]", "Held the bridge")
    page.get_by_role("button", name="End the battle and write the report").click()
    page.wait_for_url(f"**/battles/{battle.pk}/report/")
    report = page.get_by_test_id("report").inner_text()
    assert f"{battle.gang_b.name} won after" in report and "Held the bridge" in report
    assert no_horizontal_scroll(page)
    page.screenshot(path=str(tmp_path / "battle-report.png"), full_page=True)


def test_the_follow_view_refreshes_itself(page, log_in_browser, make_battle, make_user):
    from battles.services import battle_advance

    battle = make_battle("classic", fighters=2)
    log_in_browser(make_user())
    page.goto(f"/battles/{battle.pk}/follow/")
    assert "Movement phase" in page.locator(".turn-line").inner_text()
    battle_advance(session=battle, actor=battle.player_a)
    # A locator wait, not wait_for_function: that evaluates a string in the page, which the CSP forbids.
    expect(page.locator(".turn-line")).to_contain_text("Shooting", timeout=8000)


def test_the_shoot_menu_offers_what_resolves_and_says_what_it_leaves_out(page, log_in_browser, make_battle, tmp_path):
    battle = make_battle("n18", fighters=2)
    shooter = battle.fighters.get(side="attacker", order=0)
    combi = {"name": "Cawdor charger/autogun", "ap": 0, "damage": 1}
    shooter.profile["weapons"] = [
        {
            "key": "p9001",
            "name": "Scrap thrower",
            "slug": "scrap-thrower",
            "category": "special",
            "shoots": True,
            "fights": False,
            "profiles": [
                {
                    "name": "",
                    "ammo": "5+",
                    "query": {
                        "weapon": {
                            "name": "Scrap thrower",
                            "short_range": 6,
                            "long_range": 12,
                            "strength": 3,
                            "ap": 0,
                            "damage": "-",
                        }
                    },
                }
            ],
        },  # a printed "-" is no Damage (one not given reads as 1)
        {
            "key": "p9002",
            "name": combi["name"],
            "slug": "cawdor-charger-autogun",
            "category": "basic",
            "shoots": True,
            "fights": False,
            "profiles": [
                {
                    "name": "charger",
                    "ammo": None,
                    "query": {
                        "weapon": {
                            **combi,
                            "long_range": "E",
                            "strength": "S+1",
                            "traits": ["Lance", "Melee", "Unwieldy"],
                        }
                    },
                },
                {
                    "name": "reclaimed autogun",
                    "ammo": "5+",
                    "query": {
                        "weapon": {
                            **combi,
                            "short_range": 8,
                            "long_range": 24,
                            "acc_short": 1,
                            "strength": 3,
                            "ammo": "5+",
                            "traits": ["Rapid Fire (1)"],
                        }
                    },
                },
            ],
        },
    ]
    shooter.save()
    log_in_browser(battle.player_a)
    page.goto(f"/battles/{battle.pk}/act/shoot/?fighter={shooter.pk}")
    weapons = page.locator(".field-shooter")
    expect(weapons.get_by_label("Cawdor charger/autogun (reclaimed autogun)")).to_be_visible()
    assert weapons.get_by_label("Cawdor charger/autogun (charger)").count() == 0
    expect(page.get_by_test_id("left-out")).to_contain_text(
        "Scrap thrower: its profile has no Damage, so there is no hit to resolve; roll it at the table."
    )
    assert no_horizontal_scroll(page)
    page.screenshot(path=str(tmp_path / "battle-shoot-left-out.png"), full_page=True)
    page.goto(f"/battles/{battle.pk}/act/fight/?fighter={shooter.pk}")
    expect(page.locator(".field-attacker").get_by_label("Cawdor charger/autogun (charger)")).to_be_visible()
    assert no_horizontal_scroll(page)
