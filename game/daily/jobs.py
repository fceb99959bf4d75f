"""How hard a day's deal is, as a job on the task queue's workers (game/queue.py): today's and
tomorrow's every five minutes and as soon as a worker starts, and a missing one when a daily
page asks for it.
"""

from __future__ import annotations

import datetime as dt

from django.core.cache import cache
from huey import crontab

from game import deals
from game.daily import difficulty as difficulties
from game.queue import PRIORITY_DIFFICULTY, RETRIES, RETRY_DELAY, alone, ask, huey

ASK_DIFFICULTY_SECONDS = 5 * 60


@huey.task(retries=RETRIES, retry_delay=RETRY_DELAY, priority=PRIORITY_DIFFICULTY)
def difficulty(number: int) -> None:
    with alone(f"difficulty-{number}"):
        difficulties.compute(number)


def ask_difficulty(number: int) -> None:
    """Ask for deal `number`'s figure, once per ASK_DIFFICULTY_SECONDS however many pages poll
    for it (the lock would keep two from running at once, but not the queue from growing)."""
    if cache.add(f"jobs:difficulty:{number}", True, ASK_DIFFICULTY_SECONDS):
        ask(difficulty, number)


@huey.periodic_task(crontab(minute="*/5"), priority=PRIORITY_DIFFICULTY)
def coming_days() -> None:
    """Today's and tomorrow's figures (tomorrow's is ready before its midnight, UTC), so that
    today's is known before the first player of the day asks."""
    today = deals.today_utc()
    for day in (today, today + dt.timedelta(days=1)):
        number = deals.deal_number_for(day)
        if difficulties.of_deal(number) is None:
            difficulty(number)


@huey.on_startup()
def _ask_for_the_coming_days() -> None:
    # A fresh start need not wait for the clock's next five minutes.
    coming_days()
