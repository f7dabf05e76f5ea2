"""A player walks their gang through a whole 2018+ post-battle sequence in the browser: one fighter
went Out of Action, one ended Seriously Injured; dice entered from the table, then applied."""

import pytest
from django.urls import reverse

from gangs.models import FighterStatus
from postbattle.models import Sequence, SequenceState

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def roll(page, dice: str, title: str):
    page.get_by_label("Enter the dice we rolled at the table").check()
    page.fill("input[name=dice]", dice)
    page.get_by_role("button", name="Roll this step").click()
    page.get_by_text(title).first.wait_for()


def test_full_sequence_in_the_browser(page, log_in_browser, make_confirmed_battle, tmp_path):
    battle = make_confirmed_battle(
        edition="n18", results=[("attacker", 0, "out_of_action", 2, {}), ("attacker", 1, "seriously_injured", 3, {})]
    )
    gang = battle.attacker
    ganger0, ganger1, leader, champion = list(gang.fighters.order_by("pk"))
    stash = gang.stash
    log_in_browser(gang.owner)
    page.goto(reverse("postbattle:sequence-detail", args=[battle.pk, gang.pk]))
    page.get_by_role("button", name="Start the post-battle sequence").click()
    page.get_by_role("heading", name="Prone & Seriously Injured").wait_for()
    roll(page, "1 4 4", "Lasting Injuries")  # succumbs, 44 Eye Injury
    assert page.get_by_text("Eye Injury (44)").count() >= 1
    roll(page, "6 1", "Scenario rewards")  # 61 Critical Injury
    roll(page, "3 2 1", "Collect Income")
    page.fill("input[name=recruit_name]", "Kid")
    roll(page, "5 6 2", "Post-battle actions")  # 50 credits; 62: a free Juve
    assert page.locator(f"select[name=action_{leader.pk}]").input_value() == "Medical Escort"
    page.select_option(f"select[name=action_{champion.pk}]", "Trade")
    page.screenshot(path=str(tmp_path / "postbattle-actions.png"), full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    roll(page, "3 3 1", "Update roster")  # Stabilised; 31 Convalescence, then Recovery
    page.get_by_label("Roll the dice for me").check()
    page.get_by_role("button", name="Roll this step").click()
    page.get_by_role("button", name="Apply to the roster").click()
    page.get_by_text("Applied to the roster").wait_for()
    page.screenshot(path=str(tmp_path / "postbattle-applied.png"), full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    assert Sequence.objects.get(battle=battle, gang=gang).state == SequenceState.APPLIED
    gang.refresh_from_db(), ganger0.refresh_from_db(), ganger1.refresh_from_db()
    assert gang.stash == stash + 30 + 50
    assert ganger0.status == FighterStatus.RECOVERY and ganger1.status == FighterStatus.RECOVERY
    assert gang.fighters.filter(name="Kid").exists()
    page.goto(reverse("postbattle:gang-history", args=[gang.pk]))
    page.get_by_text("Medical Escort").first.wait_for()
