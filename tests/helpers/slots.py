"""Compute slots held by a test, as by searches running in other threads (game/ops/searches.py)."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def every_slot_held(*pools: threading.Semaphore) -> Iterator[None]:
    """Every free slot of each pool taken for the block, and given back after."""
    taken: list[threading.Semaphore] = []
    for slots in pools:
        while slots.acquire(blocking=False):
            taken.append(slots)
    try:
        yield
    finally:
        for slots in taken:
            slots.release()
