"""In the browser at a phone's 412 px: the arbitrator sets the campaign's house rules, sees them and the change
log in the campaign's settings, and downloads the campaign export and the standings."""

import json

import pytest
from django.urls import reverse

from campaigns.selectors import rules_in_force

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def fits(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def test_the_arbitrator_sets_house_rules_on_a_phone_and_takes_the_campaign_away(
    page, log_in_browser, two_player_campaign, tmp_path
):
    campaign, arbitrator = two_player_campaign["campaign"], two_player_campaign["users"]["arbitrator"]
    log_in_browser(arbitrator)
    page.goto(reverse("campaigns:campaign-detail", args=[campaign.pk]))
    page.get_by_role("link", name="Change the house rules").click()
    page.get_by_label("Winner credits").fill("40")
    page.get_by_label("Credits per out of action").fill("10")
    page.get_by_label("Income variant").select_option("flat")
    page.get_by_label("Income amount").fill("25")
    page.get_by_label("Why (shown in the change log)").fill("The club's 2027 season")
    page.screenshot(path=str(tmp_path / "house-rules-form.png"), full_page=True)
    assert fits(page)
    page.get_by_role("button", name="Save the house rules").click()
    rules = page.get_by_test_id("house-rules")
    rules.wait_for()
    assert (
        "40 / 0" in rules.inner_text()
        and "25 credits after each battle, in place of the rules' income" in rules.inner_text()
    )
    page.get_by_text("Changes to the house rules").click()
    assert "winner credits: 0 → 40" in rules.inner_text() and "The club's 2027 season" in rules.inner_text()
    assert fits(page)
    assert rules_in_force(campaign).credits_per_out_of_action == 10

    with page.expect_download() as download:
        page.get_by_role("link", name="Export the campaign (JSON)").click()
    exported = json.loads(download.value.path().read_text())
    assert exported["format"] == "underhive-ledger/campaign" and exported["house_rules"][-1]["winner_credits"] == 40
    with page.expect_download() as download:
        page.get_by_role("link", name="Standings (CSV)").click()
    assert download.value.path().read_text().startswith("place,gang,house,player")
