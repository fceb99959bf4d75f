"""One tap when there is one place, and "Finish" (issue 42, docs/playing.md), as a new player
gets them: auto-move and one tap on. A game is played through the page to its end (auto-move
off, which would send the last cards home itself): each move of the engine's greedy line is made
with one tap when its card has that one place, else with two; once every card left can go home
the board offers "Finish", and one press wins."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, expect
from pytest_django.live_server_helper import LiveServer

from tests.helpers.browser import SETTLED, destination, fan_card, greedy_win

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]

NEW_PLAYER = True  # tests/browser/conftest.py leaves this browser's settings as a new player's

ON_BOARD = """() => { const a = document.activeElement;
  return Boolean(a && a !== document.body && document.getElementById("board").contains(a)); }"""


def test_a_new_player_has_auto_move_and_one_tap(live_server: LiveServer, browser: Browser) -> None:
    page = browser.new_page(viewport={"width": 390, "height": 844})
    page.goto(f"{live_server.url}/deal/228/?rules=lucie")
    classes = page.evaluate("document.documentElement.className")
    assert "auto-move" in classes.split()
    assert "one-tap" in classes.split()
    page.close()


def test_one_tap_plays_a_game_and_finish_ends_it_with_one_press(
    live_server: LiveServer, browser: Browser
) -> None:
    number, moves = greedy_win()
    page = browser.new_page(viewport={"width": 390, "height": 844})
    # Auto-move off, so that the end is left to "Finish"; one tap as a new player has it.
    page.add_init_script(
        'window.localStorage.setItem("lucie.settings", JSON.stringify({"auto-move": false}))'
    )
    page.goto(f"{live_server.url}/deal/{number}/")
    one_taps = two_taps = 0
    finish = page.locator("#board [data-finish]")
    for count, move in enumerate(moves):
        page.wait_for_function(SETTLED)
        if finish.is_visible():
            break
        if move.is_redeal:
            page.get_by_role("button", name="Redeal").click()
        else:
            assert move.card is not None
            card = fan_card(page, move.card)
            listed = (card.get_attribute("data-moves") or "").split()
            card.click()
            if len(listed) == 1:
                one_taps += 1
            else:
                two_taps += 1
                target = destination(page, move)
                expect(target).to_have_class(re.compile(r"\bis-target\b"))
                target.click()
        expect(page.locator("#board")).to_have_attribute("data-moves", str(count + 1))
        page.wait_for_function(SETTLED)
        # The focus stays on the board after each move (issue 46), never on the page's body.
        assert page.evaluate(ON_BOARD), f"focus left the board after {move.text}"
    assert finish.is_visible()
    finish.click()
    expect(page.locator("#board")).to_have_attribute("data-status", "won", timeout=15000)
    page.wait_for_function(SETTLED)
    assert page.evaluate(ON_BOARD), "focus left the board after Finish"
    assert one_taps >= 5, (one_taps, two_taps)
    assert two_taps, "every move had one place: the test shows nothing about two taps"
    page.close()


def test_with_one_tap_turned_off_a_tap_picks_the_card_up(
    live_server: LiveServer, browser: Browser
) -> None:
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    page.add_init_script(
        'window.localStorage.setItem("lucie.settings", JSON.stringify({"one-tap": false,'
        ' "auto-move": false}))'
    )
    page.goto(f"{live_server.url}/deal/228/?rules=lucie")
    one = page.locator("#board .fan button.is-top[data-moves]").evaluate_all(
        "cards => cards.filter((c) => c.dataset.moves.split(' ').length === 1)"
        ".map((c) => c.dataset.card)"
    )
    assert one
    card = page.locator(f'#board .fan [data-card="{one[0]}"]')
    card.click()
    expect(card).to_have_class(re.compile(r"\bis-selected\b"))
    expect(page.locator("#board")).to_have_attribute("data-moves", "0")
    page.close()
