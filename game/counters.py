"""What hears a game saved (the ORM's post_init and post_save, game/apps.py): the Prometheus
metrics (lucie.metrics) and, for a daily entry, everyone's daily figures.

Counted where every path that changes a game ends, so the site, the embed, the daily page and an
imported record all count alike: a first move begins a game, a logged move is a move (auto-moves
included), a shorter log is an undo, and a game that stops playing ended. A save that changes
what a daily entry counts for (game.tally.counted) changes its day's tally row in the same
transaction, and drops the month's cached figures once it commits (game.daily.figures). A
game that ends gets its challenge (game/challenge/), in the same transaction.
"""

from __future__ import annotations

from game import tally
from game.daily import figures
from game.models import Challenge, Game
from lucie import metrics

# Before its first save a game has no moves and is under way.
FRESH = (False, 0, Game.Status.PLAYING)


def _state(game: Game) -> tuple[bool, int, str]:
    # Read from the fields as loaded: a deferred field is not fetched for this.
    fields = game.__dict__
    return (
        fields.get("started_at") is not None,
        fields.get("move_count") or 0,
        fields.get("status") or Game.Status.PLAYING,
    )


def _counted(game: Game) -> tally.Counted:
    # Only a daily entry counts for anything: no other game reads the tally's rules.
    return tally.counted(game) if game.__dict__.get("daily_entry") else tally.NOT_COUNTED


def offer_challenge(game: Game) -> None:
    """A game that ends is offered to friends: its challenge (the link "Challenge a friend")
    is made now, in the transaction of the change that ended it, so that no page showing it
    has to write. One per game: ending again (after an undo) finds it."""
    if game.pk is not None and not game.imported:
        Challenge.objects.get_or_create(game_id=game.pk)


def remember(sender: type[Game], instance: Game, **kwargs: object) -> None:
    """post_init: note the game as loaded."""
    instance._counters = _state(instance)  # type: ignore[attr-defined]
    instance._counted = _counted(instance)  # type: ignore[attr-defined]


def count(sender: type[Game], instance: Game, created: bool = False, **kwargs: object) -> None:
    """post_save: count what changed since the game was loaded (or last saved)."""
    started, moves, status = FRESH if created else getattr(instance, "_counters", FRESH)
    now = _state(instance)
    instance._counters = now  # type: ignore[attr-defined]
    now_started, now_moves, now_status = now
    if now_moves > moves:
        metrics.MOVES.inc(now_moves - moves)
    elif now_moves < moves:
        metrics.UNDOS.inc(moves - now_moves)
    if now_started and not started and not instance.imported:
        metrics.GAMES_STARTED.inc()
    if now_status != status and now_status != Game.Status.PLAYING:
        metrics.GAMES_FINISHED.labels(result=now_status).inc()
        offer_challenge(instance)
    before = tally.NOT_COUNTED if created else getattr(instance, "_counted", tally.NOT_COUNTED)
    counted = _counted(instance)
    instance._counted = counted  # type: ignore[attr-defined]
    if counted != before:
        figures.counted_otherwise(instance, before, counted)
