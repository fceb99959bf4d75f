"""A player's own, in real Chromium: settings that change the board at once, the timer that
stops while the page is hidden, replays stepped through by keyboard, axe on the new pages."""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Literal

import pytest
from playwright.sync_api import Browser, Page, expect
from pytest_django.live_server_helper import LiveServer

from game import engine
from game.board import store
from game.models import Game
from tests.helpers.browser import (
    moves_shown,
    no_serious_violations,
    on_each_screen,
    open_dealt,
    screenshot,
    tap,
)
from tests.helpers.play import auto_case, greedy_record

pytestmark = pytest.mark.django_db(transaction=True)

CLUB_GREEN = "rgb(17, 112, 58)"  # --club in the light theme


def open_settings(page: Page) -> None:
    page.get_by_label("Menu").click()
    page.get_by_role("link", name="Settings").click()
    expect(page.locator("#settings-dialog")).to_be_visible()


def style(page: Page, selector: str, prop: str) -> str:
    value: str = page.locator(selector).first.evaluate(
        f"el => getComputedStyle(el).getPropertyValue({prop!r})"
    )
    return value


def lost_game(session_key: str = "someone") -> Game:
    number, moves = greedy_record("lost")
    game = Game.objects.create(session_key=session_key, deal_number=number)
    store.save(game, engine.Play(number, moves=[engine.Move.parse(m) for m in moves]))
    game.refresh_from_db()
    assert game.status == Game.Status.LOST
    return game


# ---------------------------------------------------------------- settings


def test_each_setting_changes_the_board_at_once_and_is_remembered(
    page: Page,
    live_server: LiveServer,
    errors: list[str],
) -> None:
    number, move, home = auto_case()
    page.goto(f"{live_server.url}/deal/{number}/")
    html = page.locator("html")
    club = '.fan .card[data-card$="C"]'
    black = style(page, club, "color")
    assert style(page, ".fan .card", "transition-duration") == "0.08s"

    open_settings(page)
    page.get_by_label("Four-colour suits").check()
    expect(html).to_have_class(re.compile(r"\bfour-colour\b"))
    assert style(page, club, "color") == CLUB_GREEN != black
    assert style(page, '.fan .card[data-card$="S"]', "color") == black

    page.get_by_label("Left-handed layout").check()
    expect(html).to_have_class(re.compile(r"\bleft-handed\b"))
    assert style(page, ".bar", "flex-direction") == "row-reverse"
    assert style(page, ".table", "direction") == "rtl"

    page.get_by_label("Reduced motion").check()
    expect(html).to_have_class(re.compile(r"\breduced-motion\b"))
    assert style(page, ".fan .card", "transition-duration") == "0s"

    page.get_by_label("Move cards to the foundations automatically").check()
    expect(html).to_have_class(re.compile(r"\bauto-move\b"))
    page.get_by_role("button", name="Done").click()
    expect(page.locator("#settings-dialog")).to_be_hidden()
    menu = page.get_by_label("Menu").bounding_box()
    new_game = page.get_by_role("button", name="New game").bounding_box()
    assert menu is not None
    assert new_game is not None
    assert menu["x"] < new_game["x"]  # mirrored: the menu is on the left now

    tap(page, move, 1 + len(home))  # the move, then every card it freed goes home
    after = engine.Play(number, moves=[move, *home]).position
    for index, suit in enumerate("CDHS"):
        expect(page.locator(f'[data-foundation="{suit}"]')).to_have_attribute(
            "data-count", str(after.foundations[index])
        )
    page.get_by_role("button", name="Undo").click()
    moves_shown(page, 0)  # the auto moves went back with the move

    page.reload()
    expect(html).to_have_class(re.compile(r"four-colour.*left-handed.*reduced-motion.*auto-move"))
    open_settings(page)
    for label in ("Four-colour suits", "Left-handed layout", "Reduced motion"):
        expect(page.get_by_label(label)).to_be_checked()
    page.get_by_label("Four-colour suits").uncheck()
    assert style(page, club, "color") == black
    assert errors == []


def test_the_systems_reduced_motion_is_respected_without_asking(
    browser: Browser, live_server: LiveServer
) -> None:
    context = browser.new_context(reduced_motion="reduce")
    page = context.new_page()
    page.goto(f"{live_server.url}/deal/1/")

    assert style(page, ".fan .card", "transition-duration") == "0s"
    assert "reduced-motion" not in (page.locator("html").get_attribute("class") or "")
    context.close()


def test_settings_work_inside_the_embed_without_cookies(
    page: Page,
    live_server: LiveServer,
    errors: list[str],
) -> None:
    page.goto(f"{live_server.url}/embed/deal/1/")
    page.get_by_role("button", name="Settings").click()
    page.get_by_label("Four-colour suits").check()

    expect(page.locator("html")).to_have_class(re.compile(r"\bfour-colour\b"))
    assert style(page, '.fan .card[data-card$="C"]', "color") == CLUB_GREEN
    assert page.context.cookies() == []
    assert errors == []


# ---------------------------------------------------------------- the timer

HIDE = """(state) => {
  Object.defineProperty(document, "visibilityState", { configurable: true, get: () => state });
  Object.defineProperty(document, "hidden", { configurable: true, get: () => state === "hidden" });
  document.dispatchEvent(new Event("visibilitychange"));
}"""


def wait_for(condition: Callable[[], bool], timeout: float = 5.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.05)
    raise AssertionError("timed out")


def test_the_timer_stops_while_the_page_is_hidden_and_goes_on_when_shown(
    page: Page,
    live_server: LiveServer,
    errors: list[str],
) -> None:
    mirror = engine.Play(1)
    page.goto(f"{live_server.url}/deal/1/")
    timer = page.locator("#board .timer")
    page.wait_for_timeout(1300)
    expect(timer).to_have_text("0:00")  # not started: the timer waits for the first move
    move = next(m for m in engine.card_moves(mirror.position) if m.to_foundation)
    tap(page, move, 1)
    expect(timer).to_have_text("0:01", timeout=3000)
    game = Game.objects.get(moves=move.text)

    page.evaluate(HIDE, "hidden")
    expect(timer).to_have_attribute("data-ticking", "false")
    wait_for(lambda: Game.objects.get(pk=game.pk).clock_since is None)  # the beacon arrived
    frozen = timer.inner_text()
    banked = Game.objects.get(pk=game.pk).elapsed_ms
    page.wait_for_timeout(2500)
    assert timer.inner_text() == frozen
    assert Game.objects.get(pk=game.pk).elapsed_ms == banked

    page.evaluate(HIDE, "visible")
    expect(timer).to_have_attribute("data-ticking", "true")
    wait_for(lambda: Game.objects.get(pk=game.pk).clock_since is not None)
    expect(timer).not_to_have_text(frozen, timeout=3000)
    # The hidden 2.5 s were never counted: the display goes on from the banked time.
    seconds = sum(
        int(part) * 60**i for i, part in enumerate(reversed(timer.inner_text().split(":")))
    )
    assert seconds <= banked // 1000 + 2
    assert errors == []


# ---------------------------------------------------------------- replays


def test_step_through_a_replay_by_keyboard(
    page: Page,
    live_server: LiveServer,
    errors: list[str],
) -> None:
    game = lost_game()
    last = game.move_count
    page.goto(f"{live_server.url}/replay/{game.replay_token}/")
    replay = page.locator("#replay")
    expect(replay).to_have_attribute("data-step", "0")
    first_fans = page.locator("#replay .fan").first.inner_text()

    for _ in range(3):
        page.keyboard.press("ArrowRight")
    expect(replay).to_have_attribute("data-step", "3")
    expect(page).to_have_url(re.compile(r"\?at=3#m3$"))
    page.keyboard.press("ArrowLeft")
    expect(replay).to_have_attribute("data-step", "2")
    page.keyboard.press("End")
    expect(replay).to_have_attribute("data-step", str(last))
    expect(page.locator(".replay-move")).to_contain_text(f"{last}. ")
    page.keyboard.press("Home")
    expect(replay).to_have_attribute("data-step", "0")
    assert page.locator("#replay .fan").first.inner_text() == first_fans
    page.get_by_role("link", name=re.compile(r"^Deal 2")).click()
    redeal_at = next(i + 1 for i, m in enumerate(game.moves.split()) if m == "R")
    expect(replay).to_have_attribute("data-step", str(redeal_at))
    expect(page.locator("#replay button")).to_have_count(0)  # read-only: nothing to press
    assert errors == []


def test_the_replay_link_on_the_lost_screen_opens_for_another_browser(
    browser: Browser, live_server: LiveServer
) -> None:
    number, moves = greedy_record("lost")
    owner = browser.new_context()
    page = owner.new_page()
    open_dealt(page, f"{live_server.url}/deal/{number}/")
    game = Game.objects.get(deal_number=number)
    store.save(game, engine.Play(number, moves=[engine.Move.parse(m) for m in moves]))
    page.goto(f"{live_server.url}/game/{game.pk}/")
    href = page.get_by_role("link", name="Watch the replay").get_attribute("href")
    assert href is not None
    owner.close()

    stranger = browser.new_context()
    other = stranger.new_page()
    other.goto(f"{live_server.url}{href}")
    expect(other.get_by_role("heading", name=f"Replay of deal #{number}")).to_be_visible()
    stranger.close()


# ---------------------------------------------------------------- axe and screenshots


def seed_stats(page: Page, live_server: LiveServer) -> str:
    open_dealt(page, f"{live_server.url}/deal/7/")
    key = next(c["value"] for c in page.context.cookies() if c["name"] == "sessionid")
    lost_game(key)
    number, moves = greedy_record("won")
    won = Game.objects.create(session_key=key, deal_number=number)
    store.save(won, engine.Play(number, moves=[engine.Move.parse(m) for m in moves]))
    abandoned = Game.objects.create(session_key=key, deal_number=3)
    store.save(abandoned, engine.Play(3, moves=[engine.card_moves(engine.Play(3).position)[0]]))
    store.finish(abandoned, Game.Status.ABANDONED, abandoned.updated_at)
    abandoned.save()
    return key


def test_stats_and_replay_pages_have_no_serious_accessibility_violations(
    page: Page,
    live_server: LiveServer,
    errors: list[str],
) -> None:
    seed_stats(page, live_server)
    page.goto(f"{live_server.url}/stats/")
    expect(page.locator("svg.chart")).to_have_count(2)
    assert no_serious_violations(page) == []

    page.get_by_role("button", name="Reset statistics…").click()
    expect(page.locator("#reset-dialog")).to_be_visible()
    assert no_serious_violations(page) == []
    page.get_by_role("button", name="Keep them").click()

    page.locator(".strip a").first.click()
    expect(page.locator("#replay")).to_be_visible()
    page.wait_for_load_state("load")
    page.keyboard.press("ArrowRight")
    expect(page.locator("#replay")).to_have_attribute("data-step", "1")
    assert no_serious_violations(page) == []

    page.goto(f"{live_server.url}/")
    open_settings(page)
    assert no_serious_violations(page) == []
    assert errors == []


def test_reset_from_the_stats_page_asks_first(
    page: Page,
    live_server: LiveServer,
    errors: list[str],
) -> None:
    seed_stats(page, live_server)
    page.goto(f"{live_server.url}/stats/?rules=all")
    expect(page.locator('[data-stat="played"]')).to_have_text("3")

    page.get_by_role("button", name="Reset statistics…").click()
    page.locator("#reset-dialog").get_by_role("button", name="Reset").click()

    expect(page.locator('[data-stat="played"]')).to_have_text("0")
    assert errors == []


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_screenshots_of_stats_settings_and_replay(
    browser: Browser, live_server: LiveServer, artifact_dir: Path, scheme: Literal["light", "dark"]
) -> None:
    for name, page in on_each_screen(browser, scheme):
        seed_stats(page, live_server)
        page.goto(f"{live_server.url}/stats/?rules=all")
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        screenshot(page, artifact_dir / f"stats-{name}-{scheme}.png", full_page=True)
        page.locator(".strip a").first.click()
        expect(page).to_have_url(re.compile(r"/replay/"))
        page.wait_for_load_state("load")
        page.keyboard.press("End")
        expect(page.locator("#replay")).not_to_have_attribute("data-step", "0")
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        screenshot(page, artifact_dir / f"replay-{name}-{scheme}.png")
        page.goto(f"{live_server.url}/")
        open_settings(page)
        screenshot(page, artifact_dir / f"settings-{name}-{scheme}.png")


def test_statistics_move_to_another_browser_with_a_code(
    browser: Browser, live_server: LiveServer, artifact_dir: Path, errors: list[str]
) -> None:
    old = browser.new_context(viewport={"width": 390, "height": 844})
    new = browser.new_context(viewport={"width": 390, "height": 844})
    page, other = old.new_page(), new.new_page()
    seed_stats(page, live_server)
    page.goto(f"{live_server.url}/stats/")
    page.get_by_role("link", name="Move statistics to or from another device").click()
    page.get_by_role("button", name="Show a code").click()
    code = page.locator('[data-transfer="code"]').inner_text()
    assert no_serious_violations(page) == []
    screenshot(page, artifact_dir / "transfer-code-phone.png", full_page=True)

    other.goto(f"{live_server.url}/stats/transfer/")
    other.get_by_label("Code from the other device").fill(code.lower())
    other.get_by_role("button", name="Move that browser's games here").click()
    expect(other.locator('[data-transfer="merged"]')).to_contain_text("Moved 3 games (1 won)")
    assert no_serious_violations(other) == []
    other.goto(f"{live_server.url}/stats/?rules=all")
    expect(other.locator('[data-stat="played"]')).to_have_text("3")
    old.close()
    new.close()
    assert errors == []
