"""The solver behind "Show a win": it foresees the redeals and searches the whole game.

Every redeal is fixed by the deal's shuffle seed and by which cards are still out, so a deal ends,
as far as the future is concerned, in nothing but its foundations. The solver lists the sets of
foundations each deal can reach (most cards home first), computes the real redeal for each, and
searches on; the last deal is searched exactly, mercis included. A table of (foundations, redeals
used) already shown lost keeps it from searching the same next deal twice.

Foundation moves are first played at once: in the last deal that costs nothing, and before a
redeal it finds nearly every win. Before a redeal banking is not always safe, though: the cards
still out make the next deal, so keeping one out changes it. When no next deal reached by banking
can be won, the solver lists every set of foundations reachable by keeping any card out of its
foundation for the rest of the deal (`DealSearch.reachable_held`) and tries those too, so its
"lost" is a proof in every deal. That second pass runs only once a first pass that banks
everything has found no win, since it costs many times more and rarely wins. With unlimited
redeals it looks a fixed number of redeals ahead and never says lost.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Literal

from . import deal as deals
from .budget import Budget, BudgetExceeded
from .cards import DECK
from .foundation_sets import cards_home, unpack_foundations
from .moves import REDEAL, Move
from .position import Position
from .search import DealSearch
from .search_state import Step

# The solver's verdict: the end a game reaches with best play ("won" and "lost", the names of
# its Outcome), or "undecided" when the search was cut short.
Verdict = Literal["won", "lost", "undecided"]

UNLIMITED_DEPTH = 12
"""With unlimited redeals the game has no end: look this many redeals ahead, and never say lost."""


@dataclass(frozen=True, slots=True)
class Solution:
    """What the solver found: `moves` (from the position it was given) when `status` is won."""

    status: Verdict
    moves: tuple[Move, ...] = ()
    nodes: int = 0
    seconds: float = 0.0

    @property
    def won(self) -> bool:
        return self.status == "won"

    @property
    def proven(self) -> bool:
        """Whether the verdict is certain: a win, or a loss shown for every line of play (cards
        kept out of the foundations before a redeal included). Only "undecided" is not."""
        return self.status != "undecided"


@dataclass(slots=True)
class _Solver:
    position: Position
    budget: Budget
    lost: set[tuple[int, int]] = field(default_factory=set)
    cut_short: bool = False  # a depth limit hid part of the tree, so "lost" is not proven
    hold_back: bool = False  # whether to try keeping cards out of the foundations too
    cap: int | None = None  # nodes for each last deal in this round (None: as many as it takes)
    unknown: bool = False  # a last deal went past `cap`, so a later round must look again

    def solve(self) -> list[Move] | None:
        start = self.position
        fans = [[card.index for card in fan] for fan in start.fans]
        moved = [card.index for card in start.moved]
        return self._deal(fans, start.foundations, start.redeals_used, moved)

    def _deal(
        self,
        fans: list[list[int]],
        foundations: tuple[int, ...],
        redeals_used: int,
        moved: list[int] | None = None,
    ) -> list[Move] | None:
        rules = self.position.rules
        left = None if rules.redeals is None else rules.redeals - redeals_used
        mercis = self.position.mercis_left if left == 0 else 0
        search = DealSearch.under(rules, fans, foundations, mercis, self.budget, moved or ())
        search.exact_free = True
        if left == 0:
            if self.cap is not None:
                search.budget = self.budget.share(self.cap)
            try:
                if not search.wins(set()):
                    return None
            except BudgetExceeded as error:
                if error.budget is not search.budget or self.cap is None:
                    raise
                self.unknown = True
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
        line = self._redeal_from(search, reach, redeals_used)
        if line is None and self.hold_back:  # every set reachable by keeping cards out
            line = self._redeal_from(search, search.reachable_held(), redeals_used)
        return line

    def _redeal_from(
        self, search: DealSearch, reach: dict[int, list[Step]], redeals_used: int
    ) -> list[Move] | None:
        """A win through a redeal from one of the foundation sets in `reach`, most cards home
        first, or None when each leads to a next deal shown lost."""
        for packed in sorted(reach, key=lambda key: (-cards_home(key), key)):
            if (packed, redeals_used + 1) in self.lost:
                continue
            unknown, self.unknown = self.unknown, False
            rest = self._after_redeal(packed, redeals_used + 1)
            if rest is not None:
                return [*search.moves_of(reach[packed]), REDEAL, *rest]
            if not self.unknown:
                self.lost.add((packed, redeals_used + 1))
            self.unknown |= unknown
        return None

    def _after_redeal(self, packed: int, redeals_used: int) -> list[Move] | None:
        foundations = unpack_foundations(packed)
        out = [DECK[s * 13 + r] for s in range(4) for r in range(foundations[s], 13)]
        layout = deals.redeal(out, self.position.shuffle_seed, redeals_used)
        fans = [[card.index for card in fan] for fan in layout]
        return self._deal(fans, foundations, redeals_used)


ROUND_CAPS = (2_000, 16_000, 128_000, None)
"""Nodes each last deal may take, round after round. Most next deals are lost, and a winning
one tends to show its win quickly: a round that gives each only a few nodes finds such a win
before a slow loss has been proven. What was proven lost stays in the table for later rounds."""


def _rounds(solver: _Solver) -> list[Move] | None:
    """Search round after round, with more nodes for each last deal, until a win is found or
    every next deal was shown lost."""
    for cap in ROUND_CAPS:
        solver.cap, solver.unknown = cap, False
        line = solver.solve()
        if line is not None or not solver.unknown:
            return line
    return None  # pragma: no cover - the last round has no cap, so nothing stays unknown


def solve(
    position: Position, max_nodes: int | None = 2_000_000, time_limit: float | None = None
) -> Solution:
    """Search the game from `position` for a win, within `max_nodes` search nodes and
    `time_limit` seconds (None: no limit)."""
    began = time.perf_counter()
    budget = Budget.within(time_limit, max_nodes)
    if position.cards_home == 52:
        return Solution("won", (), 0, 0.0)
    solver = _Solver(position, budget)
    try:
        line = _rounds(solver)
        if line is None and position.can_redeal and not solver.cut_short:
            # Banking found no win: search again, now keeping cards out where that changes
            # a next deal. The first pass's table only shows losses under banking, so it goes.
            solver = _Solver(position, budget, hold_back=True)
            line = _rounds(solver)
    except BudgetExceeded:
        return Solution("undecided", (), budget.nodes, time.perf_counter() - began)
    seconds = time.perf_counter() - began
    if line is not None:
        return Solution("won", tuple(line), budget.nodes, seconds)
    status: Verdict = "undecided" if solver.cut_short else "lost"
    return Solution(status, (), budget.nodes, seconds)
