"""Hints: which move to play next.

`greedy_hint` is the first, plain heuristic: bank what can go home, free low cards buried under
higher cards of their suit, build a chain from its top, prefer moves that empty a fan, redeal
only when stuck and take the merci last. Stronger hints live beside it and share `Hint`.
"""

from __future__ import annotations

from dataclasses import dataclass

from .cards import DECK, KING
from .moves import REDEAL, Move
from .position import Position, apply, card_moves, legal_moves


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


def hint(position: Position) -> Hint | None:
    """The best hint this engine offers for `position`: the fair hint, which never looks
    through a redeal and plays the last deal perfectly (see `fair`)."""
    from .fair import checked, fair_move

    found = fair_move(position)
    if found is not None and checked(position, found[0]):
        return Hint(*found)
    return greedy_hint(position)
