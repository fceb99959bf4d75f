"""The task queue: Huey, on a SQLite file on one machine or on Redis across several, carrying
wake-ups for the jobs whose rows and leases live in the database (game/ops/jobs.py,
game/ops/leases.py).

Searches that no request should wait on run as jobs (game/schedule.py): a lost game's review,
each day's difficulty, a Show a win past a request's budget, and the periodic work (the nightly
prune, daily ranks and backup). A request only asks for a job (asking.ask) and answers at once;
workers (`manage.py work`, which `make run` starts beside the server) take them, each worker a
process of its own at a lower priority (settings.QUEUE_NICENESS), QUEUE_WORKERS of them at most.

Huey gives the transport, priorities, a periodic scheduler and worker processes that are started
again when they die. What it cannot give, a job that survives its worker (a killed worker loses
its task, and its locks have no lifetime), comes from the lease: the message here is only "job
KEY wants doing", and the one task, `run`, claims the job, holds its lease while it works, and
marks it done or failed.

- One machine (the default): the queue is a SQLite file beside the database
  (settings.QUEUE_PATH); nothing else to set up.
- Several machines: QUEUE_URL names a Redis that every app server and worker shares. A Redis that
  stops answering costs a call QUEUE_TIMEOUT (100 ms), and then the queue is skipped for
  DOWN_SECONDS in that process: a frozen queue never holds a page.
- Tests: `huey.immediate = True` (tests/conftest.py) runs each job in the request that asks for
  it, in memory; the tests that watch real workers start `manage.py work` themselves.
"""

from __future__ import annotations

import logging
import sqlite3
import time
from collections.abc import Callable
from typing import Any

from django.conf import settings
from huey import Huey, PriorityRedisHuey, SqliteHuey
from huey.storage import RedisStorage
from redis import ConnectionPool
from redis.backoff import NoBackoff
from redis.exceptions import RedisError
from redis.retry import Retry

from lucie import metrics

# Priorities: a higher number is taken first. An asker's second open job of a kind goes one
# below its kind, and so on (asking.ask), never below the kind under it.
PRIORITY_DIFFICULTY = 30  # today's figure, which every daily page shows
PRIORITY_SHOW_A_WIN = 25  # a player is watching the board, which says "still looking"
PRIORITY_REVIEW = 20  # a player is watching the page (and may leave it and come back)
PRIORITY_NIGHTLY = 0
PRIORITIES = {
    "difficulty": PRIORITY_DIFFICULTY,
    "show_a_win": PRIORITY_SHOW_A_WIN,
    "review": PRIORITY_REVIEW,
    "nightly": PRIORITY_NIGHTLY,
}
BEHIND_MOST = 4

DOWN_SECONDS = 5.0
"""A queue that failed a call is not tried again by this process for this long."""

QUEUE_ERRORS = (RedisError, sqlite3.Error, OSError)


def _made() -> Huey:
    if settings.QUEUE_URL:
        timeout = settings.QUEUE_TIMEOUT
        # No retry: redis-py would try a timed-out call again, tripling what it costs a page.
        pool = ConnectionPool.from_url(
            settings.QUEUE_URL,
            socket_timeout=timeout,
            socket_connect_timeout=timeout,
            retry=Retry(NoBackoff(), 0),
        )
        # The plain RedisHuey refuses a job with a priority: every job here has one.
        return PriorityRedisHuey(settings.QUEUE_NAME, connection_pool=pool, utc=True)
    # A short busy timeout: workers and app servers write the one file, each briefly.
    return SqliteHuey(settings.QUEUE_NAME, filename=settings.QUEUE_PATH, utc=True, timeout=2)


huey = _made()

logger = logging.getLogger(__name__)

Handler = Callable[[str], None]
HANDLERS: dict[str, Handler] = {}


def handler(kind: str) -> Callable[[Handler], Handler]:
    """Register what a worker does for jobs of `kind` (called with the job's argument)."""

    def register(function: Handler) -> Handler:
        HANDLERS[kind] = function
        return function

    return register


class _Down:
    until = 0.0


def _failed(what: str, error: BaseException) -> None:
    _Down.until = time.monotonic() + DOWN_SECONDS
    logger.error("the task queue failed (%s): %r", what, error)
    metrics.QUEUE_ERRORS.inc()


def is_down() -> bool:
    return time.monotonic() < _Down.until


def enqueue(task: Any, what: str) -> bool:
    """Put a task's signature on the queue. False when the queue cannot take it (down, the
    SQLite file locked or on a full disk): logged and counted (`lucie_queue_errors_total`)."""
    if is_down():
        metrics.QUEUE_ERRORS.inc()
        return False
    try:
        huey.enqueue(task)
    except QUEUE_ERRORS as error:
        _failed(what, error)
        return False
    return True


def pending() -> int | None:
    """Messages on the queue, or None when it cannot say."""
    if is_down():
        return None
    try:
        return int(huey.pending_count())
    except QUEUE_ERRORS as error:
        _failed("counting", error)
        return None


def reachable() -> bool:
    """The queue answers (for /healthz): Redis's PING, or a read of the SQLite file."""
    try:
        if isinstance(huey.storage, RedisStorage):
            return bool(huey.storage.conn.ping())
        huey.pending_count()
    except QUEUE_ERRORS as error:
        _failed("health", error)
        return False
    return True
