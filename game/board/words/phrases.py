"""The phrases the board's sentences are built from, in the page's language: a move in a line
("Six of Clubs onto the Seven of Clubs"), where a move takes its card ("onto the Seven of Clubs on
fan 9"), what is on the table ("31 cards in 11 fans"), a list ending in "and" or "or", and a
sentence's capital. Fans are numbered from 1, as the board labels them (the engine counts from 0).
"""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.translation import gettext as _
from django.utils.translation import ngettext, npgettext, pgettext

from game import engine
from game.board.words.names import card_name, the_card


def capfirst(text: str) -> str:
    return text[:1].upper() + text[1:]


def describe(move: engine.Move) -> str:
    """A move in a line a player reads: "Six of Clubs onto the Seven of Clubs" (engine's
    Move.describe, in the page's language)."""
    if move.card is None:
        return pgettext("a move in a list", "Redeal")
    name = card_name(move.card)
    if move.onto is not None:
        text = _("%(card)s onto %(target)s") % {"card": name, "target": the_card(move.onto)}
    elif move.empty_fan is not None:
        text = _("%(card)s into the empty fan") % {"card": name}
    else:
        text = _("%(card)s to its foundation") % {"card": name}
    return _("Merci: %(move)s") % {"move": text} if move.merci else text


def goes(position: engine.Position, move: engine.Move, *, fan: bool = True) -> str:
    """Where a move takes its card: "onto the Seven of Clubs on fan 9", "to its foundation"."""
    if move.onto is not None:
        where = position.find(move.onto) if fan else None
        if where is not None:
            return _("onto %(card)s on fan %(fan)s") % {
                "card": the_card(move.onto),
                "fan": where[0] + 1,
            }
        return _("onto %(card)s") % {"card": the_card(move.onto)}
    if move.empty_fan is not None:
        return _("into empty fan %(fan)s") % {"fan": move.empty_fan + 1}
    return _("to its foundation")


def table(position: engine.Position) -> str:
    cards = sum(len(fan) for fan in position.fans)
    fans = sum(1 for fan in position.fans if fan)
    return _("%(cards)s in %(fans)s") % {
        "cards": ngettext("%(count)s card", "%(count)s cards", cards) % {"count": cards},
        "fans": npgettext(
            "after “in”: 31 cards in 11 fans", "%(count)s fan", "%(count)s fans", fans
        )
        % {"count": fans},
    }


def listing(items: Sequence[str], last: str) -> str:
    """ "a, b and c" (`last` "and" or "or") in the page's language."""
    if len(items) <= 1:
        return "".join(items)
    word = (
        pgettext("the last of a list", "or")
        if last == "or"
        else pgettext("the last of a list", "and")
    )
    return f"{', '.join(items[:-1])} {word} {items[-1]}"
