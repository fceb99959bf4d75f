"""Everyone's daily figures as ORM aggregates: how everyone did on each day's deal, read from
the tally's row a day (game/tally.py) and cached briefly, and the receivers that drop the
cached month when a game changes what it counts.

A daily game is any game of a date's deal number under the default rules (`lucie`), however it
was opened. Only started games (a first move made) count as played; an abandoned game counts as
played, not won; a game in which "Show a win" was used (`assisted`) is never a win, nor is
one played faster than a person can (game.status.too_fast). A day's winners and best time are
read from each entry's first end (game/tally.py): play after it is practice.

Everything for a month page is a fixed number of queries, whatever the number of days or games:
everyone's figures here, and this player's in game/daily/player.py.
"""

from __future__ import annotations

import datetime as dt
import logging
import secrets
from dataclasses import dataclass

from django.core.cache import cache
from django.db import transaction
from django.db.models import Count, Min, Q, QuerySet
from django.db.models.expressions import CombinedExpression
from django.db.models.functions import ExtractDay, ExtractMonth, ExtractYear

from game import deals, tally
from game.board.clock import format_ms
from game.models import DailyRank, Game
from lucie import metrics

logger = logging.getLogger(__name__)

# How long everyone's figures for a month stay cached. Today's figures move the most, so the
# month that holds today is kept briefly; a past month changes only when someone plays it late.
CURRENT_MONTH_TTL = 30
PAST_MONTH_TTL = 300
# A month's generation outlives the figures kept under it: should it be evicted, readers go back
# to generation "0", whose figures (if any are left) are at most PAST_MONTH_TTL old.
GENERATION_TTL = 30 * 86400

DASH = "\N{EN DASH}"


@dataclass(frozen=True)
class DayFigures:
    """How everyone did on one day's deal, counted once per game."""

    deal_number: int
    players: int = 0
    winners: int = 0
    best_time_ms: int | None = None
    strict_winners: int = 0  # of the winners, those who played in strict mode

    @property
    def win_rate(self) -> str:
        return f"{100 * self.winners / self.players:.0f}%" if self.players else DASH

    @property
    def best_time(self) -> str:
        return DASH if self.best_time_ms is None else format_ms(self.best_time_ms)


BEST_TIME_FLOOR_MS_PER_MOVE = tally.BEST_TIME_FLOOR_MS_PER_MOVE


def _entries(low: int, high: int) -> QuerySet[Game]:
    """The games everyone's figures count: each session's first game of the deal begun from the
    daily page (Game.daily_entry), once its first move is made. Not embed games, records played
    on, replays or later tries."""
    return Game.objects.filter(tally.entries(low, high))


def started_day_number() -> CombinedExpression:
    """started_at's UTC date as YYYYMMDD, in SQL (Django extracts in TIME_ZONE, which is UTC)."""
    return (
        ExtractYear("started_at") * 10_000
        + ExtractMonth("started_at") * 100
        + ExtractDay("started_at")
    )


# ---------------------------------------------------------------- everyone


def figures_between(low: int, high: int) -> dict[int, DayFigures]:
    """Everyone's figures for the deals from `low` to `high`, from the tally's row a day."""
    return {
        row.deal_number: DayFigures(
            deal_number=row.deal_number,
            players=row.players,
            winners=row.winners,
            best_time_ms=row.best_wall_ms,
            strict_winners=row.strict_winners,
        )
        for row in tally.read(low, high)
    }


def month_key(first: dt.date) -> str:
    """The cache key of everyone's figures for the month that begins on `first`, as they stand.

    It names the month's generation, which every change to its figures replaces (see
    `_forget`): a server that was computing the figures from the database as it stood just
    before a change stores them under the old generation's key, which no one reads any more, so
    a change shows at once on every server instead of when a stale entry expires."""
    return f"daily:month:{first:%Y%m}:{tally.generation(first)}"


def month_figures(first: dt.date) -> dict[int, DayFigures]:
    """Everyone's figures for each day of the month that has any, keyed by deal number.

    Kept in Django's cache (shared by every app server when CACHE_URL names a Redis) until a game
    changes them (`counted_otherwise`), and at most CURRENT_MONTH_TTL or PAST_MONTH_TTL
    seconds in any case, for changes made around the ORM's signals (bulk updates, raw SQL)."""
    key = month_key(first)
    found: dict[int, DayFigures] | None = cache.get(key)
    metrics.cache_lookup("figures", hit=found is not None)
    if found is None:
        found = figures_between(*deals.month_bounds(first))
        current = first == deals.today_utc().replace(day=1)
        cache.set(key, found, CURRENT_MONTH_TTL if current else PAST_MONTH_TTL)
    return found


# ---------------------------------------------------------------- keeping the cache true


def counted_otherwise(game: Game, before: tally.Counted, now: tally.Counted) -> None:
    """A save made `game` count as `now` where it counted as `before` (game.counters hears it):
    its day's tally row follows, its rank among the day's finished entries too, and the month's
    cached figures are dropped."""
    if game.rules == deals.DAILY_RULES:
        tally.record(game, before, now)
        _forget_on_change(game, before, now)


def _forget_on_change(game: Game, before: tuple[object, ...], now: tuple[object, ...]) -> None:
    """Drop the cached figures of the game's month when they would read something else from it.

    The drop waits for the commit, so that no server recomputes the figures from the database as
    it was before this change and keeps that."""
    if now == before or game.rules != deals.DAILY_RULES:
        return
    day = deals.day_of_deal(game.deal_number)
    if day is None:
        return
    first = day.replace(day=1)
    transaction.on_commit(lambda: _forget(first))


def _forget(first: dt.date) -> None:
    """Start a new generation of the month's figures (see `month_key`)."""
    # The game is committed by now: an unreachable cache must not turn the player's answer into an
    # error. The figures then catch up when their cache entry expires.
    try:
        cache.set(tally.generation_key(first), secrets.token_hex(8), GENERATION_TTL)
    except Exception:
        logger.exception(
            "daily figures: could not renew %s in the cache", tally.generation_key(first)
        )


def day_figures(day: dt.date) -> DayFigures:
    """One day's figures, straight from the database (the management command's)."""
    number = deals.deal_number_for(day)
    return figures_between(number, number).get(number, DayFigures(deal_number=number))


@dataclass(frozen=True)
class DayBreakdown:
    """The management command's fuller picture of one day."""

    figures: DayFigures
    on_the_day: int
    late: int
    in_progress: int
    lost: int
    abandoned: int
    sessions: int


def day_breakdown(day: dt.date) -> DayBreakdown:
    number = deals.deal_number_for(day)
    totals = (
        _entries(number, number)
        .annotate(started_day=started_day_number())
        .aggregate(
            players=Count("pk"),
            on_the_day=Count("pk", filter=Q(started_day=number)),
            in_progress=Count("pk", filter=Q(status=Game.Status.PLAYING)),
            lost=Count("pk", filter=Q(status=Game.Status.LOST)),
            abandoned=Count("pk", filter=Q(status=Game.Status.ABANDONED)),
            sessions=Count("session_key", distinct=True, filter=~Q(session_key="")),
        )
    )
    ends = DailyRank.objects.filter(deal_number=number).aggregate(
        winners=Count("pk", filter=tally.HONEST_WIN),
        best=Min("wall_ms", filter=tally.HONEST_WIN),
    )
    return DayBreakdown(
        figures=DayFigures(number, totals["players"], ends["winners"], ends["best"]),
        on_the_day=totals["on_the_day"],
        late=totals["players"] - totals["on_the_day"],
        in_progress=totals["in_progress"],
        lost=totals["lost"],
        abandoned=totals["abandoned"],
        sessions=totals["sessions"],
    )
