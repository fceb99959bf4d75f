"""A lost game's review as a job on the task queue's workers (game/queue.py), and how its page
asks for it. The job holds a lock named after the game, so two asks never search at once; it is
tried again RETRIES times, then its failure is kept where the page reads it.
"""

from __future__ import annotations

import datetime as dt
import logging

from django.conf import settings
from huey.exceptions import TaskLockedException
from huey.signals import SIGNAL_ERROR

from game.queue import PRIORITY_REVIEW, RETRIES, RETRY_DELAY, alone, ask, huey
from game.review import found as reviews

logger = logging.getLogger(__name__)


@huey.task(retries=RETRIES, retry_delay=RETRY_DELAY, priority=PRIORITY_REVIEW)
def review(game_id: int) -> None:
    with alone(f"review-{game_id}"):
        reviews.work_through(
            game_id,
            cpu_seconds=settings.REVIEW_CPU_SECONDS,
            solve_seconds=settings.REVIEW_SOLVE_CPU_SECONDS,
        )


def ask_review(game_id: int, now: dt.datetime) -> None:
    """Ask for game `game_id`'s review (its row made: reviews.kept), noting when, so that the
    page's polls do not ask again while it is queued or running. A queue that cannot take the
    job leaves the review failed: the page says so, and the player's next visit asks again."""
    reviews.mark(game_id, asked=now.isoformat(), failed=False)
    if not ask(review, game_id):
        reviews.mark(game_id, failed=True)


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
