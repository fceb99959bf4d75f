"""The task queue: Huey, on a SQLite file on one machine or on Redis across several.

Searches that no request should wait on run as jobs (game/jobs.py): a lost game's review, each
day's difficulty, a Show a win past a request's budget, the nightly prune. A request only asks
for a job and answers at once; workers (`manage.py work`, which `make run` starts beside the
server) take the jobs, each worker a process of its own at a lower priority
(settings.QUEUE_NICENESS), QUEUE_WORKERS of them at most. Huey gives the rest: a job retried a
bounded number of times, a lock so that a job is never done twice at once, priorities, and
periodic jobs (why Huey: docs/architecture.md).

- One machine (the default): the queue is a SQLite file beside the database
  (settings.QUEUE_PATH); nothing else to set up.
- Several machines: QUEUE_URL names a Redis that every app server and worker shares.
- Tests: `huey.immediate = True` (tests/conftest.py) runs each job in the request that asks for
  it, in memory; the tests that watch real workers start `manage.py work` themselves.
"""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager

from django.conf import settings
from django.db import close_old_connections
from huey import Huey, PriorityRedisHuey, SqliteHuey
from huey.api import TaskWrapper
from huey.exceptions import TaskLockedException
from huey.storage import RedisStorage, SqliteStorage
from redis.exceptions import RedisError

from lucie import metrics

# Priorities: a higher number is taken first.
PRIORITY_DIFFICULTY = 30  # today's figure, which every daily page shows
PRIORITY_SHOW_A_WIN = 25  # a player is watching the board, which says "still looking"
PRIORITY_REVIEW = 20  # a player is watching the page (and may leave it and come back)
PRIORITY_PRUNE = 0

RETRIES = 2
"""A job that fails is tried again this many times, RETRY_DELAY seconds apart."""
RETRY_DELAY = 10


def _made() -> Huey:
    if settings.QUEUE_URL:
        # The plain RedisHuey refuses a job with a priority: every job here has one.
        return PriorityRedisHuey(settings.QUEUE_NAME, url=settings.QUEUE_URL, utc=True)
    # A busy timeout: workers and app servers write the one file at once.
    return SqliteHuey(settings.QUEUE_NAME, filename=settings.QUEUE_PATH, utc=True, timeout=20)


huey = _made()

logger = logging.getLogger(__name__)


def ask(task: TaskWrapper, *args: object, below: int | None = None) -> bool:
    """Put a job on the queue; with `below`, only while the queue holds fewer jobs than that.
    A queue that cannot take it (Redis down, the SQLite file locked or on a full disk) is logged
    and counted (`lucie_queue_errors_total`); either way the answer is False, and the page that
    asked says the work could not start, never a 500."""
    try:
        if below is not None and huey.pending_count() >= below:
            logger.warning("the task queue is full: job %s not asked", task.task_class.__name__)
            return False
        task(*args)
    except (RedisError, sqlite3.Error, OSError) as error:
        logger.error("the task queue refused job %s%r: %r", task.task_class.__name__, args, error)
        metrics.QUEUE_ERRORS.inc()
        return False
    return True


LOCK_SECONDS = 30 * 60
"""On Redis a job's lock outlives a worker killed in the middle of its job only this long."""


def lock(name: str) -> AbstractContextManager[None]:
    """The lock that keeps job `name` from running twice at once (TaskLockedException if held)."""
    if isinstance(huey.storage, RedisStorage):
        return _redis_lock(f"{huey.name}.lock.{name}")
    # Huey's SQLite storage (and the tests' memory) keeps a lock for good; `manage.py work`
    # drops stale ones as it starts.
    held: AbstractContextManager[None] = huey.lock_task(name)
    return held


@contextmanager
def _redis_lock(key: str) -> Iterator[None]:
    # Huey's own lock with a lifetime needs Redis 7.4 (a lifetime per hash field); Debian 12
    # ships 7.0, so the lock is a plain key set only if absent, with LOCK_SECONDS to live.
    connection = huey.storage.conn
    if not connection.set(key, "1", nx=True, ex=LOCK_SECONDS):
        raise TaskLockedException(f"{key} is held")
    try:
        yield
    finally:
        connection.delete(key)


def drop_stale_locks() -> int:
    """Locks of the SQLite queue left by a worker that was killed in a job: the one machine's
    `manage.py work` is starting, so no job of its holds one. (On Redis they expire by
    themselves: workers on other machines may hold theirs.)"""
    if not isinstance(huey.storage, SqliteStorage):
        return 0
    pattern = f"{huey.name}.lock.%"
    found = huey.storage.sql(
        "select count(*) from kv where queue = ? and key like ?",
        (huey.name, pattern),
        results=True,
    )
    huey.storage.sql(
        "delete from kv where queue = ? and key like ?", (huey.name, pattern), commit=True
    )
    return int(found[0][0])


@contextmanager
def alone(name: str) -> Iterator[None]:
    """Hold the lock `name` for a job, with fresh database connections around it (a worker
    lives for days; the server may have closed its connections meanwhile)."""
    if not huey.immediate:
        close_old_connections()
    try:
        with lock(name):
            yield
    finally:
        if not huey.immediate:
            close_old_connections()
