"""What follows a game's saved change, called by the change itself in its transaction: a game
begun, a game's end and what the counters read, each done here once and explicitly (as Zulip's
`do_*` actions do all the side effects of one action), never by a signal or a template.

`seen(game)` reads what the counters read from a row as it stands; the code that changes a
game (game/board/store.py: a change saved, a game left for another, an imported record; a
statistics transfer's games closed) reads it before and calls `saved(game, before)` after its
save, inside its transaction. `saved` counts the moves and undos for /metrics, keeps the day's
tally true for a daily entry (a player begun), and when the change ended the game calls
`end(game)`:

- the result is on the row already (status, finished_at, wall_ms: store.finish);
- a daily entry's first end is kept (game.tally: its DailyRank row, the day's result that the
  rank, the streak, the month's badge and the calendar read; a winner and the best time);
- the game's challenge is made, so that no page showing it has to write (a game begun: a game
  left before its first move is offered to no one);
- the review reads only the row's status: a finished game is reviewable with no write;
- the month's cached daily figures are dropped once the transaction commits.
"""

from __future__ import annotations

from dataclasses import dataclass

from game import deals, tally
from game.models import Challenge, Game
from lucie import metrics


@dataclass(frozen=True, slots=True)
class Seen:
    """What the counters read from a game: begun, its move count, its status, and what it
    counts for in the day's tally (game.tally.counted)."""

    started: bool
    moves: int
    status: str
    counted: tally.Counted


FRESH = Seen(False, 0, Game.Status.PLAYING, tally.NOT_COUNTED)
"""A game before its first save: no moves, under way, counted nowhere."""


def seen(game: Game) -> Seen:
    """`game` as the counters read it, from its fields as they stand (a deferred field is not
    fetched for this: a row read without it is read as a fresh game's)."""
    fields = game.__dict__
    return Seen(
        started=fields.get("started_at") is not None,
        moves=fields.get("move_count") or 0,
        status=fields.get("status") or Game.Status.PLAYING,
        counted=tally.counted(game),
    )


def saved(game: Game, before: Seen) -> None:
    """Everything that follows a saved change of `game` that read as `before`: in the caller's
    transaction, after the row's save."""
    now = seen(game)
    if now.moves > before.moves:
        metrics.MOVES.inc(now.moves - before.moves)
    elif now.moves < before.moves:
        metrics.UNDOS.inc(before.moves - now.moves)
    if now.started and not before.started and not game.imported:
        metrics.GAMES_STARTED.inc()
    if now.status != before.status and now.status != Game.Status.PLAYING:
        end(game, before)
    else:
        _tally(game, before.counted, now.counted)


def end(game: Game, before: Seen) -> None:
    """The end of `game`, whose row was just saved finished (won, lost or left) from `before`,
    in the transaction of that save: counted for /metrics, a daily entry's first end kept in the
    day's tally (its result for the day, whatever follows: the rank, the streak, the badge and
    the calendar read it), and the game offered to friends. Ending again after an undo finds
    what the first end made."""
    metrics.GAMES_FINISHED.labels(result=game.status).inc()
    _tally(game, before.counted, seen(game).counted)
    if game.pk is not None and game.started_at is not None and not game.imported:
        # One statement: the game's challenge, unless the game has one (a unique game_id).
        Challenge.objects.bulk_create([Challenge(game_id=game.pk)], ignore_conflicts=True)


def _tally(game: Game, before: tally.Counted, now: tally.Counted) -> None:
    """The day's tally (and the entry's first end) follow a daily entry that began, ended or
    stopped counting; the month's cached figures are dropped after the commit."""
    if now == before or game.rules != deals.DAILY_RULES:
        return
    tally.record(game, before, now)
    tally.forget_month(game.deal_number)
