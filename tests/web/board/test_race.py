"""Two tabs, one game: moves sent at the same moment are applied one at a time.

Twenty clients share one session and one game. In each round they all load the board, wait for
each other, and post a legal move for the board they saw at the same instant; then they all play
freely as fast as they can. Every request must be either applied (200) or refused as stale (409)
with the board as it then stands, never a 500 or a board that the stored log does not give; in a
round exactly one of the twenty wins; and afterwards the stored log replays through the engine and
its length equals the number of applied requests.

In the first test the clients are Django test clients in threads, each on its own connection: on
PostgreSQL the row lock does the serializing, on SQLite (a file during tests) the IMMEDIATE write
transaction. The second test runs a real gunicorn on a SQLite file (or a scratch PostgreSQL
database), where SQLite's IMMEDIATE transactions serialize writers across processes.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection
from django.test import Client

from game import engine
from tests.web.live_gunicorn import (
    Board,
    Player,
    a_change,
    read_board,
    running_gunicorn,
    stored_game,
)
from tests.web.play.test_play import start

CLIENTS = 20
ROUNDS = 4
FREE_MOVES = 4
DEAL = 5
RULES = "lucie-ru"


@dataclass
class Outcome:
    """What the clients saw, gathered from every thread."""

    lock: threading.Lock = field(default_factory=threading.Lock)
    # (round or -1 in free play, move count seen, status, board answered)
    answers: list[tuple[int, int, int, Board]] = field(default_factory=list)
    errors: list[BaseException] = field(default_factory=list)

    def add(self, round_: int, seen: int, status: int, board: Board) -> None:
        with self.lock:
            self.answers.append((round_, seen, status, board))


Fetch = Callable[[], tuple[int, str]]
Send = Callable[[str, dict[str, object]], tuple[int, str]]


def play_the_race(fetch: list[Fetch], send: list[Send], seed: int) -> Outcome:
    """Run every client's rounds and free play in threads; return what they saw."""
    outcome = Outcome()
    barrier = threading.Barrier(len(fetch), timeout=60)

    def client(index: int) -> None:
        rng = random.Random(seed * 100 + index)
        try:
            for round_ in [*range(ROUNDS), *[-1] * FREE_MOVES]:
                if round_ >= 0:
                    barrier.wait()
                status, html = fetch[index]()
                assert status == 200, html[:300]
                board = read_board(html)
                if round_ >= 0:
                    barrier.wait()  # everyone has the same board: now all post at once
                path, form, _ = a_change(board, rng)
                status, html = send[index](path, form)
                outcome.add(round_, board.move_count, status, read_board(html))
        except BaseException as error:
            outcome.errors.append(error)
            barrier.abort()
        finally:
            connection.close()

    threads = [threading.Thread(target=client, args=(i,)) for i in range(len(fetch))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return outcome


def check(outcome: Outcome, deal_number: int, rules: str, moves: list[str], count: int) -> None:
    if outcome.errors:
        raise outcome.errors[0]
    statuses = sorted({status for _, _, status, _ in outcome.answers})
    assert set(statuses) <= {200, 409}, statuses
    applied = [a for a in outcome.answers if a[2] == 200]
    # The stored log replays, and it holds exactly the applied requests.
    played = engine.Game(
        deal_number, engine.Rules.parse(rules), [engine.Move.parse(t) for t in moves]
    )
    assert len(applied) == count == len(moves) == len(played.moves)
    for round_ in range(ROUNDS):
        winners = [a for a in applied if a[0] == round_]
        assert len(winners) == 1, f"round {round_}: {len(winners)} moves applied"
    # Every answer shows a board the log gives: the loser's is newer than the one it saw.
    for _, seen, status, board in outcome.answers:
        assert board.move_count > seen if status == 409 else board.move_count == seen + 1
        expected = engine.Game(
            deal_number,
            engine.Rules.parse(rules),
            [engine.Move.parse(t) for t in moves[: board.move_count]],
        ).position
        assert board.fans == [[card.code for card in fan] for fan in expected.fans]


@pytest.mark.django_db(transaction=True)
def test_twenty_clients_on_one_game_are_serialized_by_the_row_lock() -> None:
    owner = Client()
    game = start(owner, DEAL, RULES)
    session = owner.cookies[settings.SESSION_COOKIE_NAME].value

    def a_tab() -> Client:
        tab = Client()
        tab.cookies[settings.SESSION_COOKIE_NAME] = session
        return tab

    tabs = [a_tab() for _ in range(CLIENTS)]
    headers = {"HX-Request": "true"}

    def fetcher(tab: Client) -> Fetch:
        def fetch() -> tuple[int, str]:
            response = tab.get(f"/game/{game.pk}/", headers=headers)
            return response.status_code, response.content.decode()

        return fetch

    def sender(tab: Client) -> Send:
        def send(path: str, form: dict[str, object]) -> tuple[int, str]:
            response = tab.post(path, form, headers=headers)
            return response.status_code, response.content.decode()

        return send

    outcome = play_the_race([fetcher(t) for t in tabs], [sender(t) for t in tabs], seed=1)

    game.refresh_from_db()
    check(outcome, game.deal_number, game.rules, game.moves.split(), game.move_count)


def test_twenty_clients_on_one_game_through_gunicorn(tmp_path: Path) -> None:
    with running_gunicorn(tmp_path, workers=2, threads=4) as server:
        owner = server.player()
        page = owner.open_deal(f"/deal/{DEAL}/?rules={RULES}")
        assert page.status == 200
        game_id = read_board(page.body).game_id
        tabs = [Player(server.port, cookies=dict(owner.cookies)) for _ in range(CLIENTS)]

        def fetcher(tab: Player) -> Fetch:
            def fetch() -> tuple[int, str]:
                answer = tab.get(f"/game/{game_id}/", htmx=True)
                return answer.status, answer.body

            return fetch

        def sender(tab: Player) -> Send:
            def send(path: str, form: dict[str, object]) -> tuple[int, str]:
                answer = tab.post(path, form)
                return answer.status, answer.body

            return send

        try:
            outcome = play_the_race([fetcher(t) for t in tabs], [sender(t) for t in tabs], seed=2)
        finally:
            for tab in tabs:
                tab.close()
        stored = stored_game(server.database_url, game_id)

    check(outcome, stored.deal_number, stored.rules, stored.moves, stored.move_count)
