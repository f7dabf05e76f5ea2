"""Every page of the demo at phone width: nothing scrolls sideways outside ``.table-scroll`` and
every link, button, field and disclosure is at least a thumb tall (``--tap``, 44px)."""

from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# A checkbox or radio counts by the label around it (or naming it); links inside running text
# are read, not tapped, so they are left out.
SMALL_TARGETS = """() => {
  const tap = 44, small = [];
  const selector = 'header a, header button, main a, main button, main input:not([type=hidden]), main select, main textarea, main summary';
  for (const el of document.querySelectorAll(selector)) {
    const box = el.getBoundingClientRect();
    if (!box.width && !box.height) continue;
    if (el.tagName === 'A' && getComputedStyle(el).display === 'inline' && el.closest('p, li, td, th, dd')) continue;
    let height = box.height;
    if (el.type === 'checkbox' || el.type === 'radio') {
      const label = el.closest('label') || (el.id && document.querySelector(`label[for="${el.id}"]`));
      if (label) height = Math.max(height, label.getBoundingClientRect().height);
    }
    if (height < tap - 0.5) small.push(`${el.tagName} ${(el.textContent || el.name || '').trim().slice(0, 30)} ${Math.round(height)}px`);
  }
  return small;
}"""
WIDE = """() => [...document.querySelectorAll('body *')].filter(
  el => el.getBoundingClientRect().right > window.innerWidth + 1 && !el.closest('.table-scroll')
).map(el => el.tagName + '.' + el.className).slice(0, 5)"""


def demo_pages():
    """One page of each kind the demo user reaches, with fixtures from the demo command."""
    from battles.models import BattleSession
    from campaigns.models import Battle, Campaign
    from gangs.models import Fighter

    campaign = Campaign.objects.get()
    fighter = Fighter.objects.select_related("gang").get(name="Sister Nyx")  # a Ganger: the advance form's checkboxes
    gang = fighter.gang
    battle = Battle.objects.filter(campaign=campaign).order_by("-pk").first()
    table = BattleSession.objects.get()
    return [
        "/gangs/",
        gang.get_absolute_url(),
        f"/gangs/{gang.pk}/fighters/{fighter.pk}/",
        f"/campaigns/{campaign.pk}/",
        f"/campaigns/{campaign.pk}/challenges/new/",
        f"/campaigns/{campaign.pk}/battles/{battle.pk}/report/",
        f"/battles/{table.pk}/",
        f"/battles/{table.pk}/act/shoot/",
        f"/battles/{table.pk}/act/test/?test=nerve",
        f"/battles/{table.pk}/end/",
    ]


def test_demo_pages_have_thumb_sized_targets_and_no_sideways_scroll(page, log_in_browser, settings):
    settings.DEBUG = True
    call_command("demo", stdout=StringIO())
    log_in_browser(get_user_model().objects.get(username="demo"))
    problems = {}
    for url in demo_pages():
        page.goto(url)
        small, wide = page.evaluate(SMALL_TARGETS), page.evaluate(WIDE)
        if small or wide:
            problems[url] = {"small": small, "wide": wide}
    assert problems == {}, problems
    # The header's rows of tap-tall links stack without extra gaps: brand, two rows of nav, the account row.
    assert page.locator(".site-header").bounding_box()["height"] <= 4 * 44 + 32
