"""A stored game's status and what counts as a win: the one definition of each, which the
model (game.models.Game.Status), the queries (game.querysets) and every figure read.
"""

from __future__ import annotations

from django.db import models
from django.utils.translation import pgettext_lazy


class Status(models.TextChoices):
    """A stored game's status (Game.Status)."""

    # Translators: a game's status, as a record ("93 moves, won") and the admin show it.
    PLAYING = "playing", pgettext_lazy("a game's status", "Playing")
    WON = "won", pgettext_lazy("a game's status", "Won")
    LOST = "lost", pgettext_lazy("a game's status", "Lost")
    # Left in progress for another game: counts as a loss.
    ABANDONED = "abandoned", pgettext_lazy("a game's status", "Abandoned")


WIN = models.Q(status=Status.WON, assisted=False)
"""A win that counts as won: all 52 home with no "Show a win" (nor a record played on). What Won,
the win rate, the streaks and everyone's daily winners count; CLEAN_WIN is stricter."""

CLEAN_WIN = WIN & models.Q(undos=0, hints=0)
"""A clean win: won with no undo (even one taken back by redo), no hint and no "Show a win".
Game.is_clean_win says the same of one game."""


def is_clean_win(status: str, assisted: bool, undos: int, hints: int) -> bool:
    """CLEAN_WIN, of one game's columns (Game.is_clean_win, and a row read as values)."""
    return status == Status.WON and not (assisted or undos or hints)
