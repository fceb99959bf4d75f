"""tests/helpers/order.py: the slow tests start early in each pytest-xdist worker's share."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from tests.helpers.order import slow_ones_spread


@dataclass(frozen=True)
class Case:
    name: str
    slow: bool = False

    def get_closest_marker(self, name: str) -> object | None:
        return "slow" if name == "slow" and self.slow else None


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
