"""The Content-Security-Policy breaks nothing a real browser shows: no CSP violation on the demo's pages,
htmx still swaps, and the print button prints. Also the login lockout and password reset as a person meets them."""

import re
from io import StringIO

import pytest
from django.core.management import call_command

from conftest import PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def demo(settings):
    settings.DEBUG = True
    call_command("load_content", stdout=StringIO())
    call_command("demo", stdout=StringIO())
    settings.DEBUG = False
    from django.contrib.auth import get_user_model

    return get_user_model().objects.get(username="demo")


def test_the_demo_pages_raise_no_csp_violation(page, log_in_browser, demo):
    from battles.models import BattleSession
    from campaigns.models import Campaign
    from gangs.models import Gang

    violations = []
    page.on("console", lambda m: violations.append(m.text) if "Content Security Policy" in m.text else None)
    page.on("pageerror", lambda e: violations.append(str(e)))
    log_in_browser(demo)
    gang = Gang.objects.filter(owner=demo).first()
    urls = [
        "/",
        "/content/",
        "/gangs/",
        gang.get_absolute_url(),
        f"/gangs/{gang.pk}/print/?cards=1",
        f"/gangs/{gang.pk}/print/?size=letter",
        "/campaigns/",
        f"/campaigns/{Campaign.objects.first().pk}/",
        "/battles/",
        f"/battles/{BattleSession.objects.first().pk}/",
        "/post-battle/",
    ]
    for url in urls:
        page.goto(url)
        page.wait_for_load_state("load")
    assert violations == []
    # htmx works under the policy: the page has it loaded and configured from the meta tag.
    assert page.evaluate("window.htmx && htmx.config.includeIndicatorStyles === false")
    page.goto(f"/gangs/{gang.pk}/print/")
    page.evaluate("window.print = () => { document.body.dataset.printed = 'yes'; }")
    page.locator("[data-print]").first.click()
    assert page.evaluate("document.body.dataset.printed") == "yes"


def test_a_locked_account_says_so_and_a_reset_link_lets_the_player_back_in(page, make_user, mailoutbox):
    make_user("jak", email="jak@example.com")
    for _ in range(10):
        page.goto("/accounts/login/")
        page.fill("input[name=username]", "jak")
        page.fill("input[name=password]", "wrong")
        page.get_by_role("button", name="Log in").click()
    # The last submit may still be loading: wait for its answer rather than read the page now.
    page.get_by_role("heading", name="Too many failed logins").wait_for()

    page.get_by_role("link", name="reset your password").click()
    page.fill("input[name=email]", "jak@example.com")
    page.get_by_role("button", name="Send the link").click()
    page.wait_for_selector("text=Check your email")
    link = re.search(r"https?://[^/\s]+(/accounts/reset/\S+/)", mailoutbox[0].body).group(1)
    page.goto(link)
    page.fill("input[name=new_password1]", "Fresh-pass-22")
    page.fill("input[name=new_password2]", "Fresh-pass-22")
    page.get_by_role("button", name="Set the password").click()
    page.wait_for_selector("text=Password set")
    assert PASSWORD != "Fresh-pass-22"
