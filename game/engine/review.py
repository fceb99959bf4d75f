"""Where a lost game slipped away: the last position along its record from which a win existed.

Along the moves of a game, a position from which a win exists is followed by winnable positions
until the first move that loses the win; every position after it is lost (a lost position stays
lost, whatever is played). So "winnable after k moves" is true up to some K and false after it,
and a binary search along the record finds K with a few solves instead of one per move. The
solver foresees the real redeals (the position's `shuffle_seed`), as "Show a win" does.

The search is a value (`Slip`) that one `step` moves on by one solve, so that a caller can spread
it over several requests and store it between them. A winning solve also says more than its own
verdict: while the player's record follows the solver's line, every position on it is winnable.

>>> Slip.begin(120).next_index()  # the first position first
0
>>> Slip(moves=120, low=0, high=120).next_index()  # then halfway
60
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Literal

from .moves import Move
from .position import Position
from .solver import Solution, solve

State = Literal["working", "done", "undecided"]

Solve = Callable[[Position], Solution]


@dataclass(frozen=True, slots=True)
class Slip:
    """The search for the last winnable position of a lost record of `moves` moves.

    `low` is the most moves after which a win is known to exist (-1: none known yet), `high` the
    fewest after which the game is known lost (the record's end is lost: the game is over).
    `line` is a winning line from the position after `low` moves (move texts), `solves` the
    solver calls made, `stuck` the index whose solve was undecided within the full budget.

    >>> Slip.begin(10)
    Slip(moves=10, low=-1, high=10, line=(), solves=0, stuck=None)
    >>> Slip(moves=10, low=4, high=5).state
    'done'
    """

    moves: int
    low: int = -1
    high: int = 0
    line: tuple[str, ...] = field(default=())
    solves: int = 0
    stuck: int | None = None

    @classmethod
    def begin(cls, moves: int) -> Slip:
        return cls(moves=moves, high=moves)

    @property
    def state(self) -> State:
        if self.stuck is not None:
            return "undecided"
        if self.high == 0 or self.high - self.low == 1:
            return "done"
        return "working"

    @property
    def last_winnable(self) -> int | None:
        """K: the moves of the record after which a win still existed (move K + 1 lost it),
        -1 when the deal was lost from its first position; None while not known."""
        if self.state != "done":
            return None
        return self.low if self.high == self.low + 1 else -1

    def next_index(self) -> int | None:
        """The position (moves played) to solve next, or None when the search is over.

        The first position first: a deal lost from the start needs one solve. Then halfway."""
        if self.state != "working":
            return None
        if self.low < 0:
            return 0
        return (self.low + self.high) // 2

    def learn(
        self, index: int, status: str, won_line: Sequence[str], record: Sequence[str]
    ) -> Slip:
        """What the solve of the position after `index` moves teaches: its `status` ("won",
        "lost", "undecided") and when won its line (move texts); `record` is the game's moves.

        >>> Slip.begin(6).learn(0, "won", ["AS>F", "R", "2S>F"], ["AS>F", "R", "KC>F"]).low
        2
        """
        solves = self.solves + 1
        if status == "undecided":
            return replace(self, solves=solves, stuck=index)
        if status == "lost":
            if index == 0:
                return replace(self, low=-1, high=0, line=(), solves=solves)
            return replace(self, high=min(self.high, index), solves=solves)
        # Won: every position along the record that follows the line is winnable as well.
        line = list(won_line)
        low = index
        while low + 1 < self.high and line and record[low] == line[0]:
            line.pop(0)
            low += 1
        if low < self.low:
            return replace(self, solves=solves)
        return replace(self, low=low, line=tuple(line), solves=solves)

    def step(self, positions: Sequence[Position], record: Sequence[Move], solver: Solve) -> Slip:
        """One solve further (`positions[k]` is the position after k moves)."""
        index = self.next_index()
        if index is None:
            return self
        found = solver(positions[index])
        texts = [move.text for move in record]
        return self.learn(index, found.status, [move.text for move in found.moves], texts)

    def retry(self) -> Slip:
        """Search on after an undecided solve (a later, quieter request may settle it)."""
        return replace(self, stuck=None)


def find_slip(
    positions: Sequence[Position],
    record: Sequence[Move],
    max_nodes: int | None = 3_000_000,
    time_limit: float | None = 2.0,
) -> Slip:
    """The whole search at once, for benchmarks and tests: `positions` from the start to the
    lost end of `record`."""
    slip = Slip.begin(len(record))

    def solver(position: Position) -> Solution:
        return solve(position, max_nodes=max_nodes, time_limit=time_limit)

    while slip.state == "working":
        slip = slip.step(positions, record, solver)
    return slip


def disagrees(played: Move, hinted: Move, later: Sequence[Move] = ()) -> bool:
    """Whether the player's move and the fair hint's differ in a way worth telling. Not when
    the player plays the hint's move later in the same deal (`later`: the player's moves after
    this one, up to the next redeal): that is the same plan in another order. Not when either
    sends a card home (within a deal that is always safe, so its order rarely matters). And not
    when the hint redeals: the next deal depends only on the cards still out, so what the player
    builds first changes nothing.

    >>> disagrees(Move.parse("6C>7C"), Move.parse("5H>6H"))
    True
    >>> disagrees(Move.parse("6C>7C"), Move.parse("5H>6H"), [Move.parse("5H>6H")])
    False
    >>> disagrees(Move.parse("AS>F"), Move.parse("5H>6H"))
    False
    >>> disagrees(Move.parse("R"), Move.parse("5H>6H"))
    True
    """
    if played == hinted or hinted.is_redeal or _banks(played) or _banks(hinted):
        return False
    return hinted not in rest_of_deal(later)


def rest_of_deal(moves: Sequence[Move]) -> list[Move]:
    """`moves` up to the first redeal."""
    rest = []
    for move in moves:
        if move.is_redeal:
            break
        rest.append(move)
    return rest


def _banks(move: Move) -> bool:
    return move.to_foundation and not move.merci
