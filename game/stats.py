"""Statistics for one browser's session, as ORM aggregates.

A game counts once its first move is made. Abandoning a game in progress is a loss; a game in
which the solver was peeked at counts as played, never won. Streaks are kept on each game as it
finishes (Game.streak = wins in a row ending there), so they too are plain aggregates.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Avg, Count, Max, Min, Q

from game.board import format_ms
from game.models import Game


@dataclass(frozen=True)
class Stats:
    played: int
    won: int
    current_streak: int
    best_streak: int
    best_time_ms: int | None
    best_cards_home: int
    average_cards_home: float

    @property
    def win_rate(self) -> str:
        if not self.played:
            return "\N{EN DASH}"
        return f"{100 * self.won / self.played:.0f}%"

    @property
    def best_time(self) -> str:
        return "\N{EN DASH}" if self.best_time_ms is None else format_ms(self.best_time_ms)


def _clean_win() -> Q:
    return Q(status=Game.Status.WON, assisted=False)


def for_session(session_key: str | None) -> Stats:
    games = Game.objects.filter(session_key=session_key or "-", started_at__isnull=False)
    totals = games.aggregate(
        played=Count("pk"),
        won=Count("pk", filter=_clean_win()),
        best_streak=Max("streak"),
        best_time=Min("elapsed_ms", filter=_clean_win()),
        best_home=Max("cards_home"),
        average_home=Avg("cards_home"),
    )
    latest = (
        games.filter(finished_at__isnull=False)
        .order_by("-finished_at", "-pk")
        .values_list("streak", flat=True)
        .first()
    )
    return Stats(
        played=totals["played"],
        won=totals["won"],
        current_streak=latest or 0,
        best_streak=totals["best_streak"] or 0,
        best_time_ms=totals["best_time"],
        best_cards_home=totals["best_home"] or 0,
        average_cards_home=round(totals["average_home"] or 0, 1),
    )
