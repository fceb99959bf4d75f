"""One deal's state as a search walks it: the fans as cards numbered 0-51 in the canonical order
of `DECK`, played and taken back in place, the key that names a position in a table of positions
seen, the moves from here, and those safe to play at once.

A position is keyed by what lies beneath each card (another card, the bottom of a fan, or its
foundation) and the mercis left: that fixes the whole layout up to the order of the fans, mercis
and free mercis included.

Two options change the moves. Under `once` a card moved from fan to fan may then only go home:
the state marks such cards, and while a merci is left the key adds the marked cards still out
(the layout alone does not say which cards have moved). Under `stuck` the merci is a move only
when no other move is left; then every foundation move must come before it, so forcing them stays
exact.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from .cards import DECK
from .foundation_sets import pack_foundations
from .moves import Move

HOME, BUILD, EMPTY = 0, 1, 2
BOTTOM, HOME_MARK = 52, 53
KING_RANK = 12  # rank - 1 of a King, as `card % 13` gives it

Step = tuple[int, int, int, int, int, bool]
"""A move inside the search: (kind, card, fan it leaves, depth in that fan, fan it joins, merci)."""

Key = bytes


def to_move(step: Step, fans_before: list[list[int]] | None = None) -> Move:
    """The engine Move for a search step."""
    kind, card, _, _, target, merci = step
    if kind == HOME:
        return Move.home(DECK[card], merci)
    if kind == EMPTY:
        return Move.to_empty(DECK[card], target, merci)
    assert fans_before is not None
    return Move.build(DECK[card], DECK[fans_before[target][-1]], merci)


class DealState:
    """One deal's fans, played and taken back in place."""

    def __init__(
        self,
        fans: list[list[int]],
        foundations: tuple[int, ...] | list[int],
        mercis_left: int = 0,
        free_merci: bool = False,
        kings_fill: bool = False,
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
        self.line: list[Step] = []
        self.saved: list[int] = []  # per step in `line`: what lay beneath the card before
        # Whether to give up forcing foundation moves while a free merci is left (exact, slower).
        self.exact_free = False
        self.once = once
        self.stuck = stuck
        self.moved = [False] * 52  # under `once`: cards moved from fan to fan in this deal
        for card in moved:
            self.moved[card] = True
        # The marked cards still in the fans: part of the key (see the module's doc).
        self.marked: set[int] = {card for card in range(52) if self.moved[card]}

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

    def undo_many(self, count: int) -> None:
        for _ in range(count):
            self.undo()

    def rewind(self, length: int = 0) -> None:
        """Take back moves until `length` are left: after a search stopped by its budget, which
        leaves the fans as they were when it stopped."""
        self.undo_many(len(self.line) - length)

    def moves_of(self, steps: list[Step]) -> list[Move]:
        """Engine moves for steps played from the current state (the state is left unchanged)."""
        moves = []
        for step in steps:
            moves.append(to_move(step, self.fans))
            self.play(step)
        self.undo_many(len(steps))
        return moves

    # ------------------------------------------------------------------ moves from here

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

    def safe_build(self) -> Step | None:
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
