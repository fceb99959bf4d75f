"""The table's feel in real Chromium: the hint ring on any card, Space, the embed's settings
button, words that fit the player's hand, cards readable in long fans, cards that travel."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Literal

import pytest
from playwright.sync_api import Browser, Page, expect
from pytest_django.live_server_helper import LiveServer

from game import engine
from game.board import store
from game.models import Game
from tests.helpers.board import set_moves
from tests.helpers.browser import (
    board,
    destination,
    fan_card,
    greedy_win,
    moves_shown,
    no_serious_violations,
    open_dealt,
    screenshot,
)
from tests.helpers.play import status_of

pytestmark = pytest.mark.django_db(transaction=True)

HINT_RING = "3px"  # the hint's ring: `0 0 0 3px var(--hint)`


def box_shadow(page: Page, selector: str) -> str:
    shadow: str = page.eval_on_selector(selector, "el => getComputedStyle(el).boxShadow")
    return shadow


@pytest.mark.parametrize("hand", ["right", "left"])
def test_the_hint_ring_shows_on_the_first_card_of_a_fan(
    page: Page, live_server: LiveServer, hand: str
) -> None:
    page.goto(f"{live_server.url}/deal/5/")
    if hand == "left":
        page.evaluate("document.documentElement.classList.add('left-handed')")
    first = '[data-fan="0"] .card:first-child'
    single = '[data-fan="17"] .card:first-child'  # the one-card fan: first and top at once
    assert box_shadow(page, first) == "none"
    # The server marks the hinted card and its place with data-hint (game/board/pipeline.py); a
    # merci hint
    # or a one-card fan puts it on a fan's first card.
    page.eval_on_selector(first, "el => el.setAttribute('data-hint', 'card')")
    page.eval_on_selector(single, "el => el.setAttribute('data-hint', 'target')")

    for selector in (first, single):
        assert HINT_RING in box_shadow(page, selector), selector


def test_space_redeals_after_a_mouse_move_whatever_has_focus(
    page: Page, live_server: LiveServer, errors: list[str]
) -> None:
    mirror = engine.Play(1)
    page.goto(f"{live_server.url}/deal/1/")
    move = next(m for m in engine.card_moves(mirror.position) if m.to_foundation)
    assert move.card is not None
    fan_card(page, move.card).click()
    expect(page.locator(".message")).to_contain_text("click a lit place")
    destination(page, move).click()
    moves_shown(page, 1)
    # The click left the focus on a control of the board.
    assert page.evaluate("document.activeElement !== document.body")

    page.keyboard.press(" ")

    expect(board(page)).to_have_attribute("data-redeals-left", "1")
    moves_shown(page, 2)

    # With a card picked up, Space is no redeal: it presses the focused card (puts it back).
    top = page.locator(".fan button.is-top[data-moves]:not([data-moves=''])").first
    top.focus()
    page.keyboard.press("Enter")
    expect(top).to_have_class(re.compile(r"\bis-selected\b"))
    expect(page.locator(".message")).to_contain_text("press Enter")
    page.keyboard.press(" ")
    expect(board(page)).to_have_attribute("data-redeals-left", "1")
    assert errors == []


def test_a_phone_says_tap_and_a_mouse_says_click(browser: Browser, live_server: LiveServer) -> None:
    for has_touch, word in ((True, "tap"), (False, "click")):
        context = browser.new_context(
            viewport={"width": 390, "height": 844}, has_touch=has_touch, is_mobile=has_touch
        )
        page = context.new_page()
        page.goto(f"{live_server.url}/deal/5/?rules=lucie-r0")
        expect(page.locator(".merci.open")).to_be_visible()
        expect(page.locator(".message")).to_have_text(
            re.compile(rf"open: {word} a buried"), use_inner_text=True
        )
        mirror = engine.Play(5, engine.Rules.parse("lucie-r0"))
        card = next(m.card for m in engine.card_moves(mirror.position) if m.card is not None)
        if has_touch:
            fan_card(page, card).tap()
        else:
            fan_card(page, card).click()
        expect(page.locator(".message")).to_contain_text(f"{word} a lit place")
        context.close()


def test_the_embeds_settings_button_stays_after_a_move(
    page: Page, live_server: LiveServer, errors: list[str]
) -> None:
    page.goto(f"{live_server.url}/embed/deal/1/")
    gear = page.get_by_role("button", name="Settings")
    expect(gear).to_be_visible()
    mirror = engine.Play(1)
    move = next(m for m in engine.card_moves(mirror.position) if m.to_foundation)
    assert move.card is not None

    fan_card(page, move.card).dblclick()

    moves_shown(page, 1)
    expect(gear).to_be_visible()
    gear.click()
    expect(page.locator("#settings-dialog")).to_be_visible()
    assert errors == []


# ---------------------------------------------------------------- every card readable

# A record that builds a fan of 14 cards (two dealt cards, then the Diamonds from King down to
# Two), and others of 5 to 7 beside it; found by a best-first search over deal 23's moves.
LONG_FANS = (
    "lucie-kings",
    23,
    "QD>KD 2H>3H AS>F 2S>F JD>QD TD>JD TH>JH 9H>TH 4S>5S 9D>TD 8D>9D 7D>8D 8C>9C KS>@4 8H>9H "
    "3S>F 9S>TS AD>2D 6D>7D 4S>F 5S>F 7C>8C 7H>8H 6H>7H 5H>6H 3C>4C 6S>F 7S>F 8S>F 9S>F TS>F "
    "JS>F 5D>6D 4D>5D 3D>4D 4H>5H AD>F 2D>3D",
)


def show_long_fans(page: Page, live_server: LiveServer) -> None:
    """This browser's game of deal 23, stored as the move pipeline would leave it after the
    record's moves, then shown."""
    rules, number, moves = LONG_FANS
    open_dealt(page, f"{live_server.url}/deal/{number}/?rules={rules}")
    game = Game.objects.get(pk=int(board(page).get_attribute("data-game") or 0))
    played = engine.Play(
        number, engine.Rules.parse(rules), [engine.Move.parse(m) for m in moves.split()]
    )
    store.save(game, played)
    page.reload()
    moves_shown(page, len(played.moves))


# ---------------------------------------------------------------- cards that travel

# Counts every Web Animations call, naming the card (or copy) it moves.
COUNT_ANIMATIONS = """
window.__animated = [];
const animate = Element.prototype.animate;
Element.prototype.animate = function (...args) {
  window.__animated.push((this.dataset && this.dataset.card) || this.className);
  return animate.apply(this, args);
};
"""


@pytest.mark.parametrize("motion", ["on", "system", "setting"])
def test_a_move_slides_its_card_unless_motion_is_reduced(
    browser: Browser, live_server: LiveServer, motion: str
) -> None:
    context = browser.new_context(
        reduced_motion="reduce" if motion == "system" else "no-preference"
    )
    context.add_init_script(COUNT_ANIMATIONS)
    if motion == "setting":
        context.add_init_script(
            "localStorage.setItem('lucie.settings', JSON.stringify("
            "{'reduced-motion': true, 'auto-move': false, 'one-tap': false}))"
        )
    page = context.new_page()
    page.goto(f"{live_server.url}/deal/1/")
    mirror = engine.Play(1)
    move = next(m for m in engine.card_moves(mirror.position) if m.onto is not None)
    assert move.card is not None

    fan_card(page, move.card).click()
    destination(page, move).click()
    moves_shown(page, 1)

    if motion == "on":
        page.wait_for_function("() => window.__animated.length > 0")
        page.wait_for_function("() => document.documentElement.dataset.motion === '1'")
    else:
        page.wait_for_timeout(600)  # well past the swap's settling
    animated: list[str] = page.evaluate("window.__animated")
    # The focus stays where the player put the card: on it, now on top of its new fan.
    focused = page.evaluate("document.activeElement && document.activeElement.dataset.card")
    # The animation never holds up the next input: Undo at once is taken at once.
    page.get_by_role("button", name="Undo").click()
    moves_shown(page, 0)
    context.close()

    if motion == "on":
        assert move.card.code in animated
    else:
        assert animated == []
    assert focused == move.card.code


# ---------------------------------------------------------------- guidance on the board


def test_the_merci_marks_what_it_can_take_only_when_asked(
    page: Page, live_server: LiveServer, errors: list[str]
) -> None:
    mirror = engine.Play(5, engine.Rules.parse("lucie-r0"))
    takeable = {m.card.code for m in engine.legal_moves(mirror.position) if m.merci and m.card}
    assert takeable
    page.goto(f"{live_server.url}/deal/5/?rules=lucie-r0")
    marked = page.locator("#board.show-merci .fan .card.buried[data-moves]:not([data-moves=''])")
    expect(marked).to_have_count(0)  # not by default: it is a clue

    page.get_by_role("button", name="Show what it can take").click()

    expect(marked).to_have_count(len(takeable))
    assert {c.get_attribute("data-card") for c in marked.all()} == takeable
    outline = page.eval_on_selector(
        "#board.show-merci .fan .card.buried[data-moves]:not([data-moves=''])",
        "el => getComputedStyle(el).outlineStyle",
    )
    assert outline == "dashed"
    expect(page.locator(".message")).to_contain_text("The merci can take")
    assert no_serious_violations(page) == []
    # It stays on across a change while the merci is open, and goes off when asked.
    page.get_by_role("button", name="Hint").click()
    expect(page.locator("#board [data-hint]")).not_to_have_count(0)
    expect(page.get_by_role("button", name="Show what it can take")).to_have_attribute(
        "aria-pressed", "true"
    )
    expect(marked).to_have_count(len(takeable))
    page.get_by_role("button", name="Show what it can take").click()
    expect(marked).to_have_count(0)
    assert errors == []


@pytest.mark.parametrize("size", [(390, 844), (1280, 800)])
def test_how_to_play_is_on_the_board_without_a_menu(
    browser: Browser, live_server: LiveServer, size: tuple[int, int]
) -> None:
    context = browser.new_context(viewport={"width": size[0], "height": size[1]})
    page = context.new_page()
    page.goto(f"{live_server.url}/deal/5/")

    link = page.locator("#board .info").get_by_role("link", name="How to play")
    expect(link).to_be_visible()
    box = link.bounding_box()
    assert box is not None
    assert box["y"] + box["height"] <= size[1]
    link.click()
    expect(page).to_have_url(re.compile(r"/rules/$"))
    context.close()


# ---------------------------------------------------------------- screenshots for review

SCREENSHOTS = Path("test-artifacts/screenshots")


SIZES = {"se": (375, 667), "phone": (390, 844), "desktop": (1280, 800)}
THEMES = {
    "blue": {"felt": "blue"},
    "red": {"felt": "red"},
    "grey": {"felt": "grey"},
    "large-cards": {"cards": "large"},
}


def stored_game(
    page: Page, live_server: LiveServer, rules: str, moves: tuple[engine.Move, ...], number: int
) -> None:
    """This browser's game of `number` under `rules`, brought to the position after `moves`."""
    open_dealt(page, f"{live_server.url}/deal/{number}/?rules={rules}")
    game = Game.objects.get(pk=int(board(page).get_attribute("data-game") or 0))
    set_moves(game, moves)
    page.goto(f"{live_server.url}/game/{game.pk}/")


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_screenshots_of_the_table(
    browser: Browser, live_server: LiveServer, scheme: Literal["light", "dark"]
) -> None:
    """The start, a long-fan position, the last deal with the merci marked, a stuck board, a
    loss, a win and each theme, at 375x667, 390x844 and 1280x800, into
    test-artifacts/screenshots/ (README: Screenshots) for a reviewer. Each in a browser of its
    own, so that no game in progress asks before the next deal."""
    from tests.helpers.board import stuck_game

    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    number, moves = greedy_win()
    stuck_number, stuck_moves = stuck_game("lucie")
    lost_number, lost_moves = stuck_game("nomerci-r0", lost=True)
    for name, (width, height) in SIZES.items():

        def fresh(settings: dict[str, str] | None = None) -> Page:
            context = browser.new_context(
                viewport={"width": width, "height": height},  # noqa: B023
                color_scheme=scheme,
                has_touch=name != "desktop",  # noqa: B023
            )
            if settings:
                context.add_init_script(
                    f"localStorage.setItem('lucie.settings', '{json.dumps(settings)}')"
                )
            return context.new_page()

        def shot(page: Page, what: str) -> None:
            screenshot(page, SCREENSHOTS / f"{what}-{name}-{scheme}.png")  # noqa: B023

        page = fresh()
        page.goto(f"{live_server.url}/deal/20261129/")
        shot(page, "start")
        show_long_fans(page, live_server)
        shot(page, "long-fans")
        page.context.close()

        page = fresh()
        page.goto(f"{live_server.url}/deal/5/?rules=lucie-r0")
        page.get_by_role("button", name="Show what it can take").click()
        expect(page.locator("#board.show-merci")).to_have_count(1)
        shot(page, "merci")
        page.context.close()

        page = fresh()
        stored_game(page, live_server, "lucie", stuck_moves, stuck_number)
        expect(page.locator(".message")).to_contain_text("No moves left")
        shot(page, "stuck")
        page.context.close()

        page = fresh()
        stored_game(page, live_server, "nomerci-r0", lost_moves, lost_number)
        expect(board(page)).to_have_attribute("data-status", "lost")
        shot(page, "lost")
        page.context.close()

        page = fresh()
        stored_game(page, live_server, "lucie", moves[:-1], number)
        last = moves[-1]
        assert last.card is not None
        fan_card(page, last.card).dblclick()
        expect(board(page)).to_have_attribute("data-status", "won")
        expect(page.locator(".cascade")).to_have_count(1)  # the win's celebration
        page.wait_for_timeout(900)  # the cascade under way
        shot(page, "won")
        page.context.close()

        for theme, settings in THEMES.items():
            page = fresh(settings)
            page.goto(f"{live_server.url}/deal/20261129/")
            shot(page, f"theme-{theme}")
            page.context.close()


def test_auto_moves_and_a_redeal_travel_too(browser: Browser, live_server: LiveServer) -> None:
    context = browser.new_context()
    context.add_init_script(COUNT_ANIMATIONS)
    context.add_init_script(
        "localStorage.setItem('lucie.settings', JSON.stringify({'auto-move': true}))"
    )
    page = context.new_page()
    page.goto(f"{live_server.url}/deal/2/")
    mirror = engine.Play(2)
    move = engine.Move.parse("3C>4C")
    assert move in engine.card_moves(mirror.position)
    home = {m.card.code for m in engine.card_moves(mirror.position) if m.to_foundation and m.card}
    assert len(home) >= 2

    fan_card(page, engine.Card.parse("3C")).click()
    destination(page, move).click()
    expect(page.locator("[data-foundation] [data-card]")).not_to_have_count(0)
    # Two motions: the card laid at once (instant moves), then the auto-moves the answer brought.
    page.wait_for_function("() => document.documentElement.dataset.motion === '2'")
    animated: set[str] = set(page.evaluate("window.__animated"))
    # Every card the server sent home on its own went there in view (or a copy of it flew).
    assert home <= animated or any("travelling" in name for name in animated)

    page.evaluate("window.__animated = []")
    page.get_by_role("button", name="Redeal").click()
    expect(board(page)).to_have_attribute("data-redeals-left", "1")
    page.wait_for_function("() => document.documentElement.dataset.motion === '3'")
    dealt: list[str] = page.evaluate("window.__animated")
    context.close()

    assert len(dealt) >= 30  # the fans gathered and dealt again, card by card


# ---------------------------------------------------------------- a grid that holds still
# Every fan on one line at every width, the opening table in view: test_table_layout.py.

# The felt's place on the page (its top edge, from the document's top).
FELT_TOP = "document.querySelector('#board .table').getBoundingClientRect().top + window.scrollY"


@pytest.mark.parametrize("size", [(320, 640), (375, 667), (1280, 800)])
def test_the_felt_holds_still_between_picking_a_card_and_playing_it(
    browser: Browser, live_server: LiveServer, size: tuple[int, int]
) -> None:
    """A whole game played by taps, following the hint (whose message and "Why?" come and go):
    the felt never moves between the two taps of a move, nor when the move is played."""
    context = browser.new_context(viewport={"width": size[0], "height": size[1]}, has_touch=True)
    page = context.new_page()
    page.goto(f"{live_server.url}/deal/7/")
    mirror = engine.Play(7)
    shifts = []
    for step in range(40):
        if step % 3 == 0 and status_of(mirror) == "playing":
            page.get_by_role("button", name="Hint").click()
            expect(page.locator("#board [data-hint]")).not_to_have_count(0)
        moves = [m for m in engine.card_moves(mirror.position) if m.card is not None]
        if not moves:
            break
        move = moves[0]
        assert move.card is not None
        before = page.evaluate(FELT_TOP)
        fan_card(page, move.card).tap()
        expect(fan_card(page, move.card)).to_have_class(re.compile(r"\bis-selected\b"))
        picked = page.evaluate(FELT_TOP)
        destination(page, move).tap()
        mirror.play(move)
        moves_shown(page, len(mirror.moves))
        played = page.evaluate(FELT_TOP)
        if abs(picked - before) > 0.5 or abs(played - picked) > 0.5:
            shifts.append(f"{move}: {before:.1f} -> {picked:.1f} -> {played:.1f}")
    context.close()

    assert len(mirror.moves) >= 10
    assert shifts == []


def test_the_felt_keeps_its_height_while_a_redeal_is_dealt(
    browser: Browser, live_server: LiveServer
) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    show_long_fans(page, live_server)  # a long fan and many cards home: the redeal is shorter
    felt = page.locator("#board .table")
    box = felt.bounding_box()
    assert box is not None
    before = box["height"]

    page.get_by_role("button", name="Redeal").click()
    page.wait_for_function("() => document.documentElement.dataset.motion === '1'")
    during: float = page.evaluate(
        "document.querySelector('#board .table').getBoundingClientRect().height"
    )
    page.wait_for_timeout(2200)  # the deal laid and the felt eased to its new height
    after: float = page.evaluate(
        "document.querySelector('#board .table').getBoundingClientRect().height"
    )
    context.close()

    assert abs(during - before) < 1.5
    assert after < before - 20


# ---------------------------------------------------------------- themes and sounds


def test_a_theme_chosen_in_settings_applies_at_once_and_is_remembered(
    page: Page, live_server: LiveServer, errors: list[str]
) -> None:
    page.goto(f"{live_server.url}/deal/5/")
    felt_before = page.eval_on_selector(
        "#board .table", "el => getComputedStyle(el).backgroundImage"
    )
    page.locator("#board-menu summary").click()
    page.get_by_role("link", name="Settings").click()
    dialog = page.locator("#settings-dialog")
    dialog.get_by_role("radio", name="Blue").check()
    dialog.get_by_role("radio", name="Large indices").check()
    dialog.get_by_role("radio", name="Dark").check()

    html = page.locator("html")
    expect(html).to_have_class(re.compile(r"\bfelt-blue\b"))
    assert no_serious_violations(page) == []
    page.reload()

    expect(html).to_have_class(re.compile(r"\bfelt-blue\b.*\bcards-large\b.*\bscheme-dark\b"))
    felt_after = page.eval_on_selector(
        "#board .table", "el => getComputedStyle(el).backgroundImage"
    )
    assert felt_after != felt_before
    # Dark mode keeps white card faces; large indices show the big pip instead of the art.
    face = page.eval_on_selector(
        "#board .fan .card.is-top", "el => getComputedStyle(el).backgroundColor"
    )
    assert face == "rgb(255, 254, 251)"
    expect(page.locator("#board .fan .card.is-top .pip").first).to_be_visible()
    expect(page.locator("#board .fan .card.is-top .art").first).to_be_hidden()
    assert errors == []


@pytest.mark.parametrize("sounds", [False, True])
def test_sounds_play_only_when_turned_on(
    browser: Browser, live_server: LiveServer, sounds: bool
) -> None:
    context = browser.new_context()
    if sounds:
        context.add_init_script(
            "localStorage.setItem('lucie.settings', JSON.stringify({'sounds': true}))"
        )
    page = context.new_page()
    page.goto(f"{live_server.url}/deal/1/")
    mirror = engine.Play(1)
    move = next(m for m in engine.card_moves(mirror.position) if m.to_foundation)
    assert move.card is not None

    fan_card(page, move.card).dblclick()
    moves_shown(page, 1)
    page.wait_for_timeout(300)
    sound = page.evaluate("document.documentElement.dataset.sound || ''")
    context.close()

    assert sound == ("place" if sounds else "")


def test_two_quick_taps_on_different_cards_are_not_a_double_tap(
    page: Page, live_server: LiveServer
) -> None:
    """A phone reports two quick taps a finger's width apart as a double tap. When the first
    landed elsewhere (say, on the place a move was just played to), the second only picks its
    card: it never sends that card home unasked."""
    page.goto(f"{live_server.url}/deal/1/")
    position = engine.Play(1).position
    home = next(m for m in engine.card_moves(position) if m.to_foundation)
    other = next(m for m in engine.card_moves(position) if m.card not in (None, home.card))
    assert home.card is not None
    assert other.card is not None
    cdp = page.context.new_cdp_session(page)

    def press(card: engine.Card, count: int) -> None:
        box = fan_card(page, card).bounding_box()
        assert box is not None
        x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        for kind in ("mousePressed", "mouseReleased"):
            cdp.send(
                "Input.dispatchMouseEvent",
                {"type": kind, "x": x, "y": y, "button": "left", "clickCount": count},
            )

    press(other.card, 1)
    press(home.card, 2)  # the browser's second click of a "double click", on another card
    expect(fan_card(page, home.card)).to_have_class(re.compile(r"\bis-selected\b"))
    page.wait_for_timeout(300)
    expect(page.locator("#board")).to_have_attribute("data-moves", "0")

    # Both clicks on the one card are a double tap, and it goes home.
    press(home.card, 1)
    press(home.card, 2)
    expect(page.locator("#board")).to_have_attribute("data-moves", "1")
