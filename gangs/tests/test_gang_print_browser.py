"""Paper, as Chromium prints it (``page.pdf``): fighter cards and roster sheets of every demo gang on A4 and Letter,
counted, read back with poppler and checked for profiles and for anything cut off at a card's or a page's edge."""

import math
import re
import subprocess
from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from content.models import Equipment
from gangs import services
from gangs.models import ON_ROSTER, Gang

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("pdf_tools")]

PAGE_POINTS = {"a4": (595.3, 841.9), "letter": (612.0, 792.0)}
MM = 72 / 25.4
# What each card shows: its fighter's name, the number of profile rows, and whether anything overflows it.
CARDS = """() => [...document.querySelectorAll('.fcard')].map(card => ({
  name: card.querySelector('h3').textContent.trim(),
  profiles: card.querySelectorAll('tr.profile-cells').length,
  clipped: card.scrollHeight > card.clientHeight + 1 || card.scrollWidth > card.clientWidth + 1,
}))"""


def pdf(page, tmp_path, url: str, name: str):
    page.goto(url)
    page.emulate_media(media="print")
    path = tmp_path / f"{name}.pdf"
    page.pdf(path=str(path), prefer_css_page_size=True, print_background=True)
    return path


def pdf_pages(path) -> tuple[int, tuple[float, float]]:
    info = dict(
        line.split(":", 1)
        for line in subprocess.run(
            ["pdfinfo", str(path)], capture_output=True, text=True, check=True
        ).stdout.splitlines()
        if ":" in line
    )
    width, _, height = info["Page size"].split()[:3]
    return int(info["Pages"]), (float(width), float(height))


def pdf_text(path, page: int | None = None) -> str:
    """The text, spaces folded and a word broken at its hyphen joined again ("Word-Keeper" over two lines)."""
    pages = ["-f", str(page), "-l", str(page)] if page else []
    text = subprocess.run(["pdftotext", *pages, str(path), "-"], capture_output=True, text=True, check=True).stdout
    return re.sub(r"-\s+", "-", " ".join(text.split()))


def words_outside_the_margins(path, size) -> list[str]:
    """Words whose box reaches into the page margins (6 mm top and bottom, 10 mm at the sides), less 1 mm."""
    width, height = PAGE_POINTS[size]
    html = subprocess.run(["pdftotext", "-bbox", str(path), "-"], capture_output=True, text=True, check=True).stdout
    outside = []
    for line in html.splitlines():
        if "<word " not in line:
            continue
        box = {k: float(line.split(f'{k}="')[1].split('"')[0]) for k in ("xMin", "yMin", "xMax", "yMax")}
        if (
            box["xMin"] < 9 * MM
            or box["xMax"] > width - 9 * MM
            or box["yMin"] < 5 * MM
            or box["yMax"] > height - 5 * MM
        ):
            outside.append(line.split(">")[1].split("<")[0])
    return outside


def expected_profiles(gang: Gang) -> dict[str, int]:
    counts = {}
    for fighter in gang.fighters.filter(status__in=ON_ROSTER).prefetch_related("purchases__equipment__profiles"):
        counts[fighter.name] = sum(len(p.equipment.profiles.all()) for p in fighter.purchases.all())
    return counts


def test_every_demo_gang_prints_its_cards_and_roster_whole(page, log_in_browser, settings, tmp_path):
    settings.DEBUG = True
    call_command("demo", stdout=StringIO())
    log_in_browser(get_user_model().objects.get(username="demo"))
    gangs = list(Gang.objects.order_by("pk"))
    assert len(gangs) >= 4
    for gang in gangs:
        profiles = expected_profiles(gang)
        for size in ("a4", "letter"):
            path = pdf(page, tmp_path, f"/gangs/{gang.pk}/print/?cards=1&size={size}", f"cards-{gang.pk}-{size}")
            cards = page.evaluate(CARDS)
            assert {card["name"]: card["profiles"] for card in cards} == profiles, gang.name
            assert [card["name"] for card in cards if card["clipped"]] == [], (gang.name, size)
            has_reference = page.locator(".rules-reference").count() == 1
            pages, points = pdf_pages(path)
            assert points == pytest.approx(PAGE_POINTS[size], abs=1)
            assert pages == math.ceil(len(cards) / 9) + has_reference, (gang.name, size)
            text = pdf_text(path)
            assert [name for name in profiles if name not in text] == [], (gang.name, size)
            assert words_outside_the_margins(path, size) == [], (gang.name, size)

            path = pdf(page, tmp_path, f"/gangs/{gang.pk}/print/?size={size}", f"roster-{gang.pk}-{size}")
            assert pdf_pages(path)[0] == 1, (gang.name, size)  # the demo gangs fit one sheet
            text = pdf_text(path)
            assert [name for name in profiles if name not in text] == [] and "Territories" in text and "Stash" in text
            assert words_outside_the_margins(path, size) == [], (gang.name, size)

    path = pdf(page, tmp_path, f"/gangs/{gangs[0].pk}/print/?cards=blank", "blank")
    assert pdf_pages(path)[0] == 1 and pdf_text(path).count("Notes") == 9


@pytest.mark.parametrize("size", [12, 30])
def test_a_large_roster_packs_fighters_without_a_lone_one_on_the_last_page(
    page, log_in_browser, make_gang, make_fighter, tmp_path, size
):
    gang = make_gang(extra_credits=50 * 40 * size)
    lasgun = Equipment.objects.get(edition="classic", slug="lasgun")
    names = []
    for n in range(size):
        fighter = make_fighter(gang, "leader" if n == 0 else "ganger", name=f"Fighter {n:02d}")
        services.purchase_buy(gang=gang, equipment=lasgun, fighter=fighter, actor=gang.owner)
        names.append(fighter.name)
    log_in_browser(gang.owner)
    path = pdf(page, tmp_path, f"/gangs/{gang.pk}/print/", "roster")
    pages = pdf_pages(path)[0]
    assert pages <= math.ceil(size / 8)  # at least eight fighters a page
    assert sum(name in pdf_text(path, pages) for name in names) != 1
    assert all(name in pdf_text(path) for name in names)
    assert words_outside_the_margins(path, "a4") == []


def test_on_a_phone_the_sheet_and_the_cards_fit_the_screen(page, log_in_browser, settings):
    """At 412 px (the page fixture's phone) a fighter's columns stack and cards wrap: nothing scrolls sideways and
    no profile column is squeezed to a sliver; printing keeps the paper layout (the tests above)."""
    settings.DEBUG = True
    call_command("demo", stdout=StringIO())
    log_in_browser(get_user_model().objects.get(username="demo"))
    gang = Gang.objects.filter(owner__username="demo").order_by("pk").first()
    for query in ("", "cards=1"):
        page.goto(f"/gangs/{gang.pk}/print/?{query}")
        assert page.evaluate("document.documentElement.scrollWidth") <= 412, query
        narrowest = page.evaluate(
            "Math.min(...[...document.querySelectorAll('table.profiles')].map(t => t.getBoundingClientRect().width))"
        )
        assert narrowest >= 200, (query, narrowest)
