"""PostgreSQL's health check (lucie/postgresql/base.py): a kept connection whose socket is quiet
is used without a `SELECT 1`; one that its server ended is found out and replaced before the
request's first query."""

from __future__ import annotations

import select
import time
from collections.abc import Iterator

import pytest
from django.db import connection, connections
from django.db.backends.postgresql import base as django_postgresql
from pytest_django import DjangoDbBlocker

from lucie.postgresql.base import DatabaseWrapper
from lucie.settings import database_config

pytestmark = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="PostgreSQL's own backend"
)


def test_a_postgresql_url_names_the_sites_backend() -> None:
    assert database_config("postgres://u:p@db:5432/lucie")["ENGINE"] == "lucie.postgresql"
    assert isinstance(connections["default"], DatabaseWrapper)


@pytest.fixture
def kept(django_db_blocker: DjangoDbBlocker) -> Iterator[DatabaseWrapper]:
    """A connection of its own, kept between requests with health checks on, as a worker's is."""
    settings = {**connections["default"].settings_dict, "CONN_HEALTH_CHECKS": True}
    settings["CONN_MAX_AGE"] = 60
    wrapper = DatabaseWrapper(settings, alias="kept")
    with django_db_blocker.unblock():
        wrapper.ensure_connection()
        try:
            yield wrapper
        finally:
            wrapper.close()


def asked(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Each `SELECT 1` health query the check asks the server, counted."""
    queries: list[int] = []
    real = django_postgresql.DatabaseWrapper.is_usable

    def is_usable(self: django_postgresql.DatabaseWrapper) -> bool:
        queries.append(1)
        return bool(real(self))

    monkeypatch.setattr(django_postgresql.DatabaseWrapper, "is_usable", is_usable)
    return queries


def a_new_request(wrapper: DatabaseWrapper) -> int:
    """What Django does at a request's start and first query; the backend's process id after."""
    wrapper.close_if_unusable_or_obsolete()
    with wrapper.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        row = cursor.fetchone()
    assert row is not None
    return int(row[0])


def test_a_quiet_connection_is_used_without_a_query(
    kept: DatabaseWrapper, monkeypatch: pytest.MonkeyPatch
) -> None:
    queries = asked(monkeypatch)
    first = a_new_request(kept)
    assert a_new_request(kept) == first
    assert queries == []


def test_a_connection_its_server_ended_is_replaced_before_the_first_query(
    kept: DatabaseWrapper, monkeypatch: pytest.MonkeyPatch, django_db_blocker: DjangoDbBlocker
) -> None:
    queries = asked(monkeypatch)
    first = a_new_request(kept)
    with django_db_blocker.unblock():
        try:
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_terminate_backend(%s)", [first])
        finally:
            # This test holds no database of pytest-django's: its connection would stay open
            # and keep the test database from being dropped at the end of the run.
            connection.close()
    # The server's goodbye reaches the socket.
    assert kept.connection is not None
    deadline = time.monotonic() + 5
    while not select.select([kept.connection.fileno()], [], [], 0.05)[0]:
        assert time.monotonic() < deadline, "the ended backend's socket stayed quiet"
    assert not kept.is_usable()
    assert queries, "a readable socket is asked about with a query"
    assert a_new_request(kept) != first


@pytest.mark.django_db
def test_a_moves_statements_are_prepared_by_the_server() -> None:
    # game/rows.py runs the hot path's statements through prepared_cursor: bound on the server,
    # and prepared once they have run a few times on the connection; any other query is Django's.
    import psycopg
    from django.test import Client

    from game.models import Game
    from tests.helpers.play import a_card_move, post, start

    client = Client()
    game = start(client)
    with connections["default"].prepared_cursor() as cursor:
        assert isinstance(cursor.cursor, psycopg.Cursor)
        assert not isinstance(cursor.cursor, psycopg.ClientCursor)
    with connections["default"].cursor() as cursor:
        assert isinstance(cursor.cursor, psycopg.ClientCursor)
    for _ in range(6):
        assert post(client, game, "move", move=a_card_move(game).text).status_code == 303
        game.refresh_from_db()
        assert post(client, game, "undo").status_code == 303
        game.refresh_from_db()
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements")
        prepared = [row[0] for row in cursor.fetchall()]
    table = Game._meta.db_table
    assert any(sql.startswith("SELECT") and f'FROM "{table}"' in sql for sql in prepared), prepared
    assert any(sql.startswith(f'UPDATE "{table}"') for sql in prepared), prepared
