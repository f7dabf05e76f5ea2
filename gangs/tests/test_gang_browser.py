"""The flow players use: found a gang, hire and equip it, advance a fighter, print the roster to PDF."""

import subprocess

import pytest

from gangs import services

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("pdf_tools")]


def stash(page) -> int:
    return int(page.get_by_test_id("stash").inner_text().split()[0])


def pdf_info(path) -> dict:
    out = subprocess.run(["pdfinfo", str(path)], capture_output=True, text=True, check=True).stdout
    return dict(line.split(":", 1) for line in out.splitlines() if ":" in line)


def pdf_text(path) -> str:
    return subprocess.run(["pdftotext", "-layout", str(path), "-"], capture_output=True, text=True, check=True).stdout


def test_build_equip_advance_and_print_a_gang(page, log_in_browser, make_user, make_house_list, tmp_path):
    house = make_house_list("classic")
    user = make_user("kal")
    log_in_browser(user)

    page.goto("/")
    page.get_by_role("link", name="My gangs").click()
    page.get_by_role("link", name="Found a gang").click()
    page.fill("input[name=name]", "Iron Rats")
    page.select_option("select[name=house]", str(house.pk))
    page.get_by_role("button", name="Found the gang").click()
    page.wait_for_selector("text=Iron Rats founded with 1000 credits.")
    assert stash(page) == 1000

    hires = [("Leader", "Kal Jerico"), ("Ganger", "Vex"), ("Ganger", "Rusk"), ("Ganger", "Mord"), ("Ganger", "Tam")]
    for kind, name in hires:
        # Each choice shows its price and stat line ("Leader (120 credits) · M 4 WS 3 ...").
        option = page.locator("#roster select[name=fighter_type] option", has_text=f"{kind} (").first
        assert option.inner_text().startswith(f"{kind} ({120 if kind == 'Leader' else 50} credits) · M ")
        page.select_option("#roster select[name=fighter_type]", value=option.get_attribute("value"))
        page.fill("#roster input[name=name]", name)
        page.get_by_role("button", name="Hire").click()
        page.wait_for_selector(f"#roster h3 >> text={name}")  # swapped in place by htmx
    assert stash(page) == 1000 - 120 - 4 * 50
    assert "Not ready to play" not in page.content()

    # A hire that would break a rule is not offered, and the form says why.
    options = page.locator("#roster select[name=fighter_type] option").all_inner_texts()
    assert not any(o.startswith("Leader (") for o in options) and any(
        o.startswith("Ganger (50 credits)") for o in options
    )
    page.wait_for_selector("#roster >> text=Not now: Leader: at most one Leader")
    assert stash(page) == 680

    for _, name in hires:
        page.get_by_role("link", name=name, exact=True).click()
        # Counting options before the fighter page has loaded counts the gang page's (none): wait for it.
        page.wait_for_selector("select[name=equipment] option", state="attached")
        if name == "Vex":  # the filter box narrows the grouped list (static/js/filter-select.js)
            everything = page.locator("select[name=equipment] option").count()
            page.fill("input.select-filter", "las gun")
            assert page.locator("select[name=equipment] option").all_inner_texts() == [
                "Lasgun — 25 credits (Ganger list)"
            ]
            page.fill("input.select-filter", "")
            assert page.locator("select[name=equipment] option").count() == everything > 1
        weapon = "Laspistol — 15 credits" if name == "Kal Jerico" else "Lasgun — 25 credits"
        option = page.locator("select[name=equipment] option", has_text=weapon).get_attribute("value")
        page.select_option("select[name=equipment]", option)
        page.get_by_role("button", name="Buy").click()
        page.wait_for_selector(f"#fighter table.profiles >> text={weapon.split(' —')[0]}")
        page.get_by_role("link", name="← Iron Rats").click()
    assert stash(page) == 680 - 15 - 4 * 25
    gang = user.gangs.get()
    assert gang.stash == 565

    # Vex fights a few battles, then makes the advance roll with dice rolled at the table.
    vex = gang.fighters.get(name="Vex")
    # Hired with 20+D6 (21-26 XP); at 35 XP the 31 threshold has passed, so one advance roll is due.
    services.experience_award(fighter=vex, amount=35 - vex.experience, actor=user, reason="Battles")
    page.get_by_role("link", name="Vex", exact=True).click()
    assert "1 advance roll due" in page.get_by_test_id("advances-due").inner_text()
    page.fill("input[name=dice]", "3 3 5")
    page.get_by_role("button", name="Make the advance roll").click()
    page.wait_for_selector("#fighter .advancements >> text=+1 BS")
    assert "0 advance rolls due" in page.get_by_test_id("advances-due").inner_text()
    assert page.locator("#fighter table.statline td.changed").inner_text() == "4"
    page.get_by_role("link", name="← Iron Rats").click()

    page.get_by_role("link", name="Print roster").click()
    page.wait_for_selector("h1 >> text=Iron Rats")
    for size, points in (("a4", (595.3, 841.9)), ("letter", (612, 792))):
        page.goto(f"/gangs/{gang.pk}/print/?size={size}")
        path = tmp_path / f"roster-{size}.pdf"
        page.pdf(path=str(path), prefer_css_page_size=True, print_background=True)
        info = pdf_info(path)
        width, _, height = info["Page size"].split()[:3]
        assert float(width) == pytest.approx(points[0], abs=1) and float(height) == pytest.approx(points[1], abs=1)
        assert int(info["Pages"]) == 1
        text = pdf_text(path)
        for expected in ("Iron Rats", "Kal Jerico", "Vex", "Tam", "Lasgun", "Laspistol", "Gang rating", "Back to"):
            assert (expected in text) == (expected != "Back to"), expected  # the toolbar does not print
    page.goto(f"/gangs/{gang.pk}/")
    page.get_by_role("link", name="Fighter cards").click()
    page.wait_for_selector(".fcard >> text=Kal Jerico")
    path = tmp_path / "cards.pdf"
    page.pdf(path=str(path), prefer_css_page_size=True, print_background=True)
    assert int(pdf_info(path)["Pages"]) == 1  # five cards on one sheet of nine
    assert all(name in pdf_text(path) for name in ("Kal Jerico", "Vex", "Tam", "Lasgun", "Laspistol"))
