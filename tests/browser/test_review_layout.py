"""The review's "Find the move" shows the position it asks about in the same screen as its
buttons (issue 42), at 390x844 and 1280x800."""

from __future__ import annotations

import re

import pytest
from django.core.cache import cache
from playwright.sync_api import Browser, expect
from pytest_django.live_server_helper import LiveServer

from tests.helpers.browser import open_dealt
from tests.helpers.review import LOST_BEFORE_A_REDEAL, greedy_record

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
    number, rules = LOST_BEFORE_A_REDEAL
    base = live_server.url
    open_dealt(page, f"{base}/deal/{number}/?rules={rules}")
    found = re.search(r'data-game="(\d+)"', page.content())
    assert found is not None
    token = next(c["value"] for c in context.cookies() if c["name"] == "csrftoken")
    for count, text in enumerate(greedy_record(number, rules)):
        action, form = ("redeal", {}) if text == "R" else ("move", {"move": text})
        answer = context.request.post(
            f"{base}/game/{found[1]}/{action}/",
            form={"n": str(count), "auto": "0", **form},
            headers={"X-CSRFToken": token, "HX-Request": "true"},
        )
        assert answer.status == 200, (count, text)
    page.goto(f"{base}/game/{found[1]}/review/")
    verdict = page.locator("[data-review-state]")
    expect(verdict).to_have_attribute("data-review-state", "done", timeout=30_000)
    expect(page.locator(".find-move .try-form button").first).to_be_visible()
    measured = page.evaluate(SPAN)
    assert measured["span"] <= measured["inner"], measured
    context.close()
