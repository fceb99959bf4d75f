"""Strict mode in Chromium: turned on from the settings dialog, a game played with no Undo, Hint
or Show a win on its board (and their keys doing nothing), its win marked and counted apart in
the statistics."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from game import engine
from game.board import store
from game.models import Game
from tests.helpers.browser import greedy_win, moves_shown, screenshot, tap

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_strict_game_has_no_undo_hint_or_show_a_win_and_its_win_counts_apart(
    page: Page, live_server: LiveServer, errors: list[str]
) -> None:
    number, moves = greedy_win()
    page.goto(f"{live_server.url}/deal/{number}/")
    page.get_by_label("Menu").click()
    page.get_by_role("link", name="Settings").click()
    expect(page.locator("#settings-dialog")).to_be_visible()
    page.get_by_role("button", name="Turn strict mode on").click()
    page.wait_for_load_state("load")
    expect(page.get_by_text("Strict mode is on.")).to_be_attached()

    tap(page, moves[0], 1)  # the first move stores the game, in strict mode
    game = Game.objects.get(deal_number=number)
    assert game.strict
    page.reload()
    board = page.locator("#board")
    expect(board.locator(".info .strict")).to_have_text("Strict")
    for name in ("Undo", "Hint", "Show a win"):
        expect(page.get_by_role("button", name=name, exact=True)).to_have_count(0)
    page.set_viewport_size({"width": 390, "height": 844})
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    shots = Path("test-artifacts/screenshots")
    shots.mkdir(parents=True, exist_ok=True)
    screenshot(page, shots / "strict-board-en-390.png")
    page.set_viewport_size({"width": 1280, "height": 720})
    page.get_by_label("Menu").click()
    expect(page.locator('[data-action="show-a-win"]')).to_have_count(0)
    page.keyboard.press("Escape")
    for key in ("u", "z", "h"):
        page.keyboard.press(key)
    moves_shown(page, 1)  # the keys found nothing to press
    expect(board.locator("[data-hint]")).to_have_count(0)

    # Turned off now, the setting waits for the next game: this one keeps its mode.
    page.get_by_label("Menu").click()
    page.get_by_role("link", name="Settings").click()
    page.get_by_role("button", name="Turn strict mode off").click()
    page.wait_for_load_state("load")
    expect(page.get_by_role("button", name="Undo", exact=True)).to_have_count(0)

    # Most of the win stored as play would store it; the last moves tapped.
    head = [engine.Move.parse(m.text) for m in moves[:-2]]
    store.save(game, engine.Play(number, moves=head))
    page.reload()
    for count, move in enumerate(moves[-2:], start=len(moves) - 1):
        tap(page, move, count)
    expect(
        page.get_by_text("A win in strict mode: counted apart in your statistics.")
    ).to_be_visible()

    page.goto(f"{live_server.url}/stats/")
    expect(page.locator('[data-stat="won"]')).to_have_text("1")
    expect(page.locator('[data-stat="strict-played"]')).to_have_text("1")
    expect(page.locator('[data-stat="strict-won"]')).to_have_text("1")
    expect(page.locator(".strip [data-strict]")).to_have_count(1)
    assert errors == []
