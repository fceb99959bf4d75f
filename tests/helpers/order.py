"""The order the tests run in: the slow ones first in each pytest-xdist worker's share, the
longest first, dealt so that the shares' slow seconds come out even (tests/conftest.py calls it
after pytest-randomly's shuffle; docs/testing.md)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, TypeVar

# What a test marked slow without `seconds=` is taken to last, alone on a quiet machine: about
# what the slow tests without a browser take (a server started, a lease lapsed).
SLOW_SECONDS = 10.0


class Marked(Protocol):
    def get_closest_marker(self, name: str) -> object | None: ...


Item = TypeVar("Item", bound=Marked)


def expected_seconds(item: Marked) -> float | None:
    """None for a quick test; for one marked slow, the seconds its mark gives
    (`pytest.mark.slow(seconds=80)`), or SLOW_SECONDS."""
    mark = item.get_closest_marker("slow")
    if mark is None:
        return None
    kwargs = getattr(mark, "kwargs", {})
    return float(kwargs.get("seconds", SLOW_SECONDS))


def xdist_sizes(count: int, workers: int) -> list[int]:
    """pytest-xdist's first split: each worker in turn takes the remaining tests over the
    remaining workers, as one contiguous share of the list."""
    sizes, left = [], count
    for worker in range(workers):
        size = left // (workers - worker)
        sizes.append(size)
        left -= size
    return sizes


def slow_ones_spread(items: Sequence[Item], workers: int) -> list[Item]:
    """The order pytest-randomly shuffled (it runs before this hook), with the tests marked slow
    (seconds of wall clock each: a server, a subprocess, a lease that must lapse, a whole game
    at a set latency) dealt out to the workers' shares and run first in each, longest first.

    pytest-xdist hands each worker an equal, contiguous share of this list, and a worker left
    without tests takes the second half of the longest queue left. A slow test that the shuffle
    put near the end of a share kept the run waiting on it alone, with a core idle, for up to
    twenty seconds; and when most tests are slow (CI's timed part: sixteen tests of 2 to 80 s on
    three workers), a share that drew the three longest ran a minute after the others had
    finished. So the slow tests are dealt longest first, each to the share with the fewest slow
    seconds so far that still has room, and each share runs its own longest first; its quick
    tests follow, the first half of them between its slow ones, so that their waits overlap
    the other workers' work and the run ends on quick tests the workers share out. Every worker
    computes the same order from the same shuffle, as pytest-xdist requires."""
    weights = {id(item): expected_seconds(item) for item in items}
    slow = [item for item in items if weights[id(item)] is not None]
    if not slow or workers < 1:
        return list(items)
    quick = [item for item in items if weights[id(item)] is None]
    sizes = xdist_sizes(len(items), workers)
    # Longest first; the shuffle's order among equals (sorted is stable).
    slow.sort(key=lambda item: -(weights[id(item)] or 0.0))
    dealt: list[list[Item]] = [[] for _ in range(workers)]
    loads = [0.0] * workers
    for item in slow:
        room = [worker for worker in range(workers) if len(dealt[worker]) < sizes[worker]]
        worker = min(room, key=lambda w: (loads[w], len(dealt[w]), w))
        dealt[worker].append(item)
        loads[worker] += weights[id(item)] or 0.0
    ordered: list[Item] = []
    for worker, theirs in enumerate(dealt):
        share = quick[: sizes[worker] - len(theirs)]
        del quick[: len(share)]
        # One slow test, then a run of quick ones, over the first half of the share.
        gap = max(0, len(share) // 2 // max(1, len(theirs)))
        for index, item in enumerate(theirs):
            ordered.append(item)
            ordered.extend(share[index * gap : (index + 1) * gap])
        ordered.extend(share[len(theirs) * gap :])
    ordered.extend(quick)
    return ordered
