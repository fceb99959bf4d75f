"""Simultaneous first moves of one session on a day's deal (issue 50) never meet in a unique
constraint: on PostgreSQL such a conflict's error writes the session key into the server's log
(its DETAIL line, and the statement's text), so the starts wait for each other instead
(game/board/store.py). Eight starts at once, each on a connection of its own, make one game and
send no statement that fails. On SQLite one writer at a time already keeps them apart.
"""

from __future__ import annotations

import threading
from typing import Any

import pytest
from django.db import IntegrityError, connection

from game import deals, engine
from game.board import store
from game.models import Game

AT_ONCE = 8


@pytest.mark.django_db(transaction=True)
def test_eight_daily_starts_at_once_make_one_game_and_no_conflict() -> None:
    number = deals.deal_number_for(deals.site_start())
    rules = engine.Rules.parse(deals.DAILY_RULES)
    key = "q" * 32
    gate = threading.Barrier(AT_ONCE)
    conflicts: list[str] = []
    errors: list[BaseException] = []
    ids: list[int] = []

    def spy(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        try:
            return execute(sql, params, many, context)
        except IntegrityError as error:
            conflicts.append(str(error).splitlines()[0])
            raise

    def tab() -> None:
        try:
            with connection.execute_wrapper(spy):
                gate.wait(timeout=30)
                ids.append(store.start(key, number, rules, daily=True, network="n1").pk)
        except BaseException as error:  # reported below
            errors.append(error)
        finally:
            connection.close()

    tabs = [threading.Thread(target=tab) for _ in range(AT_ONCE)]
    for thread in tabs:
        thread.start()
    for thread in tabs:
        thread.join(timeout=60)
    assert errors == []
    assert conflicts == []
    assert len(set(ids)) == 1
    assert Game.objects.filter(session_key=key, deal_number=number, daily=True).count() == 1
