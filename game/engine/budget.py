"""How long a search may run: a node budget, a deadline read on `clock`, or both, shared by a
search and its sub-searches, and the exceptions that stop a search when either runs out."""

from __future__ import annotations

import time
from dataclasses import dataclass


class BudgetExceeded(Exception):
    """The search went past its node budget or its deadline; `args[0]` is the budget."""

    @property
    def budget(self) -> Budget | None:
        return self.args[0] if self.args and isinstance(self.args[0], Budget) else None


class DeadlineReached(BudgetExceeded):
    """The search went past its deadline (as opposed to its node budget)."""


clock = time.perf_counter
"""What a deadline is read on: wall-clock time. A benchmark may set `time.thread_time` here to
measure the search by the CPU time it gets, whatever else the machine is running."""

DEADLINE_EVERY = 16
"""Nodes between two looks at the clock. A node with mercis to try costs up to ~150 us here, so
a search overshoots its deadline by a few milliseconds at most."""


@dataclass(slots=True)
class Budget:
    """Nodes counted across searches: past `max_nodes` it raises BudgetExceeded, past `deadline`
    (a reading of `clock`) DeadlineReached.

    >>> whole = Budget(max_nodes=10)
    >>> part = whole.share(1)
    >>> part.spend()
    >>> part.spend()  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    game.engine.budget.BudgetExceeded: Budget(max_nodes=1, ...)
    >>> whole.nodes
    1
    """

    max_nodes: int | None = None
    deadline: float | None = None
    nodes: int = 0
    expired: bool = False  # whether the deadline has been reached
    parent: Budget | None = None  # the budget this one was shared from

    @classmethod
    def within(cls, seconds: float | None, max_nodes: int | None = None) -> Budget:
        """A budget that ends `seconds` from now (None: no deadline)."""
        deadline = None if seconds is None else clock() + seconds
        return cls(max_nodes=max_nodes, deadline=deadline)

    def spend(self) -> None:
        """Count one node, here and in the budget this one was shared from."""
        self.nodes += 1
        if self.max_nodes is not None and self.nodes > self.max_nodes:
            raise BudgetExceeded(self)
        if self.parent is not None:
            self.parent.spend()
        elif self.deadline is not None and not self.nodes % DEADLINE_EVERY:
            self.check_deadline()

    def check_deadline(self) -> None:
        if self.deadline is not None and clock() > self.deadline:
            budget: Budget | None = self
            while budget is not None:
                budget.expired = True
                budget = budget.parent
            raise DeadlineReached(self)

    def share(self, max_nodes: int) -> Budget:
        """A node budget of its own for a sub-search, whose nodes count here too and which ends
        no later than this one."""
        return Budget(max_nodes=max_nodes, deadline=self.deadline, parent=self)
