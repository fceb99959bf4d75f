"""`manage.py work [--workers N]`: the queue's workers (game/queue.py, game/jobs.py).

Each worker is a process of its own, at settings.QUEUE_NICENESS, so that on a shared machine the
processes serving pages go first; there are QUEUE_WORKERS of them (or --workers), never more.
In a worker a search runs in the worker itself (it is already a process of its own, niced), and
its deadlines read the process's CPU clock rather than the wall clock: a job's budget is CPU
seconds, which a loaded machine stretches in time but never cuts short.
"""

from __future__ import annotations

import logging
import os
import time
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandParser

from game.engine import search

MAX_WORKERS = 16


class Command(BaseCommand):
    help = (
        "Run the task queue's workers (reviews, daily difficulty, Show a win searched on, "
        "the nightly prune)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--workers", type=int, default=None, help="worker processes (default QUEUE_WORKERS)"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        workers = min(MAX_WORKERS, max(1, options["workers"] or settings.QUEUE_WORKERS))
        # Inherited by the worker processes, which fork from this one.
        os.nice(settings.QUEUE_NICENESS)
        settings.COMPUTE_PROCESSES = False
        search.clock = time.process_time
        from game import jobs  # noqa: F401 (registers the jobs)
        from game.queue import drop_stale_locks, huey

        dropped = drop_stale_locks()
        if dropped:
            self.stdout.write(f"dropped {dropped} stale lock(s) left by a killed worker")

        logging.getLogger("huey").setLevel(logging.INFO)
        consumer = huey.create_consumer(
            workers=workers, worker_type="process", periodic=True, flush_locks=False
        )
        consumer.run()
