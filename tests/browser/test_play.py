"""Playing in real Chromium: tapping, undo/redo, redeal, merci, a whole win, keyboard,
no JavaScript, screenshots at phone and desktop sizes, and axe.

Moves are worked out with the engine in the test and then made through the UI only.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Literal

import pytest
from playwright.sync_api import Browser, Page, expect
from pytest_django.live_server_helper import LiveServer

from game import engine
from tests.helpers.browser import (
    SCREENS,
    TARGET,
    board,
    destination,
    fan_card,
    fans,
    greedy_win,
    moves_shown,
    no_serious_violations,
    on_each_screen,
    screenshot,
    tap,
)

pytestmark = pytest.mark.django_db(transaction=True)


# ---------------------------------------------------------------- tests


def test_tap_undo_redo_redeal_and_reload(
    page: Page, live_server: LiveServer, artifact_dir: Path, errors: list[str]
) -> None:
    mirror = engine.Play(1)
    page.goto(f"{live_server.url}/deal/1/")
    expect(board(page)).to_have_attribute("data-deal", "1")
    expect(board(page)).to_have_attribute("data-status", "playing")
    expect(page.locator("[data-fan]")).to_have_count(18)

    # A double tap sends a card home when it can go there.
    home = next(m for m in engine.card_moves(mirror.position) if m.to_foundation)
    assert home.card is not None
    fan_card(page, home.card).dblclick()
    moves_shown(page, 1)
    mirror.play(home)
    expect(
        page.locator(f'[data-foundation="{home.card.suit}"] [data-card="{home.card.code}"]')
    ).to_be_visible()

    # Tap a card, see its places light up, tap one.
    move = next(iter(sorted(engine.card_moves(mirror.position), key=lambda m: m.onto is None)))
    tap(page, move, 2)
    mirror.play(move)
    screenshot(page, artifact_dir / "after-two-moves.png")

    # A tap on a card with nowhere to go says so calmly and changes nothing.
    movable = {m.card for m in engine.card_moves(mirror.position)}
    still = next(c for c in mirror.position.tops if c is not None and c not in movable)
    fan_card(page, still).click()
    expect(page.locator(".message")).to_contain_text("has no move just now")
    moves_shown(page, 2)

    page.get_by_role("button", name="Undo").click()
    moves_shown(page, 1)
    page.get_by_label("Menu").click()
    page.get_by_role("button", name="Redo").click()
    moves_shown(page, 2)

    expect(board(page)).to_have_attribute("data-redeals-left", "2")
    page.get_by_role("button", name="Redeal").click()
    moves_shown(page, 3)
    expect(board(page)).to_have_attribute("data-redeals-left", "1")
    redealt = fans(page)
    page.get_by_role("button", name="Undo").click()
    moves_shown(page, 2)
    expect(board(page)).to_have_attribute("data-redeals-left", "2")
    page.get_by_label("Menu").click()
    page.get_by_role("button", name="Redo").click()
    moves_shown(page, 3)
    assert fans(page) == redealt

    page.reload()
    moves_shown(page, 3)
    assert fans(page) == redealt

    # The statistics dialog opens from the menu and shows this game as in progress, not played.
    page.get_by_label("Menu").click()
    page.get_by_role("link", name="Statistics").click()
    dialog = page.locator("#stats-dialog")
    expect(dialog).to_be_visible()
    expect(dialog.locator('[data-stat="in-progress"]')).to_have_text("1")
    expect(dialog.locator('[data-stat="played"]')).to_have_text("0")
    assert errors == []


def test_the_merci_draws_a_buried_card(
    page: Page, live_server: LiveServer, errors: list[str]
) -> None:
    mirror = engine.Play(5, engine.Rules.parse("lucie-r0"))
    page.goto(f"{live_server.url}/deal/5/?rules=lucie-r0")
    expect(board(page)).to_have_attribute("data-mercis-left", "1")
    expect(page.locator(".merci.open")).to_be_visible()
    merci = next(m for m in engine.legal_moves(mirror.position) if m.merci)

    tap(page, merci, 1)

    expect(board(page)).to_have_attribute("data-mercis-left", "0")
    assert merci.card is not None
    assert merci.card.code not in [code for fan in fans(page)[:-1] for code in fan[:-1]]
    assert errors == []


def test_win_a_whole_game_by_tapping(
    page: Page, live_server: LiveServer, artifact_dir: Path, errors: list[str]
) -> None:
    number, moves = greedy_win()
    page.goto(f"{live_server.url}/deal/{number}/")

    for count, move in enumerate(moves, start=1):
        tap(page, move, count)

    expect(board(page)).to_have_attribute("data-status", "won")
    expect(page.get_by_role("heading", name="You won!")).to_be_visible()
    expect(page.locator(".end")).to_contain_text(f"{len(moves)} moves")
    screenshot(page, artifact_dir / "won.png")
    assert errors == []


def test_play_with_the_keyboard_alone(
    page: Page, live_server: LiveServer, errors: list[str]
) -> None:
    mirror = engine.Play(1)
    page.goto(f"{live_server.url}/deal/1/")
    move = next(m for m in engine.card_moves(mirror.position) if m.to_foundation)
    assert move.card is not None
    where = mirror.position.find(move.card)
    assert where is not None

    # Arrow keys walk the fans; Enter picks the top card up and puts it down.
    page.keyboard.press("ArrowRight")
    for _ in range(where[0]):
        page.keyboard.press("ArrowRight")
    focused = page.locator(":focus")
    expect(focused).to_have_attribute("data-card", move.card.code)
    assert page.evaluate("document.activeElement.matches(':focus-visible')")
    page.keyboard.press("Enter")
    expect(focused).to_have_class(re.compile(r"\bis-selected\b"))
    suit_index = "CDHS".index(move.card.suit)
    for _ in range(where[0] + 4 - suit_index):
        page.keyboard.press("ArrowLeft")
    expect(page.locator(":focus")).to_have_attribute("data-foundation", move.card.suit)
    page.keyboard.press("Enter")
    moves_shown(page, 1)

    page.keyboard.press("u")
    moves_shown(page, 0)
    page.keyboard.press("r")
    moves_shown(page, 1)
    page.keyboard.press("h")
    expect(page.locator('#board [data-hint="card"]')).to_have_count(1)
    page.evaluate("document.activeElement && document.activeElement.blur()")
    page.keyboard.press(" ")
    expect(board(page)).to_have_attribute("data-redeals-left", "1")
    page.keyboard.press("z")
    expect(board(page)).to_have_attribute("data-redeals-left", "2")
    page.keyboard.press("n")
    expect(page.locator("#new-dialog")).to_be_visible()
    expect(page.locator("#new-dialog [data-in-progress-warning]")).to_be_visible()
    page.keyboard.press("Escape")
    expect(page.locator("#new-dialog")).to_be_hidden()
    moves_shown(page, 1)
    assert errors == []


def test_everything_works_without_javascript(
    browser: Browser, live_server: LiveServer, artifact_dir: Path
) -> None:
    context = browser.new_context(java_script_enabled=False, viewport={"width": 390, "height": 844})
    page = context.new_page()
    mirror = engine.Play(1)
    page.goto(f"{live_server.url}/deal/1/")
    move = next(m for m in engine.card_moves(mirror.position) if m.to_foundation)
    assert move.card is not None

    fan_card(page, move.card).click()  # a GET form: the page comes back with the card selected
    expect(page).to_have_url(re.compile(rf"sel={move.card.code}"))
    expect(fan_card(page, move.card)).to_have_attribute("aria-pressed", "true")
    target = destination(page, move)
    expect(target).to_have_class(TARGET)
    screenshot(page, artifact_dir / "no-js-selected.png")
    target.click()  # a POST, then a redirect to the game's page
    moves_shown(page, 1)
    expect(page).to_have_url(re.compile(r"/game/\d+/\?did=move&from=0$"))

    page.get_by_role("button", name="Undo").click()
    moves_shown(page, 0)
    page.get_by_role("button", name="Redeal").click()
    expect(board(page)).to_have_attribute("data-redeals-left", "1")
    page.get_by_role("button", name="Hint").click()
    expect(page.locator("#board [data-hint]")).not_to_have_count(0)

    # New game asks first on a page of its own.
    page.get_by_role("button", name="New game").first.click()
    expect(page.get_by_role("heading", name="New game")).to_be_visible()
    expect(page.locator(".warn")).to_contain_text("counts as a loss")
    page.get_by_label("Trefoil").check()
    page.get_by_role("button", name="Deal").click()
    expect(board(page)).to_have_attribute("data-rules", "trefoil")
    expect(board(page)).to_have_attribute("data-moves", "0")
    context.close()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_screenshots_phone_and_desktop(
    browser: Browser, live_server: LiveServer, artifact_dir: Path, scheme: Literal["light", "dark"]
) -> None:
    for name, page in on_each_screen(browser, scheme):
        page.goto(f"{live_server.url}/deal/20261129/")
        page.get_by_role("button", name="Hint").click()
        expect(page.locator("#board [data-hint]")).not_to_have_count(0)
        hinted = page.locator('.fan [data-hint="card"]')
        if hinted.count():
            hinted.click()
        # The whole table fits the width, and on the phone every fan is on the first screen.
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        last_fan = page.locator("[data-fan]").last.bounding_box()
        assert last_fan is not None
        assert last_fan["y"] + last_fan["height"] <= SCREENS[name][1]
        screenshot(page, artifact_dir / f"board-{name}-{scheme}.png")
        page.goto(f"{live_server.url}/rules/")
        screenshot(page, artifact_dir / f"rules-{name}-{scheme}.png", full_page=True)


@pytest.mark.parametrize("path", ["/", "/stats/", "/rules/"])
def test_no_serious_accessibility_violations(
    page: Page, live_server: LiveServer, path: str
) -> None:
    page.goto(f"{live_server.url}{path}")

    assert no_serious_violations(page) == []
