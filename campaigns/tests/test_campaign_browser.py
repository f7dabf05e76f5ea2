"""In a real browser: an arbitrator creates a campaign, two players join with the invitation link,
Cycle 1 is paired, a scenario is rolled with dice from the table, a report is entered and the
opponent confirms it."""

import re

import pytest

from campaigns.models import Battle, BattleStatus, Campaign, JoinRequest

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_campaign_from_creation_to_a_confirmed_report(page, log_in_browser, make_user, make_gang, make_fighter):
    arbitrator, alice, bob = make_user("arbitrator"), make_user("alice"), make_user("bob")
    gangs = {}
    for user in (alice, bob):
        gangs[user.username] = make_gang(owner=user, edition="n18", name=f"{user.username.title()}'s Raiders")
        for _ in range(3):
            make_fighter(gangs[user.username], "ganger")

    log_in_browser(arbitrator)
    page.goto("/campaigns/new/")
    page.select_option("#id_edition", "n18")
    page.fill("#id_name", "Dust Falls League")
    page.click("text=Create the campaign")
    page.wait_for_selector("[data-testid=invite-link]")
    invite = page.input_value("[data-testid=invite-link]")
    campaign_url = page.url

    for user in (alice, bob):
        log_in_browser(user)
        page.goto(invite)
        page.click("text=Enter this gang")
        page.wait_for_selector("text=asks to join Dust Falls League")

    # A gang joins when an arbitrator accepts it (issue 26): the arbitrator accepts both on the campaign page.
    log_in_browser(arbitrator)
    for join in JoinRequest.objects.filter(campaign__name="Dust Falls League").order_by("pk"):
        page.goto(campaign_url)
        page.click(f"[data-testid=join-accept-{join.pk}]")
        page.wait_for_load_state()
    page.goto(campaign_url)
    assert page.locator("[data-testid=standing]").count() == 2
    page.click("text=Start the campaign")
    page.wait_for_selector("[data-testid=cycle]")
    page.fill("#id_dice", "1")
    page.click("text=Pair Cycle 1 at random")
    page.wait_for_selector("text=Cycle 1 is paired.")
    battle = Battle.objects.get(campaign__name="Dust Falls League")
    first_player = battle.attacker.owner

    # one of the players rolls the scenario at the table: 1 + 2 is Smash & Grab; the roll-off 5 v 2
    log_in_browser(first_player)
    page.goto(campaign_url)
    page.click("[data-testid=battle] a")
    page.fill("#id_dice", "1 2 5 2")
    page.click("text=Roll the scenario")
    assert page.text_content("[data-testid=scenario-name]") == "Smash & Grab"
    # The roll-off winner (the first gang, 5 v 2) is asked whether to attack or defend.
    page.check("[data-testid=roles-choice] input[name=role][value=attack]")
    page.get_by_role("button", name="Choose").click()
    page.wait_for_selector("text=Attacker and defender chosen.")
    page.click("text=Enter the report")
    page.check("input[name=result][value=attacker]")
    page.check("#id_defender_bottled")
    page.fill("#id_caskets_opened", "3")
    page.click("text=Save the report")
    page.wait_for_selector("text=Report saved")
    assert page.locator("text=Confirm the report").count() == 0  # the reporter cannot confirm

    opponent = battle.defender.owner
    log_in_browser(opponent)
    page.reload()
    page.click("text=Confirm the report")
    page.wait_for_selector("text=Report confirmed")
    assert page.text_content("[data-testid=battle-status]") == "Confirmed"
    battle.refresh_from_db()
    assert battle.status == BattleStatus.CONFIRMED and battle.winner_id == battle.attacker_id
    assert battle.scenario_facts == {"caskets_opened": 3}
    assert re.search(r"/campaigns/\d+/$", campaign_url)
    assert Campaign.objects.get(name="Dust Falls League").arbitrators.get().user == arbitrator
