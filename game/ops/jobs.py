"""The task queue's rows in the site's database: a `Job` (one piece of work, its state and the
lease of whoever holds it) and a `Beat` (the last time something that must keep going said it
was alive or done), and how long finished rows are kept.

Every app server and worker shares these rows; what is done with them lives beside: asking for a
job (game/ops/asking.py), holding it under a lease (game/ops/leases.py), the keeper's sweep of
lapsed leases (game/ops/keeper.py), the restore's fence (game/ops/fence.py) and what an operator
watches (game/ops/watch.py).
"""

from __future__ import annotations

import datetime as dt

from django.db import models

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


def prune(now: dt.datetime) -> int:
    """Finished jobs past KEEP_FINISHED, and beats of workers gone a day."""
    gone, _ = Job.objects.filter(
        state__in=(Job.State.DONE, Job.State.FAILED), finished_at__lt=now - KEEP_FINISHED
    ).delete()
    Beat.objects.filter(name__startswith="worker:", at__lt=now - dt.timedelta(days=1)).delete()
    return gone
