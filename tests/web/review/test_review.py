"""The review of a finished game through the test client: where a lost game slipped away,
checked against the solver run on the record directly; finding the move; fair or foresight;
bounded per request and kept with the game; refusals that change nothing."""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import cache as memo

import pytest
from django.core.cache import cache
from django.test import Client

from game import engine
from game.engine import solver
from game.models import Game, GameReview
from game.review import found as reviews
from tests.web.play.test_play import start

pytestmark = pytest.mark.django_db

HX = {"HX-Request": "true"}


@pytest.fixture(autouse=True)
def _fresh_cache() -> Iterator[None]:
    cache.clear()
    yield
    cache.clear()


# ---------------------------------------------------------------- helpers


@memo
def greedy_record(number: int, rules: str) -> tuple[str, ...]:
    """The greedy hint's game of deal `number` with its real shuffles, to its end."""
    game = engine.Game(number, engine.Rules.parse(rules))
    while (found := engine.greedy_hint(game.position)) is not None:
        game.play(found.move)
    return tuple(move.text for move in game.moves)


def play_through_site(client: Client, number: int, rules: str, moves: tuple[str, ...]) -> Game:
    """Play `moves` on deal `number` through the site's move and redeal posts."""
    game = start(client, number, rules)
    for count, text in enumerate(moves):
        action, data = ("redeal", {}) if text == "R" else ("move", {"move": text})
        response = client.post(
            f"/game/{game.pk}/{action}/", {"n": count, "auto": "0", **data}, headers=HX
        )
        assert response.status_code == 200, (count, text, response.content[:300])
    game.refresh_from_db()
    return game


def review_until_done(client: Client, game: Game, limit: int = 30) -> str:
    for _ in range(limit):
        html = client.get(f"/game/{game.pk}/review/").content.decode()
        if 'data-review-state="working"' not in html:
            return html
    raise AssertionError("the review never finished")


def last_winnable(html: str) -> int:
    found = re.search(r'data-last-winnable="(-?\d+)"', html)
    assert found is not None, html
    return int(found[1])


def solved(number: int, rules: str, moves: tuple[str, ...], count: int) -> str:
    game = engine.Game(
        number, engine.Rules.parse(rules), [engine.Move.parse(t) for t in moves[:count]]
    )
    return solver.solve(game.position, max_nodes=None, time_limit=None).status


def test_smoke(client: Client) -> None:
    moves = greedy_record(1, "lucie")
    game = play_through_site(client, 1, "lucie", moves)
    assert game.status == Game.Status.LOST
    html = review_until_done(client, game)
    assert 'data-review-state="done"' in html
    k = last_winnable(html)
    assert solved(1, "lucie", moves, k) == "won"
    assert solved(1, "lucie", moves, k + 1) == "lost"
    print(html)
