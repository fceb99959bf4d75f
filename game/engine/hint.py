"""Hints: which move to play next.

`hint` is the one the site serves: the fair hint (`fair`), bounded by a deadline. It is anytime:
when the deadline comes it answers with the best move its search had found, and its reason is
worded from the move alone, so a player cannot tell a hint cut short from one searched to the end.

`greedy_hint` is the first, plain heuristic: bank what can go home, free low cards buried under
higher cards of their suit, build a chain from its top, prefer moves that empty a fan, redeal
only when stuck and take the merci last. The fair hint falls back on it when its search found
nothing in time.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from .budget import Budget
from .cards import DECK, KING
from .moves import REDEAL, Move
from .position import Position, card_moves, legal_moves
from .transition import apply

if TYPE_CHECKING:
    from .fair import FairMove

HINT_SECONDS = 0.06
"""How long a hint may search by default. Past it the hint answers with its best move so far;
with the work done after the search (checking the move, wording it) a hint stays well within
100 ms on the 2-core development machine (bench/strength.py measures it)."""


@dataclass(frozen=True, slots=True)
class Hint:
    move: Move
    reason: str


def auto_finish(position: Position) -> list[Move]:
    """Foundation moves, played while any exists: the moves auto-finish makes, in order."""
    moves: list[Move] = []
    while True:
        home = [move for move in card_moves(position) if move.to_foundation]
        if not home:
            return moves
        move = min(home, key=lambda m: (m.card.rank if m.card else 0, m.text))
        position = apply(position, move)
        moves.append(move)


def greedy_hint(position: Position) -> Hint | None:
    """The heuristic's move, or None when the game is over."""
    plays = card_moves(position)
    home = [move for move in plays if move.to_foundation]
    if home:
        return Hint(min(home, key=lambda m: m.card.rank if m.card else 0), "it can go home")
    if plays:
        best = max(plays, key=lambda move: (_score(position, move), move.text))
        return Hint(best, "it frees the cards beneath")
    if position.merci_open:
        merci = _best_merci(position)
        if merci is not None:
            return Hint(merci, "no card moves: take the merci")
    if position.can_redeal:
        return Hint(REDEAL, "no card moves: redeal")
    return None


def _score(position: Position, move: Move) -> int:
    card = move.card
    assert card is not None
    where = position.find(card)
    assert where is not None
    fan = position.fans[where[0]]
    score = 0
    if len(fan) == 1:
        score += 3
    else:
        below = fan[-2]
        if position.is_home_next(below):
            score += 6
        if below.suit == card.suit and below.rank < card.rank:
            score += 4
        if below.rank < KING and DECK[below.index + 1] in position.tops:
            score += 1
    onto = move.onto
    if onto is not None and onto.rank < KING and DECK[onto.index + 1] in position.tops:
        score -= 10  # build the chain from its top, or the Seven under the Six freezes
    return score


def _best_merci(position: Position) -> Move | None:
    """The merci after which auto-finish banks the most cards."""
    mercis = [move for move in legal_moves(position) if move.merci]
    if not mercis:
        return None

    def gain(move: Move) -> tuple[int, int, str]:
        after = apply(position, move)
        banked = len(auto_finish(after))
        return banked, len(card_moves(after)), move.text

    return max(mercis, key=gain)


def hint(position: Position, time_limit: float | None = HINT_SECONDS) -> Hint | None:
    """The best hint this engine offers for `position` within `time_limit` seconds (None: no
    limit), or None when no move is left: the fair hint, which never looks through a redeal and
    plays the last deal perfectly when it has the time (see `fair`)."""
    found = fair_hint(position, time_limit)
    return None if found is None else Hint(found.move, reason(position, found.move))


def fair_hint(position: Position, time_limit: float | None = HINT_SECONDS) -> FairMove | None:
    """The fair hint's move, and whether the deadline cut its search short."""
    from .fair import FairMove, checked, fair_move

    budget = Budget.within(time_limit)
    found = fair_move(position, budget)
    if found is not None and checked(position, found.move):
        return found
    fallback = greedy_hint(position)
    return None if fallback is None else FairMove(fallback.move, cut=budget.expired)


def reason(position: Position, move: Move) -> str:
    """Why to play `move`, in words that depend on the move alone (never on how far the search
    got, so a hint cut short reads like any other)."""
    card = move.card
    if card is None:
        return "nothing better is left in this deal"
    if move.merci:
        return "the merci is best spent on it"
    if move.to_foundation:
        return "it can go home"
    where = position.find(card)
    assert where is not None
    fan, depth = where
    if depth == 0:
        return "it empties its fan"
    return f"it frees the {position.fans[fan][depth - 1].name}"
