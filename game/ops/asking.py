"""Asking for a job: its row made, or made waiting again, under its kind's cap, and its
wake-up put on the queue with a priority fair between askers.

- Each kind of job has a cap on the jobs open at once (settings.QUEUE_CAPS); an ask that would
  pass it is refused ("full"), counted and written in one statement, so asks at the same moment
  never pass the cap.
- An asker (a session, a network) who already has jobs open gets a lower priority for the next,
  so everyone's first is taken first.
- A queue that cannot take the wake-up fails the job at once, with QUEUE_REFUSED as its error,
  and the page says so.

The job's row is game/ops/jobs.py; the wake-up and what a worker does with it, game/ops/leases.py.
"""

from __future__ import annotations

import datetime as dt
import logging
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db import IntegrityError, connection, models, transaction
from django.db.models import Subquery
from django.db.models.functions import Coalesce
from django.utils import timezone

from game.ops import leases
from game.ops.jobs import OPEN, Job

logger = logging.getLogger(__name__)

QUEUE_REFUSED = "the task queue could not take it"


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
    now = timezone.now()
    job = Job.objects.filter(key=key).first()
    if job is not None:
        if job.is_open and job.lease_until > now:
            return Asked("open", job)
        if job.state == Job.State.DONE and not again:
            return Asked("done", job)
    fields = _waiting_fields(kind, argument, asker, now)
    asked = _make(kind, key, fields) if job is None else _ask_again(job, kind, key, fields)
    if isinstance(asked, Asked):
        return asked
    return _wake_asked(asked, kind, key, asker, priority, now)


def _waiting_fields(kind: str, argument: str, asker: str, now: dt.datetime) -> dict[str, object]:
    """A job's row as a fresh ask leaves it: waiting, untried, to be picked up within
    PICKUP_SECONDS."""
    return {
        "kind": kind,
        "argument": argument,
        "asker": asker,
        "state": Job.State.WAITING,
        "asked_at": now,
        "lease_until": now + dt.timedelta(seconds=leases.PICKUP_SECONDS),
        "holder": "",
        "attempts": 0,
        "error": "",
        "started_at": None,
        "finished_at": None,
    }


def _make(kind: str, key: str, fields: dict[str, object]) -> Job | Asked:
    """A new job `key`, made under its kind's cap: the job to wake, or what became of the ask
    when there is none to wake (another request made it meanwhile, or the kind is full)."""
    try:
        made = _insert_under_cap(key, fields)
    except IntegrityError:  # another request made it meanwhile
        return Asked("open", Job.objects.filter(key=key).first())
    if not made:
        return _full(kind, key, None)
    return Job.objects.get(key=key)


def _ask_again(job: Job, kind: str, key: str, fields: dict[str, object]) -> Job | Asked:
    """Job `job`, read as finished, failed or with a lapsed lease, made waiting again: the job
    to wake, or what became of the ask when there is none to wake. Only the row as it was read
    is changed, so two askers at once make one ask; a job that was not open counts against its
    kind's cap (a lapsed open job is already counted)."""
    capped = not job.is_open
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
    return job


def _wake_asked(
    job: Job, kind: str, key: str, asker: str, priority: int | None, now: dt.datetime
) -> Asked:
    """Put the asked job's wake-up on the queue, behind the asker's other open jobs: "queued",
    or "refused" (and the job failed, with why) when the queue cannot take it."""
    ahead = Job.objects.filter(kind=kind, state__in=OPEN, asker=asker).exclude(pk=job.pk).count()
    if not leases.wake(key, kind, behind=ahead if asker else 0, priority=priority):
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
