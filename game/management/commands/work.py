"""`manage.py work [--workers N]`: the queue's workers (game/ops/queue.py, game/schedule.py).

Each worker is a process of its own, at settings.QUEUE_NICENESS, so that on a shared machine the
processes serving pages go first; there are QUEUE_WORKERS of them (or --workers), never more.
Huey starts a worker again when it dies. In a worker a search runs in the worker itself (it is
already a process of its own, niced), and its deadlines read the process's CPU clock rather than
the wall clock: a job's budget is CPU seconds, which a loaded machine stretches in time but never
cuts short.

Beside them a keeper process keeps the leases honest (game/ops/keeper.py): every SWEEP_SECONDS it
beats (game/ops/watch.py: the heartbeat pages, /healthz and /metrics read) and sweeps, waking
again a job whose holder stopped renewing its lease (a worker killed mid-job) or whose wake-up
the queue lost; like a worker, the keeper is started again when it dies. An idle
worker looks at the queue every POLL_SECONDS at most, so a job starts within a second of its ask.
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import signal
import socket
import time
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandParser
from django.db import close_old_connections, connections
from huey.consumer import Consumer

from game.engine import budget

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
        budget.clock = time.process_time
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


STOP_SECONDS = settings.QUEUE_LEASE_SECONDS / 2
"""After SIGTERM, a process `manage.py work` started that has not ended within this is killed:
within half a job's lease (leases.LEASE_SECONDS), so the job goes to another worker as soon as
it lapses and to no one twice."""


class _Consumer(Consumer):  # type: ignore[misc]
    """Huey's consumer, which also starts the lease keeper again when it died, as Huey starts
    a worker again (its health check, every health_check_interval seconds), and which, told to
    stop, ends every process it started (the keeper too) before it exits.

    The keeper beats for `manage.py work` only while a worker can take work: the consumer tells
    it, through memory they share, how many workers were alive at its last health check (none
    once it is stopping)."""

    def __init__(self, huey: Any, *, keeping: int, **options: Any) -> None:
        super().__init__(huey, **options)
        self.keeping = keeping
        self.keeper: multiprocessing.process.BaseProcess | None = None
        self.able = multiprocessing.get_context("fork").Value("i", 0, lock=False)

    def start(self) -> None:
        super().start()
        self.able.value = len(self.worker_threads)

    def start_keeper(self) -> None:
        # The keeper is a process of its own, forked while this one has no thread: a thread here
        # would be copied mid-call into every worker Huey forks later (one started again after
        # a crash too), and SQLite's locks copied held would hang that worker for good.
        connections.close_all()
        self.keeper = multiprocessing.get_context("fork").Process(
            target=_keep_leases, args=(os.getpid(), self.keeping, self.able), name="lease keeper",
            daemon=True,
        )  # fmt: skip
        self.keeper.start()

    def check_worker_health(self) -> bool:
        healthy = bool(super().check_worker_health())
        self.able.value = sum(1 for _, process in self.worker_threads if process.is_alive())
        if self.keeper is not None and not self.keeper.is_alive():
            logger.warning("the lease keeper died (exit code %s); starting it again",
                           self.keeper.exitcode)  # fmt: skip
            self.start_keeper()
            return False
        return healthy

    def stop(self, graceful: bool = False) -> None:
        self.able.value = 0
        if self.keeper is not None and self.keeper.is_alive():
            self.keeper.terminate()
        super().stop(graceful=graceful)
        # Whatever is still running now (a search deaf to its interrupt, a keeper forked after
        # Huey set its handlers) is ended by force before this process exits: multiprocessing's
        # exit waits for its children without end.
        processes = [process for _, process in self.worker_threads]
        processes += [self.scheduler, self.keeper]
        deadline = time.monotonic() + STOP_SECONDS
        for process in processes:
            if process is not None:
                process.join(max(0.0, deadline - time.monotonic()))
        for process in processes:
            if process is not None and process.is_alive():
                logger.warning("%s did not stop within %s s; killing it", process.name,
                               STOP_SECONDS)  # fmt: skip
                process.kill()
                process.join(5)


def _keep_leases(master: int, workers: int, able: Any) -> None:
    """Beat and sweep every SWEEP_SECONDS for as long as `manage.py work` (`master`) runs; beat
    only while one of its workers is alive to take work."""
    from game.ops import keeper, leases, queue, watch

    # A keeper started again is forked after Huey set the consumer's signal handlers: SIGTERM
    # must end it, and Ctrl-C (sent to the whole group) is the consumer's to handle.
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGHUP, signal.SIG_IGN)
    name = f"worker:{socket.gethostname()}:{master}"
    while os.getppid() == master:
        try:
            close_old_connections()
            if able.value > 0:
                watch.beat(
                    name, f"manage.py work, {workers} worker processes, keeper pid {os.getpid()}"
                )
            for job in keeper.sweep(queue.pending()):
                leases.wake(job.key, job.kind)
        except Exception:
            logger.exception("the lease keeper's round failed")
        time.sleep(keeper.SWEEP_SECONDS)
