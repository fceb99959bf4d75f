"""What `manage.py restore` does around the copy so that nothing stale outlives it: a fence that
keeps the queue's workers and its scheduler from taking work while the database is replaced, and
the caches' keys forgotten, so that no session or figure of the database as it was answers for
the database as restored.

- The fence is a `Beat` row named FENCE (the table every worker already reads), raised and
  lowered by raise_fence and lower_fence: a worker's claim (game/ops/leases.py) is one
  conditional UPDATE that also asks that no fresh fence exists, so a job is not started while it
  stands. A fence older than FENCE_SECONDS is ignored: a restore killed midway does not stop the
  workers for good. The copy replaces the table with the backup's, so the restore puts the
  fence up again right after it, forgets the caches, and only then takes it down.
- The caches: every key under the site's prefix in each configured cache that is shared (Redis:
  the sessions and the default cache) is deleted, never the whole Redis database (the queue or
  another site may share it). A cache in a process's own memory goes with the stopped process.
  The site's own Redis client gives up after 100 ms, so that a request never waits on the cache
  (lucie/settings.py); the restore, an operator's command, waits up to PATIENT_SECONDS for each
  answer instead: a busy Redis made a restore say the cache could not be emptied.
"""

from __future__ import annotations

import datetime as dt
import logging

import redis
from django.conf import settings
from django.core.cache import caches
from django.utils import timezone

from game.ops.jobs import Beat

logger = logging.getLogger(__name__)

FENCE = "restore-fence"
"""The `Beat` row that stands in every claim's way while `manage.py restore` runs."""
FENCE_SECONDS = 3600
"""A fence older than this is a restore that died midway: ignored."""
PATIENT_SECONDS = 5.0
"""How long the restore waits for each of Redis's answers when it forgets the caches' keys."""


def raise_fence(detail: str = "a restore is running") -> None:
    Beat.objects.update_or_create(name=FENCE, defaults={"at": timezone.now(), "detail": detail})


def lower_fence() -> None:
    Beat.objects.filter(name=FENCE).delete()


def fence_fresh_since() -> dt.datetime:
    """A fence raised after this stands."""
    return timezone.now() - dt.timedelta(seconds=FENCE_SECONDS)


def forget_caches() -> int:
    """Delete every key of this site in each shared cache; how many were deleted."""
    forgotten = 0
    seen: set[tuple[str, str]] = set()
    for alias, config in settings.CACHES.items():
        backend = str(config.get("BACKEND", ""))
        if "Redis" not in backend:
            continue
        cache = caches[alias]
        where = (str(config.get("LOCATION")), str(config.get("KEY_PREFIX", "")))
        if where in seen:
            continue
        seen.add(where)
        forgotten += _forget_redis(cache, where[1])
    return forgotten


def _forget_redis(cache: object, prefix: str) -> int:
    # A pool made as Django's own client makes its write pool (the first server named, the
    # cache's OPTIONS: a password or a parser there stays), with the restore's patience.
    site = cache._cache  # type: ignore[attr-defined]
    patient = {"socket_timeout": PATIENT_SECONDS, "socket_connect_timeout": PATIENT_SECONDS}
    pool = site._pool_class.from_url(site._servers[0], **{**site._pool_options, **patient})
    client = redis.Redis(connection_pool=pool)
    pattern = f"{prefix}:*" if prefix else "*"
    forgotten = 0
    batch: list[bytes] = []
    try:
        for key in client.scan_iter(match=pattern, count=1000):
            batch.append(key)
            if len(batch) >= 1000:
                forgotten += int(client.delete(*batch))
                batch = []
        if batch:
            forgotten += int(client.delete(*batch))
    finally:
        client.close()
        pool.disconnect()
    return forgotten
