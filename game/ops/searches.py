"""Where the engine's searches run, and how long a request waits for one.

- Slots: at most `COMPUTE_SLOTS` solver searches, and as many hints in slots of their own, run at
  once in a process. A request that finds the solver's slots taken is told at once that the site
  is busy (limits.Busy: a 503 with `Retry-After`), instead of waiting in a queue that could grow
  without end while the threads that serve pages sit in it; a hint waits up to
  HINT_WAIT_SECONDS, which the worker's few threads bound. Reviews and each day's difficulty take
  no slot: they run on the task queue's workers (game/ops/schedule.py).
- Processes: the searches run in compute processes of the worker's own, at a lower priority
  (`search`): a search in one of the worker's threads would hold the interpreter lock against
  the thread serving a page beside it. A request waits for its search a bounded time
  (SEARCH_GRACE_SECONDS, BOARD_HINT_GRACE_SECONDS beyond the search's deadline) and is answered
  Busy after: on a saturated machine a search in the idle class may get no CPU for as long as
  the load lasts.
"""

from __future__ import annotations

import atexit
import concurrent.futures
import logging
import math
import multiprocessing
import os
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from typing import Any, TypeVar

from django.conf import settings

from game.ops import compute_process
from game.ops.limits import Busy
from lucie import metrics

logger = logging.getLogger(__name__)

T = TypeVar("T")


# ---------------------------------------------------------------- compute slots

_slots = threading.BoundedSemaphore(settings.COMPUTE_SLOTS)
# Hints have slots of their own: a hint (under 100 ms of CPU) never waits behind a Show a win or
# a review's try, which may search for seconds. (Reviews and each day's difficulty run on the
# queue's workers and take no slot here at all: game/ops/schedule.py.)
_hint_slots = threading.BoundedSemaphore(settings.COMPUTE_SLOTS)

HINT_WAIT_SECONDS = 2.0
"""How long a hint may wait for a hint slot before the site says it is busy. The wait is bounded
by the threads of a worker (gunicorn's `threads`), so no queue grows: at most that many hints
wait, each for a search far shorter than this."""


@contextmanager
def computing(*, hint: bool = False, wait: bool = True) -> Iterator[None]:
    """Hold a compute slot while searching; raise Busy at once when none is free. `hint`: a
    hint's slot, waited for up to HINT_WAIT_SECONDS (not at all when `wait` is false)."""
    slots = _hint_slots if hint else _slots
    if hint and wait:
        taken = slots.acquire(timeout=HINT_WAIT_SECONDS)
    else:
        taken = slots.acquire(blocking=False)
    if not taken:
        raise Busy()
    try:
        yield
    finally:
        slots.release()


# ---------------------------------------------------------------- compute processes


class _Computer:
    """Where the searches run: a small pool of processes of this worker's own (one per slot,
    started on first use, niced). A search in a thread of the worker would hold its interpreter
    lock and stall the thread serving pages beside it; in a process of its own it holds nothing
    of the worker's, and its lower priority lets page requests go first where workers outnumber
    cores. The engine is plain Python with no Django, so a position and the search function
    travel to it by pickling, and a fresh interpreter ("spawn") imports only the engine, not a
    copy of the worker with its database connections. `LUCIE_COMPUTE_PROCESSES=0` runs the
    searches in the request's own thread instead (the tests do, to watch the engine's calls)."""

    def __init__(self) -> None:
        self._pool: concurrent.futures.ProcessPoolExecutor | None = None
        self._lock = threading.Lock()

    def _executor(self) -> concurrent.futures.ProcessPoolExecutor:
        with self._lock:
            if self._pool is None:
                self._pool = concurrent.futures.ProcessPoolExecutor(
                    # One process per slot: the hints' and the other searches'.
                    max_workers=2 * settings.COMPUTE_SLOTS,
                    mp_context=multiprocessing.get_context("spawn"),
                    # Niced, and ending as soon as this worker ends, however it ends (a
                    # SIGKILLed worker left them running for good).
                    initializer=compute_process.start,
                    initargs=(settings.COMPUTE_NICENESS, os.getpid()),
                )
                atexit.register(self._pool.shutdown, wait=False, cancel_futures=True)
            return self._pool

    def start(self) -> None:
        """Start one process of the pool now, without waiting for it: the one the first search
        takes (a pool starts a process for a search that finds none idle, so the second starts
        only when two searches run at once, which a board's hint never waits for)."""
        self._executor().submit(os.getpid)

    def run(
        self,
        function: Callable[..., T],
        *args: Any,
        within: float,
        keep: Callable[[T], None] | None = None,
        **kwargs: Any,
    ) -> T:
        """`function(*args, **kwargs)` in a compute process, waited for `within` seconds; `keep`
        is given the answer of a search that ends after the request stopped waiting."""
        if not settings.COMPUTE_PROCESSES:
            return function(*args, **kwargs)
        try:
            future = self._executor().submit(function, *args, **kwargs)
            return future.result(timeout=within)
        except concurrent.futures.TimeoutError:
            # The process got no CPU in time: the machine is saturated, and a search in the
            # idle class runs only on CPU nothing else wants. The request is told the site is
            # busy (a board goes on without its hint) rather than held for as long as the load
            # lasts. A search the pool has not yet handed to a process is dropped; one already
            # handed over goes on, and its answer is given to `keep` when it ends, so that the
            # request that asks again (the next board, a press of Hint) finds it.
            if not future.cancel() and keep is not None:
                future.add_done_callback(_keeping(keep))
            metrics.SEARCHES_ABANDONED.inc()
            unsaid = _abandoned_lines.due()
            if unsaid is not None:
                logger.warning(
                    "a search waited %.2f s for its compute process: the request went on "
                    "without it (this process's count since its last such line: %d)",
                    within,
                    unsaid,
                )
            raise Busy() from None
        except BrokenProcessPool:
            # The process died (killed, out of memory): the next search starts another, and
            # this request is told to try again.
            with self._lock:
                self._pool = None
            raise Busy() from None


class Sparse:
    """A line logged at most once every `seconds` for an event that may repeat with every
    request (a board going without its hint on a saturated machine): the first at once, then
    the next once `seconds` have passed, saying how many events it stands for. The metric beside
    it counts each one; the log stays readable and bounded whatever the load."""

    def __init__(self, seconds: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.seconds = seconds
        self.clock = clock
        self._lock = threading.Lock()
        self._next_line = -math.inf
        self._unsaid = 0

    def due(self) -> int | None:
        """Count one event; the events to say when a line is due now, else None."""
        with self._lock:
            self._unsaid += 1
            now = self.clock()
            if now < self._next_line:
                return None
            unsaid, self._unsaid, self._next_line = self._unsaid, 0, now + self.seconds
            return unsaid


ABANDONED_LINE_SECONDS = 60.0
_abandoned_lines = Sparse(ABANDONED_LINE_SECONDS)


def _keeping(keep: Callable[[T], None]) -> Callable[[concurrent.futures.Future[T]], None]:
    """A done-callback that hands a late search's answer to `keep`. It runs in the pool's own
    thread, where nothing may escape: a search that failed, or a `keep` that fails (the cache
    down), is logged and dropped."""

    def done(future: concurrent.futures.Future[T]) -> None:
        try:
            keep(future.result())
        except Exception:
            logger.warning("a late search's answer was not kept", exc_info=True)

    return done


_computer = _Computer()


def start_computing() -> None:
    """Start this process's first compute process (gunicorn.conf.py, as each worker starts), so
    that no request waits for one to start: a fresh interpreter importing the engine takes a few
    tenths of a second of CPU, which the board of the first request would wait for, or go
    without its hint on a loaded machine. Nothing without compute processes."""
    if settings.COMPUTE_PROCESSES:
        _computer.start()


SEARCH_GRACE_SECONDS = 30.0
"""How much longer than a search's own time limit a request waits for its compute process before
it answers busy: a player who pressed Hint or Show a win waits for it, but a thread of the worker
is never held for as long as a machine's load lasts (in the idle class, a search gets only the
CPU nothing else wants)."""

BOARD_HINT_GRACE_SECONDS = 0.25
"""The same for the hint a board carries (game/board/hints.py's `ready`): the board is what the
player asked for, and a move's answer should not wait on CPU nothing else leaves free, so it
waits a quarter of a second beyond the hint's 60 ms deadline (a search that has had no CPU by
then is on a saturated machine) and goes without its hint after: a press of Hint asks again, and
finds the hint kept if the search has ended meanwhile."""


def search(
    function: Callable[..., T],
    *args: Any,
    seconds: float,
    keep: Callable[[T], None] | None = None,
    **kwargs: Any,
) -> T:
    """Run `function(*args, **kwargs)` (an engine search, with arguments that pickle) in a
    compute process and return its answer. Call it while holding a slot (`computing`).
    `seconds`: the longest the request waits for the answer (the search's own deadline and a
    grace for its process to get CPU); Busy after. `keep`: what to do with the answer of a search
    that was under way when the request stopped waiting, once it ends (keep it in the cache)."""
    return _computer.run(function, *args, within=seconds, keep=keep, **kwargs)
