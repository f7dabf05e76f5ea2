import pytest

from conftest import PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_sign_up_then_log_in_through_the_browser(page):
    page.goto("/")
    page.get_by_role("link", name="Sign up").first.click()
    page.fill("input[name=username]", "ratskin")
    page.fill("input[name=email]", "ratskin@example.com")
    page.fill("input[name=password1]", PASSWORD)
    page.fill("input[name=password2]", PASSWORD)
    page.get_by_role("button", name="Create account").click()
    page.wait_for_selector("text=Welcome to the underhive, ratskin.")
    assert page.locator(".who-name").inner_text() == "ratskin"

    page.get_by_role("button", name="Log out").click()
    page.get_by_role("link", name="Log in").first.click()
    page.fill("input[name=username]", "ratskin")
    page.fill("input[name=password]", PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_selector(".who-name")
    assert page.locator(".who-name").inner_text() == "ratskin"
