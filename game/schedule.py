"""Every job the task queue's workers run (game/ops/queue.py, each held by a lease:
game/ops/leases.py), registered by importing this module (`manage.py work` does), and the one
scheduler of the site's periodic work (Huey's periodic tasks; no cron, no `sleep` loop):

- a lost game's review (game/review/review_job.py);
- how hard today's and tomorrow's deals are, and a missing day's, every five minutes
  (game/daily/difficulty_job.py);
- a Show a win that a request's search could not decide, searched on (game/board/show_a_win_job.py);
- each night: `manage.py prune`'s work, the daily ranks of the days that are over, and, when
  settings.BACKUP_DIR names a folder, a backup written there, verified, and kept
  BACKUP_KEEP_DAYS days (here).

It sits above game/ops/ (which holds the low parts: the queue, the leases, the limits, the
prune and the backups, none of which imports the site), since it names the jobs of the whole
site: the board's, the daily pages' and the review's.

A periodic task only asks for a job named after its day, so however many `manage.py work` run
(one per machine), each night's work is done once, and a worker killed in the middle of it hands
it to another.
"""

from __future__ import annotations

import datetime as dt
import logging
from pathlib import Path

from django.conf import settings
from django.core.management import call_command
from django.utils import timezone
from huey import crontab

from game import deals
from game import prune as pruning
from game.board import show_a_win_job
from game.daily import difficulty_job
from game.ops import asking, backup, backup_verify, jobs, queue, watch
from game.ops.jobs import Job
from game.ops.queue import PRIORITY_NIGHTLY, huey
from game.review import review_job

logger = logging.getLogger(__name__)

REGISTERED = (
    review_job.review,
    difficulty_job.difficulty,
    difficulty_job.coming_days,
    show_a_win_job.search_on_job,
)


@queue.handler(Job.Kind.NIGHTLY)
def nightly(argument: str) -> None:
    """One night's piece of work, by name: `prune`, `ranks` or `backup`, then the day."""
    name = argument.split(":", 1)[0]
    if name == "prune":
        done = pruning.prune()
        gone = jobs.prune(timezone.now())
        logger.info("pruned: %s, and %s finished jobs", done, gone)
    elif name == "ranks":
        call_command("daily_ranks", days=2)
    elif name == "backup":
        nightly_backup(Path(settings.BACKUP_DIR), deals.today_utc())
    else:
        raise ValueError(f"no nightly job named {name!r}")


def nightly_backup(folder: Path, day: dt.date) -> Path:
    """The night's backup into `folder`, verified (restored elsewhere, every game replayed),
    then the time of this last good backup kept (/metrics shows it) and copies older than
    BACKUP_KEEP_DAYS deleted. A failure raises: the job is tried again, then failed, and the
    last good backup's time stays where it was, so the operator's alert fires."""
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / f"lucie-{day:%Y%m%d}.backup"
    written = backup.backup(target)
    verified = backup_verify.verify(target)
    watch.beat(watch.BACKUP_BEAT, f"{target.name}: {verified.games} games replayed whole")
    logger.info("nightly backup: %s; %s", written.describe(), verified.describe())
    oldest = day - dt.timedelta(days=settings.BACKUP_KEEP_DAYS)
    for old in folder.glob("lucie-*.backup"):
        stamp = old.stem.removeprefix("lucie-")
        if stamp.isdigit() and len(stamp) == 8 and stamp < f"{oldest:%Y%m%d}":
            old.unlink()
    return target


def _night(name: str) -> None:
    day = deals.today_utc()
    asking.ask(Job.Kind.NIGHTLY, f"nightly:{name}:{day:%Y%m%d}", f"{name}:{day:%Y%m%d}")


@huey.periodic_task(crontab(hour="3", minute="17"), priority=PRIORITY_NIGHTLY)
def prune() -> None:
    _night("prune")


@huey.periodic_task(crontab(hour="0", minute="5"), priority=PRIORITY_NIGHTLY)
def daily_ranks() -> None:
    _night("ranks")


@huey.periodic_task(crontab(hour="2", minute="41"), priority=PRIORITY_NIGHTLY)
def nightly_backups() -> None:
    if settings.BACKUP_DIR:
        _night("backup")
