"""A whole game in French and one in German, played by following Hint in Chromium: press Hint
twice (the card, then where it goes), read the move it marks on the board, play it by tapping
(or press Redeal), until the game is over. Every sentence of the live region and every hint's
message line is heard, and none may be English: the hint, the moves, both redeals, the merci and
the end all speak the page's language.

The deals are ones where the hint plays both redeals and the merci whatever time its search
gets (checked with the engine below), so the walk hears every kind of sentence.
"""

from __future__ import annotations

import re
from functools import cache

import pytest
from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from pytest_django.live_server_helper import LiveServer

from game import engine
from game.engine.hint import HINT_SECONDS
from tests.helpers.browser import LISTEN, TARGET, board, destination, fan_card, moves_shown

pytestmark = pytest.mark.django_db(transaction=True)

# What a French or German page must never say: the English of the hint, the moves, the
# redeals, the merci and the end (card names too).
ENGLISH = re.compile(
    r"\b(Hint|Redeal|[Rr]edo|Undone|to its foundation|onto the|from fan|in fan|buried in|"
    r"take the merci|the merci is open|last deal|of (Clubs|Diamonds|Hearts|Spades)|cards? home|"
    r"You won|game is over|No moves? left|is not|cannot|nothing to hint)\b"
)
WORDS = {
    "fr": {"hint": "Indice\u00a0: ", "redeal": "Redistribution ", "merci": "merci"},
    "de": {"hint": "Tipp: ", "redeal": "Neuverteilung ", "merci": "Merci"},
}
MAX_MOVES = 200

# The marks a hint leaves, read as a move: the hinted card (buried: a merci) and its target, a
# card, a foundation or an empty fan; or the Redeal button.
HINTED = """() => {
  if (document.querySelector('button[data-action="redeal"][data-hint]')) return "R";
  const card = document.querySelector('#board [data-card][data-hint="card"]');
  const target = document.querySelector('#board [data-hint="target"]');
  if (!card || !target) return "";
  const merci = card.classList.contains("is-top") ? "" : "*";
  let where = "F";
  if (target.dataset.card) where = target.dataset.card;
  else if (target.dataset.fan !== undefined) where = "@" + target.dataset.fan;
  return merci + card.dataset.card + ">" + where;
}"""


@cache
def hint_line(number: int) -> tuple[int, int]:
    """The redeals and mercis of following the engine's hint on `number`, with a search cut very
    short and with the site's time: the same for both, so a loaded machine follows such a line
    too (where it ends, won or lost, may differ: the game is played to its end either way)."""
    found = set()
    for limit in (0.01, HINT_SECONDS):
        game = engine.Play(number)
        while (hint := engine.hint(game.position, limit)) is not None:
            game.play(hint.move)
        found.add((sum(m.is_redeal for m in game.moves), sum(m.merci for m in game.moves)))
    assert len(found) == 1, (number, found)
    return found.pop()


def hinted(page: Page) -> engine.Move:
    """The move the hint marks, once it marks one (5 s at most)."""
    try:
        text = page.wait_for_function(HINTED, timeout=5000).json_value()
    except PlaywrightTimeout:
        text = ""
    assert text, "the hint marked no move"
    return engine.Move.parse(text)


def play(page: Page, move: engine.Move, count: int) -> None:
    """Play `move` as a player does: tap the card, then its lit place; or press Redeal."""
    if move.is_redeal:
        page.locator('button[data-action="redeal"]').click()
    else:
        assert move.card is not None
        fan_card(page, move.card).click()
        target = destination(page, move)
        expect(target).to_have_class(TARGET)
        target.click()
    moves_shown(page, count)


@pytest.mark.parametrize(("code", "number"), [("fr", 2), ("de", 6)])
def test_follow_the_hint_through_a_whole_game_and_hear_no_english(
    page: Page, live_server: LiveServer, errors: list[str], code: str, number: int
) -> None:
    redeals, mercis = hint_line(number)
    assert (redeals, mercis) == (2, 1), (number, redeals, mercis)
    words = WORDS[code]
    page.goto(f"{live_server.url}/{code}/deal/{number}/")
    assert page.locator("html").get_attribute("lang") == code
    region = page.locator("#announce")
    region.evaluate(LISTEN)
    hints: list[str] = []
    moves: list[engine.Move] = []

    while board(page).get_attribute("data-status") == "playing":
        assert len(moves) < MAX_MOVES, moves
        # The first press marks the card (a redeal's hint, the Redeal button, whole at once);
        # the second press, once its answer is in, where the card goes.
        page.locator('button[data-action="hint"]').click()
        shown = page.locator('#board form[data-keyed] input[name="shown"]')
        expect(shown).to_have_value("1")
        if not page.locator('button[data-action="redeal"][data-hint]').count():
            message = page.locator("#board .message")
            expect(message).to_contain_text(words["hint"].strip())
            hints.append(message.inner_text().strip())
            page.locator('button[data-action="hint"]').click()
            expect(shown).to_have_value("2")
        move = hinted(page)
        message = page.locator("#board .message")
        expect(message).to_contain_text(words["hint"].strip())
        hints.append(message.inner_text().strip())
        moves.append(move)
        play(page, move, len(moves))

    heard: list[str] = page.evaluate("window.heard.splice(0)")
    line = " ".join(move.text for move in moves)
    # A search cut short on a loaded machine may choose another line now and then: what matters
    # is that it went through both redeals and the merci to the end.
    assert board(page).get_attribute("data-status") in ("won", "lost"), line
    assert sum(m.is_redeal for m in moves) == 2, line
    assert any(m.merci for m in moves), line
    assert heard
    english = [text for text in heard + hints if ENGLISH.search(text)]
    assert english == []
    assert all(text.strip() for text in heard)
    assert all(text.startswith(words["hint"]) for text in hints), hints
    # Each kind of sentence was heard, in the page's language.
    assert sum(text.startswith(words["hint"]) for text in heard) >= len(moves) // 2
    assert sum(words["redeal"] in text for text in heard) >= 2, heard
    assert any(words["merci"] in text for text in heard), heard
    assert errors == []


def test_the_pattern_hears_the_english_of_a_hint_and_a_redeal() -> None:
    from django.utils import translation

    from game.board import words

    position = engine.Position.start(2)
    found = engine.hint(position)
    assert found is not None
    with translation.override("en"):
        english = [
            words.hint(position, found),
            words.hint_message(position, found),
            words.hint_message(position, engine.Hint(engine.REDEAL, "")),
        ]
    with translation.override("de"):
        german = [words.hint_message(position, found), words.deal_summary(position)]

    assert all(ENGLISH.search(text) for text in english), english
    assert not any(ENGLISH.search(text) for text in german), german
