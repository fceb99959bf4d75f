"""Daily figures, streaks and the share text as queries, the month page's query budget, and the
daily_stats command."""

from __future__ import annotations

import datetime as dt
import io
from collections.abc import Iterator

import pytest
import time_machine
from django.core.cache import cache
from django.core.management import CommandError, call_command
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from pytest_django.fixtures import DjangoCaptureOnCommitCallbacks, Settings

from game import deals, tally
from game.daily import figures as daily_figures
from game.daily import player, share
from game.daily.player import DayResult
from game.models import Game
from game.result import Result
from tests.helpers.daily import site_at
from tests.helpers.ending import created, saved

pytestmark = pytest.mark.django_db

NOON = dt.datetime(2026, 11, 29, 12, 0, tzinfo=dt.UTC)


@pytest.fixture(autouse=True)
def _setup(settings: Settings) -> Iterator[None]:
    with site_at(settings, NOON):
        yield


def at(day: int, hour: int = 9, month: int = 11) -> dt.datetime:
    return dt.datetime(2026, month, day, hour, tzinfo=dt.UTC)


def game(
    key: str,
    number: int,
    status: str = Game.Status.WON,
    started: dt.datetime | None = None,
    **fields: object,
) -> Game:
    """A game of `number` under the default rules, begun on its own day unless told otherwise."""
    if started is None and number // 100 == 202611:
        started = at(number % 100)
    fields.setdefault("rules", "lucie")
    fields.setdefault("elapsed_ms", 300_000)
    # The server's clock from the first move to the end: at least the player's own timer.
    fields.setdefault("wall_ms", None if status == Game.Status.PLAYING else fields["elapsed_ms"])
    # Begun from the daily page: the session's first game of the deal is its entry in the figures.
    fields.setdefault(
        "daily_entry",
        bool(key)
        and not Game.objects.filter(session_key=key, deal_number=number, daily_entry=True).exists(),
    )
    fields.setdefault("daily", bool(fields["daily_entry"]))
    return created(session_key=key, deal_number=number, status=status, started_at=started, **fields)


# ---------------------------------------------------------------- everyone


def test_day_figures_count_each_started_game_once() -> None:
    game("a", 20261128, elapsed_ms=400_000)
    game("b", 20261128, elapsed_ms=250_000)
    game("b", 20261128, Game.Status.LOST)  # a second game of the same browser: not counted
    game("c", 20261128, Game.Status.ABANDONED)  # played, not won
    game("d", 20261128, Game.Status.PLAYING)
    game("e", 20261128, elapsed_ms=10_000, assisted=True)  # played, never won
    game("f", 20261128, Game.Status.PLAYING, started=None)  # never begun: not counted
    Game.objects.filter(session_key="f").update(started_at=None)
    tally.rebuild(20261128, 20261128)  # an update goes around the tally's signal
    game("g", 20261128, rules="trefoil")  # another rule set is another game
    game("h", 20261127)  # another day
    game("", 20261128, elapsed_ms=200_000)  # an embedded game, with no session: not counted

    figures = daily_figures.day_figures(dt.date(2026, 11, 28))

    assert (figures.players, figures.winners) == (5, 2)
    assert figures.win_rate == "40%"
    assert figures.best_time == "4:10"


def test_a_day_nobody_played_has_empty_figures() -> None:
    figures = daily_figures.day_figures(dt.date(2026, 11, 2))

    assert (figures.players, figures.winners, figures.best_time_ms) == (0, 0, None)
    assert figures.win_rate == figures.best_time == "\N{EN DASH}"


def test_month_figures_cover_only_that_month() -> None:
    game("a", 20261101)
    game("a", 20261130)
    game("a", 20261201, started=at(1, month=12))
    game("a", 20261031, started=at(31, month=10))
    game("a", 202611290)  # a random deal number that merely starts like the month

    figures = daily_figures.month_figures(dt.date(2026, 11, 1))

    assert sorted(figures) == [20261101, 20261130]


def test_month_figures_are_cached_briefly(settings: Settings) -> None:
    # Time travel moves this process's clock, not a Redis server's: use the memory cache here.
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    first = dt.date(2026, 11, 1)
    game("a", 20261128)
    daily_figures.month_figures(first)
    game("b", 20261128)

    cached = daily_figures.month_figures(first)
    with time_machine.travel(NOON + dt.timedelta(seconds=daily_figures.CURRENT_MONTH_TTL + 1)):
        fresh = daily_figures.month_figures(first)

    assert cached[20261128].players == 1
    assert fresh[20261128].players == 2


def test_the_breakdown_tells_on_the_day_from_late() -> None:
    game("a", 20261128)
    game("b", 20261128, Game.Status.LOST, started=at(29))
    game("c", 20261128, Game.Status.ABANDONED, started=at(28, hour=23))
    game("d", 20261128, Game.Status.PLAYING, started=at(28, hour=0))

    breakdown = daily_figures.day_breakdown(dt.date(2026, 11, 28))

    assert breakdown.figures.players == 4
    assert (breakdown.on_the_day, breakdown.late) == (3, 1)
    assert (breakdown.in_progress, breakdown.lost, breakdown.abandoned) == (1, 1, 1)
    assert breakdown.sessions == 4


# ---------------------------------------------------------------- streaks


@pytest.mark.parametrize(
    ("won_days", "current", "best"),
    [
        ([], 0, 0),
        ([29], 1, 1),
        ([27, 28, 29], 3, 3),
        ([27, 28], 2, 2),  # today not played yet: the streak runs to yesterday
        ([26, 27], 0, 2),  # yesterday missed: broken
        ([1, 2, 3, 4, 10, 28, 29], 2, 4),
        ([30], 0, 0),  # a date to come cannot have been won on its day
    ],
)
def test_daily_streak_and_best(won_days: list[int], current: int, best: int) -> None:
    for day in won_days:
        game("me", 20261100 + day, started=at(day) if day <= 29 else at(29))

    streaks = player.streaks("me")

    assert (streaks.current, streaks.best) == (current, best)


def test_a_streak_runs_across_months_and_years(settings: Settings) -> None:
    settings.SITE_START_MONTH = "2025-12"
    for day in (dt.date(2025, 12, 30), dt.date(2025, 12, 31), dt.date(2026, 1, 1)):
        number = day.year * 10_000 + day.month * 100 + day.day
        game("me", number, started=dt.datetime.combine(day, dt.time(8), tzinfo=dt.UTC))

    assert player.streaks("me", dt.date(2026, 1, 1)).current == 3


def test_only_wins_on_the_day_count_for_the_streak() -> None:
    game("me", 20261129)
    game("me", 20261128, started=at(29, hour=1))  # played late
    game("me", 20261127, Game.Status.LOST)
    game("me", 20261126, assisted=True)
    game("me", 20261125, rules="lucie-r0")
    game("other", 20261128)

    streaks = player.streaks("me")

    assert (streaks.current, streaks.best) == (1, 1)


def test_a_win_begun_at_one_second_before_midnight_is_on_the_day() -> None:
    game("me", 20261128, started=dt.datetime(2026, 11, 28, 23, 59, 59, tzinfo=dt.UTC))
    game("me", 20261129, started=dt.datetime(2026, 11, 29, 0, 0, 0, tzinfo=dt.UTC))
    game("me", 20261127, started=dt.datetime(2026, 11, 28, 0, 0, 0, tzinfo=dt.UTC))

    assert player.streaks("me").current == 2


def test_a_browser_with_no_session_has_no_streak() -> None:
    assert player.streaks(None) == player.Streaks(0, 0)
    assert player.player_month(None, dt.date(2026, 11, 1)) == {}


# ---------------------------------------------------------------- this player's month


def test_a_day_with_no_counted_entry_is_told_by_its_best_game() -> None:
    # No counted entry (another browser on the same network had it): the best game speaks.
    game("me", 20261128, Game.Status.LOST, daily_entry=False)
    won = game("me", 20261128, elapsed_ms=200_000, daily_entry=False)
    game("me", 20261128, elapsed_ms=100_000, started=at(29), daily_entry=False)  # faster, late
    game("me", 20261127, Game.Status.ABANDONED, daily_entry=False)
    playing = game("me", 20261127, Game.Status.PLAYING, daily_entry=False)

    month = player.player_month("me", dt.date(2026, 11, 1))

    assert month[20261128].game_id == won.pk
    assert month[20261128].on_the_day
    assert month[20261127].game_id == playing.pk
    assert month[20261127].label == "In progress"


def test_a_counted_entry_s_first_end_tells_the_day_whatever_came_after() -> None:
    entry = game("me", 20261128, Game.Status.LOST, cards_home=12)
    game("me", 20261128, elapsed_ms=200_000)  # a later try, won: practice
    entry.status = Game.Status.WON  # the entry undone and played out afterwards
    entry.cards_home = 52
    saved(entry)

    month = player.player_month("me", dt.date(2026, 11, 1))

    assert month[20261128].game_id == entry.pk
    assert (month[20261128].state, month[20261128].cards_home) == ("lost", 12)
    assert month[20261128].practice
    assert player.streaks("me") == player.Streaks(0, 0)


def test_a_day_of_many_tries_is_told_by_its_best_whatever_their_order() -> None:
    game("me", 20261128, Game.Status.LOST, hints=2, daily_entry=False)
    clean = game("me", 20261128, elapsed_ms=250_000)
    game("me", 20261128, elapsed_ms=90_000, assisted=True)  # faster, but with help
    game("me", 20261128, elapsed_ms=300_000, undos=1)  # slower
    game("me", 20261128, Game.Status.PLAYING)
    game("me", 20261126, Game.Status.LOST, daily_entry=False)
    latest = game("me", 20261126, Game.Status.LOST, cards_home=30, daily_entry=False)
    game("other", 20261128, elapsed_ms=60_000)

    month = player.player_month("me", dt.date(2026, 11, 1))

    assert set(month) == {20261128, 20261126}
    assert month[20261128] == player.day_result(clean)
    assert month[20261128].clean
    assert month[20261126].game_id == latest.pk
    assert month[20261126].cards_home == 30


def test_a_win_on_the_day_counts_for_the_streak_among_later_tries() -> None:
    # Tries that are not the day's counted entry (its network had one already).
    game("me", 20261128, started=at(29), daily_entry=False)  # won late
    game("me", 20261128, Game.Status.LOST, daily_entry=False)
    game("me", 20261128, started=at(28, hour=23), daily_entry=False)  # won on the day
    game("me", 20261129, Game.Status.PLAYING)
    game("me", 20261129)

    assert player.streaks("me") == player.Streaks(2, 2)


# ---------------------------------------------------------------- sharing


def result(**fields: object) -> DayResult:
    on_the_day = bool(fields.pop("on_the_day", True))
    values: dict[str, object] = {
        "state": "won",
        "elapsed_ms": 252_000,
        "wall_ms": 260_000,
        "move_count": 93,
        "cards_home": 52,
        "redeals_used": 2,
        "mercis_used": 1,
        "clean": False,
        "helped": True,
        "too_fast": False,
        "key": 1_000,
    }
    values.update(fields)
    return DayResult(Result(**values), on_the_day, 1)  # type: ignore[arg-type]


URL = "https://lucie.example/daily/2026/11/29/"


@pytest.mark.parametrize(
    ("fields", "line"),
    [
        ({}, "won in 4:12, 93 moves, 2 redeals, merci used"),
        ({"redeals_used": 1, "mercis_used": 0}, "won in 4:12, 93 moves, 1 redeal, no merci"),
        (
            {"redeals_used": 0, "elapsed_ms": 3_725_000},
            "won in 1:02:05, 93 moves, no redeal, merci used",
        ),
        ({"state": "lost", "cards_home": 31}, "lost, 31/52 cards home, 2 redeals, merci used"),
        (
            {"state": "abandoned", "cards_home": 12},
            "left unfinished, 12/52 cards home, 2 redeals, merci used",
        ),
        ({"on_the_day": False}, "won in 4:12, 93 moves, 2 redeals, merci used, played late"),
        ({"state": "assisted"}, "solved with help in 4:12, 93 moves, 2 redeals, merci used"),
        ({"clean": True}, "won in 4:12, 93 moves, clean, 2 redeals, merci used"),
    ],
)
def test_share_text(fields: dict[str, object], line: str) -> None:
    text = share.share_text(20261129, result(**fields), URL)

    assert text == f"La Belle Lucie #20261129 \N{EM DASH} {line}\n{URL}"


def test_share_text_carries_nothing_about_the_player(client: Client) -> None:
    key = client.session.session_key
    assert key is not None
    for other in ("a", "b", "c"):  # the game's id is then not a figure the text holds
        game(other, 20261128, Game.Status.PLAYING, started=None)
    played = game(key, 20261129, token="secret-token-abc")

    html = client.get("/daily/").content.decode()
    start = html.index('<textarea id="share-text"')
    share = html[start : html.index("</textarea>", start)]  # the board's own come before it

    assert f'data-game="{played.pk}"' in html
    assert key not in share
    assert "secret-token-abc" not in share
    assert str(played.pk) not in share.split("\n")[0].split("#20261129")[1]


# ---------------------------------------------------------------- the month page's queries


def month_page_queries(client: Client) -> int:
    cache.clear()
    # One Redis may hold the sessions' cache too (CACHE_URL): put the session back in it, so
    # that only the page's own queries are counted.
    client.session.load()
    with CaptureQueriesContext(connection) as queries:
        response = client.get("/daily/2026/11/")
    assert response.status_code == 200
    return len(queries)


def test_the_month_page_makes_as_many_queries_with_many_games_as_with_none(
    client: Client,
) -> None:
    key = client.session.session_key
    assert key is not None
    # Today's game finished: the page shares it, with its rank and its challenge link (made on
    # the first showing, so the page is counted from the second).
    game(key, 20261129, Game.Status.WON)
    month_page_queries(client)
    empty = month_page_queries(client)

    games = []
    for day in range(1, 30):
        for n in range(12):
            status = (Game.Status.WON, Game.Status.LOST, Game.Status.ABANDONED)[n % 3]
            if day == 29 and n == 0:
                continue  # this player's entry of today, made above
            games.append(
                Game(
                    session_key=key if n < 2 else f"s{n}",
                    deal_number=20261100 + day,
                    rules="lucie",
                    status=status,
                    started_at=at(day, hour=n % 24),
                    elapsed_ms=1000 * (100 + n),
                    daily_entry=n != 1,
                )
            )
        games.append(Game(session_key=key, deal_number=day, rules="lucie", started_at=at(day)))
    Game.objects.bulk_create(games)
    tally.rebuild(20261101, 20261130)  # a bulk write goes around the tally's signal
    full = month_page_queries(client)
    html = client.get("/daily/2026/11/").content.decode()

    assert full == empty
    # the session, this player's month, their ranks, the streak, everyone's month, how hard
    # each day is, today's rank; today's result shared: its game and its challenge
    assert full <= 10
    assert html.count("In progress") == 0
    assert html.count("11 played, 4 won") == 29


def test_a_cached_month_page_skips_everyones_query(client: Client) -> None:
    client.session.save()
    client.get("/daily/2026/11/")  # the session's renewal of the day, written once
    cold = month_page_queries(client)
    with CaptureQueriesContext(connection) as warm:
        client.get("/daily/2026/11/")

    assert len(warm) == cold - 1


# ---------------------------------------------------------------- the command


def test_daily_stats_command_prints_todays_figures() -> None:
    game("a", 20261129, elapsed_ms=61_000)
    game("b", 20261129, Game.Status.LOST)
    out = io.StringIO()

    call_command("daily_stats", stdout=out)

    text = out.getvalue()
    assert "Daily deal #20261129 (Sunday 29 November 2026, rules lucie)" in text
    assert "players:      2" in text
    assert "winners:      1" in text
    assert "win rate:     50%" in text
    assert "best time:    1:01" in text


def test_daily_stats_command_takes_a_date() -> None:
    game("a", 20261101)
    out = io.StringIO()

    call_command("daily_stats", "--date", "2026-11-01", stdout=out)

    assert "#20261101" in out.getvalue()
    assert "players:      1" in out.getvalue()


@pytest.mark.parametrize("text", ["2026-13-01", "2026-02-30", "20261129", "29/11/2026", "", "x"])
def test_daily_stats_command_refuses_a_malformed_date(text: str) -> None:
    with pytest.raises(CommandError, match="--date"):
        call_command("daily_stats", "--date", text, stdout=io.StringIO())


# ---------------------------------------------------------------- the cache follows the games

NOVEMBER = dt.date(2026, 11, 1)


def cached_month() -> object:
    return cache.get(daily_figures.month_key(NOVEMBER))


def test_a_game_begun_drops_its_months_cached_figures(
    django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks,
) -> None:
    game("a", 20261128)
    daily_figures.month_figures(NOVEMBER)

    with django_capture_on_commit_callbacks(execute=True):
        game("b", 20261128, Game.Status.PLAYING)

    assert cached_month() is None
    assert daily_figures.month_figures(NOVEMBER)[20261128].players == 2


def test_a_daily_game_won_shows_at_once(
    django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks,
) -> None:
    playing = game("a", 20261128, Game.Status.PLAYING)
    assert daily_figures.month_figures(NOVEMBER)[20261128].winners == 0

    playing = Game.objects.get(pk=playing.pk)
    playing.status = Game.Status.WON
    playing.wall_ms = 300_000
    with django_capture_on_commit_callbacks(execute=True):
        saved(playing)

    figures = daily_figures.month_figures(NOVEMBER)[20261128]
    assert (figures.players, figures.winners, figures.best_time) == (1, 1, "5:00")


def test_figures_computed_before_a_change_committed_are_never_read_after_it(
    django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks,
) -> None:
    """Another server computed the figures just before the change committed and stored them
    after it was dropped: they are kept under a generation no one reads any more."""
    game("a", 20261128)
    stale_key = daily_figures.month_key(NOVEMBER)
    stale = daily_figures.figures_between(*deals.month_bounds(NOVEMBER))

    with django_capture_on_commit_callbacks(execute=True):
        game("b", 20261128)
    cache.set(stale_key, stale, daily_figures.CURRENT_MONTH_TTL)  # the late write

    assert daily_figures.month_figures(NOVEMBER)[20261128].players == 2


def test_the_figures_are_dropped_only_once_the_change_is_committed(
    django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks,
) -> None:
    daily_figures.month_figures(NOVEMBER)

    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        game("a", 20261128)
        assert cached_month() is not None

    assert len(callbacks) == 1


@pytest.mark.parametrize(
    "change",
    [
        pytest.param({"moves": "AS>F", "move_count": 1}, id="a move"),
        pytest.param({"elapsed_ms": 301_000}, id="the clock of a game under way"),
    ],
)
def test_a_change_the_figures_do_not_read_keeps_them_cached(
    django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks, change: dict[str, object]
) -> None:
    playing = game("a", 20261128, Game.Status.PLAYING)
    daily_figures.month_figures(NOVEMBER)

    playing = Game.objects.get(pk=playing.pk)
    for name, value in change.items():
        setattr(playing, name, value)
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        saved(playing)

    assert callbacks == []
    assert cached_month() is not None


def test_games_of_other_rules_or_random_deals_leave_the_figures_alone(
    django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks,
) -> None:
    daily_figures.month_figures(NOVEMBER)

    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        game("a", 20261128, rules="trefoil")
        game("b", 12345, started=at(28))

    assert callbacks == []
    assert cached_month() is not None


def test_an_unreachable_cache_does_not_fail_the_saved_game(
    django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    class Down:
        def set(self, key: str, value: object, timeout: int) -> None:
            raise ConnectionError("the cache went away")

    monkeypatch.setattr(tally, "cache", Down())

    with django_capture_on_commit_callbacks(execute=True):
        kept = game("a", 20261128)

    assert Game.objects.filter(pk=kept.pk).exists()
    assert "could not renew daily:generation:202611" in caplog.text
