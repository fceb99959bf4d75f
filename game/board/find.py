"""Which game a request names, found in the database: the session's game in progress, its
game of a day's deal, a game by id for its session, an embed game by its token, a finished game
by its replay link, each as a QuerySet of at most one game. game.board.store locks, changes and
saves what these name.
"""

from __future__ import annotations

import re

from django.db.models import Case, QuerySet, When
from django.http import Http404

from game.models import Game

# What game.models.new_token makes: 24 random bytes, URL-safe base64.
TOKEN_FORM = re.compile(r"[A-Za-z0-9_-]{32}")


def current_game(session_key: str | None) -> Game | None:
    """The session's game that is not a daily one: the one in progress (there is at most one, as
    store.start leaves any other), else the latest. `/` resumes it while it is in progress. A daily
    deal's game lives beside it (see `day_game`) and never replaces it."""
    if not session_key:
        return None
    in_progress_first = Case(When(status=Game.Status.PLAYING, then=0), default=1)
    games = Game.objects.of_session(session_key).filter(daily=False)
    return games.order_by(in_progress_first, "-created_at", "-pk").first()


def day_game(session_key: str | None, deal_number: int) -> Game | None:
    """The session's game of a day's deal begun from a daily page: the one under way, else the
    latest that ended with a result. A game left for another is over, so then the deal may be
    started afresh."""
    if not session_key:
        return None
    games = list(
        Game.objects.of_session(session_key)
        .filter(deal_number=deal_number, daily=True)
        .exclude(status=Game.Status.ABANDONED)
        .order_by("-created_at", "-pk")
    )
    playing = [game for game in games if game.status == Game.Status.PLAYING]
    found = playing or games
    return found[0] if found else None


def same_kind(game: Game) -> QuerySet[Game]:
    """The session's games that `game` would replace as the one in progress: its other daily
    games of the same deal, or its other games that are not daily."""
    games = Game.objects.filter(session_key=game.session_key, daily=game.daily)
    return games.filter(deal_number=game.deal_number) if game.daily else games


# Which games a request names: at most one.
Games = QuerySet[Game]

# The largest id a game can have (a BigAutoField): a URL's number past it names nothing, and
# never reaches SQLite, which refuses an integer wider than 64 bits.
MAX_GAME_ID = 2**63 - 1


def session_games(game_id: int, session_key: str | None) -> Games:
    """Game `game_id` if it belongs to this session: another session's game, or a game with no
    session (an embed game), is not told apart from none. `session_key` is the session's checked
    key (`request.session.session_key`, which lucie.sessions reads as None unless the database
    holds the session alive), never a string the cookie merely claims."""
    if not session_key or not 0 < game_id <= MAX_GAME_ID:
        return Game.objects.none()
    return Game.objects.filter(pk=game_id, session_key=session_key)


def token_games(token: str) -> Games:
    """The embed game named by `token`. Only games with no session answer to a token: a main-site
    game is reached through its session alone, so its token (if it ever leaked) opens nothing;
    nor does an imported record's, which is only ever watched. A token not of the form we issue
    names nothing and never reaches the database (PostgreSQL refuses a NUL byte in text)."""
    if not TOKEN_FORM.fullmatch(token):
        return Game.objects.none()
    return Game.objects.by_token(token).filter(imported=False)


def replay_games(replay_token: str) -> QuerySet[Game]:
    """The game whose replay link names `replay_token`, whoever asks: a finished game (won, lost
    or abandoned) or an imported record. A game in progress has no replay yet (its moves would
    give away a game that someone is still playing). A token that is not of the form we issue
    names nothing (and never reaches the database)."""
    if not TOKEN_FORM.fullmatch(replay_token):
        return Game.objects.none()
    return Game.objects.filter(replay_token=replay_token).replayable()


def get_game(game_id: int, session_key: str | None) -> Game:
    """A game of this session, or 404: another session's game is not told apart from none."""
    return found(session_games(game_id, session_key))


def found(games: Games) -> Game:
    """The game `games` names (read without a lock), or 404."""
    game = games.first()
    if game is None:
        raise Http404("no such game")
    return game
