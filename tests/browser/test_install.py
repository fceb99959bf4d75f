"""The site as an installed app in Chromium: the service worker registers for the whole site, a
navigation with the network cut shows the offline page, and standalone mode has a Back button."""

from __future__ import annotations

import pytest
from playwright.sync_api import BrowserContext, Page, expect
from playwright.sync_api import Error as PlaywrightError
from pytest_django.live_server_helper import LiveServer

KEPT = "Your game is kept: it will be here when you are back online."


def wait_for_worker(page: Page) -> str:
    """Wait until the worker controls the page; return its registration's scope."""
    page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=15_000)
    scope: str = page.evaluate(
        "navigator.serviceWorker.getRegistration().then((registration) => registration.scope)"
    )
    return scope


def test_the_service_worker_registers_for_the_whole_site(
    page: Page, live_server: LiveServer, errors: list[str]
) -> None:
    page.goto(f"{live_server.url}/rules/")

    assert wait_for_worker(page) == f"{live_server.url}/"
    assert errors == []


@pytest.mark.parametrize(
    ("path", "heading", "kept"),
    [
        ("/deal/7/", "You are offline", KEPT),
        ("/fr/deal/7/", "Vous êtes hors ligne", "Votre partie est gardée"),
        ("/de/daily/", "Sie sind offline", "Ihr Spiel bleibt erhalten"),
    ],
)
def test_with_the_network_cut_a_navigation_shows_the_offline_page_in_its_language(
    page: Page, context: BrowserContext, live_server: LiveServer, path: str, heading: str, kept: str
) -> None:
    page.goto(f"{live_server.url}/")
    wait_for_worker(page)

    context.set_offline(True)
    page.goto(f"{live_server.url}{path}")

    expect(page.get_by_role("heading", level=1)).to_have_text(heading)
    expect(page.get_by_text(kept)).to_be_visible()
    assert page.locator("ol.six-lines li").count() == 6

    context.set_offline(False)
    page.reload()
    expect(page.locator("[data-fan], .calendar, main h1").first).to_be_visible()
    expect(page.get_by_role("heading", level=1)).not_to_have_text(heading)


def test_with_the_network_cut_a_board_request_is_not_answered_from_a_cache(
    page: Page, context: BrowserContext, live_server: LiveServer
) -> None:
    page.goto(f"{live_server.url}/deal/7/")
    wait_for_worker(page)
    context.set_offline(True)

    status = page.evaluate(
        """fetch("/deal/7/", {headers: {"HX-Request": "true"}})
             .then((response) => "answered " + response.status, () => "failed")"""
    )

    assert status == "failed"


def test_in_standalone_mode_a_page_has_a_back_button(page: Page, live_server: LiveServer) -> None:
    # Chromium's media emulation does not cover display-mode: answer the query as an installed
    # app's window would.
    page.add_init_script(
        """const matchMedia = window.matchMedia.bind(window);
        window.matchMedia = (query) => query === "(display-mode: standalone)"
            ? {matches: true, media: query, addEventListener() {}} : matchMedia(query);"""
    )
    page.goto(f"{live_server.url}/")
    page.goto(f"{live_server.url}/rules/")

    back = page.locator("[data-app-back]")
    expect(back).to_be_visible()
    back.click()

    expect(page).to_have_url(f"{live_server.url}/")


def test_in_a_browser_tab_the_back_button_stays_hidden(page: Page, live_server: LiveServer) -> None:
    page.goto(f"{live_server.url}/rules/")

    expect(page.locator("[data-app-back]")).to_be_hidden()


def test_with_the_network_cut_the_embed_is_not_answered_by_the_worker(
    page: Page, context: BrowserContext, live_server: LiveServer
) -> None:
    page.goto(f"{live_server.url}/")
    wait_for_worker(page)
    context.set_offline(True)

    # The embed lives in other sites' frames: the worker leaves it to the network, which fails.
    with pytest.raises(PlaywrightError, match="ERR_INTERNET_DISCONNECTED"):
        page.goto(f"{live_server.url}/fr/embed/")
