"""A standalone player records a Lasting Injury, sees its effect and undoes it; sells an item and undoes the sale."""

import pytest

from content.models import Equipment
from gangs import services

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def no_sideways_scroll(page) -> bool:
    return page.evaluate("document.scrollingElement.scrollWidth <= window.innerWidth")


def bs(page) -> str:
    line = page.locator("#fighter table.statline").first
    headers = [h.strip() for h in line.locator("th").all_inner_texts()]
    return line.locator("td").nth(headers.index("BS")).inner_text().strip()


@pytest.mark.parametrize("width", [412, 1280])
def test_record_an_injury_see_it_and_undo_it_then_sell_and_undo(
    page, log_in_browser, make_gang, make_fighter, tmp_path, width
):
    gang = make_gang(edition="n18", name="Forge Born")
    krag = make_fighter(gang, "leader", name="Krag")
    make_fighter(gang, "ganger", name="Dorn")
    knife = Equipment.objects.get(edition="n18", slug="fighting-knife")
    services.purchase_buy(gang=gang, equipment=knife, fighter=krag, actor=gang.owner)
    page.set_viewport_size({"width": width, "height": 900})
    log_in_browser(gang.owner)

    page.goto(f"/gangs/{gang.pk}/fighters/{krag.pk}/")
    assert bs(page) == "4+"
    page.get_by_text("Lasting Injury", exact=True).click()
    page.get_by_label("Dice rolled at the table", exact=True).check()
    page.fill("input[name=injury-dice]", "4 4")
    page.get_by_role("button", name="Record the injury").click()
    page.wait_for_selector("#fighter section[aria-labelledby=inj-title] >> text=Eye Injury")
    assert bs(page) == "5+"  # the rulebook's effect: one step worse
    assert "In Recovery" in page.locator("#fighter header").inner_text()
    history = page.get_by_test_id("fighter-history")
    assert "Eye Injury" in history.inner_text() and "dice: 4, 4" in history.inner_text()
    assert no_sideways_scroll(page)
    page.screenshot(path=str(tmp_path / f"fighter-{width}.png"), full_page=True)

    history.get_by_role("button", name="Undo").first.click()  # the injury and the Recovery it caused, together
    page.wait_for_selector("text=(undone)")
    assert bs(page) == "4+" and "Active" in page.locator("#fighter header").inner_text()

    page.get_by_role("link", name="Sell…").click()
    assert "Sell Fighting knife?" in page.locator("h1").inner_text()
    assert "5 to 5 credits" in page.get_by_test_id("sale-rule").inner_text()
    assert no_sideways_scroll(page)
    page.get_by_role("button", name="Sell it").click()
    page.wait_for_selector("text=Sold Fighting knife for 5 credits")
    assert page.get_by_role("link", name="Sell…").count() == 0  # Krag carries nothing now
    page.get_by_test_id("fighter-history").locator("li", has_text="Sold Fighting knife").get_by_role(
        "button", name="Undo"
    ).click()
    page.get_by_role("link", name="Sell…").wait_for()  # the knife is back in Krag's hands
    page.goto(f"/gangs/{gang.pk}/history/")
    assert page.locator("text=(undone)").count() >= 2
