"""Django's PostgreSQL backend, whose health check asks the socket before it asks the server,
and which offers a cursor whose statements the server prepares (`prepared_cursor`).

With CONN_HEALTH_CHECKS (lucie/settings.py) Django checks a kept connection once per request
before its first query, with a `SELECT 1`: one round trip of the five a move made, paid by every
request that touches the database. An idle connection has nothing to read, so its socket tells
whether it is worth a query: a server that restarted, or a backend that was ended, sends its
goodbye and closes, and the socket is readable (or gone). Only then is the `SELECT 1` asked, and
a connection that fails it is replaced, as before. A connection cut without a word from the
server (a network fault) passes, and its request fails as it would have without a check: a 503
that says try again (game/refusal_pages.py), and the next request opens a new connection.

Django binds a query's parameters on the client (psycopg's ClientCursor), so PostgreSQL parses
and plans every statement afresh: for the two statements of a move, about half of PostgreSQL's
CPU per move. `prepared_cursor` binds on the server instead, and psycopg prepares a statement
once it has run five times on a connection (its `prepare_threshold`), so the server plans it
once per connection. Only the hot path's few statements, built by the app itself (game/rows.py,
the session read in lucie/sessions.py), use it; every other query keeps Django's client-side
binding, which Django's documentation recommends for its generality. A pooler in front of
PostgreSQL must let prepared statements through (PgBouncer: 1.21 or later, with
`max_prepared_statements` set; docs/operating.md).
"""

from __future__ import annotations

import select

from django.db.backends.postgresql import base
from django.db.backends.postgresql.psycopg_any import register_tzloader
from django.db.backends.utils import CursorWrapper
from psycopg.pq import Format


class DatabaseWrapper(base.DatabaseWrapper):
    def is_usable(self) -> bool:
        connection = self.connection
        if connection is None or connection.closed or connection.broken:
            return False
        try:
            poller = select.poll()
            poller.register(connection.fileno(), select.POLLIN | select.POLLPRI)
            quiet = not poller.poll(0)
        except (OSError, ValueError):
            return False
        if quiet:
            return True
        # Something came unasked (a notice, or the server's goodbye): ask.
        usable: bool = super().is_usable()
        return usable

    def prepared_cursor(self) -> CursorWrapper:
        """A cursor, wrapped as Django wraps its own (errors, query logging), whose statements
        are bound and, once run a few times on this connection, prepared by the server."""
        self.close_if_health_check_failed()
        self.ensure_connection()
        self.validate_thread_sharing()
        # As Django's create_cursor makes its own (its psycopg cursor class, and the time zone
        # its timestamps are read in), but binding on the server.
        cursor = base.ServerBindingCursor(self.connection)  # type: ignore[call-arg]
        loader = self.connection.adapters.get_loader(base.TIMESTAMPTZ_OID, Format.TEXT)
        if self.timezone != loader.timezone:
            register_tzloader(self.timezone, cursor)
        # And wrapped as its make_debug_cursor and make_cursor wrap them.
        if self.queries_logged:
            return self.make_debug_cursor(cursor)  # type: ignore[arg-type]
        return CursorWrapper(cursor, self)
