"""Simultaneous daily starts (issue 50) never meet in a unique constraint: on PostgreSQL such a
conflict's error writes the session key into the server's log (its DETAIL line, and the
statement's text), so the starts wait for each other instead (game/board/store.py). Eight
starts of one session at once, each on a connection of its own, make one game; eight sessions of
one network at once make one counted entry; first moves of a day nobody has played yet make
its tally's row once. None sends a statement that fails. On SQLite one writer at a time already
keeps them apart.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest
from django.db import IntegrityError, connection

from game import deals, engine, tally
from game.board import store
from game.models import DailyTally, Game

AT_ONCE = 8


def at_once(task: Callable[[int], Any]) -> tuple[list[Any], list[str]]:
    """`task(i)` for AT_ONCE threads released together, each on a connection of its own: what
    each returned, and the first line of every statement that failed on a unique conflict."""
    gate = threading.Barrier(AT_ONCE)
    conflicts: list[str] = []
    errors: list[BaseException] = []
    answers: list[Any] = []

    def spy(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        try:
            return execute(sql, params, many, context)
        except IntegrityError as error:
            conflicts.append(str(error).splitlines()[0])
            raise

    def run(index: int) -> None:
        try:
            with connection.execute_wrapper(spy):
                gate.wait(timeout=30)
                answers.append(task(index))
        except BaseException as error:  # reported below
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(index,)) for index in range(AT_ONCE)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert errors == []
    return answers, conflicts


NUMBER = deals.deal_number_for(deals.site_start())
RULES = engine.Rules.parse(deals.DAILY_RULES)


@pytest.mark.django_db(transaction=True)
def test_eight_daily_starts_at_once_make_one_game_and_no_conflict() -> None:
    key = "q" * 32
    ids, conflicts = at_once(lambda _: store.start(key, NUMBER, RULES, daily=True, network="n1").pk)
    assert conflicts == []
    assert len(set(ids)) == 1
    assert Game.objects.filter(session_key=key, deal_number=NUMBER, daily=True).count() == 1


@pytest.mark.django_db(transaction=True)
def test_eight_sessions_of_one_network_at_once_make_one_entry_and_no_conflict() -> None:
    """A household or an office behind one address opening the day's deal at the same moment:
    the first is the network's counted entry, the others later tries, and no insert fails."""
    keys = [f"{index:02d}" + "r" * 30 for index in range(AT_ONCE)]
    games, conflicts = at_once(
        lambda index: store.start(keys[index], NUMBER, RULES, daily=True, network="shared-net")
    )
    assert conflicts == []
    assert len({game.pk for game in games}) == AT_ONCE
    assert sum(game.daily_entry for game in games) == 1
    entries = Game.objects.filter(deal_number=NUMBER, daily_entry=True, network="shared-net")
    assert entries.count() == 1


@pytest.mark.django_db(transaction=True)
def test_first_moves_of_a_fresh_day_at_once_make_its_tally_once_and_no_conflict() -> None:
    """Midnight UTC: players of eight networks make the day's first moves together; the day's
    tally row is made once, counting all eight, with no insert that fails."""
    games = [
        store.start(f"{index:02d}" + "s" * 30, NUMBER, RULES, daily=True, network=f"net{index}")
        for index in range(AT_ONCE)
    ]
    assert not DailyTally.objects.filter(deal_number=NUMBER).exists()

    def first_move(index: int) -> None:
        game = games[index]
        before = tally.counted(game)
        game.started_at = game.created_at
        tally.record(game, before, tally.counted(game))

    _, conflicts = at_once(first_move)
    assert conflicts == []
    assert DailyTally.objects.get(deal_number=NUMBER).players == AT_ONCE
