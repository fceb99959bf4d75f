"""The review's "Find the move" shows the position it asks about in the same screen as its
buttons (issue 42), at 390x844 and 1280x800."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from playwright.sync_api import Browser, expect
from pytest_django.live_server_helper import LiveServer

from tests.helpers.browser import lose_a_game

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]

# The felt's top and the first and last answer buttons' bottoms, the page scrolled to the felt.
SPAN = """() => {
  const felt = document.querySelector(".find-move .table");
  const buttons = Array.from(document.querySelectorAll(".find-move .try-form button"));
  const top = Math.min(felt.getBoundingClientRect().top, buttons[0].getBoundingClientRect().top);
  const bottom = Math.max(felt.getBoundingClientRect().bottom,
    ...buttons.map((b) => b.getBoundingClientRect().bottom));
  return { span: bottom - top, inner: innerHeight };
}"""


@pytest.mark.parametrize("size", [(390, 844), (1280, 800)])
def test_find_the_move_shows_its_board_beside_its_buttons(
    browser: Browser, live_server: LiveServer, size: tuple[int, int]
) -> None:
    cache.clear()
    context = browser.new_context(viewport={"width": size[0], "height": size[1]})
    page = context.new_page()
    game = lose_a_game(context, page, live_server.url)
    page.goto(f"{live_server.url}/game/{game}/review/")
    verdict = page.locator("[data-review-state]")
    expect(verdict).to_have_attribute("data-review-state", "done", timeout=30_000)
    expect(page.locator(".find-move .try-form button").first).to_be_visible()
    measured = page.evaluate(SPAN)
    assert measured["span"] <= measured["inner"], measured
    context.close()
