"""The month's badge, at fixed dates: from the days won (a win with "Show a win" does not
count), on the month page and for each earlier month, with the thresholds docs/playing.md
gives; the month page's cost does not grow with the months."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterator
from html import unescape
from pathlib import Path

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from pytest_django.fixtures import Settings

from game.daily import player
from game.models import Game
from tests.helpers.daily import site_at
from tests.helpers.daily_loop import finished, session_of

pytestmark = pytest.mark.django_db

LEAP_DAY = dt.datetime(2028, 2, 29, 20, 0, tzinfo=dt.UTC)


@pytest.fixture(autouse=True)
def _setup(settings: Settings) -> Iterator[None]:
    with site_at(settings, LEAP_DAY, "2027-01"):
        yield


def won_days(key: str, year: int, month: int, days: range, **fields: object) -> None:
    for day in days:
        begun = dt.datetime(year, month, day, 8, tzinfo=dt.UTC)
        finished(key, year * 10_000 + month * 100 + day, started=begun, **fields)


def badges(html: str) -> dict[str, str]:
    """Each month's badge on the page, by YYYY-MM."""
    found = re.findall(r'data-month-badge="(\w+)" data-month="([\d-]+)"', html)
    return {month: badge for badge, month in found}


def test_each_month_has_the_badge_of_its_days_won(client: Client) -> None:
    key = session_of(client)
    won_days(key, 2028, 2, range(1, 30))  # every day of a leap February: gold
    won_days(key, 2028, 1, range(1, 11))  # ten days: silver
    won_days(key, 2027, 12, range(27, 32))  # five days, to the 31st: bronze
    won_days(key, 2027, 11, range(1, 5))  # four days: none
    # Wins with "Show a win" count for nothing.
    won_days(key, 2027, 11, range(5, 25), assisted=True)
    # Losses neither.
    won_days(key, 2027, 10, range(1, 25), status=Game.Status.LOST, cards_home=40)

    html = client.get("/daily/2028/02/").content.decode()

    assert badges(html) == {
        "2028-02": "gold",
        "2028-01": "silver",
        "2027-12": "bronze",
        "2027-11": "none",
        "2027-10": "none",
        "2027-09": "none",
        "2027-08": "none",
        "2027-07": "none",
        "2027-06": "none",
        "2027-05": "none",
        "2027-04": "none",
        "2027-03": "none",
        "2027-02": "none",
    }
    assert "10 days won" in html
    assert "5 days won" in html


def test_an_earlier_months_page_has_its_own_badge(client: Client) -> None:
    key = session_of(client)
    won_days(key, 2027, 12, range(1, 32))

    html = client.get("/daily/2027/12/").content.decode()

    assert badges(html)["2027-12"] == "gold"
    # Before the first month on offer there is nothing to show.
    assert "2026-12" not in badges(html)


def test_a_new_player_has_no_badge_yet(client: Client) -> None:
    html = unescape(client.get("/daily/2028/02/").content.decode())

    assert badges(html)["2028-02"] == "none"
    assert "No badge yet" in html


@pytest.mark.parametrize(
    ("days", "badge"),
    [(0, "none"), (4, "none"), (5, "bronze"), (9, "bronze"), (10, "silver"), (20, "gold")],
)
def test_the_thresholds_are_those_docs_playing_gives(days: int, badge: str) -> None:
    assert player.badge(days) == badge
    doc = (Path(__file__).resolve().parents[3] / "docs" / "playing.md").read_text()
    for least, name in player.BADGES:
        assert f"{name} from {least} days won" in doc


def test_the_month_page_costs_the_same_with_a_year_of_wins(client: Client) -> None:
    key = session_of(client)
    cache.clear()
    with CaptureQueriesContext(connection) as before:
        client.get("/daily/2028/02/")
    for month in range(1, 13):
        won_days(key, 2027, month, range(1, 28))
    cache.clear()
    with CaptureQueriesContext(connection) as after:
        client.get("/daily/2028/02/")

    # This player's month, their ranks, their streak, the earlier badges: one query each, but
    # a month with games of its own reads its ranks (an empty month skips the query).
    assert len(after) <= len(before) + 1


@pytest.mark.parametrize(
    ("language", "word"), [("fr", "Badge du mois"), ("de", "Abzeichen des Monats")]
)
def test_the_badges_speak_french_and_german(client: Client, language: str, word: str) -> None:
    key = session_of(client)
    won_days(key, 2028, 1, range(1, 11))

    html = unescape(client.get(f"/{language}/daily/2028/02/").content.decode())

    assert word in html
    for english in (
        "This month's badge",
        "Earlier months' badges",
        "days won",
        "No badge yet",
        "Silver",
    ):
        assert english not in html
