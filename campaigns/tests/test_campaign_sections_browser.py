"""In a real browser: the campaign page's five sections on a phone (no sideways scrolling, the section bar
stays in reach and jumps to each section), on a desktop, and in print (no bar, no forms). Screenshots go to
``UL_SCREENSHOTS`` when it names a folder, for a person to look at."""

import os
from pathlib import Path

import pytest

from campaigns.models import Battle, BattleOrigin

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SECTIONS = ["standings", "this-cycle", "territories", "log", "settings"]


def _shot(page, name: str) -> None:
    folder = os.environ.get("UL_SCREENSHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(folder) / f"{name}.png"), full_page=True)


def test_the_campaign_page_in_sections_on_a_phone_a_desktop_and_paper(page, log_in_browser, two_player_campaign):
    campaign, users, gangs = two_player_campaign["campaign"], two_player_campaign["users"], two_player_campaign["gangs"]
    Battle.objects.create(
        campaign=campaign,
        origin=BattleOrigin.ARRANGED,
        attacker=gangs["alice"],
        defender=gangs["bob"],
        cycle=campaign.cycles.get(number=1),
    )
    log_in_browser(users["arbitrator"])
    page.goto(f"/campaigns/{campaign.pk}/")
    assert page.evaluate("document.documentElement.scrollWidth") <= 412
    nav = page.get_by_role("navigation", name="Campaign sections")
    assert [link.get_attribute("href") for link in nav.get_by_role("link").all()] == [f"#{s}" for s in SECTIONS]
    _shot(page, "campaign-412")
    for section in reversed(SECTIONS):
        nav.get_by_role("link", name={"this-cycle": "Cycle 1"}.get(section, section.title())).click()
        top = f"document.getElementById('{section}').getBoundingClientRect().top"
        at_end = "window.scrollY + window.innerHeight >= document.documentElement.scrollHeight - 2"
        for _ in range(50):  # the jump may scroll smoothly: wait for it (CSP forbids wait_for_function's eval)
            if 0 <= page.evaluate(top) < 200 or page.evaluate(at_end):
                break
            page.wait_for_timeout(50)
        # At the section, or (the last ones) scrolled to the end of the page with the section on screen.
        assert 0 <= page.evaluate(top) < 200 or (page.evaluate(at_end) and page.evaluate(top) < 915)
        assert 0 <= nav.bounding_box()["y"] < 200  # the bar stays in reach
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(f"/campaigns/{campaign.pk}/")
    assert page.evaluate("document.documentElement.scrollWidth") <= 1280
    _shot(page, "campaign-1280")
    page.emulate_media(media="print")
    assert not nav.is_visible() and not page.locator("#settings form").first.is_visible()
    assert page.get_by_role("heading", name="Standings").is_visible()
    _shot(page, "campaign-print")
