"""The daily pages through the test client, with the clock frozen by time-machine.

Today's deal under the default rules whatever the player chose, resumed or started (asking first
when another game is under way); the rollover at midnight UTC; the ends of months and a leap day;
the month's calendar; bad dates. The figures and streaks themselves are in test_daily_stats.py.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterator
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.core.cache import cache
from django.test import Client
from pytest_django.fixtures import Settings

from game.models import Game
from tests.helpers.daily import NOON, cell, finished_daily, game_on_page, open_daily
from tests.helpers.play import a_card_move, post, start

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _daily_setup(settings: Settings) -> None:
    settings.SITE_START_MONTH = "2026-01"
    cache.clear()


@pytest.fixture
def clock() -> Iterator[time_machine.Traveller]:
    with time_machine.travel(NOON, tick=False) as traveller:
        yield traveller


# ---------------------------------------------------------------- helpers


def make_a_move(client: Client, game: Game) -> None:
    response = post(client, game, "move", htmx=True, move=a_card_move(game).text)
    assert response.status_code == 200
    game.refresh_from_db()


def text_of(fragment: str) -> str:
    """What a screen reader reads of a cell: its words without those hidden from it."""
    heard = re.sub(r'<span[^>]*aria-hidden="true"[^>]*>[^<]*</span>', " ", fragment)
    return " ".join(re.sub(r"<[^>]+>", " ", heard).split()).replace(" ,", ",")


# ---------------------------------------------------------------- today's deal


def test_daily_plays_todays_date_under_the_default_rules_whatever_was_chosen(
    client: Client, clock: time_machine.Traveller
) -> None:
    client.post("/new/", {"rules": "trefoil", "redeals": "1", "mercis": "0"})
    game = open_daily(client)

    assert game.deal_number == 20261129
    assert game.rules == "lucie"
    assert game.session_key == client.session.session_key


def test_daily_resumes_the_same_game(client: Client, clock: time_machine.Traveller) -> None:
    game = open_daily(client)
    make_a_move(client, game)

    again = open_daily(client)

    assert again.pk == game.pk
    assert again.move_count == 1
    assert Game.objects.filter(deal_number=20261129).count() == 1


def test_daily_page_says_when_the_deal_changes_in_utc(
    client: Client, clock: time_machine.Traveller
) -> None:
    html = client.get("/daily/").content.decode()

    assert "changes at midnight UTC" in html
    assert (
        '<time datetime="2026-11-30T00:00:00Z" data-local-time>00:00 UTC on Mon 30 Nov</time>'
        in html
    )
    assert "Today's deal" in html
    assert "#20261129" in html


def test_a_player_far_from_utc_gets_the_utc_day_and_the_utc_instant(client: Client) -> None:
    # 09:00 on 30 November in Kiritimati (UTC+14) is still 29 November in UTC.
    local = dt.datetime(2026, 11, 30, 9, 0, tzinfo=ZoneInfo("Pacific/Kiritimati"))
    with time_machine.travel(local, tick=False):
        game = open_daily(client)
        html = client.get("/daily/").content.decode()

    assert game.deal_number == 20261129
    # The page names the instant; the browser's script writes it in the player's own time.
    assert 'datetime="2026-11-30T00:00:00Z"' in html


def test_the_daily_keeps_a_game_of_its_own_beside_the_game_in_progress(
    client: Client, clock: time_machine.Traveller
) -> None:
    other = start(client, 5)
    make_a_move(client, other)

    daily = open_daily(client)
    make_a_move(client, daily)

    # Nothing asked, nothing ended: both games are under way, each where it was.
    assert (daily.deal_number, daily.rules, daily.daily) == (20261129, "lucie", True)
    other.refresh_from_db()
    assert other.status == Game.Status.PLAYING
    assert game_on_page(client.get("/").content).pk == other.pk
    assert game_on_page(client.get("/daily/").content).pk == daily.pk
    # And a new random game leaves the daily one alone.
    client.post("/new/", {"rule_set": "lucie"})
    daily.refresh_from_db()
    other.refresh_from_db()
    assert (daily.status, other.status) == (Game.Status.PLAYING, Game.Status.ABANDONED)
    assert game_on_page(client.get("/daily/").content).pk == daily.pk


def test_a_double_post_starts_the_daily_once(client: Client, clock: time_machine.Traveller) -> None:
    client.post("/daily/")
    client.post("/daily/")

    assert Game.objects.filter(deal_number=20261129).count() == 1


def test_an_unstarted_game_is_not_asked_about(
    client: Client, clock: time_machine.Traveller
) -> None:
    client.post("/deal/5/")  # dealt, and not begun

    game = open_daily(client)

    assert game.deal_number == 20261129


def test_a_finished_daily_shows_its_result_and_starts_nothing(
    client: Client, clock: time_machine.Traveller
) -> None:
    won = finished_daily(client, 20261129, Game.Status.WON, NOON - dt.timedelta(hours=1))
    other = start(client, 5)
    make_a_move(client, other)

    response = client.get("/daily/")
    html = response.content.decode()

    assert game_on_page(response.content).pk == won.pk
    assert "You won!" in html
    token = won.challenge_made.token
    assert (
        "La Belle Lucie #20261129 \N{EM DASH} won in 4:12, 93 moves, clean, 2 redeals, merci used\n"
        "http://testserver/daily/2026/11/29/\n"
        f"Beat me on this deal: http://testserver/challenge/{token}/</textarea>"
    ) in html
    assert 'data-copy="share-text" hidden' in html
    other.refresh_from_db()
    assert other.status == Game.Status.PLAYING


def test_the_result_box_is_served_for_the_script(
    client: Client, clock: time_machine.Traveller
) -> None:
    game = open_daily(client)
    empty = client.get("/daily/2026/11/29/result/").content.decode()
    Game.objects.filter(pk=game.pk).update(
        status=Game.Status.LOST, started_at=NOON, cards_home=20, redeals_used=2
    )

    lost = client.get("/daily/2026/11/29/result/").content.decode()

    assert 'id="daily-result"' in empty
    assert "hidden" in empty
    assert "textarea" not in empty
    assert "#20261129 \N{EM DASH} lost, 20/52 cards home, 2 redeals, no merci" in lost


def test_a_left_daily_may_be_started_again(client: Client, clock: time_machine.Traveller) -> None:
    first = open_daily(client)
    make_a_move(client, first)
    Game.objects.filter(pk=first.pk).update(status=Game.Status.ABANDONED)
    client.post("/deal/5/", {"rules": "lucie"})  # another game: the daily is not touched
    make_a_move(client, start(client, 5))

    client.post("/daily/")
    again = open_daily(client)

    assert again.pk != first.pk
    assert again.deal_number == 20261129


def test_home_page_and_game_bar_link_to_the_daily(client: Client) -> None:
    html = client.get("/").content.decode()

    assert '<a class="site-link" href="/daily/">Today\'s deal</a>' in html
    assert html.count('href="/daily/"') == 2


# ---------------------------------------------------------------- the rollover


def test_the_deal_rolls_over_at_midnight_utc_and_yesterdays_game_stays_yesterdays(
    client: Client,
) -> None:
    with time_machine.travel(dt.datetime(2026, 11, 29, 23, 59, 59, tzinfo=dt.UTC), tick=False):
        before = open_daily(client)
        make_a_move(client, before)

    with time_machine.travel(dt.datetime(2026, 11, 30, 0, 0, 0, tzinfo=dt.UTC), tick=False):
        today = open_daily(client)
        yesterday = open_daily(client, "/daily/2026/11/29/")
        make_a_move(client, yesterday)
        month = client.get("/daily/2026/11/").content.decode()
        page = client.get("/daily/2026/11/29/").content.decode()

    assert before.deal_number == 20261129
    assert today.deal_number == 20261130
    assert yesterday.pk == before.pk
    assert yesterday.deal_number == 20261129
    assert yesterday.move_count == 2
    assert "In progress" in text_of(cell(month, "2026-11-29"))
    assert 'aria-current="date"' in cell(month, "2026-11-30")
    assert "Begun on its day, so it counts for the daily streak" in page


def test_one_second_before_midnight_is_still_today(client: Client) -> None:
    with time_machine.travel(dt.datetime(2026, 11, 29, 23, 59, 59, tzinfo=dt.UTC), tick=False):
        html = client.get("/daily/").content.decode()
        future = client.get("/daily/2026/11/30/")

    assert "#20261129" in html
    assert 'datetime="2026-11-30T00:00:00Z"' in html
    assert future.status_code == 404


@pytest.mark.parametrize(
    ("now", "number", "month_url", "days", "next_month"),
    [
        # The last day of a month, of a year, the first of the next, and a leap day.
        ("2026-11-30 23:59:59", 20261130, "/daily/2026/11/", 30, None),
        ("2026-12-01 00:00:00", 20261201, "/daily/2026/12/", 31, None),
        ("2026-12-31 23:59:59", 20261231, "/daily/2026/12/", 31, None),
        ("2027-01-01 00:00:00", 20270101, "/daily/2027/01/", 31, None),
        ("2028-02-29 12:00:00", 20280229, "/daily/2028/02/", 29, None),
        ("2028-03-01 00:00:00", 20280301, "/daily/2028/02/", 29, "/daily/2028/03/"),
        ("2027-02-28 12:00:00", 20270228, "/daily/2027/02/", 28, None),
    ],
)
def test_month_ends_and_leap_days(
    client: Client,
    now: str,
    number: int,
    month_url: str,
    days: int,
    next_month: str | None,
) -> None:
    with time_machine.travel(dt.datetime.fromisoformat(now).replace(tzinfo=dt.UTC), tick=False):
        game = open_daily(client)
        month = client.get(month_url)
        html = month.content.decode()

    assert game.deal_number == number
    assert month.status_code == 200
    assert len(re.findall(r'<td class="day', html)) == days
    if next_month:
        assert f'href="{next_month}" rel="next"' in html
    else:
        assert 'rel="next"' not in html


def test_a_leap_day_is_played_from_its_date_and_refused_before_it_comes(client: Client) -> None:
    with time_machine.travel(dt.datetime(2028, 2, 28, 23, 0, tzinfo=dt.UTC), tick=False):
        early = client.get("/daily/2028/02/29/")
    with time_machine.travel(dt.datetime(2028, 3, 2, 9, 0, tzinfo=dt.UTC), tick=False):
        late = open_daily(client, "/daily/2028/02/29/")
        missing = client.get("/daily/2027/02/29/")

    assert early.status_code == 404
    assert b"has not come yet" in early.content
    assert late.deal_number == 20280229
    assert missing.status_code == 404
    assert b"There is no such day" in missing.content


# ---------------------------------------------------------------- bad dates


@pytest.mark.parametrize(
    ("url", "says"),
    [
        ("/daily/2026/13/", "There is no month 13"),
        ("/daily/2026/00/", "There is no month 0"),
        ("/daily/abcd/11/", "is not a month"),
        ("/daily/2026/1x/", "is not a month"),
        ("/daily/20266/11/", "is not a month"),
        ("/daily/2026/12/", "has not come yet"),
        ("/daily/2027/01/", "has not come yet"),
        ("/daily/2025/12/", "begin in January 2026"),
        ("/daily/2026/02/30/", "There is no such day"),
        ("/daily/2026/11/31/", "There is no such day"),
        ("/daily/2026/11/30/", "has not come yet"),
        ("/daily/2026/12/01/", "has not come yet"),
        ("/daily/2025/12/31/", "begin in January 2026"),
        ("/daily/2026/11/xx/", "is not a date"),
        ("/daily/2026/11/29x/", "is not a date"),
        ("/daily/0000/01/01/", "There is no such day"),
        ("/daily/9999/12/31/", "has not come yet"),
        ("/daily/2026/11/30/result/", "has not come yet"),
    ],
)
def test_a_date_with_no_deal_on_offer_is_a_clear_404(
    client: Client, clock: time_machine.Traveller, url: str, says: str
) -> None:
    response = client.get(url)

    assert response.status_code == 404
    assert says in response.content.decode()
    assert b"Play today's deal" in response.content
    assert not Game.objects.exists()


def test_a_post_to_a_day_to_come_starts_nothing(
    client: Client, clock: time_machine.Traveller
) -> None:
    response = client.post("/daily/2026/11/30/")

    assert response.status_code == 404
    assert not Game.objects.exists()


def test_a_month_before_the_site_start_setting_is_refused(
    client: Client, clock: time_machine.Traveller, settings: Settings
) -> None:
    settings.SITE_START_MONTH = "2026-11"

    before = client.get("/daily/2026/10/")
    first = client.get("/daily/2026/11/")

    assert before.status_code == 404
    assert b"begin in November 2026" in before.content
    assert first.status_code == 200
    assert b'rel="prev"' not in first.content
    assert b"No earlier month" in first.content


def test_a_month_written_with_one_digit_redirects_to_its_two_digit_address(
    client: Client, clock: time_machine.Traveller
) -> None:
    response = client.get("/daily/2026/3/")

    assert response.status_code == 302
    assert response["Location"] == "/daily/2026/03/"


def test_the_daily_pages_answer_only_get_and_post(
    client: Client, clock: time_machine.Traveller
) -> None:
    assert client.put("/daily/").status_code == 405
    assert client.post("/daily/2026/11/").status_code == 405


# ---------------------------------------------------------------- the month


def test_the_calendar_is_a_table_with_weekday_headers_and_today_marked(
    client: Client, clock: time_machine.Traveller
) -> None:
    html = client.get("/daily/2026/11/").content.decode()
    calendar = html[html.index('<table class="calendar">') : html.index("</table>")]

    headers = re.findall(r'<th scope="col"><abbr title="(\w+)">(\w+)</abbr></th>', calendar)
    assert [short for _, short in headers] == ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
    assert headers[0][0] == "Monday"
    assert calendar.count('aria-current="date"') == 1
    assert 'aria-current="date"' in cell(html, "2026-11-29")
    # 1 November 2026 is a Sunday: six blank cells before it in the first week.
    first_row = calendar[calendar.index("<tbody>") :].split("</tr>")[0]
    assert first_row.count('<td class="blank">') == 6
    assert len(re.findall(r'<td class="day', calendar)) == 30


def test_each_day_says_its_state_in_words(client: Client, clock: time_machine.Traveller) -> None:
    finished_daily(client, 20261127, Game.Status.WON, dt.datetime(2026, 11, 27, 8, tzinfo=dt.UTC))
    finished_daily(client, 20261126, Game.Status.LOST, dt.datetime(2026, 11, 26, 8, tzinfo=dt.UTC))
    finished_daily(
        client, 20261125, Game.Status.WON, dt.datetime(2026, 11, 28, 8, tzinfo=dt.UTC),
        elapsed_ms=61_000, move_count=80,
    )  # fmt: skip
    finished_daily(
        client, 20261124, Game.Status.ABANDONED, dt.datetime(2026, 11, 24, 8, tzinfo=dt.UTC)
    )
    game = open_daily(client)
    make_a_move(client, game)

    html = client.get("/daily/2026/11/").content.decode()

    assert text_of(cell(html, "2026-11-27")).startswith("27 November: Won 4:12 · 93 moves")
    assert text_of(cell(html, "2026-11-26")).startswith("26 November: Lost 31/52 cards home")
    assert text_of(cell(html, "2026-11-25")).startswith("25 November: Won, late 1:01")
    assert "late" in cell(html, "2026-11-25").split(">")[0]
    assert text_of(cell(html, "2026-11-24")).startswith("24 November: Left unfinished")
    assert text_of(cell(html, "2026-11-29")).startswith("29 November, today: In progress")
    assert text_of(cell(html, "2026-11-23")).startswith("23 November: Not played")
    assert 'href="/daily/2026/11/23/"' in cell(html, "2026-11-23")
    assert 'href="/daily/"' in cell(html, "2026-11-29")
    future = cell(html, "2026-11-30")
    assert "href" not in future
    assert "Not yet" in text_of(future)
    assert 'data-state="future"' in future


def test_a_past_day_played_now_shows_as_late(client: Client, clock: time_machine.Traveller) -> None:
    game = open_daily(client, "/daily/2026/11/28/")
    page = client.get("/daily/2026/11/28/").content.decode()
    make_a_move(client, game)
    html = client.get("/daily/2026/11/").content.decode()

    assert game.deal_number == 20261128
    assert "Played late" in page
    assert "In progress, late" in text_of(cell(html, "2026-11-28"))


def test_the_month_links_to_the_months_around_it(
    client: Client, clock: time_machine.Traveller
) -> None:
    november = client.get("/daily/2026/11/").content.decode()
    march = client.get("/daily/2026/03/").content.decode()

    assert 'href="/daily/2026/10/" rel="prev"' in november
    assert 'rel="next"' not in november
    assert 'href="/daily/2026/02/" rel="prev"' in march
    assert 'href="/daily/2026/04/" rel="next"' in march
    assert 'href="/daily/2026/11/">This month' in march
    # A past month has no day to come and nothing marked today.
    assert "Not yet" not in march
    assert 'aria-current="date"' not in march


def test_the_month_page_creates_no_session_and_no_game(
    client: Client, clock: time_machine.Traveller
) -> None:
    response = client.get("/daily/2026/11/")

    assert response.status_code == 200
    assert "sessionid" not in response.cookies
    assert not Game.objects.exists()


def test_the_month_page_shows_everyones_figures(
    client: Client, clock: time_machine.Traveller
) -> None:
    start = dt.datetime(2026, 11, 27, 8, tzinfo=dt.UTC)
    for key, status, seconds in [
        ("a", Game.Status.WON, 300),
        ("b", Game.Status.WON, 200),
        ("c", Game.Status.LOST, 0),
        ("d", Game.Status.ABANDONED, 0),
    ]:
        Game.objects.create(
            session_key=key, deal_number=20261127, rules="lucie", status=status,
            started_at=start, elapsed_ms=seconds * 1000, daily_entry=True, daily=True,
            wall_ms=seconds * 1000 if status == Game.Status.WON else None,
        )  # fmt: skip

    html = client.get("/daily/2026/11/").content.decode()
    row = re.search(r'<tr data-day="2026-11-27">.*?</tr>', html, re.S)

    assert row is not None
    figures = dict(re.findall(r'data-figure="([\w-]+)">([^<]*)<', row[0]))
    assert figures == {
        "players": "4",
        "winners": "2",
        "strict-winners": "0",
        "win-rate": "50%",
        "best-time": "3:20",
    }
    assert "4 played, 2 won" in text_of(cell(html, "2026-11-27"))


def test_the_month_page_shares_todays_finished_result(
    client: Client, clock: time_machine.Traveller
) -> None:
    finished_daily(client, 20261129, Game.Status.WON, NOON - dt.timedelta(hours=2))

    html = client.get("/daily/2026/11/").content.decode()

    assert "La Belle Lucie #20261129 \N{EM DASH} won in 4:12" in html
    assert (
        "http://testserver/daily/2026/11/29/\nBeat me on this deal: http://testserver/challenge/"
        in html
    )


def test_a_game_in_progress_is_not_counted_as_not_won_this_month(
    client: Client, clock: time_machine.Traveller
) -> None:
    finished_daily(
        client, 20261127, Game.Status.WON, dt.datetime(2026, 11, 27, 8, tzinfo=dt.UTC),
        elapsed_ms=252_000, move_count=93,
    )  # fmt: skip
    game = open_daily(client)
    make_a_move(client, game)

    html = client.get("/daily/2026/11/").content.decode()

    won = re.search(r'data-stat="won-this-month">(.*?)</dd>', html)
    assert won is not None
    assert text_of(won[1]) == "1 of 1"
