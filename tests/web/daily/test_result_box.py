"""The daily page's result box, sent out of band with the board answer that changes it
(game/daily/result_box.py): the answer that wins the day's game carries it, a move that leaves
the game as the box says does not, and nor does a request from another page."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from pytest_django.fixtures import Settings

from game import engine
from game.board import store
from game.engine.solver import solve
from game.models import Game
from tests.helpers.daily import NOON, open_daily, site_at
from tests.helpers.play import a_card_move

pytestmark = pytest.mark.django_db

DAY = "2026-11-29"
NUMBER = 20261129
BOX = re.compile(r'<section id="daily-result"[^>]*>', re.S)


@pytest.fixture(autouse=True)
def _today(settings: Settings) -> Iterator[None]:
    with site_at(settings, NOON):
        yield


def held(status: str) -> dict[str, str]:
    """The headers daily.js sends from a page whose result box says `status`."""
    return {"HX-Request": "true", "X-Daily-Day": DAY, "X-Daily-Status": status}


def change(client: Client, game: Game, move: engine.Move, headers: dict[str, str]) -> str:
    game.refresh_from_db()
    action = "redeal" if move.is_redeal else "move"
    data = {"n": game.move_count, "move": move.text, "auto": "0"}
    response = client.post(f"/game/{game.pk}/{action}/", data, headers=headers)
    assert response.status_code == 200
    return response.content.decode()


def test_the_move_that_wins_the_days_game_carries_the_result_box_out_of_band(
    client: Client,
) -> None:
    found = solve(engine.Position.start(NUMBER), time_limit=10)
    assert found.won
    game = open_daily(client)
    store.save(game, engine.Play(NUMBER, engine.DEFAULT_RULES, list(found.moves[:-2])))
    assert not BOX.search(change(client, game, found.moves[-2], held("playing")))

    answer = change(client, game, found.moves[-1], held("playing"))

    box = BOX.search(answer)
    assert box is not None
    assert 'hx-swap-oob="true"' in box[0]
    assert 'data-status="won"' in box[0]
    assert " hidden" not in box[0]
    assert "You won today&#x27;s deal" in answer or "You won today's deal" in answer
    assert answer.index('id="board"') < box.start()  # the board first, the box beside it


def test_a_move_that_leaves_the_game_as_the_box_says_sends_no_box(client: Client) -> None:
    game = open_daily(client)

    answer = change(client, game, a_card_move(game), held("playing"))

    assert 'id="board"' in answer
    assert not BOX.search(answer)


def test_an_undo_out_of_a_dead_end_sends_the_box_again(client: Client) -> None:
    # The page still shows the lost game's box; the game is back under way.
    game = open_daily(client)

    answer = change(client, game, a_card_move(game), held("lost"))

    box = BOX.search(answer)
    assert box is not None
    assert 'data-status="playing"' in box[0]
    assert " hidden" in box[0]


@pytest.mark.parametrize(
    "headers",
    [
        {"HX-Request": "true"},  # another page: no result box named
        {"X-Daily-Day": DAY, "X-Daily-Status": "lost"},  # not htmx: a redirect
        {"HX-Request": "true", "X-Daily-Day": "2026-12-25", "X-Daily-Status": "lost"},  # to come
        {"HX-Request": "true", "X-Daily-Day": "yesterday", "X-Daily-Status": "lost"},
    ],
)
def test_no_box_is_sent_to_a_page_without_a_daily_box(
    client: Client, headers: dict[str, str]
) -> None:
    game = open_daily(client)
    data = {"n": game.move_count, "move": a_card_move(game).text, "auto": "0"}

    response = client.post(f"/game/{game.pk}/move/", data, headers=headers)

    assert response.status_code in (200, 303)
    assert not BOX.search(response.content.decode())


def test_a_first_board_s_first_move_sends_the_box_of_the_game_it_stores(client: Client) -> None:
    # The first board's box names no game ("none"); the first move stores one.
    page = client.get("/daily/").content.decode()
    assert 'data-status="none"' in page
    move = a_card_move_of(NUMBER)

    response = client.post(
        f"/deal/{NUMBER}/move/?rules=lucie&daily=1",
        {"n": 0, "move": move.text, "auto": "0"},
        headers=held("none"),
    )

    box = BOX.search(response.content.decode())
    assert response.status_code == 200
    assert box is not None
    assert 'data-status="playing"' in box[0]


def a_card_move_of(number: int) -> engine.Move:
    legal = engine.legal_moves(engine.Position.start(number))
    return next(m for m in legal if not m.is_redeal and not m.merci)


def test_a_daily_page_move_reads_one_game_more_than_any_move(client: Client) -> None:
    # The box is checked against the day's game, read once after the change; the session is the
    # one the change read.
    game = open_daily(client)
    change(client, game, a_card_move(game), held("playing"))
    counts = []
    for headers in ({"HX-Request": "true"}, held("playing")):
        game.refresh_from_db()
        data = {"n": game.move_count, "move": a_card_move(game).text, "auto": "0"}
        with CaptureQueriesContext(connection) as captured:
            response = client.post(f"/game/{game.pk}/move/", data, headers=headers)
        assert response.status_code == 200
        counts.append(len(captured.captured_queries))
    assert counts[1] == counts[0] + 1
