"""Per-connection database tuning: SQLite's write-ahead log."""

from __future__ import annotations

from typing import Any

from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.backends.signals import connection_created


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
