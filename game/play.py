"""The move pipeline: load a game under a row lock, check the board it was played on, apply
through the engine, and save the log, counters and status in one write.

Views call `changing()` and the small actions below; they never decide legality. Engine errors
(IllegalMoveError, InvalidMoveError) leave this module untouched, and the transaction rolls back,
so a refused request saves nothing.
"""

from __future__ import annotations

import datetime as dt
import secrets
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager

from django.db import transaction
from django.db.models import QuerySet
from django.http import Http404
from django.utils import timezone

from game import engine
from game.models import Game

# Random deals are drawn from 1..RANDOM_DEALS: any number names a deal, but a short one is easy to
# read aloud, type and share. Deals above it (today's deal is YYYYMMDD, well inside) are still
# playable by number.
RANDOM_DEALS = 10**9

# The server clock measures from the first move to the end; a game left open for days should not
# post an absurd time. A fairer, visible-time timer replaces this arithmetic in a later issue.
MAX_ELAPSED_MS = 24 * 60 * 60 * 1000


class StaleBoardError(Exception):
    """The request named a move count that is not the game's: the board it came from is old."""

    def __init__(self, game: Game) -> None:
        super().__init__("that board was out of date")
        self.game = game


class GameOverError(engine.IllegalMoveError):
    """A change asked of a game that is won or abandoned."""


def random_deal_number() -> int:
    return 1 + secrets.randbelow(RANDOM_DEALS)


def elapsed_ms(started_at: dt.datetime | None, until: dt.datetime) -> int:
    """Milliseconds from the first move to `until`, clamped to 0..MAX_ELAPSED_MS."""
    if started_at is None:
        return 0
    millis = int((until - started_at).total_seconds() * 1000)
    return max(0, min(millis, MAX_ELAPSED_MS))


def current_game(session_key: str | None) -> Game | None:
    """The session's latest game: the one `/` resumes while it is in progress."""
    if not session_key:
        return None
    return Game.objects.filter(session_key=session_key).order_by("-created_at", "-pk").first()


def session_games(game_id: int, session_key: str | None) -> QuerySet[Game]:
    """Game `game_id` if it belongs to this session: another session's game, or a game with no
    session (an embed game), is not told apart from none."""
    if not session_key:
        return Game.objects.none()
    return Game.objects.filter(pk=game_id, session_key=session_key)


def token_games(token: str) -> QuerySet[Game]:
    """The embed game named by `token`. Only games with no session answer to a token: a main-site
    game is reached through its session alone, so its token (if it ever leaked) opens nothing."""
    return Game.objects.filter(token=token, session_key="")


def get_game(game_id: int, session_key: str | None) -> Game:
    """A game of this session, or 404: another session's game is not told apart from none."""
    return found(session_games(game_id, session_key))


def found(games: QuerySet[Game]) -> Game:
    game = games.first()
    if game is None:
        raise Http404("no such game")
    return game


def start(session_key: str, deal_number: int, rules: engine.Rules) -> Game:
    """A new game for the session; a game left in progress is abandoned (a loss, once begun)."""
    engine.check_deal_number(deal_number)
    now = timezone.now()
    with transaction.atomic():
        for game in Game.objects.select_for_update().filter(
            session_key=session_key, status=Game.Status.PLAYING
        ):
            _finish(game, Game.Status.ABANDONED, now)
            game.save()
        return Game.objects.create(
            session_key=session_key, deal_number=deal_number, rules=rules.name, created_at=now
        )


def start_unattached(deal_number: int, rules: engine.Rules) -> Game:
    """A new game with no session (the embed's), found again by its token alone."""
    engine.check_deal_number(deal_number)
    return Game.objects.create(session_key="", deal_number=deal_number, rules=rules.name)


def changing(
    game_id: int, session_key: str | None, seen_moves: int
) -> AbstractContextManager[engine.Game]:
    """`changing_game` for a game of this session."""
    return changing_game(session_games(game_id, session_key), seen_moves)


@contextmanager
def changing_game(games: QuerySet[Game], seen_moves: int) -> Iterator[engine.Game]:
    """Lock the game that `games` names (see session_games, token_games), replay it, let the
    caller change it, then save it in one write; 404 when `games` names none.

    `seen_moves` is the move count of the board the request came from; any other count means the
    board is stale (or the request is a double submit) and nothing is applied.
    """
    with transaction.atomic():
        game = games.select_for_update().first()
        if game is None:
            raise Http404("no such game")
        if seen_moves != game.move_count:
            raise StaleBoardError(game)
        if game.status == Game.Status.WON:
            raise GameOverError("this game is won: start a new one")
        if game.status == Game.Status.ABANDONED:
            raise GameOverError("this game was left for another one and is over")
        played = game.replay()
        yield played
        save(game, played)


def save(game: Game, played: engine.Game) -> None:
    """Copy the engine game's log, counters and outcome onto the row and write it once."""
    now = timezone.now()
    position = played.position
    game.moves = " ".join(move.text for move in played.moves)
    game.redo = " ".join(move.text for move in played.redo_moves)
    game.move_count = len(played.moves)
    game.cards_home = position.cards_home
    game.redeals_used = position.redeals_used
    game.mercis_used = position.mercis_used
    if game.started_at is None and played.moves:
        game.started_at = now
    outcome = position.outcome()
    if outcome.status is engine.Status.WON:
        _finish(game, Game.Status.WON, now)
    elif outcome.status is engine.Status.LOST:
        if game.status != Game.Status.LOST:
            _finish(game, Game.Status.LOST, now)
    elif game.status == Game.Status.LOST:
        # Undo out of a dead end: the game is alive again.
        game.status = Game.Status.PLAYING
        game.finished_at = None
        game.elapsed_ms = 0
        game.streak = 0
    game.save()


def _finish(game: Game, status: str, now: dt.datetime) -> None:
    game.status = status
    game.finished_at = now
    game.elapsed_ms = elapsed_ms(game.started_at, now)
    game.streak = _streak_after(game) if status == Game.Status.WON and not game.assisted else 0


def _streak_after(game: Game) -> int:
    """Wins in a row ending with this win: one more than the session's previous finished game."""
    if not game.session_key:
        return 1
    previous = (
        Game.objects.filter(session_key=game.session_key, started_at__isnull=False)
        .exclude(finished_at__isnull=True)
        .exclude(pk=game.pk)
        .order_by("-finished_at", "-pk")
        .values_list("streak", flat=True)
        .first()
    )
    return (previous or 0) + 1


# ---------------------------------------------------------------- actions on an engine game


def play_move(played: engine.Game, text: str) -> None:
    played.play(engine.Move.parse(text))


def redeal(played: engine.Game) -> None:
    played.play(engine.REDEAL)


def undo(played: engine.Game) -> None:
    played.undo()


def redo(played: engine.Game) -> None:
    played.redo()


def auto_finish(played: engine.Game) -> None:
    """Play every card that can go home, one after another, as one request."""
    moves = engine.auto_finish(played.position)
    if not moves:
        raise engine.IllegalMoveError("no card can go to its foundation just now")
    for move in moves:
        played.play(move)
