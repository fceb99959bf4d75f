"""Exhaustive search inside one deal, shared by the fair hint and the solver: the best a last deal
can end with and whether it can be won (with the line that gets there), and every set of
foundations a deal that a redeal may end can reach.

Within a deal play never cycles: a card leaves its place at most once other than to go home
(onto its successor, or a King into an empty fan), and from there it can only go home. So a
depth-first search that remembers the positions it has seen (by `DealState.key`) covers every
line of a deal. Foundation moves are safe and are played at once, which keeps the search small
(the one exception: while a free merci is left, a card that could go home may be where it should
land). The search spends one node of its `Budget` per new position.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Self

from .budget import Budget
from .position import Position
from .rules import Rules
from .search_state import HOME, DealState, Key, Step


class DealSearch(DealState):
    """One deal's fans, searched: the state it plays and takes back, the budget it spends, and
    what it has found so far."""

    def __init__(
        self,
        fans: list[list[int]],
        foundations: tuple[int, ...] | list[int],
        mercis_left: int = 0,
        free_merci: bool = False,
        kings_fill: bool = False,
        budget: Budget | None = None,
        once: bool = False,
        stuck: bool = False,
        moved: Iterable[int] = (),
    ) -> None:
        super().__init__(fans, foundations, mercis_left, free_merci, kings_fill, once, stuck, moved)
        self.budget = budget if budget is not None else Budget()
        self.won_line: list[Step] | None = None
        # The line to the most cards home seen so far: what an interrupted search can offer.
        self.best_seen = self.home
        self.best_seen_line: list[Step] = []
        self.partial = False

    @classmethod
    def under(
        cls,
        rules: Rules,
        fans: list[list[int]],
        foundations: tuple[int, ...] | list[int],
        mercis_left: int = 0,
        budget: Budget | None = None,
        moved: Iterable[int] = (),
    ) -> Self:
        """A search of these fans under `rules` (its merci options, Kings, `once`, `stuck`)."""
        return cls(
            fans,
            foundations,
            mercis_left,
            rules.free_merci,
            rules.kings_fill_empty,
            budget,
            rules.once,
            rules.stuck,
            moved,
        )

    @classmethod
    def from_position(
        cls, position: Position, budget: Budget | None = None, mercis: bool = True
    ) -> Self:
        mercis_left = position.mercis_left if mercis and position.is_last_deal else 0
        return cls.under(
            position.rules,
            [[card.index for card in fan] for fan in position.fans],
            position.foundations,
            mercis_left,
            budget,
            [card.index for card in position.moved],
        )

    # ------------------------------------------------------------------ what is worth trying

    def upper_bound(self) -> int:
        """Cards home at most, counting suits that a card above a lower one of its suit blocks.

        Such a card must leave by building, which it cannot do when its successor lies beneath it
        in the same fan (or it is a King): then the lower card stays put until the next redeal.
        A merci draws out one card, which frees at most the suit of that card: each merci left
        lifts the cap of the suit that gains most from it.
        """
        caps = [13, 13, 13, 13]
        kings_fill = self.kings_fill
        for fan in self.fans:
            lowest = [14, 14, 14, 14]
            seen = 0
            for card in fan:
                suit = card // 13
                rank = card % 13 + 1
                below = lowest[suit]
                if below < rank:
                    stuck = (seen >> (card + 1) & 1) if rank < 13 else not kings_fill
                    if stuck and below - 1 < caps[suit]:
                        caps[suit] = below - 1
                else:
                    lowest[suit] = rank
                seen |= 1 << card
        total = caps[0] + caps[1] + caps[2] + caps[3]
        if self.mercis_left and total < 52:
            gains = sorted((13 - cap for cap in caps), reverse=True)
            total += sum(gains[: self.mercis_left])
        return total

    def promising_steps(self) -> list[Step]:
        """`steps()`, those likeliest to help first: a win is found sooner, and a search cut
        short has gone further along good lines."""
        return sorted(self.steps(), key=self._promise, reverse=True)

    def _promise(self, step: Step) -> int:
        kind, card, source, depth, _, merci = step
        score = -1 if merci else 0
        if kind == HOME:
            return score + 8
        if depth == 0:
            return score + 3  # empties a fan
        below = self.fans[source][depth - 1]
        if self.found[below // 13] == below % 13:
            score += 6  # the card beneath can go home
        elif below // 13 == card // 13 and below < card:
            score += 4  # a lower card of its suit comes free
        return score

    # ------------------------------------------------------------------ the last deal

    def _note_progress(self) -> None:
        if self.home > self.best_seen:
            self.best_seen = self.home
            self.best_seen_line = list(self.line)

    def best_home(self, memo: dict[Key, int]) -> int:
        """The most cards that can end up home from here (52: the deal is won)."""
        forced = self.play_home_moves()
        self._note_progress()
        best = self.home
        if best < 52:
            key = self.key()
            known = memo.get(key)
            if known is not None:
                best = known
            else:
                self.budget.spend()
                bound = self.upper_bound()
                if best < bound:
                    for step in list(self.steps()):
                        self.play(step)
                        value = self.best_home(memo)
                        self.undo()
                        if value > best:
                            best = value
                            if best >= bound:
                                break
                memo[key] = best
        self.undo_many(forced)
        return best

    def wins(self, lost: set[Key]) -> bool:
        """Whether the deal can be won from here; `lost` remembers the positions that cannot.

        On a win, `won_line` holds every step played since the search began, the winning ones last.
        """
        forced = self.play_home_moves()
        self._note_progress()
        won = self.home == 52
        if won:
            if self.won_line is None:
                self.won_line = list(self.line)
        else:
            key = self.key()
            if key not in lost:
                self.budget.spend()
                if self.upper_bound() == 52:
                    for step in self.promising_steps():
                        self.play(step)
                        won = self.wins(lost)
                        self.undo()
                        if won:
                            break
                if not won:
                    lost.add(key)
        self.undo_many(forced)
        return won

    def best_line(self, memo: dict[Key, int] | None = None) -> tuple[int, list[Step]]:
        """The most cards home and a line of steps that gets them there."""
        memo = {} if memo is None else memo
        target = self.best_home(memo)
        line: list[Step] = []
        played = 0
        while True:
            forced = self.play_home_moves()
            line += self.line[len(self.line) - forced :]
            played += forced
            if self.home >= target:
                break
            for step in list(self.steps()):
                self.play(step)
                if self.best_home(memo) == target:
                    line.append(step)
                    played += 1
                    break
                self.undo()
            else:  # pragma: no cover - the memo promised a line
                raise AssertionError("no step reaches the best value")
        self.undo_many(played)
        return target, line

    # ------------------------------------------------------------------ ends of a deal

    def reachable(
        self, partial: bool = False, into: dict[int, list[Step]] | None = None
    ) -> dict[int, list[Step]]:
        """Every set of foundations reachable in this deal, each with a line that reaches it.

        Mercis are not taken here: this is for deals that a redeal may end. Safe moves are played
        as they come; with `partial`, the foundations passed on the way are listed too, for a
        redeal taken before every card that could go home has gone. The sets are gathered in
        `into` when given, so that a search stopped by its budget still leaves what it found.
        """
        self.partial = partial
        found: dict[int, list[Step]] = {} if into is None else into
        seen: set[Key] = set()
        base = len(self.line)
        saved_mercis = self.mercis_left
        self.mercis_left = 0
        try:
            self._reach(seen, found, base)
        finally:
            self.mercis_left = saved_mercis
        return found

    def _reach(self, seen: set[Key], found: dict[int, list[Step]], base: int) -> None:
        entry = self.fkey
        forced = self.play_home_moves()
        key = self.key()
        if key not in seen:
            seen.add(key)
            self.budget.spend()
            if self.partial and forced:
                self._record_partial(entry, forced, found, base)
            if self.fkey not in found:
                found[self.fkey] = self.line[base:]
            if self.home < 52:
                for step in list(self.steps()):
                    self.play(step)
                    self._reach(seen, found, base)
                    self.undo()
        self.undo_many(forced)

    def _record_partial(
        self, entry: int, forced: int, found: dict[int, list[Step]], base: int
    ) -> None:
        """Also list the foundations passed through while the safe moves were played."""
        packed = entry
        end = len(self.line)
        for at in range(end - forced, end):
            if packed not in found:
                found[packed] = self.line[base:at]
            step = self.line[at]
            if step[0] == HOME:
                packed += 1 << 4 * (step[1] // 13)

    # ------------------------------------------------------------------ cards held back

    def reachable_held(self, into: dict[int, list[Step]] | None = None) -> dict[int, list[Step]]:
        """Every set of foundations reachable in this deal when any card that could go home may
        instead be kept out for the rest of the deal, each with a line that reaches it.

        Before a redeal, banking is not always safe: the cards still out make the next deal, so
        keeping one out changes it. Sending a card home later rather than at once reaches no new
        set (it only frees more), so the choice at each card that could go home is "now" or
        "never in this deal": a suit kept out is capped at its foundation. A position is then
        remembered with its caps. This is a superset of `reachable(partial=True)`.
        """
        found: dict[int, list[Step]] = {} if into is None else into
        saved_mercis = self.mercis_left
        self.mercis_left = 0
        caps = [13, 13, 13, 13]
        try:
            self._reach_held(set(), found, len(self.line), caps)
        finally:
            self.mercis_left = saved_mercis
        return found

    def _reach_held(
        self, seen: set[Key], found: dict[int, list[Step]], base: int, caps: list[int]
    ) -> None:
        key = bytes(self.beneath) + bytes(caps)
        if key in seen:
            return
        seen.add(key)
        self.budget.spend()
        if self.fkey not in found:
            found[self.fkey] = self.line[base:]
        top_of = self.top_of
        for suit in range(4):
            rank = self.found[suit]
            if rank < caps[suit] and top_of[suit * 13 + rank] >= 0:
                card = suit * 13 + rank
                caps[suit] = rank  # never home in this deal
                self._reach_held(seen, found, base, caps)
                caps[suit] = 13
                source = top_of[card]
                self.play((HOME, card, source, len(self.fans[source]) - 1, -1, False))
                self._reach_held(seen, found, base, caps)
                self.undo()
                return
        safe = self.safe_build()
        if safe is not None:
            self.play(safe)
            self._reach_held(seen, found, base, caps)
            self.undo()
            return
        if self.home < 52:
            for step in list(self.steps()):
                self.play(step)
                self._reach_held(seen, found, base, caps)
                self.undo()
