"""The hint is kept per position in Django's cache, so every app server shows the same one."""

from __future__ import annotations

import re
from html import unescape

import pytest
from django.core.cache import cache
from django.test import Client

from game import engine
from game.board import hints
from game.engine.fair import FairMove
from game.ops import searches
from tests.helpers.board import kept_for
from tests.helpers.play import start

pytestmark = pytest.mark.django_db


def hinted_card(client: Client, game_id: int) -> str:
    response = client.get(f"/game/{game_id}/hint/", headers={"HX-Request": "true"})
    assert response.status_code == 200
    found = re.search(r'data-card="(\w+)"[^>]*data-hint="card"', response.content.decode())
    assert found is not None
    return found[1]


def test_the_hint_is_kept_under_the_records_hash(client: Client) -> None:
    game = start(client)

    card = hinted_card(client, game.pk)

    kept = cache.get(hints.cache_key(game.record))
    assert isinstance(kept, str)
    assert engine.Move.parse(kept).card == engine.Card.parse(card)


def test_a_second_ask_is_answered_from_the_cache_without_searching(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = start(client)
    first = hinted_card(client, game.pk)

    def no_search(position: engine.Position) -> None:
        raise AssertionError("searched again")

    monkeypatch.setattr(hints, "fair_hint", no_search)

    assert hinted_card(client, game.pk) == first


def test_a_kept_answer_is_what_every_server_shows(client: Client) -> None:
    """Another server found (under other load) another move for this position and kept it first:
    this one shows that move, not one of its own."""
    game = start(client)
    position = game.replay().position
    own = engine.hint(position)
    other = next(move for move in engine.legal_moves(position) if own is None or move != own.move)
    assert other.card is not None
    cache.set(hints.cache_key(game.record), other.text)

    assert hinted_card(client, game.pk) == other.card.code


@pytest.mark.parametrize(("cut", "seconds"), [(False, 86_400), (True, 5)])
def test_a_hint_cut_short_is_kept_only_a_few_seconds(
    client: Client, monkeypatch: pytest.MonkeyPatch, cut: bool, seconds: int
) -> None:
    """A cut-short hint is what a loaded moment found: kept seconds, not 5 minutes (issue 19)."""
    game = start(client)
    position = game.replay().position
    move = engine.legal_moves(position)[0]
    monkeypatch.setattr(hints, "fair_hint", lambda position: FairMove(move, cut=cut))
    key = hints.cache_key(game.record)
    cache.delete(key)  # the page came with its hint (hints.ready), kept for a day

    hints.hint_for(game.record, position)

    assert cache.get(key) == move.text
    assert seconds - 2 < kept_for(key) <= seconds


def test_a_cut_short_hint_never_replaces_a_finished_one_kept_meanwhile(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    """While this server's search ran out of time, another server finished one and kept it."""
    game = start(client)
    position = game.replay().position
    finished, cut = engine.legal_moves(position)[:2]
    key = hints.cache_key(game.record)
    cache.delete(key)  # the page came with its hint (hints.ready)

    def loaded_search(position: engine.Position) -> FairMove:
        cache.set(key, finished.text, hints.COMPLETE_SECONDS)  # the other server's answer
        return FairMove(cut, cut=True)

    monkeypatch.setattr(hints, "fair_hint", loaded_search)

    hints.hint_for(game.record, position)

    assert cache.get(key) == finished.text


def test_a_finished_hint_replaces_a_cut_short_one(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = start(client)
    position = game.replay().position
    cut, finished = engine.legal_moves(position)[:2]
    key = hints.cache_key(game.record)

    cache.delete(key)  # the page came with its hint (hints.ready)

    def quiet_search(position: engine.Position) -> FairMove:
        cache.set(key, cut.text, hints.CUT_SECONDS)  # another server's loaded moment
        return FairMove(finished, cut=False)

    monkeypatch.setattr(hints, "fair_hint", quiet_search)

    hints.hint_for(game.record, position)

    assert cache.get(key) == finished.text


def test_a_finished_game_has_no_hint_and_keeps_nothing() -> None:
    played = engine.Play(1)
    while (found := engine.greedy_hint(played.position)) is not None:
        played.play(found.move)

    assert hints.hint_for(played.record, played.position) is None
    assert cache.get(hints.cache_key(played.record)) is None


def test_a_kept_hint_is_given_even_when_every_compute_slot_is_taken(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = start(client)
    first = hinted_card(client, game.pk)
    monkeypatch.setattr(searches, "HINT_WAIT_SECONDS", 0.05)

    # Every hint slot of this process taken (LUCIE_COMPUTE_SLOTS is 1).
    with searches.computing(hint=True):
        again = client.get(f"/game/{game.pk}/hint/", headers={"HX-Request": "true"})
        fresh = start(client, number=4242)
        busy = client.get(f"/game/{fresh.pk}/hint/", headers={"HX-Request": "true"})

    assert again.status_code == 200
    assert f'data-card="{first}"' in again.content.decode()
    assert busy.status_code == 503


def test_a_hint_is_counted_and_a_refused_count_still_shows_it(
    client: Client, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    from django.db import DatabaseError

    from game.models import Game
    from game.querysets import GameQuerySet

    game = start(client)
    assert client.post(f"/game/{game.pk}/hint/", {"n": 0}).status_code == 303
    assert Game.objects.get(pk=game.pk).hints == 1

    def full(*args: object, **kwargs: object) -> None:
        raise DatabaseError("database or disk is full")

    monkeypatch.setattr(GameQuerySet, "update", full)
    response = client.post(f"/game/{game.pk}/hint/", {"n": 0}, headers={"HX-Request": "true"})
    assert response.status_code == 200
    assert b"data-hint" in response.content
    assert Game.objects.get(pk=game.pk).hints == 1
    assert "could not count a hint" in caplog.text


@pytest.mark.parametrize(("shown", "column"), [(0, "hints"), (1, "hint_places")])
def test_a_cached_hint_is_the_games_read_and_its_count(
    client: Client, shown: int, column: str
) -> None:
    # The session comes from the cache (cached_db), so a hint asked again is two queries: each
    # stage is one UPDATE of its own column.
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    game = start(client)
    htmx = {"HX-Request": "true"}
    assert client.get(f"/game/{game.pk}/hint/", headers=htmx).status_code == 200
    with CaptureQueriesContext(connection) as captured:
        answer = client.post(f"/game/{game.pk}/hint/", {"n": 0, "shown": shown}, headers=htmx)
    assert answer.status_code == 200
    sql = [q["sql"] for q in captured.captured_queries]
    assert len(sql) == 2, sql
    assert sql[0].startswith('SELECT "game_game"')
    assert sql[1].startswith(f'UPDATE "game_game" SET "{column}"')


def test_a_hint_for_a_session_that_is_gone_is_a_404(client: Client) -> None:
    from django.contrib.sessions.backends.base import SessionBase

    game = start(client)
    store: SessionBase = client.session
    store.delete()
    assert client.get(f"/game/{game.pk}/hint/", headers={"HX-Request": "true"}).status_code == 404


def test_a_hint_asked_by_get_shows_it_and_writes_nothing(client: Client) -> None:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from game.models import Game

    game = start(client)
    with CaptureQueriesContext(connection) as captured:
        card = hinted_card(client, game.pk)
    assert card
    writes = [q["sql"] for q in captured.captured_queries if not q["sql"].startswith("SELECT")]
    assert writes == []
    assert Game.objects.get(pk=game.pk).hints == 0


def test_a_hint_posted_without_javascript_is_counted_then_shown_by_its_get(
    client: Client,
) -> None:
    from game.models import Game

    game = start(client)
    posted = client.post(f"/game/{game.pk}/hint/", {"n": 0})
    assert posted.status_code == 303
    assert posted["Location"] == f"/game/{game.pk}/hint/?stage=1"
    shown = client.get(posted["Location"])
    assert 'data-hint="card"' in shown.content.decode()
    assert Game.objects.get(pk=game.pk).hints == 1


def test_a_first_boards_hint_is_remembered_only_when_posted(client: Client) -> None:
    client.get("/deal/5/?rules=lucie")
    url, htmx = "/deal/5/hint/?rules=lucie", {"HX-Request": "true"}
    assert client.get(url, headers=htmx).status_code == 200
    assert "first_hint" not in client.session
    assert client.post(url, {"n": 0}, headers=htmx).status_code == 200
    assert client.session["first_hint"] == "lucie 5"


def ready_hint(html: str) -> str:
    found = re.search(r'id="board"[^>]*?data-ready-hint="([^"]+)"', html, re.S)
    return unescape(found[1]) if found else ""


def test_every_board_comes_with_its_hint_ready(client: Client) -> None:
    """The page, and the board a move answers with, carry the hint a press will show."""
    game = start(client)
    page = client.get(f"/game/{game.pk}/").content.decode()
    kept = cache.get(hints.cache_key(game.record))
    assert kept
    assert ready_hint(page) == kept
    assert 'data-ready-said="' in page

    moved = client.post(
        f"/game/{game.pk}/move/",
        {"move": kept, "n": str(game.move_count)},
        headers={"HX-Request": "true"},
    )
    assert moved.status_code == 200
    game.refresh_from_db()
    assert game.move_count >= 1
    assert ready_hint(moved.content.decode()) == cache.get(hints.cache_key(game.record))


def test_a_board_shown_while_every_hint_slot_is_taken_comes_without_its_hint(
    client: Client,
) -> None:
    game = start(client, number=4243)
    cache.delete(hints.cache_key(game.record))
    with searches.computing(hint=True):
        page = client.get(f"/game/{game.pk}/", headers={"HX-Request": "true"})
    assert page.status_code == 200
    assert ready_hint(page.content.decode()) == ""
