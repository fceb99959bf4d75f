"""Everyone's figures per day, kept as one row a day (game.models.DailyTally) as games change,
and each counted entry's first end (game.models.DailyRank) beside it.

Counting a month's entries on every read grows with the entries (bench/daily.py: with 30,000
entries on a month's days the month page took 1.9 times as long as an empty one); a row a day
costs the same whatever the number of players. The rows change in the same transaction as the
game whose save changes what the figures read from it (`counted`: begun, and ended), through
game/ending.py, which the change calls after its save, so the two never disagree after a commit:

- an entry begun adds a player;
- an entry's first end (won, lost, left, or won with "Show a win") is kept on its DailyRank
  row, once: that is its result for the day's figures, the rank, the streak, the badge and the
  calendar. Undo, redo and play after it are practice and change none of them. A first end that
  is an honest win (game.status.rank_key at least RANK_WIN: no "Show a win", not faster than a
  person plays) adds a winner (and a strict winner, for a game in strict mode) and may lower the
  best time;
- a change that takes something away (an entry that stops counting) rebuilds that day's rows,
  which is rare.

Writes that go around game/ending.py (`QuerySet.update`, `bulk_create`, raw SQL) must call
`rebuild` for the deals they touched, as game/stats/transfer.py does; the migration that made
the table built every day's row from the games then.

It sits beside the models rather than in game/daily: a statistics transfer (game.stats) keeps it
true as well as the daily figures, and game.daily's page draws the site's board (game.play),
which shows a win's statistics, so a tally inside game.daily closed a circle of imports.
"""

from __future__ import annotations

import datetime as dt
import logging
import secrets
from typing import Any

from django.core.cache import cache
from django.db import transaction
from django.db.models import Case, Count, F, Min, PositiveBigIntegerField, Q, Value, When

from game import deals
from game.models import DailyRank, DailyTally, Game
from game.status import (
    BEST_TIME_FLOOR_MS_PER_MOVE,
    FIELDS,
    RANK_FIELDS,
    RANK_WIN,
    TOO_FAST,
    WIN,
    rank_key,
)

__all__ = ["BEST_TIME_FLOOR_MS_PER_MOVE"]

logger = logging.getLogger(__name__)

# A month's generation outlives the figures kept under it: should it be evicted, readers go back
# to generation "0", whose figures (if any are left) are at most game.daily.figures'
# PAST_MONTH_TTL old.
GENERATION_TTL = 30 * 86400


def plausible_win() -> Q:
    """A win (status.WIN) whose time may stand as everyone's best: timed by the server's own
    clock from the first move to the win (Game.wall_ms, which no pause or resume from the page
    shortens), and not faster than a person plays (status.TOO_FAST, the one rule)."""
    return WIN & Q(wall_ms__isnull=False) & ~TOO_FAST


HONEST_WIN = Q(key__gte=RANK_WIN)
"""A DailyRank (a first end) that is one of the day's winners: a win without "Show a win", not
faster than a person plays (game.status.rank_key)."""


Counted = tuple[bool, bool]

# What everyone's figures read from a game: whether it is a daily entry (Game.daily_entry) that
# has begun, and whether it has ended. A change to either (a first move, an end, an undo out of
# an end) may change the deal's rows and drops the month's cached figures (game.daily.figures);
# a move that changes neither (most moves) does neither.
NOT_COUNTED: Counted = (False, False)


def counted(game: Game) -> Counted:
    # Read from the instance's fields as loaded: a deferred field is not fetched for this.
    fields = game.__dict__
    if not fields.get("daily_entry") or fields.get("started_at") is None:
        return NOT_COUNTED
    return (True, fields.get("status", Game.Status.PLAYING) != Game.Status.PLAYING)


def record(game: Game, before: Counted, now: Counted) -> None:
    """Bring the deal's rows in line with one game that counted as `before` and counts as `now`
    (`counted`'s tuples), in the transaction of the game's save."""
    number = game.deal_number
    if before[0] and not now[0]:
        rebuild(number, number)
        return
    with transaction.atomic():
        if now[0] and not before[0]:
            _day_row(number)
            DailyTally.objects.filter(deal_number=number).update(players=F("players") + 1)
        if now[1] and not (before[0] and before[1]):
            _first_end(game)


def first_end(game: Game) -> DailyRank:
    """A finished game's first end as its DailyRank row (not saved): its result columns as they
    stand, and its rank key."""
    values = {name: getattr(game, name) for name in FIELDS}
    key = rank_key(*(values[name] for name in RANK_FIELDS))
    assert key is not None, "a game under way has no end"
    return DailyRank(
        game_id=game.pk,
        deal_number=game.deal_number,
        key=key,
        ended_at=game.finished_at,
        **values,
    )


def _first_end(game: Game) -> None:
    """Keep the game's first end, if it has none kept yet; an honest win counts a winner."""
    if game.pk is None or DailyRank.objects.filter(game_id=game.pk).exists():
        return
    row = first_end(game)
    row.save(force_insert=True)
    if row.key < RANK_WIN:
        return
    changes: dict[str, object] = {"winners": F("winners") + 1}
    if row.strict:
        changes["strict_winners"] = F("strict_winners") + 1
    if row.wall_ms is not None:
        best = row.wall_ms
        changes["best_wall_ms"] = Case(
            When(Q(best_wall_ms__isnull=True) | Q(best_wall_ms__gt=best), then=Value(best)),
            default=F("best_wall_ms"),
            output_field=PositiveBigIntegerField(),
        )
    _day_row(game.deal_number)
    DailyTally.objects.filter(deal_number=game.deal_number).update(**changes)


def _day_row(number: int) -> None:
    """Make the deal's row if it has none, with no error when another transaction makes it at
    the same moment (midnight UTC's first moves): INSERT ... ON CONFLICT DO NOTHING (INSERT OR
    IGNORE on SQLite), where get_or_create would send an insert that fails, and PostgreSQL would
    log it."""
    DailyTally.objects.bulk_create([DailyTally(deal_number=number)], ignore_conflicts=True)


def entries(low: int, high: int) -> Q:
    """The games everyone's figures count, as a filter: each session's first game of the deal
    begun from the daily page (Game.daily_entry), once its first move is made, under the daily
    rules."""

    return Q(
        rules=deals.DAILY_RULES,
        deal_number__gte=low,
        deal_number__lte=high,
        started_at__isnull=False,
        daily_entry=True,
    )


def rebuild(low: int, high: int) -> None:
    """Count the deals from `low` to `high` afresh (after a bulk write): players from their
    entries; a first end kept for each finished entry that has none (as the game stands) and
    dropped for a game that no longer counts; winners and the best time from the first ends."""
    with transaction.atomic():
        counted_ids = Game.objects.filter(entries(low, high)).values("pk")
        DailyRank.objects.filter(deal_number__gte=low, deal_number__lte=high).exclude(
            game_id__in=counted_ids
        ).delete()
        missing = (
            Game.objects.filter(entries(low, high))
            .exclude(status=Game.Status.PLAYING)
            .filter(daily_rank__isnull=True)
        )
        DailyRank.objects.bulk_create(
            (first_end(game) for game in missing.iterator(chunk_size=2_000)), batch_size=2_000
        )
        players = dict(
            Game.objects.filter(entries(low, high))
            .values("deal_number")
            .annotate(players=Count("pk"))
            .order_by()
            .values_list("deal_number", "players")
        )
        ends: dict[int, Any] = {
            row["deal_number"]: row
            for row in DailyRank.objects.filter(deal_number__gte=low, deal_number__lte=high)
            .values("deal_number")
            .annotate(
                winners=Count("pk", filter=HONEST_WIN),
                strict_winners=Count("pk", filter=HONEST_WIN & Q(strict=True)),
                best=Min("wall_ms", filter=HONEST_WIN),
            )
            .order_by()
        }
        DailyTally.objects.filter(deal_number__gte=low, deal_number__lte=high).delete()
        DailyTally.objects.bulk_create(
            DailyTally(
                deal_number=number,
                players=count,
                winners=ends.get(number, {}).get("winners", 0),
                strict_winners=ends.get(number, {}).get("strict_winners", 0),
                best_wall_ms=ends.get(number, {}).get("best"),
            )
            for number, count in players.items()
        )


def read(low: int, high: int) -> list[DailyTally]:
    """The rows of the deals from `low` to `high` that anyone has played (one query)."""
    return list(
        DailyTally.objects.filter(deal_number__gte=low, deal_number__lte=high, players__gt=0)
    )


# ---------------------------------------------------------------- the generation of the figures


def generation_key(first: dt.date) -> str:
    return f"daily:generation:{first:%Y%m}"


def generation(first: dt.date) -> str:
    """The generation of the figures of the month that begins on `first`, which every change to
    them replaces once it commits (`forget_month`): the month's figures and
    the day's ranks (game/rank.py) are cached under it, so nothing cached before a change is
    read after it."""
    return str(cache.get(generation_key(first), "0"))


def forget_month(deal_number: int) -> None:
    """Drop the cached figures and ranks of the month of `deal_number` once the transaction
    commits (a new generation, see `generation`), so that no server recomputes them from the
    database as it was before this change and keeps that."""
    day = deals.day_of_deal(deal_number)
    if day is None:
        return
    first = day.replace(day=1)
    transaction.on_commit(lambda: _renew(first))


def _renew(first: dt.date) -> None:
    # The game is committed by now: an unreachable cache must not turn the player's answer into
    # an error. The figures then catch up when their cache entry expires.
    try:
        cache.set(generation_key(first), secrets.token_hex(8), GENERATION_TTL)
    except Exception:
        logger.exception("daily figures: could not renew %s in the cache", generation_key(first))
