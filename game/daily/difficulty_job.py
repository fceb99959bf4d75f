"""How hard a day's deal is, as a job on the task queue's workers (game/ops/queue.py, held by a
lease: game/ops/leases.py): today's and tomorrow's asked every five minutes and as soon as a
worker starts. A page never asks for one (a GET only reads); a day with no figure says so.
"""

from __future__ import annotations

import datetime as dt

from huey import crontab

from game import deals
from game.daily import difficulties
from game.ops import asking, queue
from game.ops.asking import Asked
from game.ops.jobs import Job
from game.ops.queue import PRIORITY_DIFFICULTY, huey


@queue.handler(Job.Kind.DIFFICULTY)
def difficulty(argument: str) -> None:
    difficulties.compute(int(argument))


def ask_difficulty(number: int, *, again: bool = False, priority: int | None = None) -> Asked:
    """Ask for deal `number`'s figure: one job per deal, however often it is asked."""
    return asking.ask(
        Job.Kind.DIFFICULTY, f"difficulty:{number}", str(number), again=again, priority=priority
    )


def job_of(number: int) -> Job | None:
    return Job.objects.filter(key=f"difficulty:{number}").first()


@huey.periodic_task(crontab(minute="*/5"), priority=PRIORITY_DIFFICULTY)
def coming_days() -> None:
    """Today's and tomorrow's figures (tomorrow's is ready before its midnight, UTC), so that
    today's is known before the first player of the day asks; then any earlier day of this
    month still without one (the month's page shows them; the kind's cap bounds how many are
    open at once)."""
    today = deals.today_utc()
    coming = [today, today + dt.timedelta(days=1)]
    # Earlier days of the month wait behind every job a player is watching.
    earlier = [today - dt.timedelta(days=back) for back in range(1, today.day)]
    for day, priority in [(day, None) for day in coming] + [(day, 0) for day in earlier]:
        if day < deals.site_start():
            continue
        number = deals.deal_number_for(day)
        if difficulties.of_deal(number) is None:
            ask_difficulty(number, again=True, priority=priority)


@huey.on_startup()
def _ask_for_the_coming_days() -> None:
    # A fresh start need not wait for the clock's next five minutes.
    coming_days()
