"""What the board says when a player asks for help: the hint, at each of its two stages (the
card to play, then where it goes), in the message line and in the live region, and "Show a
win"'s verdict on whether the game can still be won from here.
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext

from game import engine
from game.board.words.names import card_name, the_card
from game.board.words.phrases import describe, goes


def hint(position: engine.Position, found: engine.Hint) -> str:
    """The hint in words, with the fan the card lies in so that it can be found."""
    move = found.move
    if move.card is None:
        return _("Hint: redeal now.")
    where = position.find(move.card)
    fan = where[0] + 1 if where is not None else None
    going = goes(position, move)
    if move.merci:
        if fan is not None:
            return _("Hint: take the merci: %(card)s, buried in fan %(fan)s, %(goes)s.") % {
                "card": the_card(move.card),
                "fan": fan,
                "goes": going,
            }
        return _("Hint: take the merci: %(card)s %(goes)s.") % {
            "card": the_card(move.card),
            "goes": going,
        }
    if fan is not None:
        return _("Hint: %(card)s %(goes)s, from fan %(fan)s.") % {
            "card": card_name(move.card),
            "goes": going,
            "fan": fan,
        }
    return _("Hint: %(card)s %(goes)s.") % {"card": card_name(move.card), "goes": going}


def hint_message(position: engine.Position, found: engine.Hint) -> str:
    """What the board's message line says for a hint (the words of game/board/drawn.py's
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


def hint_card(position: engine.Position, found: engine.Hint) -> str:
    """The hint's first stage in words (the message line's): the card to play and the fan it
    lies in, not where it goes, which a second press of Hint shows. A redeal has no second
    stage: it is said whole (`hint_message`)."""
    move = found.move
    if move.card is None:
        return hint_message(position, found)
    where = position.find(move.card)
    values = {"card": the_card(move.card), "fan": where[0] + 1 if where is not None else 0}
    if move.merci:
        if where is not None:
            return _("Hint: take the merci: %(card)s, buried in fan %(fan)s.") % values
        return _("Hint: take the merci: %(card)s.") % values
    if where is not None:
        return _("Hint: play %(card)s, from fan %(fan)s.") % values
    return _("Hint: play %(card)s.") % values


HINT_AGAIN = gettext_lazy("Press Hint again to see where it goes.")


def hint_card_said(position: engine.Position, found: engine.Hint) -> str:
    """What the live region says at the hint's first stage: the card, and that a second press
    says where it goes (a redeal's hint is whole at once)."""
    said = hint_card(position, found)
    return said if found.move.card is None else f"{said} {HINT_AGAIN}"


def show_a_win_verdict(
    status: str,
    left: int,
    next_move: engine.Move | None,
    position: engine.Position,
    search_on: str = "",
) -> str:
    """ "Show a win"'s answer: the solver's status ("won", "lost", "undecided"), how many moves
    of its line are left, and the next one; for an undecided one, how the search on that
    followed stands (`search_on`: game/board/show_a_win_job.py)."""
    if status == "won":
        if next_move is None:
            return _("This game can still be won from here: the line is played out.")
        if next_move.card is None:
            first = pgettext("the next move of the winning line", "redeal")
        else:
            first = f"{the_card(next_move.card)} {goes(position, next_move)}"
        return ngettext(
            "This game can still be won from here, in %(count)s move. Next: %(first)s.",
            "This game can still be won from here, in %(count)s moves. Next: %(first)s.",
            left,
        ) % {"count": left, "first": first}
    if status == "lost":
        # The solver's "lost" is a proof before the last deal too (it also tries holding cards
        # back from the foundations, which changes the next shuffle).
        return _("No win is possible from here.")
    if search_on == "working":
        return _("Still looking for a win from here…")
    if search_on == "exhausted":
        return _("Even a long look could not tell whether this game can still be won from here.")
    if search_on == "failed":
        return _("The longer look for a win could not be finished: ask again in a few minutes.")
    if search_on == "refused":
        return _("Could not look further just now: ask again in a few minutes.")
    return _("Could not decide in time whether this game can still be won.")
