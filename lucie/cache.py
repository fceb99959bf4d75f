"""Django's Redis cache as an accelerator, never a dependency: a Redis that is down or frozen
costs a request at most one short timeout, and never a 500.

`ResilientRedisCache` is Django's own `RedisCache` with every call guarded. When Redis fails (a
refused connection, a socket timeout, an error reply such as out of memory or a read-only
replica), the failure is logged, counted in `/metrics` (`lucie_cache_errors_total`, by operation),
and the call is answered by a memory cache of this process's own instead, exactly the cache the
site uses without `CACHE_URL`. So while Redis is away:

- rate limits count in each process on its own (django-ratelimit's counters land in the memory
  cache), as they do without `CACHE_URL` (docs/scaling.md says what that allows);
- a hint or a verdict that is not in this process's memory is searched again;
- the daily figures are read from the database and kept in this process for their usual 30 s /
  5 min, dropped here when this process saves a game that changes them.

After a failure the process remembers for `DOWN_SECONDS` that Redis is away and goes straight to
its own memory, so a frozen Redis costs one request in a few seconds one socket timeout
(settings: about 100 ms), not every call of every request. `/healthz` probes Redis itself
(`probe`), whatever is remembered, so a load balancer is still told the cache is down, and a
probe that succeeds ends the outage at once.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any, TypeVar

from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.locmem import LocMemCache
from django.core.cache.backends.redis import RedisCache
from redis.exceptions import RedisError

from lucie import metrics

logger = logging.getLogger(__name__)

T = TypeVar("T")

DOWN_SECONDS = 5.0
"""How long a process answers from its own memory after Redis failed, before trying it again."""

FALLBACK_ENTRIES = 5000
"""The memory cache's bound while Redis is away (rate-limit counters, hints, verdicts, figures);
past it the least recently used third is dropped, as Django's LocMemCache does."""

# redis-py wraps socket errors in its own ConnectionError and TimeoutError; an OSError can still
# escape from a connection being set up.
CACHE_ERRORS = (RedisError, OSError)

PROBE_KEY = "healthz"

# Per process and shared by its threads (Django gives each thread its own cache object): when
# Redis last failed, by location.
_down_until: dict[str, float] = {}
_down_lock = threading.Lock()


class ResilientRedisCache(RedisCache):
    """Django's RedisCache that answers from this process's memory while Redis fails."""

    def __init__(self, server: str, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._location = server if isinstance(server, str) else ",".join(server)
        local = {key: value for key, value in params.items() if key != "OPTIONS"}
        local["OPTIONS"] = {"MAX_ENTRIES": FALLBACK_ENTRIES}
        # LocMemCache instances of one name share their memory, so every thread sees one.
        self._local = LocMemCache(f"lucie-fallback:{self._location}", local)

    # ------------------------------------------------------------ the outage

    def is_down(self) -> bool:
        return time.monotonic() < _down_until.get(self._location, 0.0)

    def _failed(self, operation: str, error: BaseException) -> None:
        metrics.CACHE_ERRORS.labels(operation=operation).inc()
        with _down_lock:
            was_down = self.is_down()
            _down_until[self._location] = time.monotonic() + DOWN_SECONDS
        if not was_down:
            logger.error(
                "cache: %s failed (%s: %s); answering from this process's memory for %.0f s",
                operation,
                type(error).__name__,
                error,
                DOWN_SECONDS,
            )

    def _recovered(self) -> None:
        with _down_lock:
            if _down_until.pop(self._location, None) is not None:
                logger.warning("cache: Redis answers again")

    def _guarded(self, operation: str, remote: Callable[[], T], local: Callable[[], T]) -> T:
        if self.is_down():
            metrics.CACHE_FALLBACKS.labels(operation=operation).inc()
            return local()
        try:
            return remote()
        except CACHE_ERRORS as error:
            self._failed(operation, error)
            metrics.CACHE_FALLBACKS.labels(operation=operation).inc()
            return local()

    def probe(self) -> bool:
        """Write a value to Redis itself and read it back (the health check): True when it
        kept it. Raises the client's error when Redis fails; a success ends a remembered outage."""
        try:
            super().set(PROBE_KEY, "ok", 30)
            kept = bool(super().get(PROBE_KEY) == "ok")
        except CACHE_ERRORS as error:
            self._failed("probe", error)
            raise
        self._recovered()
        return kept

    # ------------------------------------------------------------ Django's cache API

    def add(self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None) -> Any:
        return self._guarded(
            "add",
            lambda: super(ResilientRedisCache, self).add(key, value, timeout, version),
            lambda: self._local.add(key, value, timeout, version),
        )

    def get(self, key: Any, default: Any = None, version: Any = None) -> Any:
        return self._guarded(
            "get",
            lambda: super(ResilientRedisCache, self).get(key, default, version),
            lambda: self._local.get(key, default, version),
        )

    def set(self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None) -> Any:
        return self._guarded(
            "set",
            lambda: super(ResilientRedisCache, self).set(key, value, timeout, version),
            lambda: self._local.set(key, value, timeout, version),
        )

    def touch(self, key: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None) -> Any:
        return self._guarded(
            "touch",
            lambda: super(ResilientRedisCache, self).touch(key, timeout, version),
            lambda: self._local.touch(key, timeout, version),
        )

    def delete(self, key: Any, version: Any = None) -> Any:
        return self._guarded(
            "delete",
            lambda: super(ResilientRedisCache, self).delete(key, version),
            lambda: self._local.delete(key, version),
        )

    def get_many(self, keys: Any, version: Any = None) -> Any:
        return self._guarded(
            "get_many",
            lambda: super(ResilientRedisCache, self).get_many(keys, version),
            lambda: self._local.get_many(keys, version),
        )

    def has_key(self, key: Any, version: Any = None) -> Any:
        return self._guarded(
            "has_key",
            lambda: super(ResilientRedisCache, self).has_key(key, version),
            lambda: self._local.has_key(key, version),
        )

    def incr(self, key: Any, delta: int = 1, version: Any = None) -> Any:
        # A missing key is the caller's ValueError from either cache, not an outage.
        return self._guarded(
            "incr",
            lambda: super(ResilientRedisCache, self).incr(key, delta, version),
            lambda: self._local.incr(key, delta, version),
        )

    def set_many(self, data: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None) -> Any:
        return self._guarded(
            "set_many",
            lambda: super(ResilientRedisCache, self).set_many(data, timeout, version),
            lambda: self._local.set_many(data, timeout, version),
        )

    def delete_many(self, keys: Any, version: Any = None) -> Any:
        return self._guarded(
            "delete_many",
            lambda: super(ResilientRedisCache, self).delete_many(keys, version),
            lambda: self._local.delete_many(keys, version),
        )

    def clear(self) -> Any:
        """Empty this process's memory and Redis. Redis is asked even while an outage is
        remembered: a clear that skipped it left its entries (a rate limit's counts) to be read
        once it answered again. Redis answering ends the outage, as the health probe does."""
        self._local.clear()
        try:
            cleared = super().clear()
        except CACHE_ERRORS as error:
            self._failed("clear", error)
            metrics.CACHE_FALLBACKS.labels(operation="clear").inc()
            return True
        self._recovered()
        return cleared
