"""What the board says about the felt as it lies, with no change to tell: a picked card and the
places it may go, the notice when no card can move but a redeal or the merci is left, and at a
loss what blocked each suit (and which cards the board marks for it).
"""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

from game import engine
from game.board.words.names import card_name, suit_name, the_card, under_card
from game.board.words.phrases import capfirst, goes, listing
from game.engine.cards import SUITS


def choices(position: engine.Position, card: engine.Card, moves: Sequence[engine.Move]) -> str:
    """A picked card and where it may go (the selection, as the board shows it lit)."""
    if not moves:
        return no_move(card)
    where = position.find(card)
    places = listing([goes(position, move) for move in moves], "or")
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
    for suit, card, (fan, depth) in _next_cards(position):
        above = position.fans[fan][depth + 1 :]
        values = {"suit": suit_name(suit), "card": the_card(card)}
        # No fan number: the board numbers no fan. The card is marked on the felt instead
        # (blocked_cards), so the sentence points at what the player sees.
        if above:
            values["cards"] = listing([under_card(c) for c in above], "and")
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
    return [card.code for _suit, card, _where in _next_cards(position)]


def _next_cards(
    position: engine.Position,
) -> list[tuple[str, engine.Card, tuple[int, int]]]:
    """Each unfinished suit's next card for its foundation, with the fan and depth where it lies
    (a card not in a fan is left out)."""
    found = []
    for index, suit in enumerate(SUITS):
        rank = position.foundations[index] + 1
        if rank > 13:
            continue
        card = engine.Card(rank, suit)
        where = position.find(card)
        if where is not None:
            found.append((suit, card, where))
    return found
