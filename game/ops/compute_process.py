"""What a compute process (game.ops.limits' pool) runs when it starts, before any search.

It imports nothing from Django and nothing of the site: the process is a fresh interpreter
("spawn") that needs only the engine, and this module.

A compute process must end when the worker that started it ends, however it ends. gunicorn stops
its workers politely (the pool is shut down at exit), but the kernel's out-of-memory killer, an
operator's `kill -9` or a crash give the worker no chance to: its compute processes, and the
multiprocessing resource tracker they keep alive, would run for good, each holding its memory.
So each compute process watches its parent: once it has gone (the process is handed to another
parent, `os.getppid()` changes), it exits at once, whatever it was searching. The watch is a
thread that wakes every `PARENT_POLL_SECONDS`; a search is plain Python, which lets it run.
"""

from __future__ import annotations

import contextlib
import os
import threading
import time

PARENT_POLL_SECONDS = 0.5


def start(niceness: int, parent: int) -> None:
    """The pool's initializer: import the engine, lower this process's priority, then watch
    `parent` (the worker's pid, passed from the worker, so that a parent gone before this line
    runs is noticed too).

    The engine is imported first, at the worker's own priority: some tenths of a second of CPU
    once, which in the idle class a loaded machine could stretch past any wait a request can
    afford (the first search would import it). A search then costs the idle class only itself."""
    import game.engine.solver  # noqa: F401 (the hint's and the solver's modules, and the engine)

    # Raising one's own niceness needs no privilege.
    os.nice(niceness)
    # And on Linux, the idle class: a search runs only on CPU no page request wants, so eight
    # clients asking hints cannot make the pages beside them wait their turn behind searches.
    with contextlib.suppress(AttributeError, OSError):
        os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
    watch = threading.Thread(target=_watch, args=(parent,), name="watch-parent", daemon=True)
    watch.start()


def _watch(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(PARENT_POLL_SECONDS)
    # No cleanup to wait for: a search holds nothing but memory.
    os._exit(0)
