"""The page reads a move's text as the engine does (issue 40, item 5): the moves of whole games
(builds, foundations, empty fans, redeals, the merci) and some texts that are no move go through
static/js/board/instant.js's `parseMove` in Chromium and through game/engine's `Move.parse`; any
difference fails."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page
from pytest_django.live_server_helper import LiveServer

from game import engine

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]

# Texts the server never writes in a card's list, each refused by both readers.
NOT_MOVES = ["", "6C", "6C>", ">7C", "6C>7", "XX>F", "6C>XX", "*R", "6C>@", "6C>@12345", "R>F"]

PARSE = """async (texts) => {
  const { parseMove } = await import("/static/js/board/instant.js");
  return texts.map((text) => parseMove(text));
}"""


def engine_reading(text: str) -> dict[str, object] | None:
    try:
        move = engine.Move.parse(text)
    except engine.InvalidMoveError:
        return None
    if move.is_redeal:
        return {"redeal": True}
    assert move.card is not None
    return {
        "card": move.card.code,
        "merci": move.merci,
        "home": move.to_foundation,
        "fan": move.empty_fan,
        "onto": move.onto.code if move.onto is not None else None,
    }


def games_moves() -> list[str]:
    """Every move of the greedy player's games on a few deals under three rule sets."""
    texts: set[str] = set()
    for rules in ("lucie", "lucie-kings", "lucie-free"):
        for number in range(1, 7):
            try:
                played = engine.Play(number, engine.Rules.parse(rules))
            except ValueError:
                played = engine.Play(number)
            while (found := engine.greedy_hint(played.position)) is not None:
                played.play(found.move)
                texts.update(m.text for m in engine.legal_moves(played.position))
            texts.update(m.text for m in played.moves)
    return sorted(texts)


def test_the_page_reads_every_move_as_the_engine_does(page: Page, live_server: LiveServer) -> None:
    page.goto(f"{live_server.url}/deal/5/")
    texts = games_moves() + NOT_MOVES
    kinds = {
        "merci": any(t.startswith("*") for t in texts),
        "empty fan": any(">@" in t for t in texts),
        "redeal": "R" in texts,
    }
    assert all(kinds.values()), kinds
    read = page.evaluate(PARSE, texts)
    differences = [
        f"{text}: page {mine} != engine {theirs}"
        for text, mine in zip(texts, read, strict=True)
        if mine != (theirs := engine_reading(text))
    ]
    assert not differences, differences[:10]
