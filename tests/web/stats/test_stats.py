"""Statistics for one browser: played, won, win rate, streaks, best time."""

from __future__ import annotations

import datetime as dt

import pytest
from django.test import Client

from game.board import store
from game.models import Game
from game.stats import player_stats as stats
from tests.helpers.play import a_card_move, greedy_record, play_through, post, start

pytestmark = pytest.mark.django_db

T0 = dt.datetime(2026, 12, 1, 12, 0, tzinfo=dt.UTC)


def finished(
    key: str, status: str, minutes: int, *, elapsed_s: int = 300, assisted: bool = False
) -> Game:
    """A game of session `key` that ended `minutes` after T0, finished as play finishes it."""
    game = Game.objects.create(
        session_key=key,
        deal_number=1,
        started_at=T0,
        assisted=assisted,
        cards_home=52 if status == Game.Status.WON else 20,
    )
    store.finish(game, status, T0 + dt.timedelta(minutes=minutes))
    game.elapsed_ms = elapsed_s * 1000
    game.save()
    return game


def test_a_new_browser_has_no_games() -> None:
    result = stats.for_session("nobody")

    assert (result.played, result.won, result.current_streak, result.best_streak) == (0, 0, 0, 0)
    assert result.best_time_ms is None
    assert result.win_rate == "\N{EN DASH}"


def test_streaks_win_rate_and_best_time() -> None:
    key = "k"
    finished(key, Game.Status.WON, 1, elapsed_s=400)
    finished(key, Game.Status.WON, 2, elapsed_s=200)
    finished(key, Game.Status.WON, 3, elapsed_s=900)
    finished(key, Game.Status.LOST, 4)
    finished(key, Game.Status.WON, 5, elapsed_s=100, assisted=True)
    finished(key, Game.Status.WON, 6, elapsed_s=500)
    finished("someone else", Game.Status.WON, 7, elapsed_s=1)
    Game.objects.create(session_key=key, deal_number=2)  # dealt, never begun: not counted

    result = stats.for_session(key)

    assert result.played == 6
    assert result.won == 4  # the assisted win counts as played, not won
    assert result.win_rate == "67%"
    assert result.best_streak == 3
    assert result.current_streak == 1  # the assisted win broke the run
    assert result.best_time_ms == 200_000
    assert result.best_time == "3:20"
    assert result.best_cards_home == 52


def test_a_begun_game_is_in_progress_and_counts_as_played_once_over(client: Client) -> None:
    game = start(client)
    key = client.session.session_key
    assert (stats.for_session(key).played, stats.for_session(key).in_progress) == (0, 0)

    post(client, game, "move", move=a_card_move(game).text)

    result = stats.for_session(key)
    # Under way: shown as such, and in no rate (not "Played 1, Won 0, 0 %").
    assert (result.played, result.in_progress, result.win_rate) == (0, 1, "\N{EN DASH}")
    page = client.get("/stats/").content
    assert b'data-stat="played">0<' in page
    assert b'data-stat="in-progress">1<' in page

    client.post("/new/", {"rule_set": "lucie"})

    result = stats.for_session(key)
    assert (result.played, result.in_progress) == (1, 0)


def test_starting_a_new_game_over_one_in_progress_counts_a_loss(client: Client) -> None:
    game = start(client)
    post(client, game, "move", move=a_card_move(game).text)

    client.post("/new/", {"rule_set": "lucie"})

    result = stats.for_session(client.session.session_key)
    assert (result.played, result.won, result.current_streak) == (1, 0, 0)
    assert result.win_rate == "0%"
    assert b'data-stat="played">1<' in client.get("/stats/").content


def test_a_win_through_play_starts_a_streak_and_sets_a_time(client: Client) -> None:
    number, moves = greedy_record("won")
    game = start(client, number)

    play_through(client, game, moves)

    result = stats.for_session(client.session.session_key)
    assert (result.played, result.won, result.current_streak, result.best_streak) == (1, 1, 1, 1)
    assert result.best_time_ms is not None
    page = client.get("/stats/").content
    assert b'data-stat="won">1<' in page
    assert b'data-stat="win-rate">100%<' in page
