"""A change reads its game under the row lock and writes the changed columns with two plain SQL
statements (game/rows.py): the game they give and keep is the ORM's, to the last field and
signal, and what the ORM's queries refused they refuse."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.db.models.signals import post_init, post_save
from django.test import Client
from django.test.utils import CaptureQueriesContext

from game import rows
from game.board import find
from game.models import Game
from tests.web.embed import test_embed
from tests.web.play.test_play import a_card_move, post, snapshot, start

pytestmark = pytest.mark.django_db


def game_statements(captured: CaptureQueriesContext) -> list[str]:
    return [q["sql"] for q in captured.captured_queries if "game_game" in q["sql"]]


def test_a_move_is_one_locked_select_and_one_update(client: Client) -> None:
    game = start(client)
    move = a_card_move(game).text
    with CaptureQueriesContext(connection) as captured:
        response = post(client, game, "move", htmx=True, move=move, auto="0")
    assert response.status_code == 200
    select, update = game_statements(captured)
    assert select.startswith('SELECT "game_game"."id"')
    assert "django_session" in select
    assert "expire_date" in select
    assert select.endswith(" FOR UPDATE") == connection.features.has_select_for_update
    assert update.startswith('UPDATE "game_game" SET ')


def test_an_embed_move_is_one_locked_select_and_one_update() -> None:
    client = Client()
    game = test_embed.start(client)
    move = a_card_move(game).text
    with CaptureQueriesContext(connection) as captured:
        response = test_embed.post(client, game, "move", move=move)
    assert response.status_code == 303
    select, update = game_statements(captured)
    assert '"game_game"."token" = ' in select
    assert "django_session" not in select
    assert update.startswith('UPDATE "game_game" SET ')


def test_the_locked_read_gives_the_orms_game(client: Client) -> None:
    game = start(client)
    post(client, game, "move", move=a_card_move(game).text)
    expected = Game.objects.get(pk=game.pk)
    for lock in (True, False):
        read = rows.read(Game, find.session_games(game.pk, game.session_key), lock=lock)
        assert isinstance(read, Game)
        for field in Game._meta.concrete_fields:
            mine, theirs = getattr(read, field.attname), getattr(expected, field.attname)
            assert (mine, type(mine)) == (theirs, type(theirs)), field.attname
        assert read.loaded_values == expected.loaded_values
        assert not read._state.adding
        assert read._state.db == "default"


def test_a_move_sends_the_signals_the_tally_and_the_metrics_count_on(client: Client) -> None:
    game = start(client)
    seen: list[tuple[str, dict[str, Any]]] = []

    def loaded(sender: type[Game], instance: Game, **kwargs: Any) -> None:
        seen.append(("post_init", {}))

    def saved(sender: type[Game], instance: Game, **kwargs: Any) -> None:
        seen.append(("post_save", kwargs))

    post_init.connect(loaded, sender=Game)
    post_save.connect(saved, sender=Game)
    try:
        post(client, game, "move", htmx=True, move=a_card_move(game).text, auto="0")
    finally:
        post_init.disconnect(loaded, sender=Game)
        post_save.disconnect(saved, sender=Game)
    assert seen[0] == ("post_init", {})
    (kwargs,) = [kwargs for name, kwargs in seen if name == "post_save"]
    assert kwargs["created"] is False
    assert kwargs["raw"] is False
    written = kwargs["update_fields"]
    assert {"moves", "snapshot", "move_count", "started_at", "updated_at"} <= written
    assert "deal_number" not in kwargs["update_fields"]


def test_a_move_stamps_updated_at(client: Client) -> None:
    game = start(client)
    before = Game.objects.get(pk=game.pk).updated_at
    post(client, game, "move", move=a_card_move(game).text)
    assert Game.objects.get(pk=game.pk).updated_at > before


@pytest.mark.parametrize("game_id", [2**63, 10**30])
def test_a_game_number_past_any_stored_one_is_a_404(client: Client, game_id: int) -> None:
    game = start(client)
    before = snapshot(game)
    assert client.post(f"/game/{game_id}/move/", {"move": "AS>F", "n": 0}).status_code == 404
    assert client.get(f"/game/{game_id}/").status_code == 404
    assert snapshot(game) == before


def test_an_imported_records_token_opens_nothing_to_a_change() -> None:
    game = test_embed.start(Client())
    Game.objects.filter(pk=game.pk).update(imported=True)
    assert rows.read(Game, find.token_games(game.token), lock=True) is None
    Game.objects.filter(pk=game.pk).update(imported=False)
    assert rows.read(Game, find.token_games(game.token), lock=True) == game
