"""Statistics for one browser's session, as ORM aggregates, and the pictures drawn from them.

A game counts as played once it is over: won, lost, or abandoned (left in progress for another
game, which is a loss). A game begun and still under way is counted apart ("in progress") and is
in no rate. A game in which "Show a win" was used (or that went on from an imported record) is
a win with help: played, never won, and counted apart as such. Every figure that says "won" (Won,
the rate, the streaks, best and average times, the cards-home chart's bar of 52) counts clean
wins alone: the chart's wins with help have a bar of their own. Figures are per rule set, since a
win under "no merci" is not a win under the default rules; `rules=None` takes every rule set
together.

Reset: the session keeps `stats_since` (an ISO time). Games begun before it no longer count here;
the games themselves stay, so the daily page's figures and replay links are unchanged.

Queries are bounded whatever the number of games: one aggregate for the totals and the
histogram's bins, one window query for the streaks, one for the last 30 games, one for the times
of the last 30 wins, one for the rule sets this browser has played.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

from django.db import connection
from django.db.models import Avg, Case, Count, F, IntegerField, Max, Min, Q, QuerySet, Sum, When
from django.db.models.expressions import Window
from django.utils.translation import gettext, pgettext

from game.board.clock import format_ms
from game.models import Game
from game.result import FIELDS, HELPED, LOST, WON, Result
from game.status import CLEAN_WIN, WIN

# Cards home per game: bins of five, then the near misses and the wins on their own.
BINS: tuple[tuple[int, int], ...] = (
    *((low, low + 4) for low in range(0, 50, 5)),
    (50, 51),
    (52, 52),
)
# The bin of the wins with help: all 52 home, but not a win (`Bin.helped`).
HELPED_LOW = 53
RECENT = 30
REVIEW_LINKS = 5


@dataclass(frozen=True)
class Bin:
    low: int
    high: int
    count: int

    @property
    def helped(self) -> bool:
        return self.low == HELPED_LOW

    @property
    def won(self) -> bool:
        return self.low == 52

    @property
    def label(self) -> str:
        if self.helped:
            return pgettext("the chart's bar of wins with help", "52, help")
        return str(self.low) if self.low == self.high else f"{self.low}\N{EN DASH}{self.high}"


@dataclass(frozen=True)
class Recent:
    """One of the last games, for the strip: its Result (game/result.py)."""

    number: int
    game_result: Result
    deal_number: int
    replay_token: str
    pk: int = 0
    # Its hints: each showed the card to play; `hint_places` of them, where it goes too.
    hints: int = 0
    hint_places: int = 0

    @property
    def result(self) -> str:
        """won, assisted, lost or abandoned (game.result's states)."""
        return self.game_result.state

    @property
    def state(self) -> str:
        return self.game_result.state

    @property
    def clean(self) -> bool:
        """A clean win (status.CLEAN_WIN): no undo, no hint, no "Show a win"."""
        return self.game_result.clean

    @property
    def strict(self) -> bool:
        """Played in strict mode (Game.strict)."""
        return self.game_result.strict

    @property
    def cards_home(self) -> int:
        return self.game_result.cards_home

    @property
    def reviewable(self) -> bool:
        return self.game_result.state in (WON, HELPED, LOST)

    @property
    def time(self) -> str:
        return self.game_result.time

    @property
    def summary(self) -> str:
        result = self.game_result
        if result.clean:
            what = gettext("won in %(time)s, a clean win") % {"time": self.time}
        elif result.state == WON:
            what = gettext("won in %(time)s") % {"time": self.time}
        elif result.state == HELPED:
            what = gettext("won with help (counts as played)")
        elif result.state == LOST:
            what = gettext("lost, %(count)s cards home") % {"count": result.cards_home}
        else:
            what = gettext("abandoned, %(count)s cards home") % {"count": result.cards_home}
        if result.strict:
            what = gettext("%(result)s, in strict mode") % {"result": what}
        if self.hints:
            what = gettext("%(result)s; hints: %(cards)s, where it goes: %(places)s") % {
                "result": what,
                "cards": self.hints,
                "places": self.hint_places,
            }
        return gettext("Game %(number)s: deal #%(deal)s, %(what)s") % {
            "number": self.number,
            "deal": self.deal_number,
            "what": what,
        }


@dataclass(frozen=True)
class WinTime:
    number: int
    elapsed_ms: int
    deal_number: int
    best: bool

    @property
    def time(self) -> str:
        return format_ms(self.elapsed_ms)


@dataclass(frozen=True)
class Stats:
    played: int
    won: int
    current_streak: int
    best_streak: int
    best_time_ms: int | None
    best_cards_home: int
    average_cards_home: float
    average_time_ms: int | None = None
    bins: tuple[Bin, ...] = ()
    recent: tuple[Recent, ...] = ()
    win_times: tuple[WinTime, ...] = field(default=())
    in_progress: int = 0
    helped: int = 0
    # Clean wins (status.CLEAN_WIN: no undo, no hint, no "Show a win") and their current run.
    clean_won: int = 0
    clean_streak: int = 0
    # Games played in strict mode (Game.strict), counted apart as well: finished, won, the
    # current run of wins among them.
    strict_played: int = 0
    strict_won: int = 0
    strict_streak: int = 0
    # Hints over the games counted (under way too), by stage: each showed its card, and
    # `hint_places` of them where it goes as well (game/board/hint_answer.py).
    hints: int = 0
    hint_places: int = 0

    @property
    def strict_win_rate(self) -> str:
        if not self.strict_played:
            return "\N{EN DASH}"
        return f"{100 * self.strict_won / self.strict_played:.0f}%"

    @property
    def recent_reviewable(self) -> list[Recent]:
        """The last few won or lost games of the strip, newest first, for their reviews."""
        return [game for game in reversed(self.recent) if game.reviewable][:REVIEW_LINKS]

    @property
    def win_rate(self) -> str:
        if not self.played:
            return "\N{EN DASH}"
        return f"{100 * self.won / self.played:.0f}%"

    @property
    def best_time(self) -> str:
        return "\N{EN DASH}" if self.best_time_ms is None else format_ms(self.best_time_ms)

    @property
    def average_time(self) -> str:
        return "\N{EN DASH}" if self.average_time_ms is None else format_ms(self.average_time_ms)


def counted_games(
    session_key: str | None, rules: str | None = None, since: dt.datetime | None = None
) -> QuerySet[Game]:
    """The games that count: this session's, begun, under `rules` (None: all), since the reset."""
    games = Game.objects.filter(session_key=session_key or "-", started_at__isnull=False)
    if rules is not None:
        games = games.filter(rules=rules)
    if since is not None:
        games = games.filter(started_at__gte=since)
    return games


def for_session(
    session_key: str | None, rules: str | None = None, since: dt.datetime | None = None
) -> Stats:
    games = counted_games(session_key, rules, since)
    over = Q(finished_at__isnull=False)
    helped_win = over & Q(cards_home=52) & ~WIN
    bins = {
        f"bin_{low}": Count(
            "pk", filter=over & Q(cards_home__gte=low, cards_home__lte=high) & ~helped_win
        )
        for low, high in BINS
    }
    totals = games.aggregate(
        played=Count("pk", filter=over),
        in_progress=Count("pk", filter=Q(finished_at__isnull=True)),
        helped=Count("pk", filter=helped_win),
        won=Count("pk", filter=WIN),
        best_time=Min("elapsed_ms", filter=WIN),
        average_time=Avg("elapsed_ms", filter=WIN),
        best_home=Max("cards_home", filter=over),
        average_home=Avg("cards_home", filter=over),
        clean_won=Count("pk", filter=CLEAN_WIN),
        strict_played=Count("pk", filter=over & Q(strict=True)),
        strict_won=Count("pk", filter=WIN & Q(strict=True)),
        hints=Sum("hints"),
        hint_places=Sum("hint_places"),
        **bins,
    )
    current, best = _streaks(games)
    clean_current, _ = _streaks(games, CLEAN_WIN)
    strict_current = _streaks(games.filter(strict=True))[0] if totals["strict_played"] else 0
    average_time = totals["average_time"]
    return Stats(
        played=totals["played"],
        won=totals["won"],
        current_streak=current,
        best_streak=best,
        best_time_ms=totals["best_time"],
        best_cards_home=totals["best_home"] or 0,
        average_cards_home=round(totals["average_home"] or 0, 1),
        average_time_ms=None if average_time is None else round(average_time),
        bins=(
            *(Bin(low, high, totals[f"bin_{low}"]) for low, high in BINS),
            Bin(HELPED_LOW, HELPED_LOW, totals["helped"]),
        ),
        in_progress=totals["in_progress"],
        helped=totals["helped"],
        recent=_recent(games),
        win_times=_win_times(games, totals["best_time"]),
        clean_won=totals["clean_won"],
        clean_streak=clean_current,
        strict_played=totals["strict_played"],
        strict_won=totals["strict_won"],
        strict_streak=strict_current,
        hints=totals["hints"] or 0,
        hint_places=totals["hint_places"] or 0,
    )


def _streaks(games: QuerySet[Game], wins: Q | None = None) -> tuple[int, int]:
    """(current, best) runs of clean wins among the finished games, in the order they ended.

    Each finished game that is not a clean win starts a new group (a running count of them, as a
    window function); a streak is a group's count of wins, and the current streak is the last
    group's. One query, whatever the number of games.
    """
    wins = WIN if wins is None else wins
    not_won = Case(When(wins, then=0), default=1, output_field=IntegerField())
    won = Case(When(wins, then=1), default=0, output_field=IntegerField())
    ordered = games.filter(finished_at__isnull=False).values(
        w=won,
        grp=Window(Sum(not_won), order_by=[F("finished_at").asc(), F("pk").asc()]),
    )
    sql, params = ordered.query.sql_with_params()
    query = (
        f"WITH runs AS (SELECT s.grp AS grp, SUM(s.w) AS run FROM ({sql}) s GROUP BY s.grp) "
        "SELECT COALESCE(MAX(run), 0), "
        "COALESCE((SELECT run FROM runs WHERE grp = (SELECT MAX(grp) FROM runs)), 0) FROM runs"
    )
    with connection.cursor() as cursor:
        cursor.execute(query, params)
        row = cursor.fetchone()
    return (int(row[1]), int(row[0])) if row else (0, 0)


def _recent(games: QuerySet[Game]) -> tuple[Recent, ...]:
    rows = list(
        games.filter(finished_at__isnull=False)
        .order_by("-finished_at", "-pk")
        .values_list("deal_number", "replay_token", "pk", "hint_places", *FIELDS)[:RECENT]
    )
    rows.reverse()  # oldest first, so the strip reads left to right
    hints = FIELDS.index("hints")
    return tuple(
        Recent(number, Result.build(*fields), deal, token, pk, fields[hints], places)
        for number, (deal, token, pk, places, *fields) in enumerate(rows, start=1)
    )


def _win_times(games: QuerySet[Game], best_ms: int | None) -> tuple[WinTime, ...]:
    rows = list(
        games.filter(WIN)
        .order_by("-finished_at", "-pk")
        .values_list("elapsed_ms", "deal_number")[:RECENT]
    )
    rows.reverse()
    return tuple(
        WinTime(number, ms, deal, ms == best_ms) for number, (ms, deal) in enumerate(rows, start=1)
    )
