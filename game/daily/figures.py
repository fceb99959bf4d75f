"""Daily figures as ORM aggregates: how everyone did on each day's deal, this player's month,
the daily streak, and the text a player shares.

A daily game is any game of a date's deal number under the default rules (`lucie`), however it
was opened. Only started games (a first move made) count as played; an abandoned game counts as
played, not won; a game in which the solver was peeked at (`assisted`) is never a win. A game is
"on the day" when its first move was made on the UTC date its deal number names: only those count
for the daily streak; the others were "played late".

Everything for a month page is a fixed number of queries, whatever the number of days or games:
everyone's figures read from the tally's row a day (game/daily/tally.py; cached briefly), one
query for this player's games of the month, one for this player's on-the-day wins (the streak).
"""

from __future__ import annotations

import datetime as dt
import logging
import secrets
from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.core.cache import cache
from django.db import transaction
from django.db.models import Count, F, Min, Q, QuerySet
from django.db.models.expressions import CombinedExpression
from django.db.models.functions import ExtractDay, ExtractMonth, ExtractYear
from django.utils.translation import ngettext, pgettext, pgettext_lazy

from game.board.display import format_ms
from game.daily import deals, tally
from game.models import WIN, Game
from lucie import metrics

if TYPE_CHECKING:
    from game.daily.difficulty import Difficulty

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

    @property
    def win_rate(self) -> str:
        return f"{100 * self.winners / self.players:.0f}%" if self.players else DASH

    @property
    def best_time(self) -> str:
        return DASH if self.best_time_ms is None else format_ms(self.best_time_ms)


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


BEST_TIME_FLOOR_MS_PER_MOVE = tally.BEST_TIME_FLOOR_MS_PER_MOVE
_plausible_win = tally.plausible_win


def _daily_games(low: int, high: int) -> QuerySet[Game]:
    # `started_at__isnull=False` (not an exclude) so that the SQL says "IS NOT NULL", which lets
    # the database use the partial index game_daily_entries.
    return Game.objects.filter(
        rules=deals.DAILY_RULES,
        deal_number__gte=low,
        deal_number__lte=high,
        started_at__isnull=False,
    )


def _entries(low: int, high: int) -> QuerySet[Game]:
    """The games everyone's figures count: each session's first game of the deal begun from the
    daily page (Game.daily_entry), once its first move is made. Not embed games, records played
    on, replays or later tries."""
    return Game.objects.filter(tally.entries(low, high))


def _started_day_number() -> CombinedExpression:
    """started_at's UTC date as YYYYMMDD, in SQL (Django extracts in TIME_ZONE, which is UTC)."""
    return (
        ExtractYear("started_at") * 10_000
        + ExtractMonth("started_at") * 100
        + ExtractDay("started_at")
    )


# ---------------------------------------------------------------- everyone


def _figures(low: int, high: int) -> dict[int, DayFigures]:
    """Everyone's figures for the deals from `low` to `high`, from the tally's row a day."""
    return {
        row.deal_number: DayFigures(
            deal_number=row.deal_number,
            players=row.players,
            winners=row.winners,
            best_time_ms=row.best_wall_ms,
        )
        for row in tally.read(low, high)
    }


def generation_key(first: dt.date) -> str:
    return f"daily:generation:{first:%Y%m}"


def month_key(first: dt.date) -> str:
    """The cache key of everyone's figures for the month that begins on `first`, as they stand.

    It names the month's generation, which every change to its figures replaces (see
    `_forget`): a server that was computing the figures from the database as it stood just
    before a change stores them under the old generation's key, which no one reads any more, so
    a change shows at once on every server instead of when a stale entry expires."""
    generation = cache.get(generation_key(first), "0")
    return f"daily:month:{first:%Y%m}:{generation}"


def month_figures(first: dt.date) -> dict[int, DayFigures]:
    """Everyone's figures for each day of the month that has any, keyed by deal number.

    Kept in Django's cache (shared by every app server when CACHE_URL names a Redis) until a game
    changes them (`forget_after_save`), and at most CURRENT_MONTH_TTL or PAST_MONTH_TTL
    seconds in any case, for changes made around the ORM's signals (bulk updates, raw SQL)."""
    key = month_key(first)
    found: dict[int, DayFigures] | None = cache.get(key)
    metrics.cache_lookup("figures", hit=found is not None)
    if found is None:
        found = _figures(*deals.month_bounds(first))
        current = first == deals.today_utc().replace(day=1)
        cache.set(key, found, CURRENT_MONTH_TTL if current else PAST_MONTH_TTL)
    return found


# ---------------------------------------------------------------- keeping the cache true

# What everyone's figures read from a game: whether it is a daily entry (Game.daily_entry) that
# has begun, its status, whether it was assisted, and the time and length of a win. A change to
# any of these (a first move, a win, a loss, an abandon, a peek) drops the month's cached figures;
# a move that changes none of them (most moves) does not.
NOT_COUNTED: tuple[object, ...] = (False, Game.Status.PLAYING, False, None, None)


def counted(game: Game) -> tuple[object, ...]:
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


def remember_counted(sender: type[Game], instance: Game, **kwargs: object) -> None:
    """post_init: note what the figures read from the game as it was loaded."""
    instance._counted = counted(instance)  # type: ignore[attr-defined]


def forget_after_save(
    sender: type[Game], instance: Game, created: bool = False, **kwargs: object
) -> None:
    """post_save: drop the month's cached figures if the game now counts differently."""
    before = NOT_COUNTED if created else getattr(instance, "_counted", NOT_COUNTED)
    now = counted(instance)
    instance._counted = now  # type: ignore[attr-defined]
    if now != before and instance.rules == deals.DAILY_RULES:
        tally.record_change(instance.deal_number, before, now)
    _forget_on_change(instance, before, now)


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
        cache.set(generation_key(first), secrets.token_hex(8), GENERATION_TTL)
    except Exception:
        logger.exception("daily figures: could not renew %s in the cache", generation_key(first))


def day_figures(day: dt.date) -> DayFigures:
    """One day's figures, straight from the database (the management command's)."""
    number = deals.deal_number_for(day)
    return _figures(number, number).get(number, DayFigures(deal_number=number))


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
        .annotate(started_day=_started_day_number())
        .aggregate(
            players=Count("pk"),
            winners=Count("pk", filter=WIN),
            best=Min("wall_ms", filter=_plausible_win()),
            on_the_day=Count("pk", filter=Q(started_day=number)),
            in_progress=Count("pk", filter=Q(status=Game.Status.PLAYING)),
            lost=Count("pk", filter=Q(status=Game.Status.LOST)),
            abandoned=Count("pk", filter=Q(status=Game.Status.ABANDONED)),
            sessions=Count("session_key", distinct=True, filter=~Q(session_key="")),
        )
    )
    return DayBreakdown(
        figures=DayFigures(number, totals["players"], totals["winners"], totals["best"]),
        on_the_day=totals["on_the_day"],
        late=totals["players"] - totals["on_the_day"],
        in_progress=totals["in_progress"],
        lost=totals["lost"],
        abandoned=totals["abandoned"],
        sessions=totals["sessions"],
    )


# ---------------------------------------------------------------- this player


def _state(status: str, assisted: bool) -> str:
    if status == Game.Status.WON:
        return "assisted" if assisted else "won"
    return str(status)


def player_month(session_key: str | None, first: dt.date) -> dict[int, DayResult]:
    """This player's result for each day of the month they played, keyed by deal number."""
    if not session_key:
        return {}
    games = (
        _daily_games(*deals.month_bounds(first))
        .filter(session_key=session_key)
        .only(*RESULT_FIELDS)
    )
    best: dict[int, tuple[tuple[int, int, int], DayResult]] = {}
    for game in games:
        number = game.deal_number
        result = day_result(game)
        # A win on the day beats a late one, a faster win a slower one; otherwise the latest game.
        tie = result.elapsed_ms if result.state == "won" else -result.game_id
        rank = (_STATE_RANK[result.state], 0 if result.on_the_day else 1, tie)
        if number not in best or rank < best[number][0]:
            best[number] = (rank, result)
    return {number: result for number, (_, result) in best.items()}


RESULT_FIELDS = (
    "pk", "deal_number", "status", "assisted", "started_at", "elapsed_ms", "move_count",
    "cards_home", "redeals_used", "mercis_used", "undos", "hints",
)  # fmt: skip


def day_result(game: Game) -> DayResult:
    return DayResult(
        state=_state(game.status, game.assisted),
        on_the_day=_on_the_day(game.deal_number, game.started_at),
        elapsed_ms=game.elapsed_ms,
        move_count=game.move_count,
        cards_home=game.cards_home,
        redeals_used=game.redeals_used,
        mercis_used=game.mercis_used,
        game_id=game.pk,
        clean=game.is_clean_win,
    )


def _on_the_day(number: int, started_at: dt.datetime | None) -> bool:
    return started_at is not None and deals.deal_number_for(started_at.astimezone(dt.UTC)) == number


@dataclass(frozen=True)
class Streaks:
    current: int
    best: int


def streaks(session_key: str | None, today: dt.date | None = None) -> Streaks:
    """The daily streak (days in a row won on the day, ending today or yesterday) and the best.

    One query for the dates of this player's clean wins made on the day; the runs are counted
    here over those few hundred dates at most.
    """
    if not session_key:
        return Streaks(0, 0)
    today = today or deals.today_utc()
    low = deals.deal_number_for(deals.site_start())
    numbers = (
        _daily_games(low, deals.deal_number_for(today))
        .filter(WIN, session_key=session_key)
        .alias(started_day=_started_day_number())
        .filter(started_day=F("deal_number"))
        .values_list("deal_number", flat=True)
        .distinct()
    )
    days = {day for number in numbers if (day := deals.day_of_deal(number)) is not None}
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


# ---------------------------------------------------------------- sharing


def share_text(
    deal_number: int, result: DayResult, url: str, hardness: Difficulty | None = None
) -> str:
    """A finished daily game as two lines to paste anywhere: the result, and the deal's link.

    It names the deal, the result, the time, redeals and the merci, and how hard the deal is
    when known: nothing about the player.
    """
    parts: list[str]
    if result.state in ("won", "assisted"):
        if result.state == "won":
            verb = pgettext("the share text", "won in %(time)s")
        else:
            verb = pgettext("the share text", "solved with help in %(time)s")
        moves = ngettext("%(count)s move", "%(count)s moves", result.move_count)
        parts = [verb % {"time": result.time}, moves % {"count": result.move_count}]
        if result.clean:
            parts.append(pgettext("the share text", "clean"))
    else:
        if result.state == "abandoned":
            verb = pgettext("the share text", "left unfinished")
        else:
            verb = pgettext("the share text", "lost")
        home = pgettext("the share text", "%(count)s/52 cards home") % {"count": result.cards_home}
        parts = [verb, home]
    redeals = result.redeals_used
    if redeals == 0:
        parts.append(pgettext("the share text", "no redeal"))
    else:
        parts.append(
            ngettext("%(count)s redeal", "%(count)s redeals", redeals) % {"count": redeals}
        )
    if result.mercis_used:
        parts.append(pgettext("the share text", "merci used"))
    else:
        parts.append(pgettext("the share text", "no merci"))
    if not result.on_the_day:
        parts.append(pgettext("the share text", "played late"))
    hard = f" \N{MIDDLE DOT} {hardness.share}" if hardness is not None else ""
    return f"La Belle Lucie #{deal_number} \N{EM DASH} {', '.join(parts)}{hard}\n{url}"
