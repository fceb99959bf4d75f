"""What the board says outside a change: the hint, "Show a win"'s verdict, a picked card's
places, the notice when no card can move, and what blocked each suit at a loss.

Fans are numbered from 1 here, as the board labels them (the engine counts from 0).
"""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

from game import engine
from game.board import words
from game.board.words import capfirst, card_name, describe, suit_name, the_card
from game.engine.cards import SUITS


def hint(position: engine.Position, found: engine.Hint) -> str:
    """The hint in words, with the fan the card lies in so that it can be found."""
    move = found.move
    if move.card is None:
        return _("Hint: redeal now.")
    where = position.find(move.card)
    fan = where[0] + 1 if where is not None else None
    goes = words.goes(position, move)
    if move.merci:
        if fan is not None:
            return _("Hint: take the merci: %(card)s, buried in fan %(fan)s, %(goes)s.") % {
                "card": the_card(move.card),
                "fan": fan,
                "goes": goes,
            }
        return _("Hint: take the merci: %(card)s %(goes)s.") % {
            "card": the_card(move.card),
            "goes": goes,
        }
    if fan is not None:
        return _("Hint: %(card)s %(goes)s, from fan %(fan)s.") % {
            "card": card_name(move.card),
            "goes": goes,
            "fan": fan,
        }
    return _("Hint: %(card)s %(goes)s.") % {"card": card_name(move.card), "goes": goes}


def verdict(
    status: str, left: int, next_move: engine.Move | None, position: engine.Position
) -> str:
    """ "Show a win"'s answer: the solver's status ("won", "lost", "undecided"), how many moves
    of its line are left, and the next one."""
    if status == "won":
        if next_move is None:
            return _("This game can still be won from here: the line is played out.")
        if next_move.card is None:
            first = pgettext("the next move of the winning line", "redeal")
        else:
            first = f"{the_card(next_move.card)} {words.goes(position, next_move)}"
        return ngettext(
            "This game can still be won from here, in %(count)s move. Next: %(first)s.",
            "This game can still be won from here, in %(count)s moves. Next: %(first)s.",
            left,
        ) % {"count": left, "first": first}
    if status == "lost":
        # The solver's "lost" is a proof before the last deal too (it also tries holding cards
        # back from the foundations, which changes the next shuffle).
        return _("No win is possible from here.")
    return _("Could not decide in time whether this game can still be won.")


def choices(position: engine.Position, card: engine.Card, moves: Sequence[engine.Move]) -> str:
    """A picked card and where it may go (the selection, as the board shows it lit)."""
    if not moves:
        return no_move(card)
    where = position.find(card)
    places = words.listing([words.goes(position, move) for move in moves], "or")
    if where is not None:
        return capfirst(
            _("%(card)s from fan %(fan)s picked up: it may go %(places)s.")
            % {"card": card_name(card), "fan": where[0] + 1, "places": places}
        )
    return capfirst(
        _("%(card)s picked up: it may go %(places)s.") % {"card": card_name(card), "places": places}
    )


def no_move(card: engine.Card) -> str:
    """ "The Six of Clubs has no move just now." """
    return _("%(card)s has no move just now.") % {"card": capfirst(the_card(card))}


def stuck(position: engine.Position, legal: Sequence[engine.Move]) -> str:
    """What the board says at once when no card can move but a redeal or the merci is left
    (empty while a card can move, or when nothing at all is left: that is a loss)."""
    if any(not move.merci and not move.is_redeal for move in legal):
        return ""
    can_redeal = engine.REDEAL in legal
    can_merci = any(move.merci for move in legal)
    left = position.redeals_left
    if left is None:
        redeal = pgettext("the Redeal button", "Redeal")
    else:
        redeal = ngettext("Redeal (%(count)s left)", "Redeal (%(count)s left)", left) % {
            "count": left
        }
    if can_redeal and can_merci:
        return _("No moves left: %(redeal)s, or take the merci (a buried card).") % {
            "redeal": redeal
        }
    if can_redeal:
        return _("No moves left: %(redeal)s.") % {"redeal": redeal}
    if can_merci:
        return _("No moves left: take the merci. Pick a buried card to play.")
    return ""


def blocked(position: engine.Position) -> list[str]:
    """At a loss, what blocked each suit: the lowest card missing from its foundation and what
    lies on it, one sentence per suit not yet complete.

    >>> from game.engine import Position
    >>> blocked(Position.start(1))[0].startswith("Clubs: the Ace of Clubs")
    True
    """
    lines = []
    for index, suit in enumerate(SUITS):
        rank = position.foundations[index] + 1
        if rank > 13:
            continue
        card = engine.Card.parse(f"{'A23456789TJQK'[rank - 1]}{suit}")
        where = position.find(card)
        if where is None:
            continue
        fan, depth = where
        above = position.fans[fan][depth + 1 :]
        values = {"suit": suit_name(suit), "card": the_card(card)}
        # No fan number: the board numbers no fan. The card is marked on the felt instead
        # (blocked_cards), so the sentence points at what the player sees.
        if above:
            values["cards"] = words.listing([words.under_card(c) for c in above], "and")
            line = _("%(suit)s: %(card)s (marked) lies under %(cards)s.") % values
        else:
            line = _("%(suit)s: %(card)s (marked) is on top of its fan.") % values
        lines.append(capfirst(line))
    return lines


def blocked_cards(position: engine.Position) -> list[str]:
    """At a loss, the codes of the cards `blocked` names: each unfinished suit's next card,
    where it lies in a fan. The board marks them.

    >>> from game.engine import Position
    >>> blocked_cards(Position.start(1))
    ['AC', 'AD', 'AH', 'AS']
    """
    codes = []
    for index, suit in enumerate(SUITS):
        rank = position.foundations[index] + 1
        if rank > 13:
            continue
        card = engine.Card.parse(f"{'A23456789TJQK'[rank - 1]}{suit}")
        if position.find(card) is not None:
            codes.append(card.code)
    return codes


def hint_message(position: engine.Position, found: engine.Hint) -> str:
    """What the board's message line says for a hint (the words of game/board/pipeline.py's
    hint_message, in the page's language): the move, and plainly when it is a redeal or the
    merci, naming the buried card and the fan it lies in."""
    move = found.move
    if move.card is None:
        return _("Hint: Redeal now.")
    if move.merci:
        if move.onto is not None:
            goes = _("onto %(card)s") % {"card": the_card(move.onto)}
        elif move.empty_fan is not None:
            goes = _("into the empty fan")
        else:
            goes = _("to its foundation")
        where = position.find(move.card)
        if where is not None:
            return _("Hint: take the merci: %(card)s, buried in fan %(fan)s, %(goes)s.") % {
                "card": the_card(move.card),
                "fan": where[0] + 1,
                "goes": goes,
            }
        return _("Hint: take the merci: %(card)s %(goes)s.") % {
            "card": the_card(move.card),
            "goes": goes,
        }
    return _("Hint: %(move)s.") % {"move": describe(move)}
