"""What a player can do to a stored game, as plain functions of domain values: the game's row
(read under its lock by the caller's transaction: game.board.pipeline), the move count of the
board the request was made on (`seen`), and what to do. None of them sees a request; each
checks the row against `seen`, applies the change through the engine, saves the row and returns
the `Change` it made.

A refusal raises before the save: store.StaleBoardError (another count: the board was stale),
engine.IllegalMoveError (a move against the rules, or a game that is over),
engine.InvalidMoveError. The caller's transaction then rolls back, and the views turn the error
into an answer (game/board/pipeline.py).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.sessions.backends.base import SessionBase
from django.utils.translation import gettext

from game import engine
from game.board import store
from game.board.show_a_win import moves_left
from game.models import Game


class StrictGameError(engine.IllegalMoveError):
    """Undo, a hint or "Show a win" asked of a game in strict mode (Game.strict), whose board
    does not offer them: refused here too, for a form posted by hand or a key pressed on an old
    page. Its message is in the request's language already."""

    def __init__(self) -> None:
        super().__init__(
            gettext("this game is in strict mode: no undo, no hint and no “Show a win”")
        )


def check_not_strict(row: Game) -> None:
    """Refuse the help that strict mode leaves out (StrictGameError)."""
    if row.strict:
        raise StrictGameError


@dataclass(frozen=True, slots=True)
class Before:
    """How the board stood before the change: the position, the row's status and "assisted"
    mark, and whether redo was on offer."""

    position: engine.Position
    status: str
    assisted: bool
    redo: bool


@dataclass(slots=True)
class Change:
    """`played` (the play of `row`) changed by the action named `action`, made on the
    board of move `seen`. `before`: how it stood before; the board's answer leaves out the
    parts the browser already holds as they were, and the live region says what was done."""

    row: Game
    played: engine.Play
    action: str = ""
    seen: int = 0
    before: Before | None = None
    # The change stored the game: it was a deal's first board until now.
    created: bool = False

    @classmethod
    def of(cls, row: Game, action: str = "") -> Change:
        """A change about to be made to `row` (stored or a deal's first board)."""
        played = row.resume()
        before = Before(played.position, row.status, row.assisted, played.can_redo)
        return cls(row, played, action, len(played.moves), before)


def begin(row: Game, seen: int, action: str) -> Change:
    """The change named `action` about to be made to `row`, once checked against `seen`."""
    store.check(row, seen)
    return Change.of(row, action)


def saved(change: Change, *, auto: bool = False) -> Change:
    """Save the change, after the auto-move setting (`auto`) played every foundation move."""
    if auto:
        change.played.auto_play()
    store.save(change.row, change.played)
    return change


def play(row: Game, seen: int, move: engine.Move, *, auto: bool = False) -> Change:
    """Play `move` (a card, the merci, or a redeal)."""
    change = begin(row, seen, "move")
    change.played.play(move)
    return saved(change, auto=auto)


def redeal(row: Game, seen: int, *, auto: bool = False) -> Change:
    change = begin(row, seen, "redeal")
    change.played.play(engine.REDEAL)
    return saved(change, auto=auto)


def undo(row: Game, seen: int) -> Change:
    """Undo the player's last move with the auto moves that followed it. Never followed by the
    auto-move setting: playing the auto moves again would undo the undo."""
    check_not_strict(row)
    change = begin(row, seen, "undo")
    change.played.undo_turn()
    # Every undo counts against a clean win, even one that a redo takes back.
    row.undos += 1
    return saved(change)


def redo(row: Game, seen: int, *, auto: bool = False) -> Change:
    change = begin(row, seen, "redo")
    change.played.redo()
    return saved(change, auto=auto)


def auto_finish(row: Game, seen: int) -> Change:
    """Play every card that can go home, one after another, as one change."""
    change = begin(row, seen, "auto")
    moves = engine.auto_finish(change.played.position)
    if not moves:
        raise engine.IllegalMoveError("no card can go to its foundation just now")
    for move in moves:
        change.played.play(move)
    return saved(change)


def show_a_win(row: Game, seen: int) -> Change:
    """ "Show a win" is asked for: the game counts as played, never won. The search itself runs
    after the transaction (game.board.show_a_win.answer).

    Asked again of a game in play that is marked already, from its board as it stands, it
    changes nothing, so nothing is written."""
    check_not_strict(row)
    if row.assisted and row.status == Game.Status.PLAYING and row.move_count == seen:
        return Change.of(row, "show_a_win")
    change = begin(row, seen, "show_a_win")
    row.assisted = True
    return saved(change)


def show_a_win_next(
    row: Game, seen: int, session: SessionBase, *, to_the_end: bool = False
) -> Change:
    """Play the next move of Show a win's line on show (kept in the player's `session`: see
    show_a_win.remember), or with `to_the_end` every move left in it (Play it out)."""
    change = begin(row, seen, "show_a_win_out" if to_the_end else "show_a_win_next")
    for move in moves_left(session, row, to_the_end=to_the_end):
        change.played.play(move)
    return saved(change)
