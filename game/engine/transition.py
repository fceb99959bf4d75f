"""What a move does to a position: `apply` returns the next position, or raises IllegalMoveError
saying which rule forbids the move, and changes nothing.
"""

from __future__ import annotations

from dataclasses import replace

from . import deal as deals
from .cards import DECK, KING, Card
from .moves import IllegalMoveError, Move
from .position import Foundations, Position, card_moves, top_index


def apply(position: Position, move: Move) -> Position:
    """The position after `move`; raises IllegalMoveError (saying why) if the rules forbid it.

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
    fan_index, depth = _check_leave(position, move, card)
    fan = position.fans[fan_index]
    fans = list(position.fans)
    fans[fan_index] = fan[:depth] + fan[depth + 1 :]
    foundations = position.foundations
    moved = position.moved
    if move.to_foundation:
        if not position.is_home_next(card):
            raise _home_refusal(position, card)
        foundations = _raise_foundation(foundations, card)
        moved = moved - {card}
    elif move.onto is not None:
        target = _check_build(position, card, move.onto, move.merci)
        fans[target] = fans[target] + (card,)
    else:
        assert move.empty_fan is not None
        _check_empty_fan(position, card, move.empty_fan, len(fan), move.merci)
        fans[move.empty_fan] = (card,)
    if position.rules.once and not move.to_foundation:
        moved = moved | {card}
    return replace(
        position,
        fans=tuple(fans),
        foundations=foundations,
        mercis_used=position.mercis_used + move.merci,
        moved=moved,
    )


def _check_leave(position: Position, move: Move, card: Card) -> tuple[int, int]:
    """Where `card` lies (fan, depth from the bottom), once the rules let it leave there the way
    `move` takes it: from the top of its fan, or from beneath others by the merci."""
    where = position.find(card)
    if where is None:
        raise IllegalMoveError(
            f"the {card.name} is already on its foundation", "already_home", card=card
        )
    fan_index, depth = where
    buried = depth < len(position.fans[fan_index]) - 1
    if move.merci:
        _check_merci(position, card, buried)
    elif buried:
        raise IllegalMoveError(
            f"the {card.name} is not on top of its fan: only top cards move", "buried", card=card
        )
    if card in position.moved and not move.to_foundation:
        raise IllegalMoveError(
            f"the {card.name} has moved from one fan to another in this deal: "
            "now it may only go to its foundation",
            "moved_once",
            card=card,
        )
    return where


def _redeal(position: Position) -> Position:
    if position.cards_home == 52:
        raise IllegalMoveError("the game is won: there is nothing to redeal", "won_no_redeal")
    if not position.can_redeal:
        raise IllegalMoveError("no redeals are left", "no_redeals_left")
    index = position.redeals_used + 1
    cards = [card for fan in position.fans for card in fan]
    fans = deals.redeal(cards, position.shuffle_seed, index)
    return replace(position, fans=fans, redeals_used=index, moved=frozenset())


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
    if position.rules.stuck and card_moves(position):
        raise IllegalMoveError(
            "the merci may be taken only when no other move is left", "merci_not_stuck"
        )


def _check_build(position: Position, card: Card, onto: Card, merci: bool) -> int:
    target = top_index(position).get(onto)
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
