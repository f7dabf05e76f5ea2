"""At the table on a phone (412 px): hire a Hanger-on, then answer the notice a Reputation drop raises."""

import pytest

from gangs.ledger import ledger_record
from gangs.models import FighterStatus, LedgerKind
from gangs.testing import build_gang_additions

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def no_sideways_scroll(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def test_hire_a_rogue_doc_and_let_one_go_when_reputation_drops(page, log_in_browser, make_gang, tmp_path):
    build_gang_additions()
    gang = make_gang(edition="n18", name="Dust Rats")
    ledger_record(gang=gang, kind=LedgerKind.REPUTATION, reputation=5, description="Won two battles")
    log_in_browser(gang.owner)
    page.goto(gang.get_absolute_url())

    for name in ("Sawbones", "Stitches"):
        doc = page.locator("#roster select[name=fighter_type] option", has_text="Rogue Doc (Hanger-on, 50 credits)")
        page.select_option("#roster select[name=fighter_type]", value=doc.first.get_attribute("value"))
        page.fill("#roster input[name=name]", name)
        page.get_by_role("button", name="Hire", exact=True).click()
        page.wait_for_selector(f"#roster h3 >> text={name}")  # swapped in place by htmx
    assert page.get_by_test_id("stash").inner_text() == "900 credits"
    assert "2 of 2 allowed at Reputation 5" in page.inner_text("#roster")
    assert no_sideways_scroll(page)

    # The gang loses Reputation (a post-battle result, say): the page asks the owner to choose.
    ledger_record(gang=gang, kind=LedgerKind.REPUTATION, reputation=-1, description="Lost a battle")
    page.reload()
    notice = page.get_by_test_id("let-go-notice")
    assert "Reputation 4 allows 1 Hanger-on or Brute; the gang has 2." in notice.inner_text()
    assert "Choose 1 to let go" in notice.inner_text()
    page.screenshot(path=str(tmp_path / "let-go-412.png"), full_page=True)
    assert no_sideways_scroll(page)
    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="Let Stitches go").click()
    page.wait_for_selector("[data-testid=let-go-notice]", state="detached")
    assert gang.fighters.get(name="Stitches").status == FighterStatus.RETIRED
    assert gang.fighters.get(name="Sawbones").status == FighterStatus.ACTIVE
    assert gang.ledger.filter(kind=LedgerKind.STATUS, fighter__name="Stitches").exists()
