"""The two-stage hint in Chromium: a first press of Hint marks the card to play and no place, a
second press on the same board marks where it goes; the statistics count each stage. In English
on a desktop, in French and German at 390 px, in the embed, and with JavaScript off."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect
from pytest_django.live_server_helper import LiveServer

from game import engine
from tests.helpers.browser import (
    LISTEN,
    SETTLED,
    TARGET,
    board,
    destination,
    fan_card,
    moves_shown,
    screenshot,
    tap,
)

pytestmark = pytest.mark.django_db(transaction=True)

DEAL = 5
CARD = '#board [data-hint="card"]'
PLACE = '#board [data-hint="target"]'
SHOWN = '#board form[data-keyed] input[name="shown"]'


def opening_build(number: int) -> engine.Move:
    """A first move of the deal that builds on another card (no redeal, nothing sent home)."""
    legal = engine.legal_moves(engine.Play(number).position)
    return next(m for m in legal if m.card is not None and m.onto is not None and not m.merci)


def press_hint(page: Page, stage: int) -> None:
    """Press Hint and wait for the server's answer: the board showing `stage`."""
    page.wait_for_function(SETTLED)
    page.locator('#board .bar [data-action="hint"]').click()
    expect(page.locator(SHOWN)).to_have_value(str(stage))
    page.wait_for_function(SETTLED)


def ready_move(page: Page) -> engine.Move:
    """The hint the board on show carries for a press (`data-ready-hint`)."""
    text = board(page).get_attribute("data-ready-hint")
    assert text, "the board came without its hint"
    return engine.Move.parse(text)


def place_of(page: Page, move: engine.Move) -> str:
    """The marked place's own name: a card's code, a foundation's suit or a fan's number."""
    if move.onto is not None:
        return f'[data-card="{move.onto.code}"]'
    if move.empty_fan is not None:
        return f'[data-fan="{move.empty_fan}"]'
    assert move.card is not None
    return f'[data-foundation="{move.card.suit}"]'


def both_stages(page: Page) -> engine.Move:
    """Hint pressed twice on the board on show: the card alone, then where it goes too. The
    hint is no redeal (the deals below are chosen so)."""
    move = ready_move(page)
    assert move.card is not None, move
    press_hint(page, 1)
    expect(page.locator(CARD)).to_have_count(1)
    expect(page.locator(f'.fan [data-card="{move.card.code}"]')).to_have_attribute(
        "data-hint", "card"
    )
    expect(page.locator(PLACE)).to_have_count(0)
    press_hint(page, 2)
    expect(page.locator(CARD)).to_have_count(1)
    expect(page.locator(PLACE)).to_have_count(1)
    expect(page.locator(f"#board {place_of(page, move)}")).to_have_attribute("data-hint", "target")
    return move


def test_press_once_for_the_card_twice_for_its_place_and_the_statistics_count_each(
    page: Page, live_server: LiveServer, errors: list[str]
) -> None:
    page.goto(f"{live_server.url}/deal/{DEAL}/")
    page.locator("#announce").evaluate(LISTEN)
    tap(page, opening_build(DEAL), 1)  # a game of this session's, stored: its hints count

    move = ready_move(page)
    assert move.card is not None
    press_hint(page, 1)
    expect(page.locator(CARD)).to_have_count(1)
    expect(page.locator(PLACE)).to_have_count(0)
    expect(page.locator("#board .message")).to_contain_text(f"Hint: play the {move.card.name}")
    heard: list[str] = page.evaluate("window.heard.splice(0)")
    assert any("Press Hint again to see where it goes." in text for text in heard), heard

    press_hint(page, 2)
    expect(page.locator(PLACE)).to_have_count(1)
    expect(page.locator("#board .message")).to_contain_text(f"Hint: {move.card.name} ")
    heard = page.evaluate("window.heard.splice(0)")
    assert any(text.startswith(f"Hint: {move.card.name} ") for text in heard), heard

    # Followed, the hint is played; the next board's first press marks its card alone again.
    fan_card(page, move.card).click()
    target = destination(page, move)
    expect(target).to_have_class(TARGET)
    target.click()
    moves_shown(page, 2)
    expect(page.locator("#board [data-hint]")).to_have_count(0)
    press_hint(page, 1)
    expect(page.locator(PLACE)).to_have_count(0)

    page.goto(f"{live_server.url}/stats/")
    expect(page.locator('[data-stat="hints"]')).to_have_text("2")
    expect(page.locator('[data-stat="hint-places"]')).to_have_text("1")
    assert errors == []


@pytest.mark.parametrize(
    ("code", "card_words", "again"),
    [
        ("fr", "Indice\u00a0: jouez ", "Appuyez encore sur Indice pour voir où la jouer."),
        ("de", "Tipp: ", "Drücken Sie noch einmal auf Tipp, um zu sehen, wohin die Karte kommt."),
    ],
    ids=["fr", "de"],
)
def test_both_stages_at_390_px_in_french_and_german(
    browser: Browser,
    live_server: LiveServer,
    artifact_dir: Path,
    code: str,
    card_words: str,
    again: str,
) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.goto(f"{live_server.url}/{code}/deal/{DEAL}/")
    page.locator("#announce").evaluate(LISTEN)
    tap(page, opening_build(DEAL), 1)
    felt = page.locator("#board .table").bounding_box()

    press_hint(page, 1)
    expect(page.locator("#board .message")).to_contain_text(card_words)
    heard: list[str] = page.evaluate("window.heard.splice(0)")
    assert any(text.endswith(again) for text in heard), heard
    screenshot(page, artifact_dir / f"hint-card-{code}-390.png")
    press_hint(page, 2)
    expect(page.locator(PLACE)).to_have_count(1)
    screenshot(page, artifact_dir / f"hint-place-{code}-390.png")

    # Neither stage moves the felt or widens the page.
    assert page.locator("#board .table").bounding_box() == felt
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    text = page.locator("#board .message").inner_text()
    assert "Hint" not in text, text
    context.close()


def test_both_stages_in_the_embed(page: Page, live_server: LiveServer, errors: list[str]) -> None:
    page.set_viewport_size({"width": 390, "height": 620})
    page.goto(f"{live_server.url}/de/embed/deal/{DEAL}/")
    tap(page, opening_build(DEAL), 1)  # the embed's game is stored, named by its token
    expect(page).to_have_url(re.compile(r"/de/embed/g/[\w-]+/"))

    both_stages(page)
    expect(page.locator("#board .message")).to_contain_text("Tipp: ")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert errors == []


def test_both_stages_without_javascript(browser: Browser, live_server: LiveServer) -> None:
    context = browser.new_context(java_script_enabled=False, viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.goto(f"{live_server.url}/deal/{DEAL}/")
    move = opening_build(DEAL)
    assert move.card is not None
    fan_card(page, move.card).click()  # a GET: the card picked up, its places as buttons
    destination(page, move).click()  # a POST, then the game's page
    moves_shown(page, 1)

    page.get_by_role("button", name="Hint").click()  # a POST, then the page of its first stage
    expect(page).to_have_url(re.compile(r"/hint/\?stage=1$"))
    expect(page.locator(CARD)).to_have_count(1)
    expect(page.locator(PLACE)).to_have_count(0)
    page.get_by_role("button", name="Hint").click()
    expect(page).to_have_url(re.compile(r"/hint/\?stage=2$"))
    expect(page.locator(CARD)).to_have_count(1)
    expect(page.locator(PLACE)).to_have_count(1)
    context.close()
