"""Holding a job under a lease: who holds a job and until when, and the one task that runs it.

The queue (game/ops/queue.py, Huey) only carries a wake-up, "job KEY wants doing"; what is to be
done, whether it is done, who holds it and until when live in a `Job` row (game/ops/jobs.py) in
the site's own database, which every app server and worker shares. So nothing hangs on the queue
keeping its messages or a worker living to the end of its job:

- A worker woken for a job (`run`) claims it with one conditional UPDATE (waiting, or running
  under a lease that has lapsed) and holds it under a lease of LEASE_SECONDS, renewed every
  RENEW_SECONDS by a thread beside the job while it runs (`held`). A worker killed in the middle
  stops renewing; its lease lapses, and the keeper's sweep gives the job to another worker
  (game/ops/keeper.py).
- A job is tried at most MAX_ATTEMPTS times, a crash of its worker included (a job that kills its
  worker does not kill every worker in turn), then it is failed, with why, and the page says so.
- A handler saves what it found in `saving()`, which writes only while the lease is still its own.
- No job is claimed while a restore's fence stands (game/ops/fence.py).

Asking for a job is game/ops/asking.py; what an operator watches, game/ops/watch.py. Modelled on
healthchecks' claim of work with a conditional UPDATE and its guard against crash loops. Why Huey
stays underneath: docs/architecture.md ("The task queue").
"""

from __future__ import annotations

import datetime as dt
import logging
import os
import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

from django.conf import settings
from django.db import close_old_connections, connection, models, transaction
from django.db.models import Exists, Q
from django.utils import timezone

from game.ops import fence, queue
from game.ops.jobs import Beat, Job

logger = logging.getLogger(__name__)

LEASE_SECONDS: float = settings.QUEUE_LEASE_SECONDS
"""A running job's lease: a worker that stops renewing it (killed, frozen) loses the job after
this long, and the next sweep gives it to another (20 s unless LUCIE_QUEUE_LEASE_SECONDS says
otherwise; what follows is timed from it)."""
RENEW_SECONDS = LEASE_SECONDS / 4
PICKUP_SECONDS = LEASE_SECONDS * 3 / 4
"""A job asked for is expected on a worker within this: past it, a queue that holds fewer
messages than waiting jobs has lost some, and the sweep asks again."""
MAX_ATTEMPTS = 3


def holder_name() -> str:
    return f"{socket.gethostname()}:{os.getpid()}:{threading.get_ident()}"


@dataclass(frozen=True)
class Lease:
    """One holding of a job: its key, its holder and its generation (the try it is, counted by
    `attempts`, which each claim raises). A holder frozen past its lease whose job was claimed
    again holds an older generation, even when the new holder has its name."""

    key: str
    holder: str
    generation: int

    def mine(self) -> models.QuerySet[Job]:
        return Job.objects.filter(
            key=self.key, holder=self.holder, attempts=self.generation, state=Job.State.RUNNING
        )


class LeaseLost(Exception):
    """The job's lease is no longer this worker's: what it found is not to be saved."""


_lease: ContextVar[Lease | None] = ContextVar("lease", default=None)


@contextmanager
def saving() -> Iterator[None]:
    """The transaction in which a job's handler saves what it found. In a job, it begins with a
    write to the job's row conditional on this worker's lease (holder and generation, still
    running), which also pushes the lease on: the row stays locked until the save commits, so a
    sweep or another worker cannot take the job in between; and a worker whose lease was taken
    (frozen past it, say) raises LeaseLost before it writes anything. Outside a job (a request,
    a test) it is a plain transaction."""
    lease = _lease.get()
    with transaction.atomic():
        if lease is not None:
            until = timezone.now() + dt.timedelta(seconds=LEASE_SECONDS)
            if not lease.mine().update(lease_until=until):
                raise LeaseLost(lease.key)
        yield


def claim(key: str, holder: str) -> Job | None:
    """Take job `key` for `holder` if no one else holds it: one conditional UPDATE, so of two
    workers woken for the same job one gets it. None when it is held, finished or gone; a job
    out of attempts is failed instead."""
    now = timezone.now()
    free = Q(state=Job.State.WAITING) | Q(state=Job.State.RUNNING, lease_until__lt=now)
    # A restore's fence stands (game/ops/fence.py): no job starts until it is down.
    fenced = Beat.objects.filter(name=fence.FENCE, at__gt=fence.fence_fresh_since())
    if fenced.exists():
        return None
    taken = Job.objects.filter(free, ~Exists(fenced), key=key, attempts__lt=MAX_ATTEMPTS).update(
        state=Job.State.RUNNING,
        holder=holder,
        lease_until=now + dt.timedelta(seconds=LEASE_SECONDS),
        attempts=models.F("attempts") + 1,
        started_at=now,
    )
    if not taken:
        Job.objects.filter(free, key=key, attempts__gte=MAX_ATTEMPTS).update(
            state=Job.State.FAILED,
            error=f"stopped {MAX_ATTEMPTS} times before it could finish",
            finished_at=now,
        )
        return None
    return Job.objects.get(key=key)


def renew(key: str, holder: str) -> bool:
    """Push the lease on, only for its holder: False when the job was taken from it."""
    until = timezone.now() + dt.timedelta(seconds=LEASE_SECONDS)
    mine = Job.objects.filter(key=key, holder=holder, state=Job.State.RUNNING)
    return bool(mine.update(lease_until=until))


def finish(key: str, holder: str, *, error: str = "", generation: int | None = None) -> None:
    """The holder is done with job `key`: done, or on an error waiting for another try (failed
    once out of attempts). A holder whose lease was taken (another holder, or a later
    `generation` of the job under the same name) changes nothing."""
    now = timezone.now()
    mine = Job.objects.filter(key=key, holder=holder, state=Job.State.RUNNING)
    if generation is not None:
        mine = mine.filter(attempts=generation)
    if not error:
        mine.update(state=Job.State.DONE, finished_at=now, lease_until=now)
        return
    mine.filter(attempts__gte=MAX_ATTEMPTS).update(
        state=Job.State.FAILED, finished_at=now, error=error[:300], lease_until=now
    )
    mine.update(
        state=Job.State.WAITING,
        error=error[:300],
        lease_until=now + dt.timedelta(seconds=PICKUP_SECONDS),
    )


@contextmanager
def held(key: str, holder: str) -> Iterator[threading.Event]:
    """Renew job `key`'s lease every RENEW_SECONDS from a thread of its own while the job runs
    (a search holds its thread for minutes). The event is set if the lease was taken away."""
    stop, lost = threading.Event(), threading.Event()

    def renewing() -> None:
        try:
            while not stop.wait(RENEW_SECONDS):
                if not renew(key, holder):
                    lost.set()
                    return
        except Exception:
            logger.exception("could not renew the lease of %s", key)
        finally:
            connection.close()

    thread = threading.Thread(target=renewing, name=f"lease {key}", daemon=True)
    thread.start()
    try:
        yield lost
    finally:
        stop.set()
        thread.join(timeout=RENEW_SECONDS)


# ---------------------------------------------------------------- the one task


def wake(key: str, kind: str, *, behind: int = 0, priority: int | None = None) -> bool:
    """Put job `key`'s wake-up on the queue, `behind` places below its kind's priority (at most
    queue.BEHIND_MOST), or at `priority`. False when the queue cannot take it (game/ops/queue.py:
    enqueue)."""
    if priority is None:
        priority = queue.PRIORITIES.get(kind, 0) - min(behind, queue.BEHIND_MOST)
    return queue.enqueue(run.s(key, priority=priority), f"job {key}")


@queue.huey.task()  # type: ignore[untyped-decorator]
def run(key: str) -> None:
    """What a worker does with a wake-up: claim job `key`, do it under its lease (renewed by a
    thread beside it), and say how it went; a failure waits for another try, woken at once."""
    if not queue.huey.immediate:
        close_old_connections()
    holder = holder_name()
    job = claim(key, holder)
    if job is None:
        return  # held by another, finished, or out of attempts
    lease = Lease(key, holder, job.attempts)
    work = queue.HANDLERS.get(job.kind)
    token = _lease.set(lease)
    try:
        if work is None:
            raise LookupError(f"no handler for jobs of kind {job.kind!r}")
        if queue.huey.immediate:
            work(job.argument)
        else:
            with held(key, holder):
                work(job.argument)
    except LeaseLost:
        logger.warning("job %s: its lease (try %s) was taken from %s; its work is dropped",
                       key, job.attempts, holder)  # fmt: skip
    except Exception as error:
        logger.exception("job %s failed on try %s", key, job.attempts)
        finish(key, holder, error=repr(error), generation=job.attempts)
        if Job.objects.filter(key=key, state=Job.State.WAITING).exists():
            wake(key, job.kind)
    else:
        finish(key, holder, generation=job.attempts)
    finally:
        _lease.reset(token)
        if not queue.huey.immediate:
            close_old_connections()
