"""Eight first moves on a day's deal, sent at the same instant with one session's cookie, over
real HTTP to gunicorn: the database keeps one daily game for the session and deal
(game_one_daily_in_play), the session's entry in everyone's figures, in play with the one move
that won; the other seven are answered with that board as stale, and nothing is abandoned.

Runs on a SQLite file, or on a scratch PostgreSQL database when DATABASE_URL names one.
"""

from __future__ import annotations

import contextlib
import sqlite3
import threading
from pathlib import Path

import pytest
from django.utils.http import urlencode

from game import deals, engine
from tests.web.live_gunicorn import Player, is_postgres, running_gunicorn

AT_ONCE = 8


def _rows(database_url: str, query: str, params: tuple[object, ...]) -> list[tuple[object, ...]]:
    if is_postgres(database_url):
        import psycopg

        with psycopg.connect(database_url) as db:
            return list(db.execute(query.replace("?", "%s"), params).fetchall())
    path = database_url.removeprefix("sqlite:///")
    with contextlib.closing(sqlite3.connect(path)) as db:
        return list(db.execute(query, params).fetchall())


def _first_move(number: int, rules: engine.Rules) -> str:
    return min(move.text for move in engine.legal_moves(engine.Position.start(number, rules)))


@pytest.mark.slow
def test_eight_first_moves_at_once_leave_one_daily_game(tmp_path: Path) -> None:
    # The site's first day: a fixed date on offer whatever today is.
    day = deals.site_start()
    number = deals.deal_number_for(day)
    rules = engine.Rules.parse(deals.DAILY_RULES)
    with running_gunicorn(tmp_path, workers=2, threads=4) as server:
        # A session of its own first: a move on another deal's first board.
        first = server.player()
        assert first.get("/deal/5/").status == 200
        made = first.post("/deal/5/move/", {"move": _first_move(5, engine.DEFAULT_RULES), "n": 0})
        assert made.status == 200, made.body[:500]
        assert "sessionid" in first.cookies
        # The day's first board as a page shows it, not stored (a GET with a session would
        # store the game: the race is between first moves on the board no one has stored).
        assert first.get(f"/deal/{number}/?daily=1").status == 200

        path = f"/deal/{number}/move/?" + urlencode({"rules": rules.name, "daily": "1"})
        form = {"move": _first_move(number, rules), "n": 0}
        start = threading.Barrier(AT_ONCE)
        statuses: list[int] = []
        errors: list[BaseException] = []
        lock = threading.Lock()

        def tab() -> None:
            player = Player(server.port, cookies=dict(first.cookies))
            try:
                start.wait(timeout=30)
                answer = player.post(path, form)
                with lock:
                    statuses.append(answer.status)
            except BaseException as error:  # reported below
                with lock:
                    errors.append(error)
            finally:
                player.close()

        tabs = [threading.Thread(target=tab) for _ in range(AT_ONCE)]
        for thread in tabs:
            thread.start()
        for thread in tabs:
            thread.join(timeout=60)

        assert not errors, errors
        games = _rows(
            server.database_url,
            "SELECT status, daily_entry, move_count FROM game_game"
            " WHERE deal_number = ? AND daily = ?",
            (number, True),
        )
        tally = _rows(
            server.database_url,
            "SELECT players FROM game_dailytally WHERE deal_number = ?",
            (number,),
        )
        first.close()

    assert sorted(statuses) == [200] + [409] * (AT_ONCE - 1), statuses
    assert [(status, bool(entry), moves) for status, entry, moves in games] == [
        ("playing", True, 1)
    ]
    assert [players for (players,) in tally] == [1]
