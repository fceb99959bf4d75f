"""The two writes beside a change to a game: a hint's stage counted, and the page's clock paused or
resumed. Neither is a change of the game's log, so neither goes through game.board.actions.
"""

from __future__ import annotations

import logging

from django.db import DatabaseError, transaction
from django.db.models import F
from django.utils import timezone

from game.board import clock
from game.board.find import Games
from game.board.store import locked, saving
from game.models import Game

logger = logging.getLogger(__name__)


def count_hint(game: Game, stage: int = 1) -> None:
    """A hint's `stage` was shown: its card (1: a hint used, so the game can no longer be a
    clean win, and its review counts it) or where the card goes (2). A write the database
    refuses is logged and the hint still shown (only its count is lost)."""
    assert game.pk is not None
    column = "hints" if stage == 1 else "hint_places"
    try:
        Game.objects.filter(pk=game.pk).update(**{column: F(column) + 1})
    except DatabaseError as error:
        logger.error("could not count a hint: %s: %s", type(error).__name__, error)
        return
    setattr(game, column, getattr(game, column) + 1)


def set_clock(games: Games, running: bool) -> Game:
    """The page was shown (`running`) or hidden: run or stop the game's clock, under the row lock.

    Only a game that is begun and not over has a running clock: a pause or a resume for any other
    changes nothing (the timer starts at the first move, and an ended game's time is final).
    """
    with saving(), transaction.atomic():
        game = locked(games)
        if game.status == Game.Status.PLAYING and game.started_at is not None:
            now = timezone.now()
            if running:
                clock.resume(game, now)
            else:
                clock.pause(game, now)
            game.save(update_fields=["elapsed_ms", "clock_since", "paused_at", "updated_at"])
        return game
