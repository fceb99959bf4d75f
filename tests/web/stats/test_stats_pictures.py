"""The statistics page: per rule set, the pictures (inline SVG under our CSP), the last games'
strip, the reset, and a bounded number of queries."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterator

import pytest
import time_machine
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from game.board import store
from game.models import Game
from game.stats import player_stats as stats

pytestmark = pytest.mark.django_db

T0 = dt.datetime(2026, 12, 1, 12, 0, tzinfo=dt.UTC)


@pytest.fixture(autouse=True)
def _a_fixed_moment() -> Iterator[None]:
    # The games here are dated from T0, and a reset is made at T0 + 1 h: the session it renews
    # lives 400 days from then, so the pages are read a few hours after T0, not on the real
    # clock (where that session has expired from January 2028).
    with time_machine.travel(T0 + dt.timedelta(hours=3)):
        yield


def session(client: Client) -> str:
    client.get("/")
    key = client.session.session_key
    assert key is not None
    return key


def finished(
    key: str, status: str, minutes: int, *, rules: str = "lucie", cards: int = 20,
    elapsed_s: int = 300, assisted: bool = False,
) -> Game:  # fmt: skip
    game = Game.objects.create(
        session_key=key, deal_number=minutes + 1, rules=rules,
        started_at=T0 + dt.timedelta(minutes=minutes),
        cards_home=52 if status == Game.Status.WON else cards, assisted=assisted,
    )  # fmt: skip
    store.finish(game, status, T0 + dt.timedelta(minutes=minutes, seconds=30))
    game.elapsed_ms = elapsed_s * 1000
    game.save()
    return game


def test_a_win_under_no_merci_is_not_a_win_under_the_default_rules(client: Client) -> None:
    key = session(client)
    finished(key, Game.Status.WON, 1, rules="nomerci", elapsed_s=100)
    finished(key, Game.Status.LOST, 2)
    finished(key, Game.Status.WON, 3, elapsed_s=400)

    default = stats.for_session(key, "lucie")
    no_merci = stats.for_session(key, "nomerci")
    every = stats.for_session(key, None)

    assert (default.played, default.won, default.best_time_ms) == (2, 1, 400_000)
    assert (no_merci.played, no_merci.won, no_merci.best_time_ms) == (1, 1, 100_000)
    assert (every.played, every.won, every.best_time_ms) == (3, 2, 100_000)
    assert (default.current_streak, default.best_streak) == (1, 1)
    assert (every.current_streak, every.best_streak) == (1, 1)


def test_the_page_shows_the_default_rules_unless_asked(client: Client) -> None:
    key = session(client)
    finished(key, Game.Status.WON, 1, rules="nomerci")
    finished(key, Game.Status.LOST, 2)

    default = client.get("/stats/").content.decode()
    no_merci = client.get("/stats/?rules=nomerci").content.decode()
    every = client.get("/stats/?rules=all").content.decode()

    assert 'data-stat="won">0<' in default
    assert 'data-stat="won">1<' in no_merci
    assert 'data-stat="played">2<' in every
    assert re.search(r'href="/stats/\?rules=lucie" aria-current="page"', default)
    assert re.search(r'href="/stats/\?rules=nomerci" aria-current="page"', no_merci)
    assert re.search(r'href="/stats/\?rules=all" aria-current="page"', every)


def test_a_rule_set_with_options_gets_its_own_tab(client: Client) -> None:
    key = session(client)
    finished(key, Game.Status.LOST, 1, rules="lucie-r3-kings")

    page = client.get("/stats/?rules=lucie-r3-kings").content.decode()

    assert 'href="/stats/?rules=lucie-r3-kings" aria-current="page"' in page
    assert 'data-stat="played">1<' in page
    assert client.get("/stats/?rules=bogus").status_code == 400


def test_streaks_follow_the_order_games_ended() -> None:
    key = "k"
    for minute, status in enumerate(
        ["won", "won", "won", "lost", "won", "abandoned", "won", "won"]
    ):
        finished(key, status, minute)
    finished(key, Game.Status.WON, 9, assisted=True)  # helped: breaks the run
    finished(key, Game.Status.WON, 10)

    result = stats.for_session(key)

    assert (result.current_streak, result.best_streak, result.won) == (1, 3, 7)


def test_the_histogram_counts_games_by_cards_home() -> None:
    key = "k"
    for minute, cards in enumerate([0, 4, 5, 23, 24, 50, 51]):
        finished(key, Game.Status.LOST, minute, cards=cards)
    finished(key, Game.Status.WON, 9)
    finished(key, Game.Status.WON, 10, assisted=True)
    finished(key, Game.Status.WON, 11, assisted=True)

    result = stats.for_session(key)
    bins = {b.label: b.count for b in result.bins}

    assert bins["0\N{EN DASH}4"] == 2
    assert bins["5\N{EN DASH}9"] == 1
    assert bins["20\N{EN DASH}24"] == 2
    assert bins["50\N{EN DASH}51"] == 2
    # The bar of wins agrees with Won; the wins with help have a bar of their own.
    assert bins["52"] == result.won == 1
    assert bins["52, help"] == result.helped == 2
    assert sum(bins.values()) == 10
    assert len(bins) == 13


def test_the_charts_are_svg_with_text_for_screen_readers_and_no_style_attributes(
    client: Client,
) -> None:
    key = session(client)
    finished(key, Game.Status.LOST, 1)
    finished(key, Game.Status.WON, 2, elapsed_s=200)
    finished(key, Game.Status.WON, 3, elapsed_s=300)
    finished(key, Game.Status.ABANDONED, 4)
    finished(key, Game.Status.WON, 5, assisted=True)

    page = client.get("/stats/").content.decode()

    assert page.count('<svg class="chart"') == 2
    assert '<title id="chart-home-title">Cards home per game</title>' in page
    assert '<desc id="chart-times-desc">' in page
    assert "Win 1: deal #3 in 3:20 (best)" in page
    assert "style=" not in page
    # The strip: the last games with shape, colour class and words.
    strip = page.split('<ol class="strip"')[1].split("</ol>")[0]
    assert [m for m in re.findall(r'class="result (\w+)"', strip)] == [
        "lost", "won", "won", "abandoned", "assisted",
    ]  # fmt: skip
    assert "Game 1: deal #2, lost, 20 cards home" in strip
    assert strip.count('href="/replay/') == 5


def test_only_the_last_30_games_are_in_the_strip() -> None:
    key = "k"
    for minute in range(35):
        finished(key, Game.Status.LOST, minute)

    recent = stats.for_session(key).recent

    assert len(recent) == 30
    assert recent[0].deal_number == 6
    assert recent[-1].deal_number == 35


def test_the_number_of_queries_does_not_grow_with_the_games(client: Client) -> None:
    key = session(client)

    def count() -> int:
        with CaptureQueriesContext(connection) as queries:
            assert client.get("/stats/").status_code == 200
        return len(queries)

    client.get("/stats/")  # the session's renewal of the day, written once
    empty = count()
    for minute in range(60):
        finished(key, ["won", "lost", "abandoned"][minute % 3], minute)

    assert count() == empty


# ---------------------------------------------------------------- reset


def test_reset_asks_first_without_javascript(client: Client) -> None:
    session(client)

    page = client.get("/stats/reset/")

    assert page.status_code == 200
    assert b"Reset statistics?" in page.content
    assert b'method="post" action="/stats/reset/"' in page.content


def test_reset_counts_only_games_begun_afterwards_and_keeps_the_games(client: Client) -> None:
    key = session(client)
    before = finished(key, Game.Status.WON, 1)
    with time_machine.travel(T0 + dt.timedelta(hours=1), tick=False):
        response = client.post("/stats/reset/")
    assert response.status_code == 303
    assert response["Location"] == "/stats/"
    assert 'data-stat="played">0<' in client.get("/stats/").content.decode()

    finished(key, Game.Status.LOST, 120)

    page = client.get("/stats/?rules=all").content.decode()
    assert 'data-stat="played">1<' in page
    assert 'data-stat="won">0<' in page
    assert "since the reset" in page
    assert Game.objects.filter(pk=before.pk).exists()
    assert Client().get(f"/replay/{before.replay_token}/").status_code == 200


def test_reset_touches_only_this_browser(client: Client) -> None:
    key = session(client)
    finished(key, Game.Status.WON, 1)
    other = Client()
    other_key = session(other)
    finished(other_key, Game.Status.WON, 2)

    with time_machine.travel(T0 + dt.timedelta(hours=1), tick=False):
        other.post("/stats/reset/")

    assert 'data-stat="won">1<' in client.get("/stats/").content.decode()
    assert 'data-stat="won">0<' in other.get("/stats/").content.decode()


def test_reset_refuses_a_get_that_would_change_anything(client: Client) -> None:
    key = session(client)
    finished(key, Game.Status.WON, 1)

    client.get("/stats/reset/")

    assert 'data-stat="won">1<' in client.get("/stats/").content.decode()


def test_wins_timed_at_nothing_still_draw(client: Client) -> None:
    key = session(client)
    finished(key, Game.Status.WON, 1, elapsed_s=0)

    page = client.get("/stats/")

    assert page.status_code == 200
    assert page.content.count(b'<svg class="chart"') == 2
