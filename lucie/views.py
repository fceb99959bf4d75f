"""Views of the site itself rather than of the game: the health probe and a bare view."""

from __future__ import annotations

import logging
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass

from django.conf import settings
from django.contrib.sessions.models import Session
from django.core.cache import cache
from django.db import DatabaseError, transaction
from django.http import HttpRequest, HttpResponse
from django.utils import timezone
from django.utils.module_loading import import_string
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

logger = logging.getLogger(__name__)

HEALTH_KEY = "healthz"
# The health check's write: a session row under a key no session has, deleted as it is made.
HEALTH_SESSION_PREFIX = "healthz"

HEALTH_REUSE_SECONDS = 1.0
"""How long a worker process reuses its last health answer: a flood of probes (anyone may send
them) costs each process one query and one cache round trip a second, however many arrive."""


@dataclass
class _LastCheck:
    at: float = float("-inf")
    failed: tuple[str, ...] = ()
    lines: tuple[str, ...] = ()


# Per process on purpose: it is this process's own connections whose health is reported.
_last_check = _LastCheck()


def _failed_checks() -> tuple[str, ...]:
    now = time.monotonic()
    last = _last_check
    if now - last.at >= HEALTH_REUSE_SECONDS:
        checks = (("database", _database), ("cache", _cache))
        failed = [name for name, check in checks if not check()]
        lines: list[str] = []
        # The app's own checks, named by dotted path (lucie imports nothing from game): each
        # says whether it is well, and lines for the body.
        for name, path in settings.HEALTH_CHECKS.items():
            check: Callable[[], tuple[bool, list[str]]] = import_string(path)
            try:
                ok, said = check()
            except Exception:
                logger.exception("health check %s failed", name)
                ok, said = False, []
            if not ok:
                failed.append(name)
            lines.extend(said)
        last.failed, last.lines = tuple(failed), tuple(lines)
        last.at = now
    return last.failed


@require_safe
@never_cache
def healthz(request: HttpRequest) -> HttpResponse:
    """200 `ok` while the database takes a write and the cache and the task queue answer; 503
    naming the one that does not. The lines below say where the queue's workers and jobs stand
    and when the last good backup was made (settings.HEALTH_CHECKS).

    Touches no session (the database check's row is deleted in its own transaction). The cache
    is written and read back, since a Redis that refuses writes (out of memory, a read-only
    replica) fails the site as surely as one that is down. The answer is reused for
    HEALTH_REUSE_SECONDS."""
    failed = _failed_checks()
    below = "".join(f"\n{line}" for line in _last_check.lines)
    if failed:
        text = "".join(f"{name} unavailable\n" for name in failed)
        return HttpResponse(text + below.lstrip("\n"), status=503, content_type="text/plain")
    return HttpResponse("ok" + below, content_type="text/plain")


def _database() -> bool:
    """The database answers and takes a write: a server on a full disk or a read-only database
    answers every read and fails every move, so a SELECT alone would keep it in rotation.

    The write is a session row under a key no session has, inserted and deleted in one committed
    transaction: it leaves nothing behind, and it must reach the disk as a move's does. A
    transaction rolled back would not do: SQLite in WAL mode (lucie/db.py) writes nothing to
    disk until a commit, so a full disk let a rolled-back insert pass while every move failed.
    On SQLite it waits for the write lock like any move; once a second per process at most."""
    key = HEALTH_SESSION_PREFIX + secrets.token_hex(12)
    try:
        with transaction.atomic():
            Session.objects.create(session_key=key, session_data="", expire_date=timezone.now())
            Session.objects.filter(session_key=key).delete()
    except DatabaseError:
        logger.exception("health check: the database refused a write")
        return False
    return True


def _cache() -> bool:
    # Any cache backend's own error (redis-py's ConnectionError, TimeoutError, ...) means down.
    # The Redis cache answers from memory while Redis fails (lucie/cache.py): ask Redis itself.
    probe = getattr(cache, "probe", None)
    try:
        if probe is not None:
            answered = bool(probe())
        else:
            cache.set(HEALTH_KEY, "ok", 30)
            answered = cache.get(HEALTH_KEY) is not None
    except Exception:
        logger.exception("health check: cache unreachable")
        return False
    if not answered:
        logger.error("health check: the cache kept nothing")
    return answered


@require_safe
def ping(request: HttpRequest) -> HttpResponse:
    """A few bytes through the whole middleware stack, touching neither database nor session.

    bench/load.py measures a move request against this: whatever a move costs beyond it is the
    game's own work (lock, replay, save, render).
    """
    return HttpResponse(b"pong", content_type="text/plain")
