"""What the lease keeper beside every `manage.py work` does each SWEEP_SECONDS (besides beating,
game/ops/watch.py): the sweep that gives a job back when its holder stopped renewing its lease,
and asks again for the jobs whose wake-ups the queue lost.

- A running job whose lease lapsed (its worker killed or frozen) waits again and is woken at
  once, or is failed once out of tries (leases.MAX_ATTEMPTS).
- A job asked for and not claimed within leases.PICKUP_SECONDS while the queue holds fewer
  messages than there are waiting jobs (a queue Redis restarted empty) is woken again.

Each change is a conditional UPDATE of one row, so several keepers never wake a job twice.
"""

from __future__ import annotations

import datetime as dt
import logging

from django.utils import timezone

from game.ops.jobs import Job
from game.ops.leases import LEASE_SECONDS, MAX_ATTEMPTS, PICKUP_SECONDS

logger = logging.getLogger(__name__)

SWEEP_SECONDS = LEASE_SECONDS / 4
"""How often each keeper sweeps (and beats): 5 s for the default lease."""
SWEPT_AT_MOST = 100
"""Rows looked at per sweep and per kind of change: a backlog is worked off over a few sweeps."""


def sweep(pending: int | None) -> list[Job]:
    """One sweep; the jobs it returns are to be woken. A waiting job past its pickup is woken
    again only when the queue holds fewer messages (`pending`) than there are waiting jobs (it
    lost some)."""
    now = timezone.now()
    again = now + dt.timedelta(seconds=PICKUP_SECONDS)
    woken = _take_back_lapsed(now, again)
    waiting = Job.objects.filter(state=Job.State.WAITING).count()
    if pending is not None and pending >= waiting:
        return woken
    return woken + _unclaimed(now, again)


def _take_back_lapsed(now: dt.datetime, again: dt.datetime) -> list[Job]:
    """The running jobs whose lease lapsed: failed when out of tries, else waiting again until
    `again`, each taken back only as it was read (its holder and lease unchanged meanwhile)."""
    lapsed = Job.objects.filter(state=Job.State.RUNNING, lease_until__lt=now)
    lapsed.filter(attempts__gte=MAX_ATTEMPTS).update(
        state=Job.State.FAILED,
        error=f"its worker stopped {MAX_ATTEMPTS} times before it could finish",
        finished_at=now,
    )
    woken = []
    for job in lapsed[:SWEPT_AT_MOST]:
        taken_back = Job.objects.filter(pk=job.pk, state=Job.State.RUNNING, holder=job.holder,
                                        lease_until=job.lease_until)  # fmt: skip
        if taken_back.update(state=Job.State.WAITING, lease_until=again):
            logger.warning("job %s: its holder %s stopped; woken again", job.key, job.holder)
            woken.append(job)
    return woken


def _unclaimed(now: dt.datetime, again: dt.datetime) -> list[Job]:
    """The waiting jobs past their pickup, each given until `again` (by one keeper only)."""
    woken = []
    for job in Job.objects.filter(state=Job.State.WAITING, lease_until__lt=now)[:SWEPT_AT_MOST]:
        if Job.objects.filter(pk=job.pk, lease_until=job.lease_until).update(lease_until=again):
            woken.append(job)
    return woken
