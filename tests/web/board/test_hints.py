"""The hint is kept per position in Django's cache, so every app server shows the same one."""

from __future__ import annotations

import re

import pytest
from django.core.cache import cache
from django.test import Client

from game import engine, limits
from game.board import hints
from game.engine.fair import FairMove
from tests.web.play.test_play import start

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


@pytest.mark.parametrize(("cut", "seconds"), [(False, 86_400), (True, 300)])
def test_a_hint_cut_short_is_kept_only_a_few_minutes(
    client: Client, monkeypatch: pytest.MonkeyPatch, cut: bool, seconds: int
) -> None:
    game = start(client)
    position = game.replay().position
    move = engine.legal_moves(position)[0]
    monkeypatch.setattr(hints, "fair_hint", lambda position: FairMove(move, cut=cut))
    kept: list[tuple[str, object, int]] = []

    class Recording:
        def get(self, key: str) -> None:
            return None

        def set(self, key: str, value: object, timeout: int) -> None:
            kept.append((key, value, timeout))

    monkeypatch.setattr(hints, "cache", Recording())

    hints.hint_for(game.record, position)

    assert kept == [(hints.cache_key(game.record), move.text, seconds)]


def test_a_finished_game_has_no_hint_and_keeps_nothing() -> None:
    played = engine.Game(1)
    while (found := engine.greedy_hint(played.position)) is not None:
        played.play(found.move)

    assert hints.hint_for(played.record, played.position) is None
    assert cache.get(hints.cache_key(played.record)) is None


def test_a_kept_hint_is_given_even_when_every_compute_slot_is_taken(client: Client) -> None:
    game = start(client)
    first = hinted_card(client, game.pk)

    with limits.computing():  # every slot of this process taken (LUCIE_COMPUTE_SLOTS is 1)
        again = client.get(f"/game/{game.pk}/hint/", headers={"HX-Request": "true"})
        fresh = start(client, number=4242)
        busy = client.get(f"/game/{fresh.pk}/hint/", headers={"HX-Request": "true"})

    assert again.status_code == 200
    assert f'data-card="{first}"' in again.content.decode()
    assert busy.status_code == 503
