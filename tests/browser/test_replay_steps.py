"""Stepping through a replay in the page (static/js/replay/stepper.js): by keys and by taps,
both ways, every board checked against the engine's position after that many moves, with no
request once the page is loaded; a link to a move opens there; the move list's screenshots."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, Request, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from pytest_django.live_server_helper import LiveServer

from game import engine
from game.board import store
from game.models import Game, GameReview
from game.review import found
from tests.helpers.browser import greedy_win, open_dealt, screenshot
from tests.helpers.review import LOST_BEFORE_A_REDEAL
from tests.helpers.review import greedy_record as review_record

pytestmark = pytest.mark.django_db(transaction=True)

MOVES = 60


def sixty_move_game() -> tuple[Game, tuple[engine.Position, ...]]:
    """The greedy hint's winning game cut at 60 moves and left for another (a finished game,
    so it has a replay); its positions from the engine, the log replayed."""
    number, moves = greedy_win()
    assert len(moves) > MOVES
    played = engine.Play(number, moves=list(moves[:MOVES]))
    game = Game.objects.create(session_key="someone", deal_number=number)
    store.save(game, played)
    store.finish(game, Game.Status.ABANDONED, game.updated_at)
    game.save()
    return game, engine.Play(number, moves=list(moves[:MOVES])).positions()


def felt_on_show(page: Page) -> list[list[list[str]] | list[int]]:
    result: list[list[list[str]] | list[int]] = page.locator("#replay").evaluate(
        """replay => [
          [...replay.querySelectorAll('.fans > .fan')].map(
            fan => [...fan.querySelectorAll('[data-card]')].map(card => card.dataset.card)),
          [...replay.querySelectorAll('.foundation')].map(home => Number(home.dataset.count)),
        ]"""
    )
    return result


def expected(position: engine.Position) -> list[list[list[str]] | list[int]]:
    return [[[card.code for card in fan] for fan in position.fans], list(position.foundations)]


# Whether the replay, its count and the move list all say `at` (awaited in one round trip).
STEP_SHOWN = """(at) => {
  const step = String(at);
  const replay = document.querySelector("#replay");
  const count = document.querySelector(".step-count:not([hidden]) b");
  const link = document.querySelector(`#m${at} > a`);
  return Boolean(replay && replay.dataset.step === step && count
    && count.textContent.trim() === step && link && link.getAttribute("aria-current") === "step");
}"""


def check_step(page: Page, positions: tuple[engine.Position, ...], at: int) -> None:
    try:
        page.wait_for_function(STEP_SHOWN, arg=at, timeout=5000)
    except PlaywrightTimeout:
        # Say what is on show instead: the same checks, one by one.
        expect(page.locator("#replay")).to_have_attribute("data-step", str(at), timeout=1)
        expect(page.locator(".step-count:not([hidden]) b")).to_have_text(str(at), timeout=1)
        expect(page.locator(f"#m{at} > a")).to_have_attribute("aria-current", "step", timeout=1)
        raise
    assert felt_on_show(page) == expected(positions[at]), f"the board after {at} moves"


def requests_after_load(page: Page) -> list[str]:
    """The requests for a replay's page or step from now on (the service worker's own fetches of
    the offline pages are not the replay's)."""
    seen: list[str] = []

    def note(request: Request) -> None:
        if "/replay/" in request.url:
            seen.append(request.url)

    page.on("request", note)
    return seen


def test_step_a_sixty_move_game_both_ways_by_keys(
    page: Page, live_server: LiveServer, errors: list[str]
) -> None:
    game, positions = sixty_move_game()
    page.goto(f"{live_server.url}/replay/{game.replay_token}/")
    page.wait_for_load_state("load")
    asked = requests_after_load(page)
    check_step(page, positions, 0)

    for at in range(1, MOVES + 1):
        page.keyboard.press("ArrowRight")
        check_step(page, positions, at)
    page.keyboard.press("ArrowRight")  # past the end: nothing moves
    check_step(page, positions, MOVES)
    expect(page).to_have_url(re.compile(rf"\?at={MOVES}#m{MOVES}$"))
    for at in range(MOVES - 1, -1, -1):
        page.keyboard.press("ArrowLeft")
        check_step(page, positions, at)
    page.keyboard.press("End")
    check_step(page, positions, MOVES)
    page.keyboard.press("Home")
    check_step(page, positions, 0)

    assert asked == []  # every step came with the page
    assert errors == []


def test_step_a_sixty_move_game_both_ways_by_taps_on_a_phone(
    browser: Browser, live_server: LiveServer
) -> None:
    game, positions = sixty_move_game()
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True)
    page = context.new_page()
    page.goto(f"{live_server.url}/replay/{game.replay_token}/")
    page.wait_for_load_state("load")
    asked = requests_after_load(page)
    next_button = page.locator('[data-step-link="next"]')
    back_button = page.locator('[data-step-link="previous"]')

    for at in range(1, MOVES + 1):
        next_button.tap()
        check_step(page, positions, at)
    expect(next_button).to_have_attribute("aria-disabled", "true")
    for at in range(MOVES - 1, -1, -1):
        back_button.tap()
        check_step(page, positions, at)
    page.locator('[data-step-link="end"]').tap()
    check_step(page, positions, MOVES)
    page.locator('[data-step-link="start"]').tap()
    check_step(page, positions, 0)
    page.locator("#m37 > a").tap()  # a step of the move list
    check_step(page, positions, 37)
    assert page.evaluate("window.scrollX") == 0
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the page is {width} px wide at 390"

    assert asked == []
    context.close()


@pytest.mark.parametrize("link", ["#m43", "?at=43", "?at=43#m43"])
def test_a_link_to_a_move_opens_at_that_move(
    page: Page, live_server: LiveServer, errors: list[str], link: str
) -> None:
    game, positions = sixty_move_game()

    page.goto(f"{live_server.url}/replay/{game.replay_token}/{link}")

    check_step(page, positions, 43)
    expect(page.locator(".replay-move")).to_contain_text("43. ")
    page.keyboard.press("ArrowRight")
    check_step(page, positions, 44)
    assert errors == []


def test_without_javascript_each_step_is_a_link_the_server_draws(
    browser: Browser, live_server: LiveServer
) -> None:
    game, positions = sixty_move_game()
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    page.goto(f"{live_server.url}/replay/{game.replay_token}/?at=10")
    check_step(page, positions, 10)

    page.locator('[data-step-link="next"]').click()
    expect(page).to_have_url(re.compile(r"\?at=11#m11$"))
    check_step(page, positions, 11)
    page.locator("#m50 > a").click()
    check_step(page, positions, 50)
    context.close()


@pytest.mark.parametrize("language", ["en", "fr", "de"])
@pytest.mark.parametrize("width", [390, 1280])
def test_screenshots_of_the_move_list(
    browser: Browser, live_server: LiveServer, language: str, width: int
) -> None:
    game, positions = sixty_move_game()
    context = browser.new_context(viewport={"width": width, "height": 900})
    page = context.new_page()
    prefix = "" if language == "en" else f"/{language}"
    page.goto(f"{live_server.url}{prefix}/replay/{game.replay_token}/#m24")
    check_step(page, positions, 24)
    box = page.locator(".move-list-box")
    expect(box).to_be_visible()
    # Nothing sticks out: the controls, the board and the list all fit the width.
    width_seen = page.evaluate("document.documentElement.scrollWidth")
    assert width_seen <= width, f"{width_seen} px wide at {width}"
    controls = page.locator(".replay-controls .steps").bounding_box()
    assert controls is not None
    assert controls["x"] + controls["width"] <= width
    shots = Path("test-artifacts/screenshots")
    shots.mkdir(parents=True, exist_ok=True)
    screenshot(page, shots / f"replay-move-list-{language}-{width}.png", full_page=True)
    context.close()


def test_the_owners_replay_jumps_to_the_move_that_lost_the_win_and_steps_the_solvers_line(
    page: Page, live_server: LiveServer, errors: list[str]
) -> None:
    number, rules = LOST_BEFORE_A_REDEAL
    open_dealt(page, f"{live_server.url}/deal/1/")
    key = next(c["value"] for c in page.context.cookies() if c["name"] == "sessionid")
    moves = [engine.Move.parse(text) for text in review_record(number, rules)]
    game = Game.objects.create(session_key=key, deal_number=number, rules=rules)
    store.save(game, engine.Play(number, engine.Rules.parse(rules), moves))
    game.refresh_from_db()
    assert game.status == Game.Status.LOST
    found.work_through(game.pk, cpu_seconds=120, solve_seconds=30)
    slip = GameReview.objects.get(game=game).found["slip"]
    at, line = slip["low"], [engine.Move.parse(text) for text in slip["line"]]
    positions = engine.Play(number, engine.Rules.parse(rules), moves).positions()

    page.goto(f"{live_server.url}/replay/{game.replay_token}/")
    page.wait_for_load_state("load")
    asked = requests_after_load(page)
    page.get_by_role("link", name=re.compile("^The move that lost the win")).click()
    check_step(page, positions, at + 1)
    expect(page.locator(f"#m{at + 1}")).to_have_class("is-slip")

    page.keyboard.press("ArrowLeft")  # the position the win slipped from
    check_step(page, positions, at)
    page.locator(f"#m{at}-1 > a").click()  # the solver's first move instead
    shown = engine.apply(positions[at], line[0])
    expect(page.locator("#replay")).to_have_attribute("data-step", f"{at}-1")
    assert felt_on_show(page) == expected(shown)
    expect(page.locator(".replay-move")).to_contain_text("The solver's line:")
    expect(page.locator('.step-count[data-count="line"] b')).to_have_text("1")
    expect(page.locator('.step-count[data-count="game"]')).to_be_hidden()
    shots = Path("test-artifacts/screenshots")
    shots.mkdir(parents=True, exist_ok=True)
    screenshot(page, shots / "replay-solver-line-en-1280.png")
    for index, move in enumerate(line[1:], start=2):
        page.keyboard.press("ArrowRight")
        shown = engine.apply(shown, move)
        expect(page.locator("#replay")).to_have_attribute("data-step", f"{at}-{index}")
        assert felt_on_show(page) == expected(shown)
    assert sum(shown.foundations) == 52  # the line wins
    page.keyboard.press("Home")
    check_step(page, positions, 0)
    assert asked == []
    assert errors == []
