"""Prometheus metrics: what the site is doing, for the operator, on `/metrics`.

Counted with the official client (prometheus-client). gunicorn runs several worker processes, so
when PROMETHEUS_MULTIPROC_DIR names a folder (gunicorn.conf.py sets one up) each process writes
its figures there and `/metrics` adds up every worker's; without it (runserver, tests) the one
process's own figures are served. Each app server is a scrape target of its own.

Only addresses in METRICS_ALLOW (default: loopback) get an answer; any other gets a 404, as if
there were nothing there. The address is the connection's (REMOTE_ADDR), never a header a client
could write: Prometheus scrapes each app server directly, not through the proxy in front.
"""

from __future__ import annotations

import ipaddress
import os
from collections.abc import Iterator
from contextlib import contextmanager
from time import perf_counter
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseNotFound
from django.utils.module_loading import import_string
from django.views.decorators.http import require_safe
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    CollectorRegistry,
    Counter,
    Histogram,
    generate_latest,
    multiprocess,
)

# Requests: every one, by the view that answered (a bounded set of names, never the raw path).
REQUESTS = Counter(
    "lucie_requests",
    "HTTP requests answered, by view, method and status code.",
    ["view", "method", "status"],
)
REQUEST_SECONDS = Histogram(
    "lucie_request_seconds",
    "Time from the request reaching Django to its answer, by view.",
    ["view"],
    buckets=(0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10),
)

# The game.
MOVES = Counter(
    "lucie_moves", "Moves logged (card moves, redeals, the merci; auto-moves included)."
)
UNDOS = Counter("lucie_undos", "Moves taken back by undo.")
GAMES_STARTED = Counter("lucie_games_started", "Games begun (their first move made).")
GAMES_FINISHED = Counter(
    "lucie_games_finished", "Games that ended, by how: won, lost or abandoned.", ["result"]
)
HINT_SECONDS = Histogram(
    "lucie_hint_seconds",
    "Time the engine spent on a hint (a hint answered from the cache is not counted here).",
    buckets=(0.001, 0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 1),
)
SOLVER_SECONDS = Histogram(
    "lucie_solver_seconds",
    "Time the solver spent on a 'Show a win' (answers from the cache are not counted here).",
    buckets=(0.01, 0.05, 0.1, 0.25, 0.5, 1, 1.5, 2, 3, 5),
)
SEARCHES_ABANDONED = Counter(
    "lucie_searches_abandoned",
    "Searches a request stopped waiting for: the compute process got no CPU in time (busy).",
)
CACHE_LOOKUPS = Counter(
    "lucie_cache_lookups",
    "Lookups in Django's cache by what was looked up (figures, hint, solver) and hit or miss.",
    ["cache", "result"],
)

# The cache failing (lucie/cache.py): each call Redis failed, and each call answered from the
# process's own memory instead (while Redis is remembered as down, without trying it).
CACHE_ERRORS = Counter(
    "lucie_cache_errors",
    "Calls to the shared cache (Redis) that failed, by operation (get, set, add, incr, probe...).",
    ["operation"],
)
CACHE_FALLBACKS = Counter(
    "lucie_cache_fallbacks",
    "Cache calls answered from this process's own memory because Redis failed or was down.",
    ["operation"],
)

# The task queue (game/ops/queue.py) refusing a job: Redis down, or the SQLite file locked or full.
QUEUE_ERRORS = Counter("lucie_queue_errors", "Jobs the task queue could not take.")


def cache_lookup(name: str, hit: bool) -> None:
    CACHE_LOOKUPS.labels(cache=name, result="hit" if hit else "miss").inc()


@contextmanager
def timed(histogram: Histogram) -> Iterator[None]:
    started = perf_counter()
    try:
        yield
    finally:
        histogram.observe(perf_counter() - started)


# ---------------------------------------------------------------- the endpoint


def allowed(address: str) -> bool:
    try:
        client = ipaddress.ip_address(address)
    except ValueError:
        return False
    return any(client in network for network in settings.METRICS_ALLOW)


def registry() -> CollectorRegistry:
    """Every worker's figures when several processes write them to a shared folder, and the
    figures read at each scrape (settings.METRICS_COLLECTORS, named by dotted path: the queue's
    depth and heartbeat, the last good backup)."""
    collected = CollectorRegistry()
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        multiprocess.MultiProcessCollector(collected)  # type: ignore[no-untyped-call]
    else:
        collected.register(_Own())
    for path in settings.METRICS_COLLECTORS:
        collected.register(import_string(path)())
    return collected


class _Own:
    """This process's own figures (runserver, tests), beside the collectors read at a scrape."""

    def collect(self) -> Iterator[Any]:
        yield from REGISTRY.collect()


@require_safe
def metrics(request: HttpRequest) -> HttpResponse:
    if not allowed(str(request.META.get("REMOTE_ADDR", ""))):
        return HttpResponseNotFound(b"Not Found", content_type="text/plain")
    return HttpResponse(generate_latest(registry()), content_type=CONTENT_TYPE_LATEST)
