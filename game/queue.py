"""The task queue: Huey, on a SQLite file on one machine or on Redis across several.

Searches that no request should wait on run as jobs (game/jobs.py): a lost game's review, each
day's difficulty, the nightly prune. A request only asks for a job and answers at once; workers
(`manage.py work`, which `make run` starts beside the server) take the jobs, each worker a
process of its own at a lower priority (settings.QUEUE_NICENESS), QUEUE_WORKERS of them at
most. Huey gives the rest: a job retried a bounded number of times, a lock so that a job is
never done twice at once, priorities, and periodic jobs (why Huey: docs/architecture.md).

- One machine (the default): the queue is a SQLite file beside the database
  (settings.QUEUE_PATH); nothing else to set up.
- Several machines: QUEUE_URL names a Redis that every app server and worker shares.
- Tests: `huey.immediate = True` (tests/conftest.py) runs each job in the request that asks for
  it, in memory; the tests that watch real workers start `manage.py work` themselves.
"""

from __future__ import annotations

from django.conf import settings
from huey import Huey, RedisHuey, SqliteHuey

# Priorities: a higher number is taken first.
PRIORITY_DIFFICULTY = 30  # today's figure, which every daily page shows
PRIORITY_REVIEW = 20  # a player is watching the page
PRIORITY_PRUNE = 0


def _made() -> Huey:
    if settings.QUEUE_URL:
        return RedisHuey("lucie", url=settings.QUEUE_URL, utc=True)
    # A busy timeout: workers and app servers write the one file at once.
    return SqliteHuey("lucie", filename=settings.QUEUE_PATH, utc=True, timeout=20)


huey = _made()
