"""The review of a lost game in real Chromium: from the end panel, the verdict fills in (htmx
polling), a try is checked and answered, a winning line can be stepped through, with axe clean;
and the same without JavaScript (the page refreshes itself until done, then plain form posts)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, Page, expect
from pytest_django.live_server_helper import LiveServer

from tests.helpers.browser import lose_a_game, no_serious_violations

pytestmark = pytest.mark.django_db(transaction=True)


def test_review_a_lost_game_try_a_move_and_see_the_answer(
    page: Page, live_server: LiveServer, errors: list[str]
) -> None:
    lose_a_game(page.context, page, live_server.url)
    expect(page.get_by_role("heading", name="No moves left")).to_be_visible()

    page.get_by_role("link", name="Review this game").click()
    verdict = page.locator("[data-review-state]")
    expect(verdict).to_have_attribute("data-review-state", "done", timeout=30_000)
    assert int(verdict.get_attribute("data-last-winnable") or "-2") >= 0
    expect(page.get_by_role("heading", name="Where it slipped away")).to_be_visible()
    expect(page.get_by_text("Find a move that keeps it.")).to_be_visible()
    assert no_serious_violations(page) == []

    page.locator(".try-form button").first.click()
    answer = page.locator("[data-try]")
    expect(answer).to_be_visible()
    assert answer.get_attribute("data-try") in ("won", "lost")
    expect(page.get_by_role("heading", name="A move that keeps the win")).to_be_visible()
    page.get_by_role("link", name="Next").click()
    expect(page.locator(".step-count")).to_contain_text("Move 1 of")
    assert no_serious_violations(page) == []
    assert errors == []


def test_review_without_javascript(browser: Browser, live_server: LiveServer) -> None:
    context = browser.new_context(java_script_enabled=False, viewport={"width": 390, "height": 844})
    page = context.new_page()
    game = lose_a_game(context, page, live_server.url)

    page.get_by_role("link", name="Review this game").click()
    expect(page).to_have_url(re.compile(rf"/game/{game}/review/$"))
    # Without JavaScript the page cannot post its own ask as it loads: one press starts it (a
    # page view never starts work), then the page refreshes itself until it is done.
    page.get_by_role("button", name="Start the review").click()
    expect(page).to_have_url(re.compile(rf"/game/{game}/review/$"))
    # The page's own refresh, every 5 s while working, until the review is done.
    expect(page.locator("[data-review-state]")).to_have_attribute(
        "data-review-state", "done", timeout=120_000
    )

    page.locator(".try-form button").first.click()
    expect(page.locator("[data-try]")).to_be_visible()
    expect(page.get_by_text("One move that keeps it")).to_be_visible()
    page.get_by_role("link", name="Next").click()
    expect(page.locator(".step-count")).to_contain_text("Move 1 of")
    context.close()
