"""What tells whether the task queue is served: the beats (each `manage.py work` beats every
keeper.SWEEP_SECONDS, and the last good backup leaves one), whether the workers are away (no beat
for STALE_SECONDS: a page that waits for a job says so), and the lines /healthz and the figures
/metrics show of the workers, the jobs open by kind and the last good backup.
"""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Iterator

from django.db import models
from django.utils import timezone

from game.ops import queue
from game.ops.jobs import OPEN, Beat, Job

logger = logging.getLogger(__name__)

STALE_SECONDS = 30
"""No worker has beaten for this long: pages that wait for a job say the site's workers are away."""
BACKUP_BEAT = "backup"


def beat(name: str, detail: str = "") -> None:
    at = timezone.now()
    Beat.objects.update_or_create(name=name, defaults={"at": at, "detail": detail[:300]})


def last_worker_beat() -> dt.datetime | None:
    newest = Beat.objects.filter(name__startswith="worker:").order_by("-at").first()
    return newest.at if newest is not None else None


def workers_away() -> bool:
    """No `manage.py work` has beaten lately: whatever waits for a job waits for nothing."""
    last = last_worker_beat()
    return last is None or timezone.now() - last > dt.timedelta(seconds=STALE_SECONDS)


def depth() -> dict[tuple[str, str], int]:
    """The open jobs, by kind and state."""
    rows = Job.objects.filter(state__in=OPEN).values("kind", "state").annotate(n=models.Count("pk"))
    return {(row["kind"], row["state"]): int(row["n"]) for row in rows}


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
    now = now or timezone.now()
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
