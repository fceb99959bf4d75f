"""`manage.py work [--workers N]`: the queue's workers (game/ops/queue.py, game/schedule.py).

Each worker is a process of its own, at settings.QUEUE_NICENESS, so that on a shared machine the
processes serving pages go first; there are QUEUE_WORKERS of them (or --workers), never more.
Huey starts a worker again when it dies. In a worker a search runs in the worker itself (it is
already a process of its own, niced), and its deadlines read the process's CPU clock rather than
the wall clock: a job's budget is CPU seconds, which a loaded machine stretches in time but never
cuts short.

Beside them a keeper process keeps the leases honest (game/ops/leases.py): every SWEEP_SECONDS it
beats (the heartbeat pages, /healthz and /metrics read) and sweeps, waking again a job whose holder
stopped renewing its lease (a worker killed mid-job) or whose wake-up the queue lost; like a
worker, the keeper is started again when it dies. An idle
worker looks at the queue every POLL_SECONDS at most, so a job starts within a second of its ask.
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import socket
import time
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandParser
from django.db import close_old_connections, connections
from huey.consumer import Consumer

from game.engine import search

MAX_WORKERS = 16
POLL_SECONDS = 0.5

logger = logging.getLogger(__name__)


class Command(BaseCommand):
    help = (
        "Run the task queue's workers (reviews, daily difficulty, Show a win searched on, "
        "the nightly prune, ranks and backup)."
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
        from game import schedule  # noqa: F401 (registers the jobs)
        from game.ops.queue import huey

        logging.getLogger("huey").setLevel(logging.INFO)
        consumer = _Consumer(
            huey,
            keeping=workers,
            workers=workers,
            worker_type="process",
            periodic=True,
            initial_delay=0.05,
            backoff=1.5,
            max_delay=POLL_SECONDS,
            health_check_interval=2,
        )
        consumer.start_keeper()
        consumer.run()


class _Consumer(Consumer):  # type: ignore[misc]
    """Huey's consumer, which also starts the lease keeper again when it died, as Huey starts
    a worker again (its health check, every health_check_interval seconds)."""

    def __init__(self, huey: Any, *, keeping: int, **options: Any) -> None:
        super().__init__(huey, **options)
        self.keeping = keeping
        self.keeper: multiprocessing.process.BaseProcess | None = None

    def start_keeper(self) -> None:
        # The keeper is a process of its own, forked while this one has no thread: a thread here
        # would be copied mid-call into every worker Huey forks later (one started again after
        # a crash too), and SQLite's locks copied held would hang that worker for good.
        connections.close_all()
        self.keeper = multiprocessing.get_context("fork").Process(
            target=_keep_leases, args=(os.getpid(), self.keeping), name="lease keeper",
            daemon=True,
        )  # fmt: skip
        self.keeper.start()

    def check_worker_health(self) -> bool:
        healthy = bool(super().check_worker_health())
        if self.keeper is not None and not self.keeper.is_alive():
            logger.warning("the lease keeper died (exit code %s); starting it again",
                           self.keeper.exitcode)  # fmt: skip
            self.start_keeper()
            return False
        return healthy


def _keep_leases(master: int, workers: int) -> None:
    """Beat and sweep every SWEEP_SECONDS for as long as `manage.py work` (`master`) runs."""
    from game.ops import leases, queue

    name = f"worker:{socket.gethostname()}:{master}"
    while os.getppid() == master:
        try:
            close_old_connections()
            leases.beat(
                name, f"manage.py work, {workers} worker processes, keeper pid {os.getpid()}"
            )
            for job in leases.sweep(queue.pending()):
                leases.wake(job.key, job.kind)
        except Exception:
            logger.exception("the lease keeper's round failed")
        time.sleep(leases.SWEEP_SECONDS)
