"""The jobs the workers run (the queue: game/queue.py), and how a request asks for one.

- `review`: a lost game's review, to its end within settings.REVIEW_CPU_SECONDS of CPU.
- `difficulty`: how hard a day's deal is (game/daily/difficulty.py); `coming_days` asks for
  today's and tomorrow's every few minutes and when a worker starts, so today's figure is known
  before the first player of the day asks.
- `prune`: `manage.py prune`'s work, each night.

Each job holds a lock named after what it works on, so the same work never runs twice at once
(a second copy finds the lock taken and ends); a job that fails is tried again RETRIES times,
then its failure is kept where the page reads it (a review's page says so).
"""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Iterator
from contextlib import contextmanager

from django.conf import settings
from django.core.cache import cache
from django.db import close_old_connections
from huey import crontab
from huey.exceptions import TaskLockedException
from huey.signals import SIGNAL_ERROR

from game import deals, queue
from game import prune as pruning
from game.daily import difficulty as difficulties
from game.queue import PRIORITY_DIFFICULTY, PRIORITY_PRUNE, PRIORITY_REVIEW, huey
from game.review import found as reviews

logger = logging.getLogger(__name__)

RETRIES = 2
RETRY_DELAY = 10


@contextmanager
def _alone(name: str) -> Iterator[None]:
    """Hold the lock `name` for the job, with fresh database connections around it (a worker
    lives for days; its connections may have been closed by the server meanwhile)."""
    if not huey.immediate:
        close_old_connections()
    try:
        with queue.lock(name):
            yield
    finally:
        if not huey.immediate:
            close_old_connections()


# ---------------------------------------------------------------- reviews


@huey.task(retries=RETRIES, retry_delay=RETRY_DELAY, priority=PRIORITY_REVIEW)
def review(game_id: int) -> None:
    with _alone(f"review-{game_id}"):
        reviews.work_through(
            game_id,
            cpu_seconds=settings.REVIEW_CPU_SECONDS,
            solve_seconds=settings.REVIEW_SOLVE_CPU_SECONDS,
        )


def ask_review(game_id: int, now: dt.datetime) -> None:
    """Ask for game `game_id`'s review (its row made: reviews.kept), noting when, so that the
    page's polls do not ask again while it is queued or running."""
    reviews.mark(game_id, asked=now.isoformat(), failed=False)
    review(game_id)


# ---------------------------------------------------------------- a day's difficulty


@huey.task(retries=RETRIES, retry_delay=RETRY_DELAY, priority=PRIORITY_DIFFICULTY)
def difficulty(number: int) -> None:
    with _alone(f"difficulty-{number}"):
        difficulties.compute(number)


ASK_DIFFICULTY_SECONDS = 5 * 60


def ask_difficulty(number: int) -> None:
    """Ask for deal `number`'s figure, once per ASK_DIFFICULTY_SECONDS however many pages poll
    for it (the lock would keep two from running at once, but not the queue from growing)."""
    if cache.add(f"jobs:difficulty:{number}", True, ASK_DIFFICULTY_SECONDS):
        difficulty(number)


@huey.periodic_task(crontab(minute="*/5"), priority=PRIORITY_DIFFICULTY)
def coming_days() -> None:
    """Today's and tomorrow's figures (tomorrow's is ready before its midnight, UTC)."""
    today = deals.today_utc()
    for day in (today, today + dt.timedelta(days=1)):
        number = deals.deal_number_for(day)
        if difficulties.of_deal(number) is None:
            difficulty(number)


@huey.on_startup()
def _ask_for_the_coming_days() -> None:
    # A fresh start need not wait for the clock's next five minutes.
    coming_days()


# ---------------------------------------------------------------- the nightly prune


@huey.periodic_task(crontab(hour="3", minute="17"), priority=PRIORITY_PRUNE)
def prune() -> None:
    with _alone("prune"):
        done = pruning.prune()
        logger.info("pruned: %s", done)


# ---------------------------------------------------------------- failures


@huey.signal(SIGNAL_ERROR)
def _failed(signal: str, task: object, exc: BaseException | None = None) -> None:
    """A job that failed on its last try: a review's page says so."""
    if isinstance(exc, TaskLockedException) or getattr(task, "retries", 0) > 0:
        return
    logger.error("job %s failed for good: %r", getattr(task, "name", "?"), exc)
    if getattr(task, "name", "").endswith("review"):
        args = getattr(task, "args", ())
        if args:
            reviews.mark(int(args[0]), failed=True)
