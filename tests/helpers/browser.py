"""How a browser test plays the board in Chromium: open a dealt page, tap a move, wait for the
board, listen to the announcements, run axe."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Literal

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Browser, BrowserContext, Locator, Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from game import engine
from tests.helpers.play import status_of
from tests.helpers.review import LOST_BEFORE_A_REDEAL, greedy_record

TARGET = re.compile(r"\bis-target\b")

# Chromium's headless shell, which the browser tests drive (tests/browser/conftest.py), and the
# full browser, whose default profile denies storage to a frame of another site.
SHELL = Path("/usr/bin/chromium-headless-shell")
FULL_CHROMIUM = Path("/usr/bin/chromium")


def require(binary: Path, package: str) -> None:
    """Skip a test that needs `binary` where it is missing; fail it under CI, which installs it."""
    if binary.exists():
        return
    message = f"this test needs {binary} (apt-get install {package})"
    if os.environ.get("CI"):
        pytest.fail(message)
    pytest.skip(message)


def watch_errors(page: Page) -> list[str]:
    """Console errors from the page and its frames (a CSP refusal shows up as one) and uncaught
    script errors, from now on; a test asserts there were none."""
    seen: list[str] = []
    page.on(
        "console",
        lambda message: (
            seen.append(f"{message.text} at {message.location}")
            if message.type == "error"
            else None
        ),
    )
    page.on("pageerror", lambda error: seen.append(f"uncaught: {error}"))
    return seen


# Records of games (rules, deal, moves) that reach a table a test measures.
# Deal 228 makes a fan of ten in eight moves (its fan 5 grows from 3 to 10 cards).
FAN_OF_TEN = ("lucie", 228, "8C>9C 7C>8C 6C>7C 8H>9H 5C>6C 4C>5C 3C>4C 2C>3C")
# A game without redeals or merci whose last move loses.
LOSS = (
    "nomerci-r0",
    12,
    "8D>9D 2C>3C QC>KC JC>QC 6S>7S 6D>7D 6H>7H 5S>6S AD>2D 8S>9S 5H>6H AD>F 2D>F AH>F TD>JD "
    "JH>QH AS>2S AS>F 2S>F",
)

# Posts one move with the board's own no-script form and answers the page it redirects to.
POST_MOVE = """
async ([move, count]) => {
  const form = document.querySelector("#move-form");
  const data = new FormData(form);
  data.set("move", move);
  data.set("n", String(count));
  const answer = await fetch(form.action, { method: "POST", body: data });
  if (!answer.ok) throw new Error(`${move}: ${answer.status}`);
  return answer.url;
}
"""


def play_through(
    page: Page, url: str, record: tuple[str, int, str], upto: int | None = None
) -> int:
    """Open the deal of `record` at `url` (a prefix such as /fr), post its moves from the deal's
    page (its form stands for the session's game of the deal) and load the game once, after the
    last; the moves played."""
    rules, number, text = record
    moves = text.split()[:upto]
    page.goto(f"{url}/deal/{number}/?rules={rules}")
    landed = page.url
    for count, move in enumerate(moves):
        landed = page.evaluate(POST_MOVE, [move, count])
    if moves:
        page.goto(landed)
    expect(page.locator("#board")).to_have_attribute("data-moves", str(len(moves)))
    return len(moves)


def board(page: Page) -> Locator:
    return page.locator("#board")


def moves_shown(page: Page, count: int) -> None:
    expect(board(page)).to_have_attribute("data-moves", str(count))


def fan_card(page: Page, card: engine.Card) -> Locator:
    return page.locator(f'.fan [data-card="{card.code}"]')


def destination(page: Page, move: engine.Move) -> Locator:
    if move.onto is not None:
        return fan_card(page, move.onto)
    if move.empty_fan is not None:
        return page.locator(f'[data-fan="{move.empty_fan}"] .slot')
    assert move.card is not None
    return page.locator(f'[data-foundation="{move.card.suit}"]')


# No htmx request of the board's under way, and the board settled (the daily page's difficulty
# may still be polling beside it): a function, not a string, which the pages' policy (no
# 'unsafe-eval') would refuse to evaluate.
SETTLED = (
    "() => !document.querySelector("
    "'#board.htmx-settling, #board.htmx-request, #board .htmx-request')"
)


def tap(page: Page, move: engine.Move, count_after: int) -> None:
    """Make `move` the way a player does: tap the card, then the lit place (or press Redeal)."""
    if move.is_redeal:
        page.get_by_role("button", name="Redeal").click()
    else:
        assert move.card is not None
        # As a player's eye does, wait for the last answer to be in place (htmx has settled it).
        page.wait_for_function(SETTLED)
        card = fan_card(page, move.card)
        card.click()
        target = destination(page, move)
        try:
            expect(target).to_have_class(TARGET, timeout=2000)
        except AssertionError:
            # Seen once in CI (PostgreSQL run, loaded machine): the pick did not take. A player
            # taps again; the card must not be picked already, or the tap would put it down.
            expect(card).not_to_have_class(re.compile(r"\bis-selected\b"))
            card.click()
            expect(target).to_have_class(TARGET)
        target.click()
    moves_shown(page, count_after)


def fans(page: Page) -> list[list[str]]:
    found: list[list[str]] = page.eval_on_selector_all(
        "#board .fan",
        "fans => fans.map(f => Array.from(f.querySelectorAll('[data-card]'), c => c.dataset.card))",
    )
    return found


@cache
def greedy_win() -> tuple[int, tuple[engine.Move, ...]]:
    """The first deal that following the greedy hint wins, found at test time."""
    for number in range(1, 500):
        played = engine.Play(number)
        while (found := engine.greedy_hint(played.position)) is not None:
            played.play(found.move)
        if status_of(played) == "won":
            return number, played.moves
    raise AssertionError("no deal in the first 500 is won by the greedy hint")


LISTEN = """region => {
  window.heard = [];
  new MutationObserver(() => {
    const text = region.textContent.trim();
    if (text) window.heard.push(text);
  }).observe(region, { childList: true, characterData: true, subtree: true });
}"""


def no_violations(page: Page) -> list[str]:
    """axe's findings, every impact: "clean" means none."""
    return axe_findings(page, impacts=None)


def no_serious_violations(page: Page) -> list[str]:
    """axe's serious and critical findings: "accessible" means none."""
    return axe_findings(page, impacts=("serious", "critical"))


def axe_findings(page: Page, impacts: tuple[str, ...] | None) -> list[str]:
    """axe's findings of the given impacts (None: all), with how many elements each."""
    results = Axe().run(page)
    return [
        f"{v['id']} ({v['impact']}): {v['help']} ({len(v['nodes'])} nodes)"
        for v in results.response["violations"]
        if impacts is None or v["impact"] in impacts
    ]


# A phone's window and a desktop's, by name: the sizes of the screenshots a reviewer looks at.
SCREENS = {"phone": (390, 844), "desktop": (1280, 800)}


def on_each_screen(
    browser: Browser, scheme: Literal["light", "dark"]
) -> Iterator[tuple[str, Page]]:
    """A fresh page in `scheme` at each of SCREENS in turn, with the screen's name; each page's
    browser context is closed when the next is asked for."""
    for name, (width, height) in SCREENS.items():
        context = browser.new_context(
            viewport={"width": width, "height": height}, color_scheme=scheme
        )
        try:
            yield name, context.new_page()
        finally:
            context.close()


def screenshot(target: Page | Locator, path: Path, *, full_page: bool = False) -> None:
    """Save a picture of the page (all of it with `full_page`) or of one element, for a reviewer.

    Seen once in CI (a slow machine, the 60 shots of the table's layout): Chromium had loaded the
    fonts and then gave no frame for 30 seconds. A picture is not what the test checks, so it is
    taken again: once as it is, then once more after a reload, which draws the same board (a game's
    page is its URL)."""
    page = target if isinstance(target, Page) else target.page

    def shoot(timeout: float) -> None:
        if isinstance(target, Page):
            target.screenshot(path=path, full_page=full_page, timeout=timeout)
        else:
            target.screenshot(path=path, timeout=timeout)

    try:
        shoot(30_000)
        return
    except PlaywrightTimeout:
        pass
    try:
        shoot(60_000)
    except PlaywrightTimeout:
        page.reload()
        shoot(60_000)


def open_dealt(page: Page, url: str) -> None:
    """Open a deal's page (`/deal/N/`, `/daily/`) with its game stored. A browser's first view
    stores nothing until a move; tests that set a game up in the database first deal it for real,
    with the page's own POST (as the "start it anyway" question does)."""
    page.goto(url)
    token = next(c["value"] for c in page.context.cookies() if c["name"] == "csrftoken")
    page.context.request.post(url, headers={"X-CSRFToken": token})
    page.goto(url)


def lose_a_game(context: BrowserContext, page: Page, base: str) -> int:
    """LOST_BEFORE_A_REDEAL's deal played to its loss through the site's own move and redeal posts
    from this browser `context` at `base`; the page is left on the game. Its id."""
    number, rules = LOST_BEFORE_A_REDEAL
    open_dealt(page, f"{base}/deal/{number}/?rules={rules}")
    found = re.search(r'data-game="(\d+)"', page.content())
    assert found is not None
    game = int(found[1])
    token = next(c["value"] for c in context.cookies() if c["name"] == "csrftoken")
    for count, text in enumerate(greedy_record(number, rules)):
        action, form = ("redeal", {}) if text == "R" else ("move", {"move": text})
        answer = context.request.post(
            f"{base}/game/{game}/{action}/",
            form={"n": str(count), "auto": "0", **form},
            headers={"X-CSRFToken": token, "HX-Request": "true"},
        )
        assert answer.status == 200, (count, text)
    page.goto(f"{base}/game/{game}/")
    return game
