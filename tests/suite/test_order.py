"""tests/helpers/order.py: the slow tests start early in each pytest-xdist worker's share, the
longest first, with the shares' slow seconds even."""

from __future__ import annotations

from dataclasses import dataclass, field
from types import SimpleNamespace

import pytest

from tests.helpers.order import slow_ones_spread


@dataclass(frozen=True)
class Case:
    name: str
    slow: bool = False
    seconds: float | None = field(default=None, compare=False)

    def get_closest_marker(self, name: str) -> object | None:
        if name != "slow" or not self.slow:
            return None
        return SimpleNamespace(kwargs={} if self.seconds is None else {"seconds": self.seconds})


def shares(items: list[Case], workers: int) -> list[list[Case]]:
    """What pytest-xdist's work-stealing scheduler first hands each worker, in turn."""
    left, taken = list(items), []
    for worker in range(workers):
        size = len(left) // (workers - worker)
        taken.append(left[:size])
        del left[:size]
    return taken


@pytest.mark.parametrize(("count", "slow_every", "workers"), [(100, 9, 3), (31, 4, 2), (7, 2, 3)])
def test_each_share_starts_its_slow_tests_in_its_first_half(
    count: int, slow_every: int, workers: int
) -> None:
    items = [Case(f"t{n}", slow=n % slow_every == slow_every - 1) for n in range(count)]

    ordered = slow_ones_spread(items, workers)

    assert sorted(ordered, key=items.index) == items
    slow_count = sum(item.slow for item in items)
    for share in shares(ordered, workers):
        slow_at = [index for index, item in enumerate(share) if item.slow]
        assert len(slow_at) in {slow_count // workers, slow_count // workers + 1}
        assert all(index <= len(share) // 2 for index in slow_at)
    # The shuffle's order is kept among the quick tests (the slow ones are dealt out in turn).
    assert [item for item in ordered if not item.slow] == [i for i in items if not i.slow]


def test_without_slow_tests_the_order_is_the_shuffles() -> None:
    items = [Case(f"t{n}") for n in range(10)]
    assert slow_ones_spread(items, 3) == items


def test_the_longest_are_dealt_first_and_the_shares_come_out_even() -> None:
    """CI's timed part as it stood on 7 December 2026: sixteen tests, all slow, on three
    workers. Dealt in the shuffle's order they could leave one worker the three longest."""
    seconds = [82, 72, 65, 62, 53, 52, 49, 48, 41, 17, 12, 12, 3.5, 3.3, 2.1, 10]
    items = [Case(f"t{n}", slow=True, seconds=s) for n, s in enumerate(reversed(seconds))]

    ordered = slow_ones_spread(items, 3)

    assert sorted(ordered, key=items.index) == items
    loads = []
    for share in shares(ordered, 3):
        got = [item.seconds or 0.0 for item in share]
        assert got == sorted(got, reverse=True)
        loads.append(sum(got))
    # Longest first, each to the least loaded share: within the longest test of each other.
    assert max(loads) - min(loads) <= max(seconds)
    assert max(loads) <= sum(seconds) / 3 + 20


def test_a_slow_mark_without_seconds_counts_as_ten() -> None:
    items = [Case("a", slow=True), Case("b", slow=True, seconds=30), Case("c"), Case("d")]
    ordered = slow_ones_spread(items, 2)
    assert [item.name for item in ordered] == ["b", "c", "a", "d"]
