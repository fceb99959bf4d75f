"""The order the tests run in: the slow ones early in each pytest-xdist worker's share
(tests/conftest.py calls it after pytest-randomly's shuffle; docs/testing.md)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, TypeVar


class Marked(Protocol):
    def get_closest_marker(self, name: str) -> object | None: ...


Item = TypeVar("Item", bound=Marked)


def slow_ones_spread(items: Sequence[Item], workers: int) -> list[Item]:
    """The order pytest-randomly shuffled (it runs before this hook), with the tests marked slow
    (seconds of wall clock each: a server, a subprocess, a lease that must lapse) moved into the
    first half of each worker's share, spread out there.

    pytest-xdist hands each worker an equal, contiguous share of this list, and a worker left
    without tests takes the second half of the longest queue left. A slow test that the shuffle
    put near the end of a share kept the run waiting on it alone, with a core idle, for up to
    twenty seconds. Early and spread out, a slow test's waits overlap the other workers' work,
    and the run ends on quick tests that the workers share out. Every worker computes the same
    order from the same shuffle, as pytest-xdist requires."""
    slow = [item for item in items if item.get_closest_marker("slow")]
    if not slow or workers < 1:
        return list(items)
    quick = [item for item in items if not item.get_closest_marker("slow")]
    ordered: list[Item] = []
    left = len(items)
    for worker in range(workers):
        # pytest-xdist's split: each worker in turn takes the remaining tests over the
        # remaining workers.
        size = left // (workers - worker)
        left -= size
        theirs = slow[worker::workers]
        share = quick[: size - len(theirs)]
        del quick[: len(share)]
        # One slow test, then a run of quick ones, over the first half of the share.
        gap = max(0, len(share) // 2 // max(1, len(theirs)))
        for index, item in enumerate(theirs):
            ordered.append(item)
            ordered.extend(share[index * gap : (index + 1) * gap])
        ordered.extend(share[len(theirs) * gap :])
    ordered.extend(quick)
    return ordered
