"""Exhaustive search inside one deal, shared by the fair hint and the solver.

Within a deal play never cycles: a card leaves its place at most once other than to go home
(onto its successor, or a King into an empty fan), and from there it can only go home. So a
depth-first search that remembers the positions it has seen covers every line of a deal.
Foundation moves are safe and are played at once, which keeps the search small (the one
exception: while a free merci is left, a card that could go home may be where it should land).

The search keeps its own mutable picture of the fans (cards as numbers 0-51 in the canonical
order of `DECK`) and plays and takes back moves in place. A position is remembered by what lies
beneath each card (another card, the bottom of a fan, or its foundation) and the mercis left:
that fixes the whole layout up to the order of the fans, mercis and free mercis included.

Two options change the moves. Under `once` a card moved from fan to fan may then only go home:
the search marks such cards, and while a merci is left the key adds the marked cards still out
(the layout alone does not say which cards have moved). Under `stuck` the merci is a move only
when no other move is left; then every foundation move must come before it, so forcing them stays
exact.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from .cards import DECK
from .moves import Move
from .position import Position
from .rules import Rules

HOME, BUILD, EMPTY = 0, 1, 2
BOTTOM, HOME_MARK = 52, 53
KING_RANK = 12  # rank - 1 of a King, as `card % 13` gives it

Step = tuple[int, int, int, int, int, bool]
"""A move inside the search: (kind, card, fan it leaves, depth in that fan, fan it joins, merci)."""

Key = bytes


class BudgetExceeded(Exception):
    """The search went past its node budget or its deadline; `args[0]` is the budget."""

    @property
    def budget(self) -> Budget | None:
        return self.args[0] if self.args and isinstance(self.args[0], Budget) else None


class DeadlineReached(BudgetExceeded):
    """The search went past its deadline (as opposed to its node budget)."""


def pack_foundations(foundations: tuple[int, ...] | list[int]) -> int:
    return foundations[0] | foundations[1] << 4 | foundations[2] << 8 | foundations[3] << 12


def unpack_foundations(packed: int) -> tuple[int, int, int, int]:
    return packed & 15, packed >> 4 & 15, packed >> 8 & 15, packed >> 12 & 15


def cards_home(packed: int) -> int:
    return (packed & 15) + (packed >> 4 & 15) + (packed >> 8 & 15) + (packed >> 12 & 15)


def to_move(step: Step, fans_before: list[list[int]] | None = None) -> Move:
    """The engine Move for a search step."""
    kind, card, _, _, target, merci = step
    if kind == HOME:
        return Move.home(DECK[card], merci)
    if kind == EMPTY:
        return Move.to_empty(DECK[card], target, merci)
    assert fans_before is not None
    return Move.build(DECK[card], DECK[fans_before[target][-1]], merci)


clock = time.perf_counter
"""What a deadline is read on: wall-clock time. A benchmark may set `time.thread_time` here to
measure the search by the CPU time it gets, whatever else the machine is running."""

DEADLINE_EVERY = 16
"""Nodes between two looks at the clock. A node with mercis to try costs up to ~150 us here, so
a search overshoots its deadline by a few milliseconds at most."""


@dataclass(slots=True)
class Budget:
    """Nodes counted across searches: past `max_nodes` it raises BudgetExceeded, past `deadline`
    (a reading of `clock`) DeadlineReached."""

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


class DealSearch:
    """One deal's fans, played and taken back in place."""

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
        self.fans = fans
        self.found = list(foundations)
        self.fkey = pack_foundations(self.found)
        self.home = sum(self.found)
        self.mercis_left = mercis_left
        self.free_merci = free_merci
        self.kings_fill = kings_fill
        # beneath[card]: the card it lies on, BOTTOM, or HOME; beneath[52] holds the mercis left.
        # Together these fix the whole layout (up to the order of the fans), so they are the key.
        self.beneath = [HOME_MARK] * 53
        self.beneath[52] = mercis_left
        self.top_of = [-1] * 52
        for index, fan in enumerate(fans):
            under = BOTTOM
            for card in fan:
                self.beneath[card] = under
                under = card
            if fan:
                self.top_of[fan[-1]] = index
        self.budget = budget if budget is not None else Budget()
        self.line: list[Step] = []
        self.saved: list[int] = []  # per step in `line`: what lay beneath the card before
        self.won_line: list[Step] | None = None
        # The line to the most cards home seen so far: what an interrupted search can offer.
        self.best_seen = self.home
        self.best_seen_line: list[Step] = []
        self.partial = False
        # Whether to give up forcing foundation moves while a free merci is left (exact, slower).
        self.exact_free = False
        self.once = once
        self.stuck = stuck
        self.moved = [False] * 52  # under `once`: cards moved from fan to fan in this deal
        for card in moved:
            self.moved[card] = True
        # The marked cards still in the fans: part of the key (see the module's doc).
        self.marked: set[int] = {card for card in range(52) if self.moved[card]}

    @classmethod
    def under(
        cls,
        rules: Rules,
        fans: list[list[int]],
        foundations: tuple[int, ...] | list[int],
        mercis_left: int = 0,
        budget: Budget | None = None,
        moved: Iterable[int] = (),
    ) -> DealSearch:
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
    ) -> DealSearch:
        mercis_left = position.mercis_left if mercis and position.is_last_deal else 0
        return cls.under(
            position.rules,
            [[card.index for card in fan] for fan in position.fans],
            position.foundations,
            mercis_left,
            budget,
            [card.index for card in position.moved],
        )

    # ------------------------------------------------------------------ state

    def key(self) -> bytes:
        if self.marked and self.mercis_left:
            # Only a merci can tell a marked card from another: without one, a card that moved
            # lies on its successor or is a King alone, and could only go home anyway.
            return bytes(self.beneath) + bytes(sorted(self.marked))
        return bytes(self.beneath)

    def play(self, step: Step) -> None:
        kind, card, source, depth, target, merci = step
        fan = self.fans[source]
        top_of = self.top_of
        beneath = self.beneath
        self.line.append(step)
        self.saved.append(beneath[card])
        if depth == len(fan) - 1:
            fan.pop()
            top_of[card] = -1
            if fan:
                top_of[fan[-1]] = source
        else:
            beneath[fan[depth + 1]] = beneath[card]
            del fan[depth]
        if kind == HOME:
            suit = card // 13
            self.found[suit] += 1
            self.fkey += 1 << 4 * suit
            self.home += 1
            beneath[card] = HOME_MARK
        else:
            dest = self.fans[target]
            if dest:
                under = dest[-1]
                top_of[under] = -1
                beneath[card] = under
            else:
                beneath[card] = BOTTOM
            dest.append(card)
            top_of[card] = target
        if merci:
            self.mercis_left -= 1
            beneath[52] -= 1
        if self.once:
            if kind != HOME:
                self.moved[card] = True
                self.marked.add(card)
            elif self.moved[card]:
                self.marked.discard(card)

    def undo(self) -> None:
        kind, card, source, depth, target, merci = self.line.pop()
        top_of = self.top_of
        beneath = self.beneath
        beneath[card] = self.saved.pop()
        if kind == HOME:
            suit = card // 13
            self.found[suit] -= 1
            self.fkey -= 1 << 4 * suit
            self.home -= 1
        else:
            dest = self.fans[target]
            dest.pop()
            top_of[card] = -1
            if dest:
                top_of[dest[-1]] = target
        if merci:
            self.mercis_left += 1
            beneath[52] += 1
        fan = self.fans[source]
        if depth == len(fan):
            if fan:
                top_of[fan[-1]] = -1
            fan.append(card)
            top_of[card] = source
        else:
            beneath[fan[depth]] = card
            fan.insert(depth, card)
        if self.once:
            if kind != HOME:
                self.moved[card] = False  # a moved card never moves from fan to fan again
                self.marked.discard(card)
            elif self.moved[card]:
                self.marked.add(card)

    def play_home_moves(self) -> int:
        """Play every safe move there is; returns how many, for `undo_many`.

        Foundation moves are safe, except while a free merci is left: it might want the card as
        a place to land, so then nothing is forced. Building a card onto one that can never move
        again but home is safe too (onto a King; with no merci left, also onto a card already
        built or lying above its own successor): the covered card loses nothing and the one
        beneath the mover comes free.
        """
        if self.exact_free and self.free_merci and self.mercis_left and not self.stuck:
            return 0  # a free merci may want any top card to land on, even one that could go home
        count = 0
        found = self.found
        top_of = self.top_of
        fans = self.fans
        progress = True
        while progress:
            progress = False
            for suit in range(4):
                rank = found[suit]
                if rank < 13:
                    card = suit * 13 + rank
                    source = top_of[card]
                    if source >= 0:
                        self.play((HOME, card, source, len(fans[source]) - 1, -1, False))
                        count += 1
                        progress = True
            if progress:
                continue
            for index, fan in enumerate(fans):
                if not fan:
                    continue
                card = fan[-1]
                if card % 13 == KING_RANK or self.moved[card]:
                    continue
                target = top_of[card + 1]
                if target >= 0 and self._stuck(card + 1, target):
                    self.play((BUILD, card, index, len(fan) - 1, target, False))
                    count += 1
                    progress = True
                    break
        return count

    def _stuck(self, card: int, fan_index: int) -> bool:
        """Whether `card`, on top of its fan, can never leave it but to go home.

        A merci could draw out the successor lying beneath it, so only a King counts then (or,
        under `once`, a card that has moved: a merci could only send it home).
        """
        if self.moved[card]:
            return True
        fan = self.fans[fan_index]
        if card % 13 == KING_RANK:
            return not self.kings_fill or len(fan) == 1
        if self.mercis_left:
            return False
        return self.beneath[card] == card + 1 or card + 1 in fan

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

    def undo_many(self, count: int) -> None:
        for _ in range(count):
            self.undo()

    def rewind(self, length: int = 0) -> None:
        """Take back moves until `length` are left: after a search stopped by its budget, which
        leaves the fans as they were when it stopped."""
        self.undo_many(len(self.line) - length)

    def _note_progress(self) -> None:
        if self.home > self.best_seen:
            self.best_seen = self.home
            self.best_seen_line = list(self.line)

    def steps(self) -> Iterator[Step]:
        """The moves other than forced foundation moves: builds, Kings into empty fans, mercis."""
        fans = self.fans
        top_of = self.top_of
        empty = -1
        if self.kings_fill:
            empty = next((i for i, fan in enumerate(fans) if not fan), -1)
        unforced = self.exact_free and self.free_merci and self.mercis_left and not self.stuck
        moved = self.moved
        found = self.found
        others = False  # under `stuck`: whether a move other than the merci is left
        for index, fan in enumerate(fans):
            if not fan:
                continue
            card = fan[-1]
            if found[card // 13] == card % 13:
                others = True
                if unforced:
                    yield (HOME, card, index, len(fan) - 1, -1, False)
            if moved[card]:
                continue
            if card % 13 != KING_RANK:
                target = top_of[card + 1]
                if target >= 0:
                    others = True
                    yield (BUILD, card, index, len(fan) - 1, target, False)
            elif empty >= 0 and len(fan) > 1:
                others = True
                yield (EMPTY, card, index, len(fan) - 1, empty, False)
        if self.mercis_left > 0 and not (self.stuck and others):
            yield from self._mercis(empty)

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

    def _mercis(self, empty: int) -> Iterator[Step]:
        fans = self.fans
        top_of = self.top_of
        found = self.found
        for index, fan in enumerate(fans):
            for depth in range(len(fan) - 1):
                card = fan[depth]
                rank = card % 13
                if found[card // 13] == rank:
                    yield (HOME, card, index, depth, -1, True)
                    continue  # going home beats every other place for it
                if self.moved[card]:
                    continue
                if self.free_merci:
                    for target, other in enumerate(fans):
                        if other:
                            yield (BUILD, card, index, depth, target, True)
                elif rank != KING_RANK:
                    target = top_of[card + 1]
                    if target >= 0:
                        yield (BUILD, card, index, depth, target, True)
                if rank == KING_RANK and empty >= 0:
                    yield (EMPTY, card, index, depth, empty, True)

    def moves_of(self, steps: list[Step]) -> list[Move]:
        """Engine moves for steps played from the current state (the state is left unchanged)."""
        moves = []
        for step in steps:
            moves.append(to_move(step, self.fans))
            self.play(step)
        self.undo_many(len(steps))
        return moves

    # ------------------------------------------------------------------ the last deal

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
        safe = self._safe_build()
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

    def _safe_build(self) -> Step | None:
        """A build onto a card that can never leave but to go home (see `play_home_moves`)."""
        top_of = self.top_of
        for index, fan in enumerate(self.fans):
            if fan:
                card = fan[-1]
                if card % 13 != KING_RANK and not self.moved[card]:
                    target = top_of[card + 1]
                    if target >= 0 and self._stuck(card + 1, target):
                        return (BUILD, card, index, len(fan) - 1, target, False)
        return None


def pareto(keys: list[int]) -> list[int]:
    """The foundation sets that no other set in `keys` is at least as good as in every suit.

    Most cards home first: a set can only be beaten by one with at least as many, and whatever
    beats it is beaten by (or is) a member of the front, so checking the front is enough.
    """
    front: list[tuple[int, tuple[int, int, int, int]]] = []
    for key in sorted(set(keys), key=lambda key: (-cards_home(key), key)):
        mine = unpack_foundations(key)
        if not any(all(t >= m for t, m in zip(theirs, mine, strict=True)) for _, theirs in front):
            front.append((key, mine))
    return [key for key, _ in front]
