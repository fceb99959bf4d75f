"""A player is remembered for as long as they play: a session lives 400 days past the last visit,
each visit renews it (at most once a day), and prune forgets only what nobody can reach."""

from __future__ import annotations

import datetime as dt
import io

import pytest
import time_machine
from django.conf import settings
from django.contrib.sessions.models import Session
from django.core.management import call_command
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from game.models import Game
from game.stats import player_stats as stats
from tests.helpers.daily import open_daily
from tests.helpers.play import a_card_move, greedy_record, play_through, post, start

pytestmark = pytest.mark.django_db

T0 = dt.datetime(2026, 1, 5, 10, tzinfo=dt.UTC)
AGE = dt.timedelta(seconds=settings.SESSION_COOKIE_AGE)


def expiry(client: Client) -> dt.datetime:
    return Session.objects.get(session_key=client.session.session_key).expire_date


def test_a_session_lasts_at_least_a_year_and_the_cookie_says_so(client: Client) -> None:
    assert dt.timedelta(days=366) <= AGE
    with time_machine.travel(T0, tick=False):
        game = start(client)
        post(client, game, "move", move=a_card_move(game).text)
        # Read on T0's clock: read on the real one, the session has expired since early 2027.
        expires = expiry(client)
    assert client.cookies["sessionid"]["max-age"] == settings.SESSION_COOKIE_AGE
    assert expires == T0 + AGE


def test_a_visit_renews_the_session_once_a_day_at_most(client: Client) -> None:
    with time_machine.travel(T0, tick=False):
        start(client)
    with time_machine.travel(T0 + dt.timedelta(days=200), tick=False):
        renewed = client.get("/")
        again = client.get("/")
        with CaptureQueriesContext(connection) as queries:
            client.get("/stats/")
        expires = expiry(client)
    # The first visit of the day pushes the expiry back and sends the cookie again with its age.
    assert renewed.cookies["sessionid"]["max-age"] == settings.SESSION_COOKIE_AGE
    assert expires == T0 + dt.timedelta(days=200) + AGE
    # Later requests that day write nothing and send no cookie.
    assert "sessionid" not in again.cookies
    assert not any("django_session" in q["sql"] and "UPDATE" in q["sql"] for q in queries)


def test_without_a_visit_a_session_expires_and_prune_forgets_it(client: Client) -> None:
    with time_machine.travel(T0, tick=False):
        game = start(client)
        post(client, game, "move", move=a_card_move(game).text)
        # Read on T0's clock: read on the real one, the session has expired since early 2027.
        key = client.session.session_key
    assert key is not None
    with time_machine.travel(T0 + AGE - dt.timedelta(days=1), tick=False):
        call_command("prune", stdout=io.StringIO())
        assert Session.objects.filter(session_key=key).exists()
    with time_machine.travel(T0 + AGE + dt.timedelta(days=1), tick=False):
        call_command("prune", stdout=io.StringIO())
        assert not Session.objects.filter(session_key=key).exists()
        # Its game in progress can be reached by nobody now: gone too.
        assert not Game.objects.filter(pk=game.pk).exists()


@pytest.mark.slow
def test_a_player_who_plays_every_other_week_for_400_days_keeps_everything(
    client: Client,
) -> None:
    number, moves = greedy_record("won")
    visits = range(0, 401, 14)
    kept: list[int] = []
    for day in visits:
        when = T0 + dt.timedelta(days=day)
        with time_machine.travel(when, tick=False):
            # A regular's visit: the site's daily job prunes, the player opens the site and wins.
            call_command("prune", stdout=io.StringIO())
            assert client.get("/").status_code == 200
            game = start(client, number)
            play_through(client, game, moves)
            game.refresh_from_db()
            assert game.status == Game.Status.WON
            kept.append(game.pk)
            # The day's game, dealt by the page's POST (a GET only shows its first board).
            today = open_daily(client)
            post(client, today, "move", move=a_card_move(today).text)
    with time_machine.travel(T0 + dt.timedelta(days=visits[-1] + 1), tick=False):
        call_command("prune", stdout=io.StringIO())
        page = client.get("/stats/?rules=all").content.decode()
        key = client.session.session_key
    result = stats.for_session(key)
    assert (result.played, result.won) == (len(visits), len(visits))
    assert result.current_streak == result.best_streak == len(visits)
    assert set(kept) <= set(Game.objects.filter(session_key=key).values_list("pk", flat=True))
    assert f'data-stat="current-streak">{len(visits)}<' in page
    # The daily calendar still knows every daily game this player began.
    assert Game.objects.filter(session_key=key, daily=True).count() == len(visits)
    assert Game.objects.filter(session_key=key, daily=True, daily_entry=True).count() == len(visits)


def test_an_expired_session_reads_as_none(client: Client) -> None:
    from django.core.cache import caches

    from lucie.sessions import SessionStore

    start(client)
    key = client.cookies[settings.SESSION_COOKIE_NAME].value
    assert SessionStore(key).session_key == key
    long_ago = dt.datetime(2000, 1, 1, tzinfo=dt.UTC)
    Session.objects.filter(session_key=key).update(expire_date=long_ago)
    caches["sessions"].clear()  # the session's cached copy lives no longer than its expiry
    store = SessionStore(key)
    assert store.load() == {}
    assert store.session_key is None
