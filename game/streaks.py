"""This player's daily streak and the days they won: the one definition, which the win panel,
the daily page, the month page and the statistics page all read (and the month's badges count
its days).

A day is won when the session's counted entry's first end is a win without "Show a win" and
not a script's (game/tally.py keeps it; play after it is practice); a day with no counted
entry (its network had one already) is won by any such win of the deal. A game is "on the
day" when its first move was made on the UTC date its deal number names
(game.result.on_the_day): only those count for the streak.

It sits beside game.rank rather than in game/daily: the statistics page and the win panel
(game.stats) show the streak, and game.daily's page draws the site's board (game.play), which
shows a win's statistics, so a streak inside game.daily closed a circle of imports.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from django.db.models import F, QuerySet

from game import deals
from game.models import DailyRank, Game
from game.result import on_the_day
from game.status import RANK_WIN, TOO_FAST, WIN


def daily_games(low: int, high: int) -> QuerySet[Game]:
    # `started_at__isnull=False` (not an exclude) so that the SQL says "IS NOT NULL", which lets
    # the database use the partial index game_daily_entries.
    return Game.objects.filter(
        rules=deals.DAILY_RULES,
        deal_number__gte=low,
        deal_number__lte=high,
        started_at__isnull=False,
    )


def first_ends(session_key: str, low: int, high: int) -> dict[int, tuple[DailyRank, Any]]:
    """The session's counted entries' first ends in the range, by deal, with when each began."""
    rows = DailyRank.objects.filter(
        game__session_key=session_key, deal_number__gte=low, deal_number__lte=high
    ).annotate(begun=F("game__started_at"))
    return {row.deal_number: (row, row.begun) for row in rows}


def won_days_between(session_key: str, low: int, high: int) -> dict[int, bool]:
    """The deals of the range this player won, each with whether it was won on the day: a
    counted entry's first end when it has one (won without help, not a script's), else any win
    of the deal. The one definition the streak and the badges read (two queries)."""
    ends = first_ends(session_key, low, high)
    won: dict[int, bool] = {
        number: on_the_day(number, begun)
        for number, (row, begun) in ends.items()
        if row.key >= RANK_WIN
    }
    wins = (
        daily_games(low, high)
        .filter(WIN, session_key=session_key)
        .exclude(TOO_FAST)
        .exclude(deal_number__in=list(ends))
        .values_list("deal_number", "started_at")
    )
    for number, started_at in wins:
        won[number] = won.get(number, False) or on_the_day(number, started_at)
    return won


def won_days(session_key: str | None, today: dt.date | None = None) -> dict[int, bool]:
    """Every deal this player won since the site began (`_won_days`), for the streak and the
    badges of one page: two queries."""
    if not session_key:
        return {}
    today = today or deals.today_utc()
    low = deals.deal_number_for(deals.site_start())
    return won_days_between(session_key, low, deals.deal_number_for(today))


@dataclass(frozen=True)
class Streaks:
    current: int
    best: int


def streaks(
    session_key: str | None, today: dt.date | None = None, won: dict[int, bool] | None = None
) -> Streaks:
    """The daily streak (days in a row won on the day, ending today or yesterday) and the best.

    The one definition of the daily streak, which the win panel, the daily page, the month page
    and the statistics page all show: a day counts when it was won on the day (`_won_days`: a
    counted entry's first end, never play after it). Which were won on the day is told here,
    over the rows (cheaper than the SQL's date parts, which SQLite computes in Python for every
    row; bench/daily.py).
    """
    if not session_key:
        return Streaks(0, 0)
    today = today or deals.today_utc()
    if won is None:
        won = won_days(session_key, today)
    days = {
        day
        for number, on_day in won.items()
        if on_day and (day := deals.day_of_deal(number)) is not None
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
