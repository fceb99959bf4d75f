"""The fair timer: a game's time is the sum of the stretches in which its page was visible.

The server keeps the clock (so a reload or a second device neither inflates nor resets it): the
time banked so far (`Game.elapsed_ms`) and, while it runs, when the running stretch began
(`Game.clock_since`). The clock starts with the first move, stops when the page says it is hidden
(`pause`, sent by the browser on `visibilitychange`), starts again when the page is shown
(`resume`) or a move is made from any tab, and stops for good when the game ends.

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
    """Bank the stretch so far and keep (or start) the clock running: a move, or a resume."""
    game.elapsed_ms = reading(game, now)
    game.clock_since = now


def stop(game: Game, now: dt.datetime) -> None:
    """Bank the stretch so far and stop the clock: a pause, or the end of the game."""
    game.elapsed_ms = reading(game, now)
    game.clock_since = None
