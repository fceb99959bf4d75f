"""How a test plays the site's board through the test client: start a deal, post a change,
read back the stored game."""

from __future__ import annotations

import re
from functools import cache
from html import unescape
from typing import TYPE_CHECKING

from django.test import Client

from game import engine
from game.board import store
from game.models import Game

if TYPE_CHECKING:
    from django.test.client import _MonkeyPatchedWSGIResponse
    from django.test.client import _MonkeyPatchedWSGIResponse as Response

DEAL = 5


def start(client: Client, number: int = DEAL, rules: str = "") -> Game:
    """This client's game of deal `number`: resumed, or dealt for real with the deal page's own
    POST (a browser with no session is shown a first board, and nothing is stored until it
    plays)."""
    url = f"/deal/{number}/" + (f"?rules={rules}" if rules else "")
    response = client.get(url)
    assert response.status_code == 200
    found = re.search(rb'data-game="(\d+)"', response.content)
    if found is None:
        token = client.cookies["csrftoken"].value if "csrftoken" in client.cookies else ""
        dealt = client.post(url, headers={"X-CSRFToken": token})
        assert dealt.status_code == 303, dealt.content
        found = re.fullmatch(rb"/game/(\d+)/", dealt["Location"].encode())
    assert found is not None
    return Game.objects.get(pk=int(found[1]))


def legal(game: Game) -> list[engine.Move]:
    game.refresh_from_db()
    return engine.legal_moves(game.replay().position)


def a_card_move(game: Game) -> engine.Move:
    return next(m for m in legal(game) if not m.is_redeal and not m.merci)


def post(
    client: Client, game: Game, action: str, htmx: bool = False, **data: object
) -> _MonkeyPatchedWSGIResponse:
    data.setdefault("n", game.move_count)
    headers = {"HX-Request": "true"} if htmx else {}
    return client.post(f"/game/{game.pk}/{action}/", data, headers=headers)


def snapshot(game: Game) -> tuple[str, str, int, str]:
    game.refresh_from_db()
    return game.moves, game.redo, game.move_count, game.status


def status_of(played: engine.Play | engine.Position) -> str:
    """ "playing", "won" or "lost": the engine's outcome in the stored status's words."""
    outcome = played.outcome()
    return "playing" if outcome is None else outcome.name


@cache
def greedy_record(wanted: str) -> tuple[int, tuple[str, ...]]:
    """The first deal that following the greedy hint wins (or loses), and its moves."""
    for number in range(1, 500):
        played = engine.Play(number)
        while (found := engine.greedy_hint(played.position)) is not None:
            played.play(found.move)
        if status_of(played) == wanted:
            return number, tuple(move.text for move in played.moves)
    raise AssertionError("no such deal in the first 500")


def play_through(client: Client, game: Game, moves: tuple[str, ...]) -> None:
    """Store all but the last few moves as play would, then make the last ones as requests."""
    head, tail = moves[:-3], moves[-3:]
    store.save(
        game, engine.Play(game.deal_number, game.engine_rules, [engine.Move.parse(m) for m in head])
    )
    for text in tail:
        game.refresh_from_db()
        response = post(client, game, "move", htmx=True, move=text)
        assert response.status_code == 200, response.content


def greedy_game(client: Client, wanted: str) -> Game:
    """This client's game of the deal that the greedy hint `wanted` ("won" or "lost"), played to
    its end through the site (greedy_record, play_through)."""
    number, moves = greedy_record(wanted)
    game = start(client, number)
    play_through(client, game, moves)
    game.refresh_from_db()
    assert game.status == wanted
    return game


def board_of(response: Response) -> dict[str, str]:
    """What the page's board says about itself, and where its move form posts."""
    html = response.content.decode()
    head = re.search(r'<div id="board"[^>]*>', html, re.S)
    form = re.search(r'<form id="js-move-form"[^>]*action="([^"]+)"', html)
    assert head is not None, html[:300]
    assert form is not None
    fields = dict(re.findall(r'data-([\w-]+)="([^"]*)"', head[0]))
    fields["move-url"] = unescape(form[1])
    return fields


def a_first_move(board: dict[str, str]) -> engine.Move:
    position = engine.Play(int(board["deal"]), engine.Rules.parse(board["rules"])).position
    # A random deal may open with no card to move (its first move a redeal or the merci).
    return (engine.card_moves(position) or engine.legal_moves(position))[0]


@cache
def auto_case() -> tuple[int, engine.Move, tuple[engine.Move, ...]]:
    """A deal, a first move that is not to a foundation, and the foundation moves it frees."""
    for number in range(1, 200):
        start_position = engine.Play(number).position
        for move in engine.card_moves(start_position):
            if move.to_foundation:
                continue
            after = engine.apply(start_position, move)
            home = engine.auto_finish(after)
            if home and not engine.auto_finish(start_position):
                return number, move, tuple(home)
    raise AssertionError("no deal with a move that frees a card to go home")
