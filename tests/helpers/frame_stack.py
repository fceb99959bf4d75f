"""Each test runs at the start of a fresh chunk of Python's frame stack, as a request does in a
server's thread (tests/conftest.py's `pytest_pyfunc_call` calls it through `fresh_chunk`).

Python 3.11 keeps its frames' data in chunks of 16 kB and frees a chunk as soon as the stack
pops back below it, with no chunk kept for the next push (CPython issue gh-142183, fixed in
3.13 and 3.14 by keeping one). Code that keeps returning to the depth of a chunk's edge pays an
mmap and a munmap, and the page faults of a fresh chunk, on every call across it. A test runs
some sixty frames deep in pytest, and there the edge fell inside Django's template rendering:
30 renders of a deal's page cost 31,867 minor page faults against 1,928 on a fresh chunk, and
the tests of tests/web/play/ 9.9 s of CPU (1.8 s in the kernel) against 7.4 s (0.2 s). A
server's thread starts near a chunk's start, where the edge falls elsewhere: gunicorn's
workers show no such mmap calls (`strace -c -f -p PID` under wrk).

`fresh_chunk` calls through a frame too big for what is left of any chunk in use: Python then
starts a chunk of 32 kB for it, and what it calls runs in the 16 kB left after it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")

# A frame's size in slots of 8 bytes: locals plus its evaluation stack. Python 3.11 gives a
# frame that does not fit in its chunk a new chunk of 16 kB, doubled while smaller than the
# frame and 1,000 slots more (Python/pystate.c's push_chunk): 2,040 slots (16,320 bytes) fit
# no chunk of 16 kB, and take half of a new one of 32 kB.
SLOTS = 2040


def fresh_chunk(call: Callable[[], T]) -> T:
    """`call()`, run at the start of the free half of a new chunk of the frame stack."""
    return call()


# The slots are evaluation stack the function never uses: only the frame's size changes.
fresh_chunk.__code__ = fresh_chunk.__code__.replace(co_stacksize=SLOTS)
