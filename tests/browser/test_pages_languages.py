"""The pages around the board in French and German, in Chromium: accessible (axe), with the
calendar's month and weekdays in the page's language."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from tests.helpers.browser import no_serious_violations


@pytest.mark.parametrize(
    "path",
    ["/fr/daily/", "/de/daily/", "/fr/stats/", "/de/stats/transfer/", "/fr/import/", "/de/import/"],
)
def test_no_serious_accessibility_violations_in_french_and_german(
    page: Page, live_server: LiveServer, path: str
) -> None:
    page.goto(f"{live_server.url}{path}")

    assert no_serious_violations(page) == []


@pytest.mark.parametrize(("code", "monday"), [("fr", "lun"), ("de", "Mo")])
def test_the_calendar_reads_its_weekdays_in_the_language(
    page: Page, live_server: LiveServer, code: str, monday: str
) -> None:
    page.goto(f"{live_server.url}/{code}/daily/")
    page.get_by_role("link", name="Calendrier" if code == "fr" else "Kalender").first.click()

    calendar = page.get_by_role("table").first
    expect(calendar.get_by_role("columnheader", name=monday, exact=True)).to_have_count(1)


@pytest.mark.parametrize(
    ("code", "local", "countdown"),
    [("fr", "à votre heure", "Prochaine donne dans"), ("de", "Ihre Ortszeit", "Nächstes Spiel in")],
)
def test_the_rollover_and_the_countdown_speak_the_language(
    page: Page, live_server: LiveServer, code: str, local: str, countdown: str
) -> None:
    page.goto(f"{live_server.url}/{code}/daily/")

    expect(page.locator("time[data-local-time]")).to_contain_text(local)
    expect(page.locator("[data-countdown]")).to_contain_text(countdown)
    assert "your time" not in page.locator("main").inner_text()
