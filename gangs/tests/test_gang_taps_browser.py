"""Taps to build and equip a 10-fighter gang on a 412 px phone (issue 24), the old way (hire, then each item from
the fighter's page) and with hire-with-kit and copy. Each click, fill, choice or tick is one tap; the figures are
printed (make no wall-clock claim) and the new way must take fewer."""

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# (type, name, kit): a Leader, two Forge Bosses, five Bruisers and two Bullies: 990 of the 1000 credits.
GANG = [("Forge Tyrant", "Krag", ("Stub cannon", "Fighting knife"))]
GANG += [("Forge Boss", name, ("Stub cannon", "Fighting knife")) for name in ("Vex", "Kor")]
GANG += [("Bruiser", name, ("Stub cannon", "Fighting knife")) for name in ("Grug", "Grog", "Brak", "Tusk", "Mog")]
GANG += [("Bully", name, ("Fighting knife",)) for name in ("Nix", "Pip")]


class Taps:
    """The page, counting what a player's finger does."""

    def __init__(self, page) -> None:
        self.page, self.count = page, 0

    def click(self, locator) -> None:
        self.count += 1
        locator.click()

    def fill(self, selector: str, text: str) -> None:
        self.count += 1  # a tap on the field (the typing is not counted)
        self.page.fill(selector, text)

    def choose(self, selector: str, text: str) -> None:
        self.count += 1
        value = self.page.locator(f"{selector} option", has_text=text).first.get_attribute("value")
        self.page.select_option(selector, value)


def found(taps: Taps, house, name: str) -> None:
    page = taps.page
    page.goto("/gangs/")
    taps.click(page.get_by_role("link", name="Found a gang"))
    taps.fill("input[name=name]", name)
    taps.count += 1
    page.select_option("select[name=house]", str(house.pk))
    taps.click(page.get_by_role("button", name="Found the gang"))
    page.wait_for_selector(f"text={name} founded with 1000 credits.")


def hire(taps: Taps, kind: str, name: str, kit=()) -> None:
    page = taps.page
    taps.choose("#roster select[name=fighter_type]", f"{kind} (")
    taps.fill("#roster input[name=name]", name)
    if kit:
        taps.click(page.get_by_test_id("choose-kit"))
        page.wait_for_selector("#roster fieldset.hire-kit")
        for item in kit:
            taps.click(page.locator("#roster fieldset.hire-kit label", has_text=f"{item} ("))
    taps.click(page.get_by_role("button", name="Hire", exact=True))
    page.wait_for_selector(f"#roster h3 >> text={name}")


def test_taps_to_build_and_equip_a_ten_fighter_gang(page, log_in_browser, make_user, make_house_list, capsys):
    house = make_house_list("n18")
    user = make_user("kal")
    log_in_browser(user)

    # Before: hire each fighter, then buy each item on the fighter's page.
    before = Taps(page)
    found(before, house, "Old Way")
    for kind, name, _ in GANG:
        hire(before, kind, name)
    for _, name, kit in GANG:
        before.click(page.get_by_role("link", name=name, exact=True))
        for item in kit:
            before.choose("select[name=equipment]", f"{item} —")
            before.click(page.get_by_role("button", name="Buy"))
            page.wait_for_selector(f"#fighter >> text={item}")
        before.click(page.get_by_role("link", name="← Old Way"))
    old = user.gangs.get(name="Old Way")

    # After: the first of each kind hired with its kit in one step, the others copied from its page.
    after = Taps(page)
    found(after, house, "New Way")
    first = {}
    for kind, name, kit in GANG:
        if kind in first:
            continue
        first[kind] = name
        hire(after, kind, name, kit)
    for kind, source in first.items():
        copies = [name for k, name, _ in GANG if k == kind and name != source]
        if not copies:
            continue
        after.click(page.get_by_role("link", name=source, exact=True))
        for name in copies:
            after.fill("#copy_name", name)
            after.click(page.get_by_test_id("copy-fighter"))
            page.wait_for_selector(f"h1 >> text={name}")
        after.click(page.get_by_role("link", name="← New Way"))
    new = user.gangs.get(name="New Way")

    def kit_of(gang):
        return sorted((f.name, sorted(p.equipment.name for p in f.purchases.all())) for f in gang.fighters.all())

    assert kit_of(new) == kit_of(old) and len(kit_of(new)) == 10
    assert new.stash == old.stash == 10
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    with capsys.disabled():
        print(f"\nTaps to build and equip a 10-fighter gang at 412 px: {before.count} before, {after.count} after")
    assert after.count < before.count
