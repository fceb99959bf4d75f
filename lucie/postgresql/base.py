"""Django's PostgreSQL backend, whose health check asks the socket before it asks the server.

With CONN_HEALTH_CHECKS (lucie/settings.py) Django checks a kept connection once per request
before its first query, with a `SELECT 1`: a fifth statement beside a move's four (BEGIN, the
locked read, the UPDATE, COMMIT), paid by every request that touches the database. An idle
connection has nothing to read, so its socket tells whether it is worth a query: a server that
restarted, or a backend that was ended, sends its goodbye and closes, and the socket is readable
(or gone). Only then is the `SELECT 1` asked, and a connection that fails it is replaced. A
connection cut without a word from the server (a network fault) passes, and its request fails
as it would have without a check: a 503 that says try again (game/ops/refusal_pages.py), and the
next request opens a new connection.
"""

from __future__ import annotations

import select

from django.db.backends.postgresql import base


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
