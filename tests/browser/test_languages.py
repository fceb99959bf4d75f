"""The French and German pages in Chromium: accessible (axe), and the footer's language menu
takes a player to the same page in the chosen language, remembered by the redirect from /."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page, expect
from pytest_django.live_server_helper import LiveServer

from tests.helpers.browser import no_serious_violations


@pytest.mark.parametrize("path", ["/fr/rules/", "/de/rules/", "/de/offline/", "/fr/no-such-page/"])
def test_no_serious_accessibility_violations_in_french_and_german(
    page: Page, live_server: LiveServer, path: str
) -> None:
    page.goto(f"{live_server.url}{path}")

    assert no_serious_violations(page) == []


def test_a_french_browser_is_sent_to_french_once_and_may_choose_english(
    browser: Browser, live_server: LiveServer
) -> None:
    context = browser.new_context(locale="fr-FR")
    page = context.new_page()

    page.goto(f"{live_server.url}/")
    expect(page).to_have_url(f"{live_server.url}/fr/")
    assert page.locator("html").get_attribute("lang") == "fr"

    page.goto(f"{live_server.url}/fr/rules/")
    page.get_by_role("button", name="English").click()
    expect(page).to_have_url(f"{live_server.url}/rules/")
    expect(page.get_by_role("heading", level=1)).to_have_text("How to play La Belle Lucie")

    page.goto(f"{live_server.url}/")
    expect(page).to_have_url(f"{live_server.url}/")
    context.close()
