"""`prune` never deletes a game whose session is alive, wherever the session lives (issue 50):
with Django's `cached_db` sessions a session the cache still holds is alive though its row is
gone (a restore from before it was made), and with the `cache` engine a session has no row at
all. Only a session that neither the table nor the cache holds is gone."""

from __future__ import annotations

import io
from typing import Any

import pytest
from django.contrib.sessions.models import Session
from django.core.cache import caches
from django.core.management import call_command
from django.test import Client

from game.models import Game
from tests.helpers.play import a_card_move, post, start

pytestmark = pytest.mark.django_db

SESSION_CACHE = {
    "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
    "LOCATION": "prune-live-sessions",
}


@pytest.fixture
def session_cache(settings: Any) -> Any:
    settings.CACHES = {**settings.CACHES, "sessions": SESSION_CACHE}
    caches["sessions"].clear()
    yield caches["sessions"]
    caches["sessions"].clear()


def a_game_under_way(client: Client) -> Game:
    game = start(client)
    assert post(client, game, "move", move=a_card_move(game).text).status_code == 303
    game.refresh_from_db()
    assert game.status == Game.Status.PLAYING
    assert game.started_at is not None
    return game


def prune() -> str:
    out = io.StringIO()
    call_command("prune", stdout=out)
    return out.getvalue()


def test_a_session_the_cache_holds_after_its_row_is_gone_keeps_its_game(
    client: Client, session_cache: Any
) -> None:
    game = a_game_under_way(client)
    key = client.session.session_key
    # A restore from a backup older than the session takes its row away; the cache keeps it.
    Session.objects.filter(session_key=key).delete()
    assert prune().count("0 games in progress of sessions that are gone") == 1
    assert Game.objects.filter(pk=game.pk).exists()
    # Still the player's game: the next move is taken.
    assert post(client, game, "move", move=a_card_move(game).text).status_code == 303

    # Once the cache forgets it too, nobody can reach the game: it goes.
    session_cache.clear()
    Session.objects.filter(session_key=key).delete()
    assert "1 games in progress of sessions that are gone" in prune()
    assert not Game.objects.filter(pk=game.pk).exists()


def test_with_the_cache_session_engine_a_game_under_way_is_kept(
    client: Client, session_cache: Any, settings: Any
) -> None:
    settings.SESSION_ENGINE = "django.contrib.sessions.backends.cache"
    game = a_game_under_way(client)
    assert not Session.objects.exists()  # the session has no row at all
    prune()
    assert Game.objects.filter(pk=game.pk).exists()
    assert post(client, game, "move", move=a_card_move(game).text).status_code == 303


def test_a_game_whose_session_is_nowhere_goes(client: Client, session_cache: Any) -> None:
    game = a_game_under_way(client)
    Session.objects.all().delete()
    session_cache.clear()
    assert "1 games in progress of sessions that are gone" in prune()
    assert not Game.objects.filter(pk=game.pk).exists()
