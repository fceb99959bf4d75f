"""The fair timer: a game's time is the sum of the stretches in which its page was visible.

The server keeps the clock (so a reload or a second device neither inflates nor resets it): the
time banked so far (`Game.elapsed_ms`) and, while it runs, when the running stretch began
(`Game.clock_since`). The clock starts with the first move, stops when the page says it is hidden
(`pause`, sent by the browser on `visibilitychange`), starts again when the page is shown
(`resume`) or a move is made from any tab, and stops for good when the game ends. A move on a
paused clock counts the time since the pause: a page that makes a move was visible.

Every request that touches the clock banks the stretch so far and, if the clock keeps running,
begins a new one. A stretch counts for at most STRETCH_CAP: a tab left open and visible with
nobody playing (no move, no resume) stops adding time after five minutes. Two tabs share the one
clock on the server: a resume while it already runs banks the stretch and goes on, adding nothing.
"""

from __future__ import annotations

import datetime as dt

from game.models import Game

STRETCH_CAP = dt.timedelta(minutes=5)
STRETCH_CAP_MS = int(STRETCH_CAP.total_seconds() * 1000)


def elapsed_ms(banked_ms: int, running_since: dt.datetime | None, now: dt.datetime) -> int:
    """The clock's reading at `now`: the banked time plus the running stretch, capped (and never
    negative, should a server's clock step back)."""
    if running_since is None:
        return banked_ms
    stretch_ms = int((now - running_since).total_seconds() * 1000)
    return banked_ms + max(0, min(stretch_ms, STRETCH_CAP_MS))


def reading(game: Game, now: dt.datetime) -> int:
    return elapsed_ms(game.elapsed_ms, game.clock_since, now)


def run(game: Game, now: dt.datetime) -> None:
    """A move: bank the stretch so far and keep (or start) the clock running.

    A move can only be made on a visible page, so a move on a clock that the page paused counts
    the time since the pause (capped like any stretch), as if the page had said it was shown
    again then: posting `pause` between moves cannot shrink a game's time."""
    if game.clock_since is None and game.paused_at is not None:
        game.clock_since = game.paused_at
    game.elapsed_ms = reading(game, now)
    game.clock_since = now
    game.paused_at = None


def resume(game: Game, now: dt.datetime) -> None:
    """The page is shown again: the time it was hidden does not count; the clock runs from now."""
    game.paused_at = None
    run(game, now)


def pause(game: Game, now: dt.datetime) -> None:
    """The page is hidden: bank the stretch so far and stop the clock until a resume or a move."""
    stop(game, now)
    game.paused_at = now


def stop(game: Game, now: dt.datetime) -> None:
    """Bank the stretch so far and stop the clock: the end of the game (or a pause)."""
    game.elapsed_ms = reading(game, now)
    game.clock_since = None
    game.paused_at = None


def format_ms(millis: int) -> str:
    """A time as the timer and the statistics show it: 4:07, or 1:02:03 past the hour."""
    seconds = millis // 1000
    hours, rest = divmod(seconds, 3600)
    minutes, seconds = divmod(rest, 60)
    return f"{hours}:{minutes:02}:{seconds:02}" if hours else f"{minutes}:{seconds:02}"
