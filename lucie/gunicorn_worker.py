"""gunicorn's threaded worker, with a client's connection that was just refused by a rate limit
held back before its next request is read.

A script that loops past a limit on a kept-alive connection asks again the moment its refusal
arrives. Each refusal is cheap (game/ops/early_refusal.py answers it in front of Django), but
eight such loops on a two-core machine still keep both cores busy, their own work and the
server's, while a player's page waits its turn. So the front marks a request it refused
(`HOLD_KEY` in its environ) when it came straight from the client, gunicorn.conf.py's
`post_request` hook hands that request's socket to `hold`, and once the refusal is written this
worker waits `HOLD_SECONDS` before it reads the connection's next request. The refusal itself
leaves at once; what waits is the next request on that connection, the one that would most
likely be refused again. The wait holds no thread: the connection sits in a list until its time
comes, then goes back to the poller as any kept-alive connection does.

Who never meets it: a player at a board (a board's own htmx requests are never held, so that on
an address shared past its limit, a school's say, the player's next move is read at once), and
anyone behind a proxy. A proxy's connection carries other people's requests, so a request that
names its client in the proxy's header (`LUCIE_CLIENT_ADDRESS_HEADER`) is never held; there the
proxy's own per-address limit is the answer to a flood (docs/operating.md). The front decides
(`game/ops/early_refusal.py`'s `held`).

A held connection counts against `worker_connections` as an idle kept-alive one does, for no
longer (HOLD_SECONDS is below gunicorn's keep-alive timeout). Named by gunicorn.conf.py's
`worker_class`; it overrides two methods of gunicorn's ThreadWorker (`finish_request` and
`wait_for_and_dispatch_events`), which is why pyproject.toml keeps gunicorn below 28.
"""

from __future__ import annotations

import socket
import time
from collections import deque
from concurrent.futures import Future
from typing import Any

from gunicorn.workers.gthread import TConn, ThreadWorker  # type: ignore[import-untyped]

HOLD_SECONDS = 1.0
"""How long a refused connection waits before its next request is read."""


class HoldingThreadWorker(ThreadWorker):  # type: ignore[misc]
    """gthread, with connections marked by `hold` kept off the poller for HOLD_SECONDS."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.to_hold: set[int] = set()  # sockets' file numbers, marked by a pool thread
        self.held: deque[tuple[float, TConn, Future[Any]]] = deque()

    def hold(self, sock: socket.socket) -> None:
        """Mark a connection to be held once its answer is written (from gunicorn.conf.py's
        post_request, in the pool thread that answered)."""
        self.to_hold.add(sock.fileno())

    def finish_request(self, conn: TConn, fs: Future[Any]) -> None:
        fileno = conn.sock.fileno()
        if fileno in self.to_hold:
            self.to_hold.discard(fileno)
            # Only a kept-alive answer is held: gunicorn's own path closes the rest (and reads a
            # failed request's exception, which must not be raised here).
            if self.alive and kept_alive(fs):
                self.held.append((time.monotonic() + HOLD_SECONDS, conn, fs))
                return
        super().finish_request(conn, fs)

    def wait_for_and_dispatch_events(self, timeout: float) -> None:
        if self.held:
            timeout = min(timeout, max(0.0, self.held[0][0] - time.monotonic()))
        super().wait_for_and_dispatch_events(timeout)
        self.release(force=not self.alive)

    def release(self, force: bool = False) -> None:
        """Hand the connections whose time has come (all of them when stopping) back to the
        poller, as gunicorn does after any kept-alive answer."""
        now = time.monotonic()
        while self.held and (force or self.held[0][0] <= now):
            _until, conn, fs = self.held.popleft()
            super().finish_request(conn, fs)


def kept_alive(fs: Future[Any]) -> bool:
    """Whether the request ended with its connection kept alive (gunicorn's `handle` answered
    True), without raising what a failed one raised."""
    return not fs.cancelled() and fs.exception() is None and fs.result() is True
