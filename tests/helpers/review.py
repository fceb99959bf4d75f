"""Finished games for the review's tests: deals the greedy hint loses or wins, played through the
site, and the review page read until it is done."""

from __future__ import annotations

import contextlib
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from functools import cache as memo
from typing import Any

from django.test import Client

from game import engine
from game.models import Game
from tests.helpers.play import start

HX = {"HX-Request": "true"}


# Deals the greedy hint loses with their real shuffles, and where the win slipped away (found
# once with the engine's own search; each test checks the site against the solver directly).
LOST_BEFORE_A_REDEAL = (1, "lucie")
LOST_IN_THE_LAST_DEAL = (4, "lucie")
LOST_FROM_THE_START = (1, "lucie-r0")
WON_BY_GREEDY = (3, "lucie")


@memo
def greedy_record(number: int, rules: str) -> tuple[str, ...]:
    """The greedy hint's game of deal `number` with its real shuffles, to its end."""
    game = engine.Play(number, engine.Rules.parse(rules))
    while (found := engine.greedy_hint(game.position)) is not None:
        game.play(found.move)
    return tuple(move.text for move in game.moves)


def play_through_site(client: Client, number: int, rules: str, moves: tuple[str, ...]) -> Game:
    """Play `moves` on deal `number` through the site's move and redeal posts, as a browser
    without JavaScript sends them: the same change, answered by a redirect to the game's page
    instead of a board (a board drawn for each of a game's hundred moves was most of these
    tests' CPU)."""
    game = start(client, number, rules)
    for count, text in enumerate(moves):
        action, data = ("redeal", {}) if text == "R" else ("move", {"move": text})
        response = client.post(f"/game/{game.pk}/{action}/", {"n": count, "auto": "0", **data})
        assert response.status_code == 303, (count, text, response.content[:300])
    game.refresh_from_db()
    return game


def lost_game(client: Client, case: tuple[int, str]) -> Game:
    game = play_through_site(client, *case, greedy_record(*case))
    assert game.status == Game.Status.LOST
    return game


def review_page(client: Client, game: Game, query: str = "", **headers: str) -> str:
    response = client.get(f"/game/{game.pk}/review/{query}", headers=headers)
    assert response.status_code == 200, response.content[:500]
    return response.content.decode()


def ask_review(client: Client, game: Game, **headers: str) -> Any:
    """The POST the review page makes as it loads (a button without JavaScript)."""
    return client.post(f"/game/{game.pk}/review/ask/", headers=headers)


def review_until_done(client: Client, game: Game, limit: int = 40) -> str:
    """Ask for the review as its page does, then read the page until it is no longer working
    (the queue is immediate in these tests: the job has run in the ask)."""
    for _ in range(limit):
        html = review_page(client, game)
        if state(html) != "working":
            return html
        if "data-review-ask" in html:
            ask_review(client, game)
    raise AssertionError("the review never finished")


def state(html: str) -> str:
    found = re.search(r'data-review-state="(\w+)"', html)
    assert found is not None, html
    return found[1]


def won_game(client: Client) -> Game:
    game = play_through_site(client, *WON_BY_GREEDY, greedy_record(*WON_BY_GREEDY))
    assert game.status == Game.Status.WON
    return game


def lost_over_http(player: Any, number: int) -> int:
    """A game of deal `number` lost by always taking the greedy hint, played through the site
    over real HTTP by `player` (tests/web/live_gunicorn.Player); its id."""
    from game import engine
    from tests.web.live_gunicorn import read_board

    played = engine.Play(number)
    while (found := engine.greedy_hint(played.position)) is not None:
        played.play(found.move)
    moves = [move.text for move in played.moves]
    assert player.get(f"/deal/{number}/").status == 200  # the page, and its CSRF cookie
    answer = player.post(f"/deal/{number}/move/", {"move": moves[0], "n": 0})
    assert answer.status == 200, answer.body[:300]
    game = int(read_board(answer.body).game_id)
    for count, move in enumerate(moves[1:], start=1):
        action, data = ("redeal", {}) if move == "R" else ("move", {"move": move})
        answer = player.post(f"/game/{game}/{action}/", {"n": count, "auto": "0", **data})
        assert answer.status == 200, (count, move, answer.body[:300])
    return game


@contextlib.contextmanager
def burners(count: int) -> Iterator[None]:
    """A loaded machine: at least `count` cores kept busy, by processes that each burn one,
    killed on leaving. Only as many are started as the machine's load (its last minute's
    average) leaves: in CI the other parts of the run already keep the cores busy, and burners
    there would only take their time."""
    missing = max(0, count - round(os.getloadavg()[0]))
    running = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(missing)]
    try:
        yield
    finally:
        for burner in running:
            burner.kill()
            burner.wait()
