"""The message line's words for a refused request, in the page's language.

The engine says why a move is refused in English (`str(error)`), and beside it a `code` and the
values the sentence names (`error.params`: cards, a fan counted from 0, a quoted text; see
game.engine.moves.MoveError). Each code is worded again here with gettext. A refusal raised
without a code (the web layer's own: undo with nothing to undo, a game that is over) is found by
its English text in `UNCODED`; any other error (one already worded in the page's language, as
game/board/show_a_win.py's) is shown as it is.

    >>> from django.utils import translation
    >>> from game import engine
    >>> error = engine.IllegalMoveError("no redeals are left", "no_redeals_left")
    >>> with translation.override("fr"):
    ...     refusal_message(error)
    'Il ne reste plus de redistribution.'
"""

from __future__ import annotations

from collections.abc import Mapping

from django.utils.translation import gettext, gettext_lazy, gettext_noop, ngettext, pgettext_lazy

from game import engine
from game.board import store
from game.board.words.names import the_card
from game.engine.moves import MoveError, Param
from game.ops import limits

# Translators: why a move or a request was refused, shown under the board. %(card)s, %(onto)s and
# %(top)s are cards named as in a sentence ("the Six of Clubs", « le six de trèfle »,
# „Kreuz-Sechs“); %(fan)s is a fan's number as the board shows it; %(text)s is what was sent,
# quoted. Write them in lower case: the first letter is made a capital and a full stop is added.
WORDS = {
    "already_home": pgettext_lazy("a refused move", "%(card)s is already on its foundation"),
    "buried": pgettext_lazy(
        "a refused move", "%(card)s is not on top of its fan: only top cards move"
    ),
    "home_needs_ace": pgettext_lazy(
        "a refused move", "%(card)s cannot go home yet: its foundation starts with the Ace"
    ),
    "home_not_next": pgettext_lazy(
        "a refused move", "%(card)s cannot go home yet: its foundation has reached %(top)s"
    ),
    "won_no_redeal": pgettext_lazy("a refused move", "the game is won: there is nothing to redeal"),
    "no_redeals_left": pgettext_lazy("a refused move", "no redeals are left"),
    "no_merci_rules": pgettext_lazy("a refused move", "these rules have no merci"),
    "merci_used": pgettext_lazy("a refused move", "the merci has been used"),
    "merci_not_last_deal": pgettext_lazy(
        "a refused move", "the merci may only be taken in the last deal"
    ),
    "merci_on_top": pgettext_lazy(
        "a refused move", "%(card)s is on top: the merci draws a buried card"
    ),
    "onto_buried": pgettext_lazy("a refused move", "%(onto)s is not on top of a fan"),
    "wrong_build": pgettext_lazy(
        "a refused move",
        "%(card)s cannot go onto %(onto)s: a card builds only on the next higher card of its "
        "own suit",
    ),
    "not_empty": pgettext_lazy("a refused move", "fan %(fan)s is not an empty fan"),
    "empty_stays_empty": pgettext_lazy(
        "a refused move", "an emptied fan stays empty under these rules"
    ),
    "only_a_king": pgettext_lazy(
        "a refused move", "only a King may fill an empty fan, not %(card)s"
    ),
    "alone": pgettext_lazy("a refused move", "%(card)s is alone in its fan already"),
    "moved_once": pgettext_lazy(
        "a refused move",
        "%(card)s has moved from one fan to another in this deal: now it may only go to its "
        "foundation",
    ),
    "merci_not_stuck": pgettext_lazy(
        "a refused move", "the merci may be taken only when no other move is left"
    ),
    "not_a_move": pgettext_lazy("a refused move", "%(text)s is not a move"),
    "not_a_move_form": pgettext_lazy(
        "a refused move", "%(text)s is not a move: write it like 6C>7C, 6C>F, *6C>F or R"
    ),
    "too_many_fans": pgettext_lazy(
        "a refused move", "%(text)s is not a move: no layout has that many fans"
    ),
    "not_a_card": pgettext_lazy(
        "a refused move",
        "%(text)s is not a move: write a card like 6C, a rank from %(ranks)s and a suit from "
        "%(suits)s",
    ),
    # The web layer's own refusals (see UNCODED).
    "no_undo": pgettext_lazy("a refused move", "there is no move to undo"),
    "no_redo": pgettext_lazy("a refused move", "there is no move to redo"),
    "nothing_home": pgettext_lazy("a refused move", "no card can go to its foundation just now"),
    "no_board_count": pgettext_lazy(
        "a refused move", "the request did not say which board it was made on"
    ),
    "clock_state": pgettext_lazy("a refused move", "a clock request says pause or resume"),
    "no_hint_stage": pgettext_lazy(
        "a refused move", "a hint shows the card to play (stage 1), then where it goes (stage 2)"
    ),
    "game_won": pgettext_lazy("a refused move", "this game is won: start a new one"),
    "game_abandoned": pgettext_lazy(
        "a refused move", "this game was left for another one and is over"
    ),
    "game_superseded": pgettext_lazy(
        "a refused move", "this game is over and a newer one has been dealt since"
    ),
}

# A hint's request that names no stage a hint has (game.board.forms raises it).
NO_SUCH_STAGE = "a hint shows the card to play (stage 1), then where it goes (stage 2)"

# The refusals raised with their English text alone (game/board/actions.py, engine.Play,
# store.py), by that text. A raise site that passes the code instead needs no entry here.
UNCODED = {
    "there is no move to undo": "no_undo",
    "there is no move to redo": "no_redo",
    "no card can go to its foundation just now": "nothing_home",
    "the request did not say which board it was made on": "no_board_count",
    "a clock request says pause or resume": "clock_state",
    NO_SUCH_STAGE: "no_hint_stage",
    "this game is won: start a new one": "game_won",
    "this game was left for another one and is over": "game_abandoned",
    "this game is over and a newer one has been dealt since": "game_superseded",
}
TOO_LONG = f"a game holds at most {limits.MAX_GAME_MOVES} moves: undo, or start a new game"

STALE = gettext_noop(
    "That board was out of date, so nothing was played. Here is the game as it stands."
)
MALFORMED = gettext_lazy("That was not a move, so nothing was played.")
NOTHING_TO_HINT = gettext_lazy("There is nothing to hint: the game is over.")


def sentence(text: str) -> str:
    """A message as a sentence: a capital first, a full stop last.

    >>> sentence("no redeals are left")
    'No redeals are left.'
    """
    text = text.strip()
    return text[:1].upper() + text[1:] + ("" if text.endswith((".", "!", "?")) else ".")


def _value(name: str, value: Param) -> str:
    if isinstance(value, engine.Card):
        return the_card(value)
    if name == "fan" and isinstance(value, int):
        return str(value + 1)  # the engine counts fans from 0, the board from 1
    return str(value)


def worded(error: Exception) -> str:
    """An engine or board refusal in the page's language, as the engine words it (no capital,
    no full stop): its code's words, else its own text."""
    text = str(error)
    code = getattr(error, "code", "") if isinstance(error, MoveError) else ""
    params: Mapping[str, Param] = error.params if isinstance(error, MoveError) else {}
    code = code or UNCODED.get(text, "")
    if code in WORDS:
        return str(WORDS[code]) % {name: _value(name, value) for name, value in params.items()}
    if text == TOO_LONG:
        count = limits.MAX_GAME_MOVES
        return ngettext(
            "a game holds at most %(count)s move: undo, or start a new game",
            "a game holds at most %(count)s moves: undo, or start a new game",
            count,
        ) % {"count": count}
    return text


def refusal_message(error: Exception) -> str:
    """The player's message for a refused request (the message of answers.refusal): the stale
    board's, a limit's, or the engine's reason as a sentence in the page's language."""
    if isinstance(error, store.StaleBoardError):
        return stale_message()
    if isinstance(error, limits.REFUSED):
        return str(error.message)
    return sentence(worded(error))


def stale_message() -> str:
    """A change posted from a board that was out of date (answers.STALE_MESSAGE)."""
    return gettext(STALE)


def malformed_spoken() -> str:
    """What the live region says for a malformed request (answers.refused_board): the
    board's message quotes the request, and the page quotes it once."""
    return str(MALFORMED)


def nothing_to_hint() -> str:
    """Hint asked of a game that is over."""
    return str(NOTHING_TO_HINT)
