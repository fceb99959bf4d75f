"""A table that never moves under the hand (issue 42, docs/table.md): a fan growing from 3 to 10
cards moves no other fan or row, from 320 to 1920 px; the table with a fan of ten stays in the
first screen on phones; long fans read where there is room; Show a win's line, a loss and a win
move neither the felt nor the page."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, expect
from pytest_django.live_server_helper import LiveServer

from game import engine
from tests.helpers.browser import FAN_OF_TEN, LOSS, POST_MOVE, greedy_win, play_through, tap

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]


# Where every fan and the felt lie on the page (scroll included), rounded to 0.1 px.
PLACES = """() => {
  const at = (el) => { const r = el.getBoundingClientRect();
    return [Math.round((r.left + scrollX) * 10) / 10, Math.round((r.top + scrollY) * 10) / 10]; };
  const felt = document.querySelector("#board .table");
  const fans = Array.from(document.querySelectorAll("#board .fan"), (fan) => at(fan));
  const r = felt.getBoundingClientRect();
  return { felt: at(felt), feltBottom: Math.round(r.bottom + scrollY), fans,
           inner: innerHeight, scroll: scrollY };
}"""

STRIPS = """() => {
  const fan = Array.from(document.querySelectorAll("#board .fan"))
    .find((f) => f.children.length >= 10);
  const cards = Array.from(fan.children);
  const top = (c) => c.getBoundingClientRect().top;
  const steps = cards.slice(1).map((c, i) => top(c) - top(cards[i]));
  const index = Math.min(...cards.slice(0, -1)
    .map((c) => c.querySelector(".index .rank").getBoundingClientRect().height));
  return { step: Math.min(...steps), index, count: cards.length };
}"""


# The narrowest card at each size, the same from the opening to a fan of ten (issue 46).
CARD_AT_LEAST = {(320, 640): 36, (375, 667): 44, (390, 844): 50, (1280, 800): 99, (1920, 1080): 150}
LANGUAGES = {"en": "", "fr": "/fr", "de": "/de"}

CARD_WIDTH = """() => Math.min(...Array.from(document.querySelectorAll("#board .fan .card.is-top"),
  (c) => c.getBoundingClientRect().width))"""


@pytest.mark.parametrize("language", list(LANGUAGES))
@pytest.mark.parametrize("size", [(320, 640), (375, 667), (390, 844), (1280, 800), (1920, 1080)])
def test_a_fan_growing_to_ten_moves_no_other_fan_nor_row(
    live_server: LiveServer, browser: Browser, size: tuple[int, int], language: str
) -> None:
    width, height = size
    page = browser.new_page(viewport={"width": width, "height": height})
    url = live_server.url + LANGUAGES[language]
    play_through(page, url, FAN_OF_TEN, upto=0)
    before = page.evaluate(PLACES)
    opening_card = page.evaluate(CARD_WIDTH)
    play_through(page, url, FAN_OF_TEN)
    card = page.evaluate(CARD_WIDTH)
    assert card == opening_card
    assert card >= CARD_AT_LEAST[size] - 0.05, f"{language} {width}x{height}: cards of {card} px"
    after = page.evaluate(PLACES)
    assert after["felt"] == before["felt"]
    moved = [
        f"fan {i + 1}: {a} -> {b}"
        for i, (a, b) in enumerate(zip(before["fans"], after["fans"], strict=True))
        if a != b
    ]
    assert not moved, f"at {width}x{height}: " + "; ".join(moved)
    strips = page.evaluate(STRIPS)
    assert strips["count"] == 10
    # The whole table, the fan of ten included, in the first screen.
    assert after["feltBottom"] <= height, f"felt ends at {after['feltBottom']} of {height}"
    if width >= 1280:
        assert strips["step"] >= 20 - 0.05, strips
        assert strips["index"] >= 14 - 0.05, strips
    else:
        assert strips["step"] >= 14 - 0.05, strips
    if (width, height) == (1920, 1080):
        assert height - after["feltBottom"] <= 60
    print(
        f"{language} {width}x{height}: card {card:.1f} px, strips {strips['step']:.1f} px, "
        f"felt ends at {after['feltBottom']} of {height}"
    )
    page.close()


@pytest.mark.parametrize("size", [(320, 640), (375, 667), (390, 844)])
def test_small_phones_reach_the_issues_card_and_strip_sizes(
    live_server: LiveServer, browser: Browser, size: tuple[int, int]
) -> None:
    width, height = size
    page = browser.new_page(viewport={"width": width, "height": height})
    play_through(page, live_server.url, FAN_OF_TEN)
    card = page.evaluate(CARD_WIDTH)
    strips = page.evaluate(STRIPS)
    after = page.evaluate(PLACES)
    page.close()
    assert after["feltBottom"] <= height
    assert card >= {320: 36, 375: 44, 390: 50}[width] - 0.05, card
    assert strips["step"] >= 14 - 0.05, strips


# The top of the highest card on the felt, and the bottom of Show a win's line.
LINE_OVER_CARDS = """() => {
  const line = document.querySelector("#show-a-win").getBoundingClientRect();
  const cards = Array.from(document.querySelectorAll("#board .table .card"),
    (card) => card.getBoundingClientRect().top);
  return { line: line.bottom, cards: Math.min(...cards) };
}"""


@pytest.mark.parametrize("size", [(320, 640), (375, 667), (390, 844), (1280, 800)])
def test_a_loss_and_show_a_wins_line_move_neither_felt_nor_page(
    live_server: LiveServer, browser: Browser, size: tuple[int, int]
) -> None:
    width, height = size
    page = browser.new_page(viewport={"width": width, "height": height})
    moves = play_through(page, live_server.url, LOSS, upto=len(LOSS[2].split()) - 1)
    before = page.evaluate(PLACES)
    last = engine.Move.parse(LOSS[2].split()[-1])
    tap(page, last, moves + 1)
    expect(page.locator("#board")).to_have_attribute("data-status", "lost")
    page.wait_for_timeout(300)
    after = page.evaluate(PLACES)
    assert (after["felt"], after["scroll"]) == (before["felt"], before["scroll"])
    # The cards the panel marks are in view.
    marked = page.eval_on_selector_all(
        "#board .blocking",
        "els => els.map((e) => { const r = e.getBoundingClientRect();"
        " return r.top >= 0 && r.bottom <= innerHeight; })",
    )
    assert marked
    assert all(marked)

    # Show a win's line, on a game in progress.
    page.goto(f"{live_server.url}/deal/{FAN_OF_TEN[1]}/?rules=lucie")
    before = page.evaluate(PLACES)
    page.locator("#board details.menu summary").click()
    page.locator('[data-action="show-a-win"]').click()
    page.locator('#show-a-win-dialog [data-action="show-a-win-confirm"]').click()
    expect(page.locator("#show-a-win")).to_be_visible(timeout=20000)
    after = page.evaluate(PLACES)
    assert (after["felt"], after["scroll"]) == (before["felt"], before["scroll"])
    # It lies over the status line and the message, not over the cards it steps through.
    over = page.evaluate(LINE_OVER_CARDS)
    assert over["line"] <= over["cards"], over
    page.close()


@pytest.mark.parametrize("size", [(375, 667), (1280, 800)])
def test_a_win_moves_neither_felt_nor_page(
    live_server: LiveServer, browser: Browser, size: tuple[int, int]
) -> None:
    number, moves = greedy_win()
    width, height = size
    page = browser.new_page(viewport={"width": width, "height": height})
    page.goto(f"{live_server.url}/deal/{number}/")
    landed = page.url
    texts = [move.text for move in moves]
    for count, text in enumerate(texts[:-1]):
        landed = page.evaluate(POST_MOVE, [text, count])
    page.goto(landed)
    before = page.evaluate(PLACES)
    tap(page, moves[-1], len(moves))
    expect(page.locator("#board")).to_have_attribute("data-status", "won")
    page.wait_for_timeout(300)
    after = page.evaluate(PLACES)
    assert (after["felt"], after["scroll"]) == (before["felt"], before["scroll"])
    expect(page.locator(".end.won h2")).to_be_in_viewport()
    page.close()
