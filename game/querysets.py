"""Game.objects: the questions asked of many games at once."""

from __future__ import annotations

from typing import Any

from django.db import models
from django.utils import timezone

from game.status import CLEAN_WIN, WIN, Status


# Of `Any` rather than of `Game`: game.models imports this module, which must not import it back,
# not even for the type checker (tests/web/test_structure.py counts every import).
class GameQuerySet(models.QuerySet[Any]):
    """The questions asked of many games at once, each named once."""

    def of_session(self, session_key: str | None) -> GameQuerySet:
        """A browser's games; without a session key, none."""
        return self.filter(session_key=session_key) if session_key else self.none()

    def by_token(self, token: str) -> GameQuerySet:
        """The embed game its token names: only a game with no session answers to a token."""
        return self.filter(token=token, session_key="")

    def replayable(self) -> GameQuerySet:
        """Games whose replay may be shown to anyone: finished ones and imported records (a game
        in progress would give its moves away while someone still plays it)."""
        return self.filter(models.Q(imported=True) | ~models.Q(status=Status.PLAYING))

    def daily_entries(self) -> GameQuerySet:
        """The games that everyone's daily figures count: one per session (and per client
        network) and deal, the first begun from the daily page."""
        return self.filter(daily_entry=True)

    def wins(self) -> GameQuerySet:
        """Wins that count as won (WIN)."""
        return self.filter(WIN)

    def clean_wins(self) -> GameQuerySet:
        """Wins with no undo, no hint and no "Show a win" (CLEAN_WIN)."""
        return self.filter(CLEAN_WIN)

    def update(self, **kwargs: Any) -> int:
        """Django's bulk update, stamping `updated_at` as every save of a game does (`auto_now`
        alone stamps only `save()`): pruning reads it as the game's last change."""
        kwargs.setdefault("updated_at", timezone.now())
        return super().update(**kwargs)
