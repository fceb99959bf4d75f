"""This player's daily games: the result of each day of a month and the month's badges (the
daily streak and the days won are game/streaks.py's, named here too).

A day's result is the first end of the session's counted entry of its deal (game/tally.py keeps
it): undo and play after it are practice. A game is "on the day" when its first move was made
on the UTC date its deal number names (game.result.on_the_day): only those count for the daily
streak; the others were "played late". A month page reads this player's games of the month and
their first ends in two queries, and their wins (for the streak) in two more.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from game import deals, rank
from game.models import DailyRank, Game
from game.result import FIELDS, Result, of_entry, of_game, on_the_day
from game.streaks import Streaks as Streaks
from game.streaks import daily_games, first_ends, won_days_between
from game.streaks import streaks as streaks
from game.streaks import won_days as won_days


@dataclass(frozen=True)
class DayResult:
    """This player's result on one day: a counted entry's first end (game/tally.py), else the
    game that says the most about the day. Its figures are the game's Result (game/result.py)."""

    result: Result
    on_the_day: bool
    game_id: int
    counted: bool = False  # the first end of the session's counted entry
    practice: bool = False  # the counted game was played on after its first end

    @property
    def state(self) -> str:
        return self.result.state

    @property
    def won(self) -> bool:
        """Won for the streak and the badge: without "Show a win", not faster than a person."""
        return self.result.won and not self.result.too_fast

    @property
    def clean(self) -> bool:
        return self.result.clean

    @property
    def strict(self) -> bool:
        """Played in strict mode (no undo, no hint, no "Show a win" on offer)."""
        return self.result.strict

    @property
    def time(self) -> str:
        return self.result.time

    @property
    def label(self) -> str:
        return self.result.label

    @property
    def finished(self) -> bool:
        return self.result.finished

    @property
    def elapsed_ms(self) -> int:
        return self.result.elapsed_ms

    @property
    def move_count(self) -> int:
        return self.result.move_count

    @property
    def cards_home(self) -> int:
        return self.result.cards_home

    @property
    def redeals_used(self) -> int:
        return self.result.redeals_used

    @property
    def mercis_used(self) -> int:
        return self.result.mercis_used


# Which of a day's games speaks for it when no counted entry has ended: a clean win first, then
# one under way, then the rest.
_STATE_RANK = {"won": 0, "assisted": 1, "playing": 2, "lost": 3, "abandoned": 4}


def player_month(session_key: str | None, first: dt.date) -> dict[int, DayResult]:
    """This player's result for each day of the month they played, keyed by deal number: the
    first end of a day's counted entry, else the day's best game.

    The games are read as plain rows, not Game instances, and only each day's best becomes a
    result: a player may try a day's deal many times, and a row costs a fraction of an instance
    (bench/daily.py)."""
    if not session_key:
        return {}
    low, high = deals.month_bounds(first)
    rows = (
        daily_games(low, high)
        .filter(session_key=session_key)
        .values_list("pk", "deal_number", "started_at", "status", "move_count", *FIELDS)
    )
    ends = first_ends(session_key, low, high)
    best: dict[int, tuple[tuple[int, int, int], DayResult]] = {}
    found: dict[int, DayResult] = {}
    for pk, number, started_at, status, moves, *fields in rows:
        on_day = on_the_day(number, started_at)
        if number in ends and ends[number][0].game_id == pk:
            row = ends[number][0]
            practice = status != row.status or moves != row.move_count
            found[number] = DayResult(of_entry(row), on_day, pk, True, practice)
            continue
        result = Result.build(*fields)
        # A win on the day beats a late one, a faster win a slower one; otherwise the latest game.
        tie = result.elapsed_ms if result.state == "won" else -pk
        rank = (_STATE_RANK[result.state], 0 if on_day else 1, tie)
        if number not in best or rank < best[number][0]:
            best[number] = (rank, DayResult(result, on_day, pk))
    return {number: day for number, (_, day) in best.items()} | found


def day_result(game: Game) -> DayResult:
    """A game's result for its day: its first end when it is a counted entry that has ended,
    else as it stands."""
    return day_result_of(game, rank.entry_of(game))


def day_result_of(game: Game, row: DailyRank | None) -> DayResult:
    """`day_result`, with the game's first end read already (rank.entry_of)."""
    on_day = on_the_day(game.deal_number, game.started_at)
    if row is not None:
        return DayResult(of_entry(row), on_day, game.pk, True, rank.played_on(game, row))
    return DayResult(of_game(game), on_day, game.pk or 0)


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


def earlier_badges(
    session_key: str | None, first: dt.date, won: dict[int, bool] | None = None
) -> list[MonthBadge]:
    """The badges of the BADGE_MONTHS months before `first` (those on offer), the latest first:
    two queries over this player's wins, at most a year of days (none when `won` is given)."""
    months = []
    month = first
    for _ in range(BADGE_MONTHS):
        month = deals.add_months(month, -1)
        if month < deals.site_start().replace(day=1):
            break
        months.append(month)
    if not months:
        return []
    by_month: dict[int, set[int]] = {}
    if session_key:
        low = deals.month_bounds(months[-1])[0]
        high = deals.month_bounds(months[0])[1]
        if won is None:
            won = won_days_between(session_key, low, high)
        for number in (number for number in won if low <= number <= high):
            by_month.setdefault(number // 100, set()).add(number)
    return [
        MonthBadge(month, len(by_month.get(month.year * 100 + month.month, ()))) for month in months
    ]
