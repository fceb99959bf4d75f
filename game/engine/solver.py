"""The solver behind "Show a win": it foresees the redeals and searches the whole game.

Every redeal is fixed by the deal's shuffle seed and by which cards are still out, so a deal ends,
as far as the future is concerned, in nothing but its foundations. The solver lists the sets of
foundations each deal can reach (most cards home first), computes the real redeal for each, and
searches on; the last deal is searched exactly, mercis included. A table of (foundations, redeals
used) already shown lost keeps it from searching the same next deal twice.

Foundation moves are always played at once. Inside a deal that costs nothing, so in the last deal
"lost" is a proof. Before a redeal a player could in principle hold a card back to change which
cards are shuffled; the solver does not try such lines, so there "lost" means lost whenever cards
go home as they come up.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Literal

from . import deal as deals
from .cards import DECK
from .moves import REDEAL, Move
from .position import Position
from .search import Budget, BudgetExceeded, DealSearch, cards_home, unpack_foundations

Status = Literal["won", "lost", "undecided"]

UNLIMITED_DEPTH = 12
"""With unlimited redeals the game has no end: look this many redeals ahead, and never say lost."""


@dataclass(frozen=True, slots=True)
class Solution:
    """What the solver found: `moves` (from the position it was given) when `status` is won."""

    status: Status
    moves: tuple[Move, ...] = ()
    nodes: int = 0
    seconds: float = 0.0

    @property
    def won(self) -> bool:
        return self.status == "won"


@dataclass(slots=True)
class _Solver:
    position: Position
    budget: Budget
    lost: set[tuple[int, int]] = field(default_factory=set)
    cut_short: bool = False  # a depth limit hid part of the tree, so "lost" is not proven

    def solve(self) -> list[Move] | None:
        start = self.position
        fans = [[card.index for card in fan] for fan in start.fans]
        return self._deal(fans, start.foundations, start.redeals_used)

    def _deal(
        self, fans: list[list[int]], foundations: tuple[int, ...], redeals_used: int
    ) -> list[Move] | None:
        rules = self.position.rules
        left = None if rules.redeals is None else rules.redeals - redeals_used
        mercis = self.position.mercis_left if left == 0 else 0
        search = DealSearch(
            fans, foundations, mercis, rules.free_merci, rules.kings_fill_empty, self.budget
        )
        search.exact_free = True
        if left == 0:
            if not search.wins(set()):
                return None
            assert search.won_line is not None
            return search.moves_of(search.won_line)
        if rules.redeals is None and redeals_used - self.position.redeals_used >= UNLIMITED_DEPTH:
            self.cut_short = True
            return None
        reach = search.reachable(partial=True)
        full = next((packed for packed in reach if cards_home(packed) == 52), None)
        if full is not None:
            return search.moves_of(reach[full])
        for packed in sorted(reach, key=lambda key: (-cards_home(key), key)):
            if (packed, redeals_used + 1) in self.lost:
                continue
            rest = self._after_redeal(packed, redeals_used + 1)
            if rest is not None:
                return [*search.moves_of(reach[packed]), REDEAL, *rest]
            self.lost.add((packed, redeals_used + 1))
        return None

    def _after_redeal(self, packed: int, redeals_used: int) -> list[Move] | None:
        foundations = unpack_foundations(packed)
        out = [DECK[s * 13 + r] for s in range(4) for r in range(foundations[s], 13)]
        layout = deals.redeal(out, self.position.shuffle_seed, redeals_used)
        fans = [[card.index for card in fan] for fan in layout]
        return self._deal(fans, foundations, redeals_used)


def solve(
    position: Position, max_nodes: int | None = 2_000_000, time_limit: float | None = None
) -> Solution:
    """Search the game from `position` for a win, within `max_nodes` search nodes and
    `time_limit` seconds (None: no limit)."""
    began = time.perf_counter()
    deadline = None if time_limit is None else began + time_limit
    budget = Budget(max_nodes=max_nodes, deadline=deadline)
    if position.cards_home == 52:
        return Solution("won", (), 0, 0.0)
    solver = _Solver(position, budget)
    try:
        line = solver.solve()
    except BudgetExceeded:
        return Solution("undecided", (), budget.nodes, time.perf_counter() - began)
    seconds = time.perf_counter() - began
    if line is not None:
        return Solution("won", tuple(line), budget.nodes, seconds)
    status: Status = "undecided" if solver.cut_short else "lost"
    return Solution(status, (), budget.nodes, seconds)
