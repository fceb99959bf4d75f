"""Where a finished daily game stands among the day's counted players: "You did better than P %
of today's players".

Only counted entries are ranked (Game.daily_entry: one per session and client network, begun
from the daily page): each finished one has a DailyRank row with its key (game.status.rank_key:
a win beats a loss, wins by the server's clock then moves, losses by cards home, a win with
"Show a win" as a loss), kept by game/tally.py in the same transaction as the game. A player's
figure is two counts over the index on (deal, key), cached for RANK_TTL seconds, so that a
page asked again and again costs a cache read; it follows the day as others finish. Once the
day is over the entry's figure is kept on its row (`percentile`) for the calendar's cell and
never counted again.
"""

from __future__ import annotations

import datetime as dt
import logging
from bisect import bisect_left
from collections.abc import Iterable
from dataclasses import dataclass

from django.core.cache import cache
from django.db.models import Count, Q
from django.utils.translation import gettext

from game import deals
from game.models import DailyRank, Game
from game.status import rank_key

logger = logging.getLogger(__name__)

RANK_TTL = 30
"""Seconds a player's figure is kept in the cache: as long as everyone's figures are."""


@dataclass(frozen=True)
class Rank:
    """A finished daily game among the day's finished counted entries (itself left out)."""

    percentile: int  # 0 to 100: the share of the others it did better than, rounded down
    others: int
    today: bool
    clean: bool

    @property
    def sentence(self) -> str:
        if not self.others:
            if self.today:
                return gettext("You are the first of today's players to finish this deal.")
            return gettext("You are the first player to finish this deal.")
        if self.today:
            return gettext("You did better than %(percent)s %% of today's players.") % {
                "percent": self.percentile
            }
        return gettext("You did better than %(percent)s %% of this day's players.") % {
            "percent": self.percentile
        }

    @property
    def share(self) -> str:
        """The rank in the share text (no sentence about being first: others read it)."""
        if not self.others:
            return ""
        return gettext("better than %(percent)s %% of the day's players") % {
            "percent": self.percentile
        }


def _percentile(worse: int, others: int) -> int:
    return 100 if not others else 100 * worse // others


def _counts(game_id: int | None, deal_number: int, key: int) -> tuple[int, int]:
    """(worse, others): the finished entries of the deal ranked below `key`, and all of them,
    leaving out the game itself."""
    cache_key = f"daily:rank:{deal_number}:{key}:{game_id or 0}"
    try:
        found = cache.get(cache_key)
    except Exception:
        logger.exception("daily rank: the cache could not be read")
        found = None
    if found is not None:
        return found  # type: ignore[no-any-return]
    rows = DailyRank.objects.filter(deal_number=deal_number)
    if game_id is not None:
        rows = rows.exclude(game_id=game_id)
    totals = rows.aggregate(others=Count("pk"), worse=Count("pk", filter=Q(key__lt=key)))
    counted = (int(totals["worse"]), int(totals["others"]))
    try:
        cache.set(cache_key, counted, RANK_TTL)
    except Exception:
        logger.exception("daily rank: the cache could not be written")
    return counted


def of_game(game: Game, today: dt.date | None = None) -> Rank | None:
    """Where a finished game of a day's deal under the daily rules stands among that day's
    counted players; None for a game under way or any other game."""
    if game.rules != deals.DAILY_RULES or game.pk is None:
        return None
    day = deals.day_of_deal(game.deal_number)
    key = rank_key(game.status, game.assisted, game.wall_ms, game.move_count, game.cards_home)
    if day is None or key is None:
        return None
    today = today or deals.today_utc()
    kept = None
    if day < today and game.daily_entry:
        kept = (
            DailyRank.objects.filter(game_id=game.pk).values_list("percentile", flat=True).first()
        )
    worse, others = _counts(game.pk, game.deal_number, key)
    percentile = _percentile(worse, others) if kept is None else kept
    if kept is None and day < today and game.daily_entry:
        DailyRank.objects.filter(game_id=game.pk, percentile__isnull=True).update(
            percentile=percentile
        )
    return Rank(percentile, others, day == today, game.is_clean_win)


def month_percentiles(game_ids: Iterable[int], today: dt.date) -> dict[int, int]:
    """The calendar's figures for these games (one player's month): a day that is over shows
    its kept figure (kept by `keep_day`, or by the day's page when its player looked), today's
    shows the figure as it stands. One query, and today's cached counts; a game that is not a
    finished counted entry has none."""
    ids = list(game_ids)
    if not ids:
        return {}
    rows = DailyRank.objects.filter(game_id__in=ids).values_list(
        "game_id", "deal_number", "key", "percentile"
    )
    today_number = deals.deal_number_for(today)
    found: dict[int, int] = {}
    for game_id, number, key, percentile in rows:
        if percentile is not None:
            found[game_id] = percentile
        elif number == today_number:
            found[game_id] = _percentile(*_counts(game_id, number, key))
    return found


def keep_day(deal_number: int) -> int:
    """Keep every figure of a day that is over on its entries' rows (`manage.py daily_ranks`,
    run after midnight UTC): the day's keys read once in order, each entry's figure found by
    bisection. Returns how many rows were kept. A figure kept already is left as it is."""
    rows = list(DailyRank.objects.filter(deal_number=deal_number).values_list("game_id", "key"))
    keys = sorted(key for _, key in rows)
    others = len(keys) - 1
    kept = [
        DailyRank(game_id=game_id, percentile=_percentile(bisect_left(keys, key), others))
        for game_id, key in rows
    ]
    unkept = set(
        DailyRank.objects.filter(deal_number=deal_number, percentile__isnull=True).values_list(
            "game_id", flat=True
        )
    )
    todo = [row for row in kept if row.game_id in unkept]
    DailyRank.objects.bulk_update(todo, ["percentile"], batch_size=1_000)
    return len(todo)
