"""Everyone's figures per day, kept as one row a day (game.models.DailyTally) as games change.

Counting a month's entries on every read grows with the entries (bench/daily.py: with 30,000
entries on a month's days the month page took 1.9 times as long as an empty one); a row a day
costs the same whatever the number of players. The row changes in the same transaction as the
game whose save changes what the figures read from it (`counted`: begun, won
clean, and the time and length of a win), through the ORM's post_save (game/counters.py), so
the two never disagree after a commit:

- an entry begun adds a player; a clean win adds a winner and may lower the best time (a time
  under the floor of BEST_TIME_FLOOR_MS_PER_MOVE a move is no record);
- a change that takes something away (a win undone, an entry that stops counting) rebuilds
  that day's row from its games, which is rare.

Writes that go around the ORM's signals (`QuerySet.update`, `bulk_create`, raw SQL) must call
`rebuild` for the deals they touched, as game/stats/transfer.py does; the migration that made
the table built every day's row from the games then.

It sits beside the models rather than in game/daily: a statistics transfer (game.stats) keeps it
true as well as the daily figures, and game.daily's page draws the site's board (game.play),
which shows a win's statistics, so a tally inside game.daily closed a circle of imports.
"""

from __future__ import annotations

from django.db import transaction
from django.db.models import Case, Count, F, Min, PositiveBigIntegerField, Q, Value, When

from game import deals
from game.models import DailyTally, Game
from game.status import WIN

BEST_TIME_FLOOR_MS_PER_MOVE = 250
"""A win faster than this per move is not shown as a best time: no person plays a card a quarter
of a second after the last, move after move (auto-finish included, it is a small share of a game).
A time under it can only come from a script, so it counts as a win but never as the record."""


def plausible_win() -> Q:
    """A win (status.WIN) whose time may stand as everyone's best: timed by the server's own
    clock from the first move to the win (Game.wall_ms, which no pause or resume from the page
    shortens), and not faster than a person plays."""
    return WIN & Q(wall_ms__gte=F("move_count") * BEST_TIME_FLOOR_MS_PER_MOVE)


Counted = tuple[object, ...]

# What everyone's figures read from a game: whether it is a daily entry (Game.daily_entry) that
# has begun, its status, whether it was assisted, and the time and length of a win. A change to
# any of these (a first move, a win, a loss, an abandon, a peek) changes the deal's row and drops
# the month's cached figures (game.daily.figures); a move that changes none of them (most moves)
# does neither.
NOT_COUNTED: Counted = (False, Game.Status.PLAYING, False, None, None)


def counted(game: Game) -> Counted:
    # Read from the instance's fields as loaded: a deferred field is not fetched for this.
    fields = game.__dict__
    if not fields.get("daily_entry") or fields.get("started_at") is None:
        return NOT_COUNTED
    status = fields.get("status")
    won = status == Game.Status.WON
    return (
        True,
        status,
        fields.get("assisted"),
        fields.get("wall_ms") if won else None,
        fields.get("move_count") if won else None,
    )


def _won(counted: Counted) -> bool:
    return bool(counted[0]) and counted[1] == Game.Status.WON and not counted[2]


def _record_time(counted: Counted) -> int | None:
    wall, moves = counted[3], counted[4]
    if not _won(counted) or not isinstance(wall, int) or not isinstance(moves, int):
        return None
    return wall if wall >= moves * BEST_TIME_FLOOR_MS_PER_MOVE else None


def record_change(deal_number: int, before: Counted, now: Counted) -> None:
    """Bring the deal's row in line with one game that counted as `before` and counts as `now`
    (`counted`'s tuples)."""
    players = int(bool(now[0])) - int(bool(before[0]))
    winners = int(_won(now)) - int(_won(before))
    best = _record_time(now)
    if players < 0 or winners < 0 or (_record_time(before) is not None and best is None):
        rebuild(deal_number, deal_number)
        return
    if not players and not winners and best is None:
        return
    with transaction.atomic():
        DailyTally.objects.get_or_create(deal_number=deal_number)
        changes: dict[str, object] = {
            "players": F("players") + players,
            "winners": F("winners") + winners,
        }
        if best is not None:
            changes["best_wall_ms"] = Case(
                When(Q(best_wall_ms__isnull=True) | Q(best_wall_ms__gt=best), then=Value(best)),
                default=F("best_wall_ms"),
                output_field=PositiveBigIntegerField(),
            )
        DailyTally.objects.filter(deal_number=deal_number).update(**changes)


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
    """Count the deals from `low` to `high` afresh from their games (after a bulk write)."""
    rows = (
        Game.objects.filter(entries(low, high))
        .values("deal_number")
        .annotate(
            players=Count("pk"),
            winners=Count("pk", filter=WIN),
            best=Min("wall_ms", filter=plausible_win()),
        )
        .order_by()
    )
    with transaction.atomic():
        DailyTally.objects.filter(deal_number__gte=low, deal_number__lte=high).delete()
        DailyTally.objects.bulk_create(
            DailyTally(
                deal_number=row["deal_number"],
                players=row["players"],
                winners=row["winners"],
                best_wall_ms=row["best"],
            )
            for row in rows
        )


def read(low: int, high: int) -> list[DailyTally]:
    """The rows of the deals from `low` to `high` that anyone has played (one query)."""
    return list(
        DailyTally.objects.filter(deal_number__gte=low, deal_number__lte=high, players__gt=0)
    )
