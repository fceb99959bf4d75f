"""Every job the task queue's workers run (game/queue.py), registered by importing this module
(`manage.py work` does):

- a lost game's review (game/review/jobs.py);
- how hard today's and tomorrow's deals are, and a missing day's (game/daily/jobs.py);
- a Show a win that a request's search could not decide, searched longer (game/board/jobs.py);
- `manage.py prune`'s work, each night (here).
"""

from __future__ import annotations

import logging

from huey import crontab

from game import prune as pruning
from game.board import jobs as board_jobs
from game.daily import jobs as daily_jobs
from game.queue import PRIORITY_PRUNE, alone, huey
from game.review import jobs as review_jobs

logger = logging.getLogger(__name__)

REGISTERED = (
    review_jobs.review,
    daily_jobs.difficulty,
    daily_jobs.coming_days,
    board_jobs.look_for_a_win,
)


@huey.periodic_task(crontab(hour="3", minute="17"), priority=PRIORITY_PRUNE)
def prune() -> None:
    with alone("prune"):
        done = pruning.prune()
        logger.info("pruned: %s", done)
