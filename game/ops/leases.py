"""Work handed to the task queue, held by a lease in the database: who holds a job and until when.

The queue (game/ops/queue.py, Huey) only carries a wake-up, "job KEY wants doing"; what is to be
done, whether it is done, who holds it and until when live in a `Job` row in the site's own
database, which every app server and worker shares. So nothing hangs on the queue keeping its
messages or a worker living to the end of its job:

- A worker claims a job with one conditional UPDATE (waiting, or running under a lease that has
  lapsed) and holds it under a lease of LEASE_SECONDS, renewed every RENEW_SECONDS by a thread
  beside the job while it runs (`held`). A worker killed in the middle stops renewing; its lease
  lapses, and the sweep gives the job to another worker (`sweep`, run every SWEEP_SECONDS by
  every `manage.py work`).
- A job asked for and not claimed within PICKUP_SECONDS while the queue holds fewer messages than
  there are waiting jobs (a queue Redis restarted empty) is put on the queue again by the sweep.
- A job is tried at most MAX_ATTEMPTS times, a crash of its worker included (a job that kills its
  worker does not kill every worker in turn), then it is failed, with why, and the page says so.
- Each kind of job has a cap on the jobs open at once (CAPS); an asker (a session, a network) who
  already has jobs open gets a lower priority for the next, so everyone's first is taken first.
- Every `manage.py work` beats (`Beat`) each SWEEP_SECONDS: a page that waits for a job says so
  when no worker has beaten for STALE_SECONDS, and /healthz and /metrics show the last beat and
  the jobs open by kind.

Modelled on healthchecks' claim of work with a conditional UPDATE and its guard against crash
loops. Why Huey stays underneath: docs/architecture.md ("The task queue").
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
from typing import Any

from django.conf import settings
from django.db import IntegrityError, close_old_connections, connection, models, transaction
from django.db.models import Exists, Q, Subquery
from django.db.models.functions import Coalesce
from django.utils import timezone

from game.ops import queue

logger = logging.getLogger(__name__)

LEASE_SECONDS = 20
"""A running job's lease: a worker that stops renewing it (killed, frozen) loses the job after
this long, and the next sweep gives it to another."""
RENEW_SECONDS = 5
SWEEP_SECONDS = 5
PICKUP_SECONDS = 15
"""A job asked for is expected on a worker within this: past it, a queue that holds fewer
messages than waiting jobs has lost some, and the sweep asks again."""
STALE_SECONDS = 30
"""No worker has beaten for this long: pages that wait for a job say the site's workers are away."""
MAX_ATTEMPTS = 3
KEEP_FINISHED = dt.timedelta(days=2)
"""Finished and failed jobs are kept this long (the nightly prune deletes older ones)."""


class Job(models.Model):
    """One piece of work for the queue's workers, and the lease of whoever holds it."""

    class Kind(models.TextChoices):
        REVIEW = "review", "a finished game's review"
        SHOW_A_WIN = "show_a_win", "Show a win searched on past a request's budget"
        DIFFICULTY = "difficulty", "a daily deal's difficulty"
        NIGHTLY = "nightly", "a periodic job (prune, daily ranks, backup)"

    class State(models.TextChoices):
        WAITING = "waiting"
        RUNNING = "running"
        DONE = "done"
        FAILED = "failed"

    key = models.CharField(max_length=120, unique=True)
    kind = models.CharField(max_length=20, choices=Kind.choices)
    # What the job works on: a game's id, a record's text, a deal number.
    argument = models.CharField(max_length=2000, blank=True, default="")
    # Who asked (keyed hashes: game.ops.limits), for fairness between askers.
    asker = models.CharField(max_length=64, blank=True, default="")
    state = models.CharField(max_length=10, choices=State.choices, default=State.WAITING)
    asked_at = models.DateTimeField()
    # Waiting: when an unclaimed ask is looked at again. Running: when the holder is presumed dead.
    lease_until = models.DateTimeField()
    holder = models.CharField(max_length=100, blank=True, default="")
    attempts = models.PositiveSmallIntegerField(default=0)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    error = models.CharField(max_length=300, blank=True, default="")

    class Meta:
        indexes = [  # noqa: RUF012 (Django reads it once)
            models.Index(fields=["state", "kind"], name="game_job_open")
        ]

    def __str__(self) -> str:
        return f"{self.key} ({self.state})"

    @property
    def is_open(self) -> bool:
        return self.state in (Job.State.WAITING, Job.State.RUNNING)


class Beat(models.Model):
    """The last time something that must keep going said it was alive or done: each
    `manage.py work` (name `worker:HOST:PID`) and the last good backup (`backup`)."""

    name = models.CharField(max_length=120, primary_key=True)
    at = models.DateTimeField()
    detail = models.CharField(max_length=300, blank=True, default="")

    def __str__(self) -> str:
        return f"{self.name} at {self.at:%Y-%m-%d %H:%M:%S}"


OPEN = (Job.State.WAITING, Job.State.RUNNING)
QUEUE_REFUSED = "the task queue could not take it"
BACKUP_BEAT = "backup"


def _now() -> dt.datetime:
    return timezone.now()


def holder_name() -> str:
    return f"{socket.gethostname()}:{os.getpid()}:{threading.get_ident()}"


# ---------------------------------------------------------------- asking


@dataclass(frozen=True)
class Asked:
    """What became of an ask: "queued", "open" (already waiting or running), "done", "full" (the
    kind's cap is reached), "refused" (the queue could not take it)."""

    outcome: str
    job: Job | None = None


def cap(kind: str) -> int:
    return int(settings.QUEUE_CAPS.get(kind, 20))


def open_jobs(kind: str) -> int:
    return Job.objects.filter(kind=kind, state__in=OPEN).count()


def ask(
    kind: str,
    key: str,
    argument: str = "",
    *,
    asker: str = "",
    again: bool = False,
    priority: int | None = None,
) -> Asked:
    """Ask for job `key` of `kind`: made, or asked again when it failed, was finished and
    `again`, or lost its holder. An open job is left as it is; a full kind refuses. The wake-up
    goes on the queue with a priority that puts an asker's second open job after everyone's
    first."""
    now = _now()
    job = Job.objects.filter(key=key).first()
    if job is not None:
        if job.is_open and job.lease_until > now:
            return Asked("open", job)
        if job.state == Job.State.DONE and not again:
            return Asked("done", job)
    fields = {
        "kind": kind,
        "argument": argument,
        "asker": asker,
        "state": Job.State.WAITING,
        "asked_at": now,
        "lease_until": now + dt.timedelta(seconds=PICKUP_SECONDS),
        "holder": "",
        "attempts": 0,
        "error": "",
        "started_at": None,
        "finished_at": None,
    }
    capped = not (job is not None and job.is_open)  # a lapsed open job is already counted
    if job is None:
        try:
            made = _insert_under_cap(key, fields)
        except IntegrityError:  # another request made it meanwhile
            return Asked("open", Job.objects.filter(key=key).first())
        if not made:
            return _full(kind, key, None)
        job = Job.objects.get(key=key)
    else:
        # Only the row as it was read is changed: two askers at once make one ask.
        changed = Job.objects.filter(pk=job.pk, state=job.state, lease_until=job.lease_until)
        with transaction.atomic():
            if capped:
                _lock_kind(kind)
                changed = changed.alias(open_now=Coalesce(Subquery(_open_count(kind)), 0)).filter(
                    open_now__lt=cap(kind)
                )
            if not changed.update(**fields):
                now_job = Job.objects.filter(key=key).first()
                if capped and now_job is not None and not now_job.is_open:
                    return _full(kind, key, now_job)
                return Asked("open", now_job)
        job.refresh_from_db()
    ahead = Job.objects.filter(kind=kind, state__in=OPEN, asker=asker).exclude(pk=job.pk).count()
    if not wake(key, kind, behind=ahead if asker else 0, priority=priority):
        Job.objects.filter(pk=job.pk, state=Job.State.WAITING).update(
            state=Job.State.FAILED, error=QUEUE_REFUSED, finished_at=now
        )
        job.refresh_from_db()
        return Asked("refused", job)
    job.refresh_from_db()
    return Asked("queued", job)


def _full(kind: str, key: str, job: Job | None) -> Asked:
    logger.warning("the queue's %s jobs are at their cap (%s): %s not asked", kind, cap(kind), key)
    return Asked("full", job)


CAP_LOCK = 0x4C554349  # "LUCI": the first key of the advisory locks that serialise a kind's asks


def _lock_kind(kind: str) -> None:
    """On PostgreSQL, one transaction at a time counts a kind's open jobs and adds one: an
    advisory lock held to the end of the transaction. (Under READ COMMITTED two inserts that
    each count 19 would both see room; SQLite writes one transaction at a time already.)"""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s, hashtext(%s))", [CAP_LOCK, kind])


def _open_count(kind: str) -> models.QuerySet[Any, Any]:
    return (
        Job.objects.filter(kind=kind, state__in=OPEN)
        .order_by()
        .values("kind")
        .annotate(n=models.Count("pk"))
        .values("n")
    )


def _insert_under_cap(key: str, fields: dict[str, object]) -> bool:
    """Make job `key` only if its kind has fewer open jobs than its cap, in one statement
    (INSERT … SELECT … WHERE the count is under the cap): asks at the same moment never make
    more than the cap. False when the kind is full; IntegrityError when the key exists."""
    kind = str(fields["kind"])
    values = {"key": key, **fields}
    table = connection.ops.quote_name(Job._meta.db_table)
    fields_of = {field.name: field for field in Job._meta.concrete_fields}
    names = ", ".join(connection.ops.quote_name(str(fields_of[n].column)) for n in values)
    prepared = [
        fields_of[name].get_db_prep_save(value, connection) for name, value in values.items()
    ]
    marks = ", ".join(["%s"] * len(prepared))
    with transaction.atomic():
        _lock_kind(kind)
        with connection.cursor() as cursor:
            cursor.execute(
                f"INSERT INTO {table} ({names}) SELECT {marks} "
                f"WHERE (SELECT count(*) FROM {table} WHERE kind = %s AND state IN (%s, %s)) < %s",
                [*prepared, kind, Job.State.WAITING, Job.State.RUNNING, cap(kind)],
            )
            return bool(cursor.rowcount == 1)


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
            until = _now() + dt.timedelta(seconds=LEASE_SECONDS)
            if not lease.mine().update(lease_until=until):
                raise LeaseLost(lease.key)
        yield


# ---------------------------------------------------------------- holding


def claim(key: str, holder: str) -> Job | None:
    """Take job `key` for `holder` if no one else holds it: one conditional UPDATE, so of two
    workers woken for the same job one gets it. None when it is held, finished or gone; a job
    out of attempts is failed instead."""
    now = _now()
    free = Q(state=Job.State.WAITING) | Q(state=Job.State.RUNNING, lease_until__lt=now)
    # A restore's fence stands (game/ops/fence.py): no job starts until it is down.
    fenced = Beat.objects.filter(name=FENCE, at__gt=fence_fresh_since())
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
    until = _now() + dt.timedelta(seconds=LEASE_SECONDS)
    mine = Job.objects.filter(key=key, holder=holder, state=Job.State.RUNNING)
    return bool(mine.update(lease_until=until))


def finish(key: str, holder: str, *, error: str = "", generation: int | None = None) -> None:
    """The holder is done with job `key`: done, or on an error waiting for another try (failed
    once out of attempts). A holder whose lease was taken (another holder, or a later
    `generation` of the job under the same name) changes nothing."""
    now = _now()
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


# ---------------------------------------------------------------- the sweep and the beat


def sweep(pending: int | None) -> list[Job]:
    """What every worker's keeper does each SWEEP_SECONDS; the jobs it returns are to be woken.
    A running job whose holder stopped renewing its lease (killed, frozen) waits again and is
    woken at once (or is failed, out of tries); a waiting job unclaimed past its pickup is woken
    again when the queue holds fewer messages (`pending`) than there are waiting jobs (it lost
    some). Each change is a conditional UPDATE of one row, so several keepers never wake a job
    twice."""
    now = _now()
    lapsed = Job.objects.filter(state=Job.State.RUNNING, lease_until__lt=now)
    lapsed.filter(attempts__gte=MAX_ATTEMPTS).update(
        state=Job.State.FAILED,
        error=f"its worker stopped {MAX_ATTEMPTS} times before it could finish",
        finished_at=now,
    )
    woken = []
    again = now + dt.timedelta(seconds=PICKUP_SECONDS)
    for job in lapsed[:100]:
        taken_back = Job.objects.filter(pk=job.pk, state=Job.State.RUNNING, holder=job.holder,
                                        lease_until=job.lease_until)  # fmt: skip
        if taken_back.update(state=Job.State.WAITING, lease_until=again):
            logger.warning("job %s: its holder %s stopped; woken again", job.key, job.holder)
            woken.append(job)
    waiting = Job.objects.filter(state=Job.State.WAITING).count()
    if pending is not None and pending >= waiting:
        return woken
    for job in Job.objects.filter(state=Job.State.WAITING, lease_until__lt=now)[:100]:
        if Job.objects.filter(pk=job.pk, lease_until=job.lease_until).update(lease_until=again):
            woken.append(job)
    return woken


FENCE = "restore-fence"
"""The `Beat` row that stands in every claim's way while `manage.py restore` runs
(game/ops/fence.py)."""
FENCE_SECONDS = 3600
"""A fence older than this is a restore that died midway: ignored."""


def raise_fence(detail: str = "a restore is running") -> None:
    Beat.objects.update_or_create(name=FENCE, defaults={"at": _now(), "detail": detail})


def lower_fence() -> None:
    Beat.objects.filter(name=FENCE).delete()


def fence_fresh_since() -> dt.datetime:
    """A fence raised after this stands."""
    return _now() - dt.timedelta(seconds=FENCE_SECONDS)


def beat(name: str, detail: str = "") -> None:
    Beat.objects.update_or_create(name=name, defaults={"at": _now(), "detail": detail[:300]})


def last_worker_beat() -> dt.datetime | None:
    newest = Beat.objects.filter(name__startswith="worker:").order_by("-at").first()
    return newest.at if newest is not None else None


def workers_away() -> bool:
    """No `manage.py work` has beaten lately: whatever waits for a job waits for nothing."""
    last = last_worker_beat()
    return last is None or _now() - last > dt.timedelta(seconds=STALE_SECONDS)


def depth() -> dict[tuple[str, str], int]:
    """The open jobs, by kind and state."""
    rows = Job.objects.filter(state__in=OPEN).values("kind", "state").annotate(n=models.Count("pk"))
    return {(row["kind"], row["state"]): int(row["n"]) for row in rows}


def prune(now: dt.datetime) -> int:
    """Finished jobs past KEEP_FINISHED, and beats of workers gone a day."""
    gone, _ = Job.objects.filter(
        state__in=(Job.State.DONE, Job.State.FAILED), finished_at__lt=now - KEEP_FINISHED
    ).delete()
    Beat.objects.filter(name__startswith="worker:", at__lt=now - dt.timedelta(days=1)).delete()
    return gone


# ---------------------------------------------------------------- what an operator watches


def health() -> tuple[bool, list[str]]:
    """For /healthz (settings.HEALTH_CHECKS): whether the queue answers, and the lines that say
    where its workers and jobs stand (read from the database)."""
    ok = queue.reachable()
    try:
        lines = health_lines()
    except Exception:
        logger.exception("health check: cannot read the queue's leases")
        lines = []
    return ok, lines


def health_lines(now: dt.datetime | None = None) -> list[str]:
    """The queue's heartbeat and depth as /healthz writes them under its first line."""
    now = now or _now()
    last = last_worker_beat()
    if last is None:
        beat_line = "queue: no worker has beaten yet"
    else:
        age = (now - last).total_seconds()
        away = " (workers away)" if age > STALE_SECONDS else ""
        beat_line = f"queue: last worker heartbeat {age:.0f} s ago{away}"
    open_by_kind = depth()
    kinds = ", ".join(
        f"{kind} {open_by_kind.get((kind, Job.State.WAITING), 0)} waiting "
        f"{open_by_kind.get((kind, Job.State.RUNNING), 0)} running"
        for kind in Job.Kind.values
    )
    lines = [beat_line, f"queue: {kinds}"]
    backup = Beat.objects.filter(name=BACKUP_BEAT).first()
    if backup is not None:
        lines.append(f"backup: last good {(now - backup.at).total_seconds() / 3600:.1f} h ago")
    return lines


class QueueCollector:
    """The queue's figures for /metrics, read from the database at each scrape (every app
    server reports the same figures: alert on any one of them)."""

    def describe(self) -> list[object]:
        return []

    def collect(self) -> Iterator[object]:
        try:
            yield from self._figures()
        except Exception:  # a database away: /metrics still answers with the rest
            logger.exception("metrics: cannot read the queue's leases")

    def _figures(self) -> Iterator[object]:
        from prometheus_client.core import GaugeMetricFamily

        jobs = GaugeMetricFamily(
            "lucie_queue_jobs", "Jobs open on the task queue, by kind and state.",
            labels=["kind", "state"],
        )  # fmt: skip
        counted = depth()
        for kind in Job.Kind.values:
            for state in (Job.State.WAITING, Job.State.RUNNING):
                jobs.add_metric([kind, state], counted.get((kind, state), 0))
        yield jobs
        last = last_worker_beat()
        beat = GaugeMetricFamily(
            "lucie_queue_heartbeat_timestamp_seconds",
            "When a queue worker (manage.py work) last beat, as a Unix time; 0 if never.",
        )
        beat.add_metric([], last.timestamp() if last else 0)
        yield beat
        backup = Beat.objects.filter(name=BACKUP_BEAT).first()
        good = GaugeMetricFamily(
            "lucie_backup_last_good_timestamp_seconds",
            "When the last nightly backup was written and verified, as a Unix time; 0 if never.",
        )
        good.add_metric([], backup.at.timestamp() if backup else 0)
        yield good
