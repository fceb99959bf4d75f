"""How a test plays the embed through the test client: its first move, its posts by token, and
the check that it sets no cookie."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.test import Client

from game import engine
from game.models import Game

if TYPE_CHECKING:
    from django.test.client import _MonkeyPatchedWSGIResponse as Response


DEAL = 5


def assert_cookie_free(response: Response) -> None:
    assert "Set-Cookie" not in response.headers, response.headers
    assert not response.cookies
    # The session was not even looked at (SessionMiddleware adds Vary: Cookie when it is).
    assert "Cookie" not in response.headers.get("Vary", "")


def first_move(number: int = DEAL, rules: engine.Rules = engine.DEFAULT_RULES) -> engine.Move:
    position = engine.Play(number, rules).position
    return next(m for m in engine.legal_moves(position) if not m.is_redeal and not m.merci)


def start(client: Client, number: int = DEAL, query: str = "") -> Game:
    """Make the first move from the deal's start board, as its form does; return the new game."""
    rules = engine.Rules.parse(query.split("=", 1)[1]) if query else engine.DEFAULT_RULES
    move = first_move(number, rules).text
    response = client.post(f"/embed/deal/{number}/move/{query}", {"n": 0, "move": move})
    assert response.status_code == 303, response.content
    game = Game.objects.latest("pk")
    assert response["Location"] == f"/embed/g/{game.token}/?did=move&from=0"
    return game


def post(
    client: Client, game: Game, action: str, *, htmx: bool = False, **data: object
) -> Response:
    data.setdefault("n", game.move_count)
    headers = {"HX-Request": "true"} if htmx else {}
    return client.post(f"/embed/g/{game.token}/{action}/", data, headers=headers)


def a_card_move(game: Game) -> engine.Move:
    game.refresh_from_db()
    position = game.replay().position
    return next(m for m in engine.legal_moves(position) if not m.is_redeal and not m.merci)
