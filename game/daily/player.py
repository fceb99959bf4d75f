"""This player's daily games: the result of each day of a month, and the daily streak.

A game is "on the day" when its first move was made on the UTC date its deal number names: only
those count for the daily streak; the others were "played late". A month page reads this
player's games of the month in one query, and their wins (for the streak) in one more.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from django.db.models import QuerySet
from django.utils.translation import pgettext_lazy

from game import deals
from game.board.clock import format_ms
from game.models import Game
from game.status import WIN, is_clean_win


@dataclass(frozen=True)
class DayResult:
    """This player's result on one day, from the game that says the most about it."""

    state: str  # won, assisted, playing, lost, abandoned
    on_the_day: bool
    elapsed_ms: int
    move_count: int
    cards_home: int
    redeals_used: int
    mercis_used: int
    game_id: int
    clean: bool = False  # a clean win: no undo, no hint, no "Show a win" (Game.is_clean_win)

    @property
    def time(self) -> str:
        return format_ms(self.elapsed_ms)

    @property
    def label(self) -> str:
        return str(STATE_LABELS[self.state])

    @property
    def finished(self) -> bool:
        return self.state != "playing"


STATE_LABELS = {
    "won": pgettext_lazy("a daily result", "Won"),
    "assisted": pgettext_lazy("a daily result", "Won with help"),
    "playing": pgettext_lazy("a daily result", "In progress"),
    "lost": pgettext_lazy("a daily result", "Lost"),
    "abandoned": pgettext_lazy("a daily result", "Left unfinished"),
}
# Which of a day's games speaks for it: a clean win first, then one under way, then the rest.
_STATE_RANK = {"won": 0, "assisted": 1, "playing": 2, "lost": 3, "abandoned": 4}


def _daily_games(low: int, high: int) -> QuerySet[Game]:
    # `started_at__isnull=False` (not an exclude) so that the SQL says "IS NOT NULL", which lets
    # the database use the partial index game_daily_entries.
    return Game.objects.filter(
        rules=deals.DAILY_RULES,
        deal_number__gte=low,
        deal_number__lte=high,
        started_at__isnull=False,
    )


def _state(status: str, assisted: bool) -> str:
    if status == Game.Status.WON:
        return "assisted" if assisted else "won"
    return str(status)


def player_month(session_key: str | None, first: dt.date) -> dict[int, DayResult]:
    """This player's result for each day of the month they played, keyed by deal number.

    The games are read as plain rows, not Game instances, and only each day's best becomes a
    result: a player may try a day's deal many times, and a row costs a fraction of an instance
    (bench/daily.py)."""
    if not session_key:
        return {}
    rows = (
        _daily_games(*deals.month_bounds(first))
        .filter(session_key=session_key)
        .values_list(*RESULT_FIELDS)
    )
    best: dict[int, tuple[tuple[int, int, int], tuple[Any, ...]]] = {}
    for row in rows:
        pk, number, status, assisted, started_at, elapsed_ms = row[:6]
        state = _state(status, assisted)
        # A win on the day beats a late one, a faster win a slower one; otherwise the latest game.
        tie = elapsed_ms if state == "won" else -pk
        rank = (_STATE_RANK[state], 0 if _on_the_day(number, started_at) else 1, tie)
        if number not in best or rank < best[number][0]:
            best[number] = (rank, row)
    return {number: result_of(*row) for number, (_, row) in best.items()}


RESULT_FIELDS = (
    "pk", "deal_number", "status", "assisted", "started_at", "elapsed_ms", "move_count",
    "cards_home", "redeals_used", "mercis_used", "undos", "hints",
)  # fmt: skip
"""What a day's result reads from a game, in the order `result_of` takes them."""


def day_result(game: Game) -> DayResult:
    return result_of(*(getattr(game, name) for name in RESULT_FIELDS))


def result_of(
    pk: int,
    deal_number: int,
    status: str,
    assisted: bool,
    started_at: dt.datetime | None,
    elapsed_ms: int,
    move_count: int,
    cards_home: int,
    redeals_used: int,
    mercis_used: int,
    undos: int,
    hints: int,
) -> DayResult:
    """The result of a game read as RESULT_FIELDS."""
    return DayResult(
        state=_state(status, assisted),
        on_the_day=_on_the_day(deal_number, started_at),
        elapsed_ms=elapsed_ms,
        move_count=move_count,
        cards_home=cards_home,
        redeals_used=redeals_used,
        mercis_used=mercis_used,
        game_id=pk,
        clean=is_clean_win(status, assisted, undos, hints),
    )


def _on_the_day(number: int, started_at: dt.datetime | None) -> bool:
    return started_at is not None and deals.deal_number_for(started_at.astimezone(dt.UTC)) == number


# ---------------------------------------------------------------- the month's badge

BADGES = ((20, "gold"), (10, "silver"), (5, "bronze"))
"""Days of a month won (a win without "Show a win", on the day or late) for each badge, the
highest first; fewer than the last is "none". docs/playing.md says the same to players."""

BADGE_MONTHS = 12
"""Earlier months whose badges the month page shows."""


def badge(days_won: int) -> str:
    """The month's badge for this many days won.

    >>> badge(4), badge(5), badge(19), badge(31)
    ('none', 'bronze', 'silver', 'gold')
    """
    return next((name for least, name in BADGES if days_won >= least), "none")


@dataclass(frozen=True)
class MonthBadge:
    first: dt.date
    days_won: int

    @property
    def badge(self) -> str:
        return badge(self.days_won)


def earlier_badges(session_key: str | None, first: dt.date) -> list[MonthBadge]:
    """The badges of the BADGE_MONTHS months before `first` (those on offer), the latest first:
    one query over this player's wins, at most a year of days."""
    months = []
    month = first
    for _ in range(BADGE_MONTHS):
        month = deals.add_months(month, -1)
        if month < deals.site_start().replace(day=1):
            break
        months.append(month)
    if not months:
        return []
    won: dict[int, set[int]] = {}
    if session_key:
        low = deals.month_bounds(months[-1])[0]
        high = deals.month_bounds(months[0])[1]
        numbers = (
            _daily_games(low, high)
            .filter(WIN, session_key=session_key)
            .values_list("deal_number", flat=True)
        )
        for number in numbers:
            won.setdefault(number // 100, set()).add(number)
    return [MonthBadge(month, len(won.get(month.year * 100 + month.month, ()))) for month in months]


@dataclass(frozen=True)
class Streaks:
    current: int
    best: int


def streaks(session_key: str | None, today: dt.date | None = None) -> Streaks:
    """The daily streak (days in a row won on the day, ending today or yesterday) and the best.

    One query for this player's wins and when each was begun; which were won on the day is told
    here, over those rows (cheaper than the SQL's date parts, which SQLite computes in Python
    for every row; bench/daily.py).
    """
    if not session_key:
        return Streaks(0, 0)
    today = today or deals.today_utc()
    low = deals.deal_number_for(deals.site_start())
    wins = (
        _daily_games(low, deals.deal_number_for(today))
        .filter(WIN, session_key=session_key)
        .values_list("deal_number", "started_at")
    )
    days = {
        day
        for number, started_at in wins
        if _on_the_day(number, started_at) and (day := deals.day_of_deal(number)) is not None
    }
    return Streaks(current=_run_ending(days, today), best=_longest_run(days))


def _run_ending(days: set[dt.date], today: dt.date) -> int:
    one = dt.timedelta(days=1)
    day = today if today in days else today - one
    run = 0
    while day in days:
        run += 1
        day -= one
    return run


def _longest_run(days: set[dt.date]) -> int:
    one = dt.timedelta(days=1)
    best = 0
    for day in days:
        if day - one in days:
            continue
        run = 1
        while day + one * run in days:
            run += 1
        best = max(best, run)
    return best
