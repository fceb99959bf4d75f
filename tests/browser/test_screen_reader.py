"""Playing as a blind player does: the keyboard alone, the accessibility tree and the live region.

The whole-game test wins a deal along a line from the engine's solver (game/engine/solver.py).
It finds everything by role and accessible name (get_by_role, aria snapshots) and hears
everything through the page's one live region; no CSS selector and no data attribute is used.
Every move must make exactly one announcement, naming the card and where it went.
"""

from __future__ import annotations

import re
from functools import cache

import pytest
from playwright.sync_api import Locator, Page, expect
from pytest_django.live_server_helper import LiveServer

from game import engine
from game.board import store
from game.engine import solver
from game.engine.cards import SUIT_NAMES, SUIT_SYMBOLS
from game.models import Game
from tests.helpers.browser import LISTEN, no_violations, open_dealt
from tests.helpers.play import status_of

pytestmark = pytest.mark.django_db(transaction=True)

# How each rank is typed; the tests vary the forms a player may use ("6 c", "6c", "10h").
TYPED_RANKS = {1: "a", 10: "10", 11: "j", 12: "q", 13: "k"}


# ---------------------------------------------------------------- helpers


@cache
def solved_deal() -> tuple[int, tuple[engine.Move, ...]]:
    """The first deal whose solver line uses both redeals and the merci, so that the walk
    goes through every kind of move."""
    for number in range(1, 200):
        found = solver.solve(engine.Position.start(number))
        moves = found.moves
        if found.won and sum(m.is_redeal for m in moves) == 2 and any(m.merci for m in moves):
            return number, moves
    raise AssertionError("no deal under 200 has a solver line with two redeals and a merci")


def fan_label(number: int, fan: tuple[engine.Card, ...]) -> str:
    if not fan:
        return f"Fan {number}: empty"
    names = [card.name for card in fan]
    under = "".join(f"{name}, " for name in names[:-1])
    return f"Fan {number}: {under}top: {names[-1]}"


class Player:
    """A keyboard and a pair of ears: keys go in, the live region's sentences come out."""

    def __init__(self, page: Page) -> None:
        self.page = page
        # The page's announcements are its first status region; a later one may belong to a
        # Copy button (the replay's record box).
        self.region = page.get_by_role("status").first
        expect(self.region).to_be_attached()
        self.region.evaluate(LISTEN)

    def heard(self) -> list[str]:
        said: list[str] = self.page.evaluate("window.heard.splice(0)")
        return said

    def focused(self, target: Locator) -> bool:
        return bool(target.evaluate("element => element === document.activeElement"))

    def type_card(self, card: engine.Card, spaced: bool) -> None:
        keys = [*TYPED_RANKS.get(card.rank, str(card.rank))]
        if spaced:
            keys.append(" ")
        keys.append(card.suit.lower())
        for key in keys:
            self.page.keyboard.press("Space" if key == " " else key)

    def card(self, card: engine.Card) -> Locator:
        return self.page.get_by_role("button", name=card.name, exact=True)

    def foundation(self, suit: str) -> Locator:
        name = SUIT_NAMES[suit]
        return self.page.get_by_role("button", name=re.compile(rf"^{name} foundation: "))

    def walk_to(self, target: Locator, key: str, most: int = 60) -> None:
        for _ in range(most):
            if self.focused(target):
                return
            self.page.keyboard.press(key)
        raise AssertionError(f"{key} never reached {target}")

    def moves_shown(self, count: int) -> None:
        status = self.page.get_by_role("group", name="Game status")
        expect(status).to_contain_text(re.compile(rf"Moves\s*{count}\b"))


# ---------------------------------------------------------------- the whole game


def test_win_a_whole_game_by_keyboard_and_ear(
    page: Page, live_server: LiveServer, errors: list[str]
) -> None:
    number, line = solved_deal()
    mirror = engine.Play(number)
    page.goto(f"{live_server.url}/deal/{number}/")
    player = Player(page)

    # The spoken board: every fan a group named by its cards and its top; each foundation says
    # what it holds; the counters are read on demand (I).
    for index, fan in enumerate(mirror.position.fans):
        expect(page.get_by_role("group", name=fan_label(index + 1, fan), exact=True)).to_have_count(
            1
        )
    expect(page.get_by_role("button", name="Spades foundation: empty")).to_have_count(1)
    page.keyboard.press("i")
    expect(player.region).to_have_text(
        f"Deal {number}, 0 moves, time 0:00, 2 redeals left, 1 merci left, 0 of 52 cards home."
    )
    player.heard()

    for count, move in enumerate(line, start=1):
        before = mirror.position
        if move.is_redeal:
            redeal = page.get_by_role("button", name=re.compile(r"^Redeal"))
            player.walk_to(redeal, "Shift+Tab")
            page.keyboard.press("Enter")
            player.moves_shown(count)
            mirror.play(move)
            said = player.heard()
            assert len(said) == 1, said
            assert said[0].startswith(f"Redeal {mirror.position.redeals_used} of 2: ")
            if mirror.position.is_last_deal:
                assert said[0].endswith("This is the last deal: the merci is open.")
                assert no_violations(page) == []
            continue

        card = move.card
        assert card is not None
        # Jump to the card by typing its name, pick it up, hear where it may go.
        player.type_card(card, spaced=count % 2 == 0)
        expect(player.card(card)).to_be_focused()
        page.keyboard.press("Enter")
        expect(player.region).to_contain_text(f"{card.name} from fan ")
        picked = player.heard()
        assert len(picked) == 1, picked
        assert "picked up: it may go " in picked[0]
        if move.merci:
            assert no_violations(page) == []

        # Go to the place and put the card down.
        if move.onto is not None:
            where = f"onto the {move.onto.name}"
            assert where in picked[0]
            player.type_card(move.onto, spaced=count % 3 == 0)
            expect(player.card(move.onto)).to_be_focused()
        else:
            where = "to its foundation"
            assert where in picked[0]
            player.walk_to(player.foundation(card.suit), "ArrowLeft")
        page.keyboard.press("Enter")
        player.moves_shown(count)
        mirror.play(move)

        said = player.heard()
        assert len(said) == 1, said
        start = f"Merci: the {card.name}, drawn from under fan " if move.merci else card.name
        assert said[0].startswith(start), said
        assert where in said[0].split(".")[0], said
        # Focus came back to the place that was used.
        if mirror.position.cards_home < 52:
            if move.onto is not None:
                expect(player.card(card)).to_be_focused()
            else:
                expect(player.foundation(card.suit)).to_be_focused()
        assert before != mirror.position

    assert said[0].endswith("All 52 cards are home: you won!")
    expect(page.get_by_role("heading", name="You won!")).to_be_visible()
    expect(page.get_by_role("button", name="New game").last).to_be_focused()
    assert no_violations(page) == []
    assert errors == []


# ---------------------------------------------------------------- the loss, dialogs, embed


@cache
def greedy_loss() -> tuple[int, tuple[engine.Move, ...]]:
    rules = engine.Rules.parse("nomerci-r0")
    for number in range(1, 300):
        played = engine.Play(number, rules)
        while (found := engine.greedy_hint(played.position)) is not None:
            played.play(found.move)
        if status_of(played) == "lost" and len(played.moves) > 1:
            last = played.moves[-1]
            if last.onto is not None:
                return number, played.moves
    raise AssertionError("no greedy loss ending in a build under 300")


def test_a_pick_made_before_the_swap_settles_still_plays(
    page: Page, live_server: LiveServer, errors: list[str]
) -> None:
    # On a loaded machine htmx's settle (20 ms after a swap) can come late, after the player's
    # next keys: focus must already be back, and the lit places of a card picked up meanwhile
    # must stay lit (htmx used to reset the swapped foundation's class at the settle).
    page.goto(f"{live_server.url}/deal/3/")
    player = Player(page)
    # The site settles a swap at once, with no attribute reset: htmx binds a new board's forms
    # at the settle, so a move sent before it would go as a plain post and reload the page.
    assert page.evaluate("[htmx.config.defaultSettleDelay, htmx.config.attributesToSettle]") == [
        0,
        [],
    ]
    # Even when a settle comes late, a pick made before it must hold.
    page.evaluate("htmx.config.defaultSettleDelay = 1500")
    ace, two = engine.Card.parse("AC"), engine.Card.parse("2C")

    for count, card in enumerate((ace, two), start=1):
        player.type_card(card, spaced=False)
        expect(player.card(card)).to_be_focused()
        page.keyboard.press("Enter")
        expect(player.region).to_contain_text(f"{card.name} from fan ")
        player.walk_to(player.foundation("C"), "ArrowLeft")
        page.wait_for_timeout(1800)  # the swap's settle, if it were to touch the lit place
        page.keyboard.press("Enter")
        player.moves_shown(count)
        # Focus is back on the foundation at once, not at the settle.
        expect(player.foundation("C")).to_be_focused(timeout=1000)
    expect(page.get_by_role("button", name="Clubs foundation: Two of Clubs")).to_have_count(1)
    assert errors == []


def test_the_loss_is_announced_and_focus_goes_to_the_end_panel(
    page: Page, live_server: LiveServer, errors: list[str]
) -> None:
    number, moves = greedy_loss()
    open_dealt(page, f"{live_server.url}/deal/{number}/?rules=nomerci-r0")
    game = Game.objects.latest("pk")
    store.save(game, engine.Play(number, game.engine_rules, moves[:-1]))
    page.reload()
    player = Player(page)
    last = moves[-1]
    assert last.card is not None
    assert last.onto is not None

    player.type_card(last.card, spaced=True)
    page.keyboard.press("Enter")
    player.type_card(last.onto, spaced=False)
    page.keyboard.press("Enter")

    expect(page.get_by_role("heading", name="No moves left")).to_be_visible()
    said = player.heard()
    assert said[-1].startswith(f"{last.card.name} onto the {last.onto.name}.")
    assert "No move, redeal or merci is left: the game is over" in said[-1]
    expect(page.get_by_role("button", name="Undo").last).to_be_focused()
    assert no_violations(page) == []

    # The replay, from the end panel, says each step as it is taken.
    player.walk_to(page.get_by_role("link", name="Watch the replay"), "Tab", most=5)
    page.keyboard.press("Enter")
    expect(page.get_by_role("heading", name=f"Replay of deal #{number}")).to_be_visible()
    page.wait_for_load_state("load")
    player = Player(page)
    page.keyboard.press("ArrowRight")
    first = moves[0].card
    assert first is not None
    expect(player.region).to_have_text(re.compile(rf"^Move 1 of {len(moves)}: {first.name} "))
    page.keyboard.press("ArrowRight")
    expect(player.region).to_have_text(re.compile(rf"^Move 2 of {len(moves)}: "))
    assert len(player.heard()) == 2
    assert no_violations(page) == []
    assert errors == []


def test_the_daily_calendar_is_a_table_with_headers(page: Page, live_server: LiveServer) -> None:
    page.goto(f"{live_server.url}/daily/")
    page.get_by_role("link", name=re.compile(r"calendar$")).click()

    calendar = page.get_by_role("table", name=re.compile(r"^Your daily results"))
    expect(calendar.get_by_role("columnheader", name="Mon")).to_have_count(1)
    expect(calendar.get_by_role("rowheader", name=re.compile(r"^Week of 1 "))).to_have_count(1)
    assert no_violations(page) == []


def test_keyboard_details_and_dialogs(
    page: Page, live_server: LiveServer, errors: list[str]
) -> None:
    mirror = engine.Play(1)
    page.goto(f"{live_server.url}/deal/1/")
    player = Player(page)

    # A buried card is not a stop: typing its name says where it lies.
    buried = mirror.position.fans[3][0]
    player.type_card(buried, spaced=False)
    over = " and ".join(f"the {card.name}" for card in mirror.position.fans[3][1:])
    expect(player.region).to_have_text(f"The {buried.name} is in fan 4, under {over}.")
    top = mirror.position.fans[3][-1]
    expect(player.card(top)).to_be_focused()

    # Arrows go fan by fan.
    page.keyboard.press("ArrowRight")
    expect(player.card(mirror.position.fans[4][-1])).to_be_focused()
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    expect(player.card(mirror.position.fans[2][-1])).to_be_focused()

    # A suit may be typed as its symbol ("6♣"). Playwright's keyboard knows only a US layout, so
    # the symbol's key comes through the browser's own input channel, as another layout sends it.
    sixth = mirror.position.fans[5][-1]
    for key in TYPED_RANKS.get(sixth.rank, str(sixth.rank)):
        page.keyboard.press(key)
    cdp = page.context.new_cdp_session(page)
    symbol = SUIT_SYMBOLS[sixth.suit]
    for kind in ("keyDown", "keyUp"):
        cdp.send("Input.dispatchKeyEvent", {"type": kind, "key": symbol, "text": symbol})
    expect(player.card(sixth)).to_be_focused()

    # Undo that becomes disabled hands focus to its neighbour, never to nowhere.
    home = next(m for m in engine.card_moves(mirror.position) if m.to_foundation)
    assert home.card is not None
    player.type_card(home.card, spaced=False)
    page.keyboard.press("Enter")
    player.walk_to(player.foundation(home.card.suit), "ArrowLeft")
    page.keyboard.press("Enter")
    player.moves_shown(1)
    undo = page.get_by_role("button", name="Undo", exact=True)
    player.walk_to(undo, "Shift+Tab")
    page.keyboard.press("Enter")
    player.moves_shown(0)
    expect(page.get_by_role("button", name=re.compile(r"^Redeal"))).to_be_focused()
    assert player.heard()[-1].startswith(f"Undone: {home.card.name} to its foundation.")

    # "a" followed by a suit is an Ace; alone it is still auto-finish.
    page.keyboard.press("a")
    expect(player.region).to_contain_text("Auto-finish: ")

    # Each dialog is clean.
    page.keyboard.press("n")
    expect(page.get_by_role("dialog", name="New game")).to_be_visible()
    assert no_violations(page) == []
    page.keyboard.press("Escape")
    for name in ("Keyboard shortcuts", "Settings", "Statistics", "Show a win"):
        page.get_by_label("Menu").click()
        page.get_by_role("link" if name != "Show a win" else "button", name=name).click()
        dialog = page.get_by_role("dialog", name=re.compile(rf"^{name}"))
        expect(dialog).to_be_visible()
        expect(dialog).not_to_contain_text("Loading")
        assert no_violations(page) == [], name
        page.keyboard.press("Escape")
        expect(dialog).to_be_hidden()
    assert errors == []


def test_the_embed_is_announced_and_clean(page: Page, live_server: LiveServer) -> None:
    mirror = engine.Play(3)
    page.goto(f"{live_server.url}/embed/deal/3/")
    player = Player(page)
    assert no_violations(page) == []
    move = next(m for m in engine.card_moves(mirror.position) if m.onto is not None)
    assert move.card is not None
    assert move.onto is not None

    player.type_card(move.card, spaced=True)
    page.keyboard.press("Enter")
    player.type_card(move.onto, spaced=True)
    page.keyboard.press("Enter")

    expect(player.region).to_contain_text(f"{move.card.name} onto the {move.onto.name}.")
    expect(player.card(move.card)).to_be_focused()
    assert no_violations(page) == []
