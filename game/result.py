"""A game's result: the one value that says how a game stands or ended, built from a game's
columns in one place (`Result.build`) and read by every page that shows one (the daily page and
its month, the statistics, a challenge, the daily rank, the board's end panel).

Won, won with help ("Show a win" was used: played, never won), lost, abandoned (left in progress
for another game, a loss) or playing; clean (won with no undo, no hint, no "Show a win"); strict
(played in strict mode, counted apart); the player's time (the fair timer) and the server's
(Game.wall_ms); moves; cards home; too fast (a script's: game.status.too_fast); its rank key
(game.status.rank_key) and whether it is ranked; its label in the page's language.

A counted daily game's result is its first end, kept on its DailyRank row (game/tally.py):
`of_entry` reads it from there, and `of_game` reads any game's as it stands now.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.utils.translation import pgettext, pgettext_lazy

from game import deals
from game.board.clock import format_ms
from game.status import FIELDS, RANKED, Status, is_clean_win, rank_key, too_fast

__all__ = ["FIELDS"]  # the result columns, defined beside the statuses (game/status.py)

if TYPE_CHECKING:
    from game.models import DailyRank, Game

WON = "won"
HELPED = "assisted"
LOST = "lost"
ABANDONED = "abandoned"
PLAYING = "playing"

LABELS = {
    WON: pgettext_lazy("a daily result", "Won"),
    HELPED: pgettext_lazy("a daily result", "Won with help"),
    PLAYING: pgettext_lazy("a daily result", "In progress"),
    LOST: pgettext_lazy("a daily result", "Lost"),
    ABANDONED: pgettext_lazy("a daily result", "Left unfinished"),
}


@dataclass(frozen=True)
class Result:
    """How one game stands or ended."""

    state: str  # WON, HELPED, LOST, ABANDONED, PLAYING
    elapsed_ms: int
    wall_ms: int | None
    move_count: int
    cards_home: int
    redeals_used: int
    mercis_used: int
    clean: bool  # won with no undo, no hint, no "Show a win" (game.status.is_clean_win)
    helped: bool  # an undo, a hint or "Show a win"
    too_fast: bool  # faster than a person plays (game.status.too_fast)
    key: int | None  # game.status.rank_key: higher is better, None under way
    strict: bool = False  # played in strict mode (Game.strict): no undo, hint or "Show a win"

    @classmethod
    def build(
        cls,
        status: str,
        assisted: bool,
        elapsed_ms: int,
        wall_ms: int | None,
        move_count: int,
        cards_home: int,
        redeals_used: int = 0,
        mercis_used: int = 0,
        undos: int = 0,
        hints: int = 0,
        strict: bool = False,
        turns: int = 0,
        pauses: int = 0,
    ) -> Result:
        """The result of the columns FIELDS names, in that order: the one derivation."""
        state = (HELPED if assisted else WON) if status == Status.WON else str(status)
        return cls(
            state=state,
            elapsed_ms=elapsed_ms,
            wall_ms=wall_ms,
            move_count=move_count,
            cards_home=cards_home,
            redeals_used=redeals_used,
            mercis_used=mercis_used,
            clean=is_clean_win(status, assisted, undos, hints),
            helped=bool(assisted or undos or hints),
            strict=strict,
            too_fast=status != Status.PLAYING and too_fast(wall_ms, move_count, turns, pauses),
            key=rank_key(status, assisted, wall_ms, move_count, cards_home, turns, pauses),
        )

    @classmethod
    def of_row(cls, row: Any) -> Result:
        """The result of a Game, or of a DailyRank (a counted daily game's first end)."""
        return cls.build(*(getattr(row, name) for name in FIELDS))

    @property
    def won(self) -> bool:
        """A win that counts as won: all 52 home without "Show a win" (game.status.WIN)."""
        return self.state == WON

    @property
    def finished(self) -> bool:
        return self.state != PLAYING

    @property
    def ranked(self) -> bool:
        """Among the day's ranked players: finished, without "Show a win", not a script's."""
        return self.key is not None and self.key >= RANKED

    @property
    def unranked_why(self) -> str:
        """Why a finished game is not ranked, in the page's language; empty when it is."""
        if not self.finished or self.ranked:
            return ""
        if self.too_fast:
            return pgettext(
                "the daily rank",
                "Not ranked: played faster than a person can, so it counts for no one's figures.",
            )
        return pgettext(
            "the daily rank",
            "Not ranked: “Show a win” was used, so this game counts below every game played "
            "without it.",
        )

    @property
    def time(self) -> str:
        return format_ms(self.elapsed_ms)

    @property
    def label(self) -> str:
        return str(LABELS[self.state])


def of_game(game: Game) -> Result:
    """A game's result as it stands now."""
    return Result.of_row(game)


def of_entry(entry: DailyRank) -> Result:
    """A counted daily game's result: its first end, kept (game/tally.py)."""
    return Result.of_row(entry)


def on_the_day(deal_number: int, started_at: dt.datetime | None) -> bool:
    """Begun on the UTC date its deal number names (the daily streak counts only those)."""
    return started_at is not None and deals.deal_number_for(started_at.astimezone(dt.UTC)) == (
        deal_number
    )
