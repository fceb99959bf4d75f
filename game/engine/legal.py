"""The rules that move a position: which moves are legal, and what a move does.

`legal_moves(position)` lists what may be played; `apply(position, move)` returns the next
position or raises IllegalMoveError (saying why) and changes nothing.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from . import deal as deals
from .cards import DECK, KING, Card
from .moves import REDEAL, IllegalMoveError, Move

if TYPE_CHECKING:
    # Only for the annotations: position.py imports this module to tell when a game is over.
    from .position import Foundations, Position


def legal_moves(position: Position) -> list[Move]:
    """Every legal move: plays of top cards, then mercis, then the redeal.

    >>> from .position import Position
    >>> [move.text for move in legal_moves(Position.start(1))][-3:]
    ['3D>4D', '9H>TH', 'R']
    """
    moves = _plays(position)
    if position.merci_open:
        moves += _mercis(position)
    if position.can_redeal:
        moves.append(REDEAL)
    return moves


def card_moves(position: Position) -> list[Move]:
    """The plays of top cards alone: no merci, no redeal.

    >>> from .position import Position
    >>> REDEAL in card_moves(Position.start(1))
    False
    """
    return _plays(position)


def _top_index(position: Position) -> dict[Card, int]:
    return {fan[-1]: i for i, fan in enumerate(position.fans) if fan}


def _plays(position: Position) -> list[Move]:
    tops = _top_index(position)
    empties = [i for i, fan in enumerate(position.fans) if not fan]
    kings_fill = position.rules.kings_fill_empty
    moves: list[Move] = []
    for fan in position.fans:
        if not fan:
            continue
        card = fan[-1]
        if position.is_home_next(card):
            moves.append(Move.home(card))
        if card.rank < KING:
            above = DECK[card.index + 1]
            if above in tops:
                moves.append(Move.build(card, above))
        elif kings_fill and len(fan) > 1:
            moves += [Move.to_empty(card, i) for i in empties]
    return moves


def _mercis(position: Position) -> list[Move]:
    tops = _top_index(position)
    empties = [i for i, fan in enumerate(position.fans) if not fan]
    moves: list[Move] = []
    for fan in position.fans:
        for card in fan[:-1]:
            if position.is_home_next(card):
                moves.append(Move.home(card, merci=True))
            if position.rules.free_merci:
                moves += [Move.build(card, top, merci=True) for top in tops]
            elif card.rank < KING and DECK[card.index + 1] in tops:
                moves.append(Move.build(card, DECK[card.index + 1], merci=True))
            if card.rank == KING and position.rules.kings_fill_empty:
                moves += [Move.to_empty(card, i, merci=True) for i in empties]
    return moves


def apply(position: Position, move: Move) -> Position:
    """The position after `move`; raises IllegalMoveError (saying why) if the rules forbid it.

    >>> from .position import Position
    >>> start = Position.start(1)
    >>> apply(start, Move.parse("AS>F")).foundations
    (0, 0, 0, 1)
    >>> apply(start, Move.parse("7D>F"))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    game.engine.moves.IllegalMoveError: the Seven of Diamonds is not on top of its fan: ...
    """
    if move.card is None:
        return _redeal(position)
    card = move.card
    where = position.find(card)
    if where is None:
        raise IllegalMoveError(
            f"the {card.name} is already on its foundation", "already_home", card=card
        )
    fan_index, depth = where
    fan = position.fans[fan_index]
    buried = depth < len(fan) - 1
    if move.merci:
        _check_merci(position, card, buried)
    elif buried:
        raise IllegalMoveError(
            f"the {card.name} is not on top of its fan: only top cards move", "buried", card=card
        )
    fans = list(position.fans)
    fans[fan_index] = fan[:depth] + fan[depth + 1 :]
    foundations = position.foundations
    if move.to_foundation:
        if not position.is_home_next(card):
            raise _home_refusal(position, card)
        foundations = _raise_foundation(foundations, card)
    elif move.onto is not None:
        target = _check_build(position, card, move.onto, move.merci)
        fans[target] = fans[target] + (card,)
    else:
        assert move.empty_fan is not None
        _check_empty_fan(position, card, move.empty_fan, len(fan), move.merci)
        fans[move.empty_fan] = (card,)
    return replace(
        position,
        fans=tuple(fans),
        foundations=foundations,
        mercis_used=position.mercis_used + move.merci,
    )


def _redeal(position: Position) -> Position:
    if position.cards_home == 52:
        raise IllegalMoveError("the game is won: there is nothing to redeal", "won_no_redeal")
    if not position.can_redeal:
        raise IllegalMoveError("no redeals are left", "no_redeals_left")
    index = position.redeals_used + 1
    cards = [card for fan in position.fans for card in fan]
    fans = deals.redeal(cards, position.shuffle_seed, index)
    return replace(position, fans=fans, redeals_used=index)


def _check_merci(position: Position, card: Card, buried: bool) -> None:
    if position.rules.mercis == 0:
        raise IllegalMoveError("these rules have no merci", "no_merci_rules")
    if position.mercis_left <= 0:
        raise IllegalMoveError("the merci has been used", "merci_used")
    if not position.is_last_deal:
        raise IllegalMoveError(
            "the merci may only be taken in the last deal", "merci_not_last_deal"
        )
    if not buried:
        raise IllegalMoveError(
            f"the {card.name} is on top: the merci draws a buried card", "merci_on_top", card=card
        )


def _check_build(position: Position, card: Card, onto: Card, merci: bool) -> int:
    target = _top_index(position).get(onto)
    if target is None:
        raise IllegalMoveError(f"the {onto.name} is not on top of a fan", "onto_buried", onto=onto)
    free = merci and position.rules.free_merci
    if not free and (onto.suit != card.suit or onto.rank != card.rank + 1):
        raise IllegalMoveError(
            f"the {card.name} cannot go onto the {onto.name}: "
            "a card builds only on the next higher card of its own suit",
            "wrong_build",
            card=card,
            onto=onto,
        )
    return target


def _check_empty_fan(
    position: Position, card: Card, index: int, fan_size: int, merci: bool
) -> None:
    if index >= len(position.fans) or position.fans[index]:
        raise IllegalMoveError(f"fan {index} is not an empty fan", "not_empty", fan=index)
    if not position.rules.kings_fill_empty:
        raise IllegalMoveError("an emptied fan stays empty under these rules", "empty_stays_empty")
    if card.rank != KING:
        raise IllegalMoveError(
            f"only a King may fill an empty fan, not the {card.name}", "only_a_king", card=card
        )
    if fan_size == 1 and not merci:
        raise IllegalMoveError(f"the {card.name} is alone in its fan already", "alone", card=card)


def _home_refusal(position: Position, card: Card) -> IllegalMoveError:
    have = position.foundations[card.suit_index]
    if have == 0:
        return IllegalMoveError(
            f"the {card.name} cannot go home yet: its foundation starts with the Ace",
            "home_needs_ace",
            card=card,
        )
    top = DECK[card.index - card.rank + have]
    return IllegalMoveError(
        f"the {card.name} cannot go home yet: its foundation has reached the {top.name}",
        "home_not_next",
        card=card,
        top=top,
    )


def _raise_foundation(foundations: Foundations, card: Card) -> Foundations:
    values = list(foundations)
    values[card.suit_index] = card.rank
    return (values[0], values[1], values[2], values[3])
