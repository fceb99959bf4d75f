"""Instant moves (issue 31; static/js/board/instant.js) in real Chromium, with 400 ms of network
latency emulated by Chromium itself (CDP `Network.emulateNetworkConditions`).

Whole games are played through the page, by mouse at 1280x800 and by finger at 390x844, and the
time from the tap on a lit place to the card lying in that place is measured in the page (from the
tap's `pointerdown` to the first animation frame with the card's element in its new fan or
foundation). After the last answer the board must equal a fresh load of the game; a fast player
(150 ms between taps), a stale tab, a refused move, a move made offline and an answer lost on its
way back must all end on the server's board.

Moves are worked out with the engine in the test (its greedy player, which redeals and takes the
merci too) and made through the page only.
"""

from __future__ import annotations

import os
import re
import statistics
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, Route, expect
from pytest_django.live_server_helper import LiveServer

from game import engine

# Only the tests that time what a player sees, or that race taps against answers at a set pace,
# are `timed` (CI runs those alone, last); the rest check what happens, at any speed.
pytestmark = [pytest.mark.django_db(transaction=True)]

# The whole games take minutes with 400 ms of latency: CI plays them on its SQLite run only (the
# database plays no part in what they measure); the short cases run on both.
whole_games = pytest.mark.skipif(
    bool(os.environ.get("DATABASE_URL")), reason="whole games are played on the SQLite run only"
)

LATENCY_MS = 400
GOAL_P95_MS = 50
SETTLED = "() => !document.querySelector('#board.htmx-settling, .htmx-request')"

# In the page: from the next tap's pointerdown to the first frame in which the card `code` lies
# inside `place` (a CSS selector for its new fan or foundation).
PROBE = """([code, place]) => {
  const timing = { start: null, end: null };
  window.__lay = timing;
  window.addEventListener("pointerdown", (event) => { timing.start = event.timeStamp; },
                          { capture: true, once: true });
  const look = (now) => {
    const card = document.querySelector(`#board .table [data-card="${code}"]`);
    if (timing.start !== null && card && card.closest(place)) { timing.end = now; return; }
    requestAnimationFrame(look);
  };
  requestAnimationFrame(look);
}"""


# ---------------------------------------------------------------- helpers


def slow_network(page: Page, latency: int = LATENCY_MS) -> None:
    """Every request of this page waits `latency` ms more, htmx's included."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send(
        "Network.emulateNetworkConditions",
        {"offline": False, "latency": latency, "downloadThroughput": -1, "uploadThroughput": -1},
    )


def greedy_line(number: int) -> tuple[engine.Play, list[engine.Move]]:
    """Deal `number` played by the engine's greedy player to its end: the moves, and the game
    before them (to replay them move by move beside the page)."""
    played = engine.Play(number)
    while (found := engine.greedy_hint(played.position)) is not None:
        played.play(found.move)
    return engine.Play(number), list(played.moves)


def lands_in(position: engine.Position, move: engine.Move) -> str:
    """A selector for the fan or foundation that `move`'s card lies in once played."""
    assert move.card is not None
    if move.to_foundation:
        return f'[data-foundation="{move.card.suit}"]'
    if move.empty_fan is not None:
        return f'[data-fan="{move.empty_fan}"]'
    index = next(i for i, fan in enumerate(position.fans) if fan and fan[-1] == move.onto)
    return f'[data-fan="{index}"]'


def place_for(move: engine.Move) -> str:
    """The element a player taps to put the picked card down."""
    assert move.card is not None
    if move.to_foundation:
        return f'[data-foundation="{move.card.suit}"]'
    if move.empty_fan is not None:
        return f'[data-fan="{move.empty_fan}"] .slot'
    assert move.onto is not None
    return f'.fan [data-card="{move.onto.code}"]'


# The middle of the strip a buried card shows (at least 16 px high): where a player picks a card
# for the merci. Every other place is tapped in its middle, as a player taps it: a tap 5 px under a
# top card's edge was given to the strip above it by Chromium's touch adjustment (CI, deal 5).
STRIP = {"x": 12, "y": 8}


def press(page: Page, selector: str, finger: bool, buried: bool = False) -> None:
    element = page.locator(selector)
    position = STRIP if buried else None
    if finger:
        element.tap(position=position)
    else:
        element.click(position=position)


def table(page: Page) -> dict[str, Any]:
    """What the board shows: every fan's cards, the foundations, the counts, the lit moves."""
    found: dict[str, Any] = page.evaluate(
        """() => {
          const root = document.getElementById("board");
          const codes = (el) =>
            Array.from(el.querySelectorAll("[data-card]"), (c) => c.dataset.card);
          return {
            fans: Array.from(root.querySelectorAll(".fans [data-fan]"), codes),
            homes: Array.from(root.querySelectorAll("[data-foundation]"), (f) => f.dataset.count),
            moves: root.dataset.moves,
            status: root.dataset.status,
            shown: root.querySelector(".moves b").textContent,
            lists: Array.from(root.querySelectorAll(".fan [data-card]"),
                              (c) => `${c.dataset.card}:${c.dataset.moves || ""}`),
            laid: Array.from(root.querySelectorAll(".fan .card.is-top"), (c) => c.dataset.card),
          };
        }"""
    )
    return found


def fresh_table(context: BrowserContext, url: str) -> dict[str, Any]:
    """The same game loaded afresh in another tab: the server's board."""
    other = context.new_page()
    other.goto(url)
    found = table(other)
    other.close()
    return found


def game_url(page: Page) -> str:
    game = page.locator("#board").get_attribute("data-game")
    assert game, "the game is stored after its first move"
    return page.url.split("/deal/")[0].split("/game/")[0] + f"/game/{game}/"


def settle(page: Page, count: int) -> None:
    """The server has answered `count` moves and nothing is on its way."""
    expect(page.locator("#board")).to_have_attribute("data-moves", str(count), timeout=20_000)
    page.wait_for_function(SETTLED)


def play_measured(page: Page, number: int, finger: bool) -> list[float]:
    """Play deal `number`'s greedy line at a player's pace (each tap once the last answer is in),
    returning tap -> card in place, in ms, for every card move."""
    mirror, line = greedy_line(number)
    timings = []
    for count, move in enumerate(line, start=1):
        page.wait_for_function(SETTLED)
        if move.is_redeal:
            press(page, '[data-action="redeal"]', finger)
        else:
            assert move.card is not None
            press(page, f'.fan [data-card="{move.card.code}"]', finger, buried=move.merci)
            expect(page.locator(place_for(move)).first).to_have_class(re.compile(r"\bis-target\b"))
            page.evaluate(PROBE, [move.card.code, lands_in(mirror.position, move)])
            press(page, place_for(move), finger)
            page.wait_for_function("() => window.__lay && window.__lay.end !== null")
            timing = page.evaluate("() => window.__lay.end - window.__lay.start")
            timings.append(timing)
        mirror.play(move)
        settle(page, count)
    return timings


def report(label: str, timings: list[float]) -> tuple[float, float]:
    ordered = sorted(timings)
    median = statistics.median(ordered)
    p95 = ordered[max(0, round(0.95 * len(ordered)) - 1)]
    print(f"{label}: median {median:.0f} ms, p95 {p95:.0f} ms ({LATENCY_MS} ms latency)")
    return median, p95


@pytest.fixture
def phone(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True
    )
    yield context.new_page()
    context.close()


@pytest.fixture
def desktop(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    yield context.new_page()
    context.close()


# ---------------------------------------------------------------- tests


# One test per device, so that the two halves run on two of CI's workers at once.
@whole_games
@pytest.mark.timed
@pytest.mark.slow(seconds=60)
@pytest.mark.parametrize("device", ["mouse", "finger"])
def test_tap_to_card_in_place_over_whole_games_by_mouse_and_finger(
    browser: Browser, live_server: LiveServer, device: str
) -> None:
    finger = device == "finger"
    if finger:
        size, number = {"width": 390, "height": 844}, 4
        context = browser.new_context(viewport=size, has_touch=True, is_mobile=True)
    else:
        size, number = {"width": 1280, "height": 800}, 3
        context = browser.new_context(viewport=size)
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(f"{live_server.url}/deal/{number}/")
        slow_network(page)
        timings = play_measured(page, number, finger)
        assert errors == []
        # The board after the last answer is the server's.
        assert table(page) == fresh_table(page.context, game_url(page))
        label = f"{device} at {size['width']}x{size['height']}, deal {number}"
        median, p95 = report(f"{label}, {len(timings)} card moves", timings)
    finally:
        context.close()
    assert p95 <= GOAL_P95_MS, (median, p95)


# 480 ms: answers come a little after the next card is tapped, and taps land on cards that are
# still buried on screen (three product bugs showed only there: docs/frontend.md).
@whole_games
@pytest.mark.timed
@pytest.mark.slow(seconds=50)
@pytest.mark.parametrize("latency", [LATENCY_MS, 480])
def test_a_fast_player_loses_and_doubles_nothing(
    phone: Page, live_server: LiveServer, latency: int
) -> None:
    """A whole game tapped 150 ms apart, faster than the answers come: every move reaches the
    server once and in order, and the board ends as the server holds it. (Only after a redeal,
    which deals every card afresh, does the player wait to see where the cards went.)"""
    page = phone
    page.emulate_media(reduced_motion="reduce")
    number = 5
    _, line = greedy_line(number)
    page.goto(f"{live_server.url}/deal/{number}/")
    slow_network(page, latency)
    for count, move in enumerate(line, start=1):
        if move.is_redeal:
            # A redeal deals every card afresh: a player looks at the new fans before tapping on.
            page.locator('[data-action="redeal"]').tap()
            settle(page, count)
        else:
            assert move.card is not None
            press(page, f'.fan [data-card="{move.card.code}"]', finger=True, buried=move.merci)
            page.wait_for_timeout(150)
            press(page, place_for(move), finger=True)
        page.wait_for_timeout(150)
    settle(page, len(line))
    assert table(page) == fresh_table(page.context, game_url(page))
    expect(page.locator("#board")).not_to_have_attribute("data-status", "playing")


def first_move(page: Page, mirror: engine.Play) -> engine.Move:
    move = next(m for m in engine.card_moves(mirror.position) if not m.merci)
    assert move.card is not None
    page.locator(f'.fan [data-card="{move.card.code}"]').click()
    page.locator(place_for(move)).click()
    return move


def test_a_stale_tab_ends_on_the_servers_board(browser: Browser, live_server: LiveServer) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    first = context.new_page()
    first.goto(f"{live_server.url}/deal/6/")
    mirror = engine.Play(6)
    played = first_move(first, mirror)
    mirror.play(played)
    settle(first, 1)
    url = game_url(first)
    stale = context.new_page()
    stale.goto(url)
    slow_network(stale)
    # The game moves on in the first tab; the second still shows move 1, and plays from it.
    moved_on = first_move(first, mirror)
    settle(first, 2)
    move = next(
        m for m in engine.card_moves(mirror.position) if not m.merci and m.card != moved_on.card
    )
    assert move.card is not None
    stale.locator(f'.fan [data-card="{move.card.code}"]').click()
    stale.locator(place_for(move)).click()
    # Laid at once, then the server's refusal: its board and why, in the page and the live region.
    expect(stale.locator(".message")).to_contain_text("out of date", timeout=10_000)
    expect(stale.locator("#announce")).to_contain_text("out of date")
    settle(stale, 2)
    assert table(stale) == fresh_table(context, url)
    context.close()


def test_a_refused_move_goes_back(desktop: Page, live_server: LiveServer) -> None:
    """A move the page was told is legal and the server refuses (here a list tampered with in the
    page) is laid, refused, and taken back: the server stays the judge."""
    page = desktop
    page.goto(f"{live_server.url}/deal/7/")
    slow_network(page)
    before = table(page)
    position = engine.Play(7).position
    mover = next(fan[-1] for fan in position.fans if fan)
    onto = next(fan[-1] for fan in position.fans if fan and fan[-1] != mover)
    wrong = f"{mover.code}>{onto.code}"
    assert wrong not in {m.text for m in engine.legal_moves(position)}
    page.evaluate(
        "([code, move]) => {"
        ' document.querySelector(`.fan [data-card="${code}"]`).dataset.moves = move; }',
        [mover.code, wrong],
    )
    page.locator(f'.fan [data-card="{mover.code}"]').click()
    page.locator(f'.fan [data-card="{onto.code}"]').click()
    # On the table at once...
    laid = page.locator(f'.fan [data-card="{onto.code}"] + [data-card="{mover.code}"]')
    expect(laid).to_have_count(1)
    # ...then refused, said, and the board is the server's again.
    expect(page.locator(".message")).not_to_be_empty(timeout=10_000)
    page.wait_for_function(SETTLED)
    assert table(page) == before
    expect(page.locator("#announce")).not_to_be_empty()


def test_a_move_made_offline_is_taken_back_then_the_board_comes_back(
    desktop: Page, live_server: LiveServer
) -> None:
    page = desktop
    page.goto(f"{live_server.url}/deal/8/")
    mirror = engine.Play(8)
    mirror.play(first_move(page, mirror))
    settle(page, 1)
    url = game_url(page)
    before = table(page)
    page.context.set_offline(True)
    first_move(page, mirror)
    expect(page.locator(".message")).to_contain_text("taken back")
    expect(page.locator("#announce")).to_contain_text("taken back")
    assert table(page) == before
    page.context.set_offline(False)
    # Back online, the page asks for the board: the server's, with nothing taken back to say.
    expect(page.locator(".message")).not_to_contain_text("taken back", timeout=15_000)
    assert table(page) == fresh_table(page.context, url) == before


def test_an_answer_lost_on_its_way_back_loses_nothing_the_server_accepted(
    desktop: Page, live_server: LiveServer
) -> None:
    """The server plays the move but its answer never arrives: the page takes the move back, asks
    for the board, and shows the move the server kept, once."""
    page = desktop
    page.goto(f"{live_server.url}/deal/9/")
    mirror = engine.Play(9)
    mirror.play(first_move(page, mirror))
    settle(page, 1)
    url = game_url(page)

    def lose_answer(route: Route) -> None:
        route.fetch()  # the server gets the move and plays it
        route.abort("connectionreset")

    page.route("**/move/", lose_answer)
    first_move(page, mirror)
    expect(page.locator(".message")).to_contain_text("taken back")
    page.unroute("**/move/")
    # The board asked for again shows the move the server kept.
    settle(page, 2)
    assert table(page) == fresh_table(page.context, url)


def test_the_screen_reader_hears_each_move_once(desktop: Page, live_server: LiveServer) -> None:
    page = desktop
    page.goto(f"{live_server.url}/deal/10/")
    slow_network(page)
    mirror = engine.Play(10)
    move = next(m for m in engine.card_moves(mirror.position) if not m.merci)
    assert move.card is not None
    page.locator(f'.fan [data-card="{move.card.code}"]').click()
    page.evaluate(
        """() => {
          const region = document.getElementById("announce");
          window.__said = [];
          new MutationObserver(() => window.__said.push(region.textContent))
            .observe(region, { childList: true, characterData: true, subtree: true });
        }"""
    )
    page.locator(place_for(move)).click()
    settle(page, 1)
    said = [text for text in page.evaluate("() => window.__said") if text.strip()]
    assert len(set(said)) == 1, said


@pytest.mark.timed
@pytest.mark.slow(seconds=12)
def test_the_embed_plays_instantly_too(desktop: Page, live_server: LiveServer) -> None:
    page = desktop
    page.goto(f"{live_server.url}/embed/deal/11/")
    slow_network(page)
    mirror, line = greedy_line(11)
    timings = []
    for count, move in enumerate(line[:12], start=1):
        page.wait_for_function(SETTLED)
        if move.is_redeal:
            break
        assert move.card is not None
        page.locator(f'.fan [data-card="{move.card.code}"]').click()
        page.evaluate(PROBE, [move.card.code, lands_in(mirror.position, move)])
        page.locator(place_for(move)).click()
        page.wait_for_function("() => window.__lay && window.__lay.end !== null")
        timings.append(page.evaluate("() => window.__lay.end - window.__lay.start"))
        mirror.play(move)
        settle(page, count)
    assert max(timings) < LATENCY_MS
    token = page.locator("#board").get_attribute("data-token")
    assert token
    assert table(page) == fresh_table(page.context, page.url)
