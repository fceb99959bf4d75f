"""What a player can do to a stored game, as plain functions of domain values: which games the
request may touch (`find.Games`), the move count of the board it was made on (`seen`), and what
to do. None of them sees a request; each makes its own write and returns the `Change` it
made, with the saved row.

Each reads the game, checks it against `seen` (another count: the board was stale), applies the
change through the engine and saves it in one write (game.board.store.change_game). A refusal
raises and saves nothing: store.StaleBoardError, engine.IllegalMoveError (a move against the
rules, or a game that is over), limits.Unsaved (a write the database refused). The views turn
those into answers (game/board/pipeline.py).

A deal's first board is not stored: its first change stores it (`first_change`), the same way for
the site and the embed.
"""

from __future__ import annotations

from collections.abc import Callable

from django.contrib.sessions.backends.base import SessionBase
from django.db import transaction

from game import engine
from game.board import find, store, winning_line
from game.board.change import Change
from game.models import Game

Games = find.Games


def _changed(
    games: Games, seen: int, action: str, apply: Callable[[Change], object], *, auto: bool = False
) -> Change:
    """The change named `action`, made by `apply` to the game as read and checked; after it,
    the auto-move setting (`auto`) plays every foundation move there is; then saved. `apply` may
    run twice: once more, on the game as it then stands, if another write came first
    (game.board.store.change_game)."""

    def applied(change: Change) -> None:
        change.action = action
        apply(change)
        if auto:
            change.game.auto_play()

    return store.change_game(games, seen, applied)


def play(games: Games, seen: int, move: engine.Move, *, auto: bool = False) -> Change:
    """Play `move` (a card, the merci, or a redeal)."""
    return _changed(games, seen, "move", lambda change: change.game.play(move), auto=auto)


def redeal(games: Games, seen: int, *, auto: bool = False) -> Change:
    def dealt(change: Change) -> None:
        change.game.play(engine.REDEAL)

    return _changed(games, seen, "redeal", dealt, auto=auto)


def undo(games: Games, seen: int) -> Change:
    """Undo the player's last move with the auto moves that followed it. Never followed by the
    auto-move setting: playing the auto moves again would undo the undo."""

    def undone(change: Change) -> None:
        change.game.undo_turn()
        # Every undo counts against a clean win, even one that a redo takes back.
        change.row.undos += 1

    return _changed(games, seen, "undo", undone)


def redo(games: Games, seen: int, *, auto: bool = False) -> Change:
    return _changed(games, seen, "redo", lambda change: change.game.redo(), auto=auto)


def auto_finish(games: Games, seen: int) -> Change:
    """Play every card that can go home, one after another, as one change."""

    def finished(change: Change) -> None:
        moves = engine.auto_finish(change.game.position)
        if not moves:
            raise engine.IllegalMoveError("no card can go to its foundation just now")
        for move in moves:
            change.game.play(move)

    return _changed(games, seen, "auto", finished)


def peek(games: Games, seen: int) -> Change:
    """ "Show a win" is asked for: the game counts as played, never won. The search itself runs
    after, outside the transaction (game.board.winning_line.answer).

    Asked again of a game in play that is marked already, from its board as it stands, it
    changes nothing, so nothing is locked or written: the game is only read."""
    row = find.found(games)
    if row.assisted and row.status == Game.Status.PLAYING and row.move_count == seen:
        return Change.of(row, "solve")

    def marked(change: Change) -> None:
        change.row.assisted = True

    return _changed(games, seen, "solve", marked)


def play_line(games: Games, seen: int, session: SessionBase, *, to_the_end: bool = False) -> Change:
    """Play the next move of the winning line on show (kept in the player's `session`: see
    winning_line.remember), or with `to_the_end` every move left in it."""

    def played(change: Change) -> None:
        for move in winning_line.moves_left(session, change.row, to_the_end=to_the_end):
            change.game.play(move)

    return _changed(games, seen, "line", played)


def first_change(
    start: Callable[[], Game],
    games_of: Callable[[Game], Games],
    change: Callable[[Games], Change],
    *,
    admit: Callable[[], None] = lambda: None,
) -> Change:
    """The first change on a deal's first board, which is not stored: store the game (`start`),
    apply `change` to it (the games `games_of` names for it), then `admit` it (the limit on new
    games, counted only for a change the rules allow), in one transaction. Any refusal stores
    nothing, not the game, and not whatever `start` stored with it (a new session)."""
    with store.saving(), transaction.atomic():
        game = start()
        done = change(games_of(game))
        admit()
    done.created = True
    return done
