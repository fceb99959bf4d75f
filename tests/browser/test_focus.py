"""Focus stays where the hand is (issue 46, docs/frontend.md): after every kind of move (a tap
with one tap on or off, two taps, a drag, Enter or Space on a focused card, automatic moves home,
Undo, Redo, Redeal, the merci) the keyboard's focus is on the board, never on the page's body,
both at once (the move laid before its answer) and once the answer is in; and the live region
says each move once."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Locator, Page, expect
from pytest_django.live_server_helper import LiveServer

from tests.helpers.browser import LISTEN, SETTLED

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]

DEAL = 3

# Where the focus is: "body", "board" (an element of #board) or "elsewhere".
WHERE = """() => {
  const active = document.activeElement;
  if (!active || active === document.body || !active.isConnected) return "body";
  return document.getElementById("board").contains(active) ? "board" : "elsewhere";
}"""

# (card, move) for every move the board lists, builds first, then the merci's, then home.
LISTED = """() => Array.from(document.querySelectorAll("#board .fan button[data-moves]"))
  .flatMap((c) => c.dataset.moves.split(" ").filter(Boolean).map((m) => [c.dataset.card, m]))"""


def order(found: list[list[str]]) -> list[tuple[str, str]]:
    return sorted(((c, m) for c, m in found), key=lambda pair: (pair[1].endswith(">F"), pair[1]))


def place(page: Page, move: str) -> Locator:
    source, target = move.lstrip("*").split(">")
    if target == "F":
        return page.locator(f'#board [data-foundation="{source[-1]}"]')
    if target.startswith("@"):
        return page.locator(f'#board [data-fan="{target[1:]}"] .slot')
    return page.locator(f'#board .fan [data-card="{target}"]')


def centre(locator: Locator) -> tuple[float, float]:
    box = locator.bounding_box()
    assert box is not None
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


class Hand:
    """A player's hand on one page, checking the focus after each thing it does."""

    def __init__(self, page: Page, one_tap: bool) -> None:
        self.page = page
        self.one_tap = one_tap
        self.lost: list[str] = []
        self.heard_per_move: list[list[str]] = []
        self.count = 0

    def moves(self) -> int:
        return int(self.page.locator("#board").get_attribute("data-moves") or "0")

    def check(self, what: str) -> None:
        where = self.page.evaluate(WHERE)
        if where != "board":
            self.lost.append(f"{what}: focus on {where}")

    def settled(self, what: str, before: int) -> None:
        expect(self.page.locator("#board")).not_to_have_attribute("data-moves", str(before))
        expect(self.page.locator("#board:not([data-ahead])")).to_have_count(1)
        self.page.wait_for_function(SETTLED)
        self.page.wait_for_timeout(150)
        self.check(f"{what}, answered")
        self.heard_per_move.append(self.page.evaluate("window.heard.slice()"))
        self.page.evaluate("window.heard = []")

    def move(self, how: str, card: str, move: str) -> None:
        page = self.page
        before = self.moves()
        page.wait_for_function(SETTLED)
        source = page.locator(f'#board .fan [data-card="{card}"]')
        single = len((source.get_attribute("data-moves") or "").split()) == 1
        played_by_one = self.one_tap and single and not move.startswith("*")
        target = place(page, move)
        if how == "drag":
            x, y = centre(source)
            to = centre(target)
            page.mouse.move(x, y)
            page.mouse.down()
            page.mouse.move(to[0], to[1], steps=8)
            page.mouse.up()
        elif how in ("Enter", "Space"):
            source.focus()
            page.keyboard.press(how if how == "Enter" else " ")
            if not played_by_one:
                target.focus()
                page.keyboard.press(how if how == "Enter" else " ")
        else:
            source.click()
            if not played_by_one:
                target.click()
        self.check(f"{how} {move}, laid")
        self.settled(f"{how} {move}", before)

    def press(self, action: str) -> None:
        before = self.moves()
        self.page.wait_for_function(SETTLED)
        if action == "redo":
            self.page.locator("#board details.menu summary").click()
        self.page.locator(f'#board .bar [data-action="{action}"]').click()
        self.check(f"{action}, pressed")
        self.settled(action, before)

    def space_on_a_card(self) -> None:
        """Space on a focused card redeals while a redeal is left (keys.js)."""
        before = self.moves()
        self.page.wait_for_function(SETTLED)
        self.page.locator("#board .fan button.is-top").first.focus()
        self.page.keyboard.press(" ")
        self.check("Space on a card (redeal), pressed")
        self.settled("Space on a card (redeal)", before)


@pytest.mark.parametrize("one_tap", [True, False], ids=["one-tap", "two-taps"])
def test_focus_never_falls_to_the_body_after_any_move(
    live_server: LiveServer, browser: Browser, one_tap: bool
) -> None:
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    settings = '{"auto-move": true, "one-tap": %s}' % ("true" if one_tap else "false")
    page.add_init_script(f"window.localStorage.setItem('lucie.settings', '{settings}')")
    page.goto(f"{live_server.url}/deal/{DEAL}/")
    page.eval_on_selector("#announce", LISTEN)
    hand = Hand(page, one_tap)
    # Space on a card redeals while a redeal is left (keys.js): it plays a card in the last deal.
    ways = ["tap", "Enter", "drag"]
    automatic = 0
    for step in range(8):
        listed = [pair for pair in order(page.evaluate(LISTED)) if not pair[1].startswith("*")]
        if not listed:
            break
        before = hand.moves()
        hand.move(ways[step % len(ways)], *listed[0])
        automatic += hand.moves() - before > 1
        if step == 3:
            hand.press("undo")
            hand.press("redo")
    assert automatic, "no move was followed by an automatic one: the test shows nothing of them"
    hand.press("redeal")
    hand.space_on_a_card()  # the second redeal: the last deal, where the merci is open
    merci = [pair for pair in order(page.evaluate(LISTED)) if pair[1].startswith("*")]
    assert merci, "the last deal offers no merci"
    hand.move("tap", *merci[0])
    hand.press("undo")
    listed = [pair for pair in order(page.evaluate(LISTED)) if not pair[1].startswith("*")]
    assert listed
    hand.move("Space", *listed[0])
    assert not hand.lost, hand.lost
    # The live region says each move once (the server's sentence), never twice; a card picked up
    # on the way (a drag, the merci's two taps) is said as a pick, before it.
    said = [[t for t in heard if "picked up" not in t] for heard in hand.heard_per_move]
    assert all(len(move) == 1 for move in said), hand.heard_per_move
    page.close()
