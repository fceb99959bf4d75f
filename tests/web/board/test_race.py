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

from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client

from tests.helpers.play import start
from tests.helpers.race import Fetch, Send, check, play_the_race, race_over_http
from tests.web.live_gunicorn import (
    Player,
    read_board,
    running_gunicorn,
    stored_game,
)

CLIENTS = 20
DEAL = 5
RULES = "lucie-ru"


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


@pytest.mark.slow
def test_twenty_clients_on_one_game_through_gunicorn(tmp_path: Path) -> None:
    with running_gunicorn(tmp_path, workers=2, threads=4) as server:
        owner = server.player()
        page = owner.open_deal(f"/deal/{DEAL}/?rules={RULES}")
        assert page.status == 200
        game_id = read_board(page.body).game_id
        tabs = [Player(server.port, cookies=dict(owner.cookies)) for _ in range(CLIENTS)]
        outcome = race_over_http(tabs, game_id, seed=2)
        stored = stored_game(server.database_url, game_id)

    check(outcome, stored.deal_number, stored.rules, stored.moves, stored.move_count)
