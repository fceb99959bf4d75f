"""Per-connection database tuning, and the pieces the hot path's plain statements share
(game/rows.py reads and writes games with them, lucie/sessions.py reads sessions)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.backends.signals import connection_created
from django.db.models import Field
from django.db.models.expressions import Col

Converter = Callable[[Any, Any, Any], Any]


def hot_cursor(connection: BaseDatabaseWrapper) -> Any:
    """A cursor for the hot path's statements: on PostgreSQL one whose statements the server
    prepares (lucie/postgresql/base.py), elsewhere Django's own."""
    prepared = getattr(connection, "prepared_cursor", None)
    return prepared() if prepared is not None else connection.cursor()


def read_converters(
    connection: BaseDatabaseWrapper, field: Field[Any, Any]
) -> tuple[Col, tuple[Converter, ...]]:
    """The column of `field` as an expression, and what the ORM runs on a value read from it:
    the backend's converters, then the field's (SQLite's text to a datetime, for one)."""
    expression = field.get_col(field.model._meta.db_table)
    return expression, (
        *connection.ops.get_db_converters(expression),
        *expression.get_db_converters(connection),
    )


def convert(
    value: Any, expression: Col, converters: tuple[Converter, ...], connection: BaseDatabaseWrapper
) -> Any:
    """`value` as read from the database, made what the ORM would have made of it."""
    for converter in converters:
        value = converter(value, expression, connection)
    return value


def use_sqlite_wal(sender: object, connection: BaseDatabaseWrapper, **kwargs: Any) -> None:
    """Let readers go on while one writer commits (SQLite's write-ahead log).

    The journal mode is stored in the database file, so this only does work on
    the first connection; an in-memory test database answers "memory" and is
    left as it is.
    """
    if connection.vendor != "sqlite":
        return
    with connection.cursor() as cursor:
        cursor.execute("PRAGMA journal_mode=WAL")


def connect_signals() -> None:
    connection_created.connect(use_sqlite_wal, dispatch_uid="lucie.db.use_sqlite_wal")
