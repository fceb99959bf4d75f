"""A page only reads (issue 40): no GET of the site runs an INSERT, an UPDATE or a DELETE, the
session's table aside (its once-a-day renewal). Every page a player can be shown around a
finished game is asked: the game itself (won, won with help, lost), the daily page and its
result box, the month, a past day, a challenge from both sides, the review, the statistics.

The statements are caught where they leave for the database (connection.execute_wrapper), so a
write made by any module (a percentile kept, a challenge made, a job's row) fails the test."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from pytest_django.fixtures import Settings

from game.models import Challenge, ChallengeEntry, Game
from tests.helpers.daily import site_at
from tests.helpers.daily_loop import finished, session_of
from tests.helpers.writes import Writes

pytestmark = pytest.mark.django_db

# The 1st of a year: its deal is 20270101, and the 31st of December is a day that is over.
NOW = dt.datetime(2027, 1, 1, 15, 0, tzinfo=dt.UTC)
TODAY = 20270101
YESTERDAY = 20261231
BEGUN = NOW - dt.timedelta(hours=2)


@pytest.fixture(autouse=True)
def _clock(settings: Settings) -> Iterator[None]:
    with site_at(settings, NOW):
        yield


def gets(client: Client, url: str) -> list[str]:
    """GET `url` twice (the first showing and the next); the writes it made."""
    writes = Writes()
    with connection.execute_wrapper(writes):
        for _ in range(2):
            response = client.get(url)
            assert response.status_code == 200, (url, response.status_code)
    return writes.seen


@pytest.fixture
def world(client: Client) -> dict[str, str]:
    """A player's finished games around today's deal, and the URLs that show them."""
    me = session_of(client)
    for n in range(3):
        finished(f"other{n}", TODAY, Game.Status.LOST, started=BEGUN, cards_home=10 + n)
        finished(f"other{n}", YESTERDAY, started=BEGUN - dt.timedelta(days=1))
    today = finished(me, TODAY, started=BEGUN, wall_ms=400_000)
    yesterday = finished(
        me, YESTERDAY, Game.Status.LOST, started=BEGUN - dt.timedelta(days=1), cards_home=33
    )
    helped = finished(me, 77, started=BEGUN, entry=False, assisted=True, rules="trefoil")
    lost = finished(me, 78, Game.Status.LOST, started=BEGUN, entry=False)
    # A friend took up the challenge of the lost game, and finished it.
    challenge = Challenge.objects.get(game=lost)
    friend = finished("friend", 78, Game.Status.LOST, started=BEGUN, entry=False, cards_home=40)
    ChallengeEntry.objects.create(challenge=challenge, game=friend)
    return {
        "the won daily game": f"/game/{today.pk}/",
        "the lost game": f"/game/{lost.pk}/",
        "the daily page": "/daily/",
        "the daily result box": "/daily/2027/01/01/result/",
        "a past day": "/daily/2026/12/31/",
        "the month": "/daily/2027/01/",
        "last month": "/daily/2026/12/",
        "the challenge page": f"/challenge/{challenge.token}/",
        "the statistics": "/stats/",
        "the statistics of a rule set": "/stats/?rules=trefoil",
        "a replay": f"/replay/{yesterday.replay_token}/",
        "the difficulty line": "/daily/2027/01/01/difficulty/",
        "the review": f"/game/{lost.pk}/review/",
        "the game won with help": f"/game/{helped.pk}/",
    }


PAGES: list[Any] = [
    "the won daily game",
    "the lost game",
    "the daily page",
    "the daily result box",
    "a past day",
    "the month",
    "last month",
    "the challenge page",
    "the statistics",
    "the statistics of a rule set",
    "a replay",
    "the difficulty line",
    "the review",
    "the game won with help",
]


@pytest.mark.parametrize("name", PAGES)
def test_a_page_writes_nothing(client: Client, world: dict[str, str], name: str) -> None:
    assert gets(client, world[name]) == []


def test_the_friend_s_pages_write_nothing(world: dict[str, str]) -> None:
    friend = Client()
    friend.cookies["sessionid"] = ""
    session = friend.session
    session["player"] = True
    session.save()
    friend.cookies["sessionid"] = session.session_key or ""
    Game.objects.filter(session_key="friend").update(session_key=session.session_key)
    game = Game.objects.get(session_key=session.session_key)

    assert gets(friend, world["the challenge page"]) == []
    assert gets(friend, f"/game/{game.pk}/") == []
    assert gets(friend, "/daily/") == []


def test_a_daily_page_with_no_game_yet_stores_none(client: Client) -> None:
    session_of(client)

    assert gets(client, "/daily/") == []
    assert gets(client, "/daily/2026/12/30/") == []
    assert not Game.objects.exists()
