"""A change reads its game and writes the changed columns with two plain SQL statements
(game/rows.py), with no transaction around them: the UPDATE finds the row as it was read or
writes nothing, and then the change is made again under the row lock. The game they give and
keep is the ORM's, to the last field and signal, and what the ORM's queries refused they
refuse."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.db import DatabaseError, connection
from django.db.models.signals import post_init, post_save
from django.test import Client
from django.test.utils import CaptureQueriesContext

from game import rows
from game.board import find
from game.models import Game
from tests.helpers.embed import post as embed_post
from tests.helpers.embed import start as embed_start
from tests.helpers.play import a_card_move, legal, post, snapshot, start

pytestmark = pytest.mark.django_db


def game_statements(captured: CaptureQueriesContext) -> list[str]:
    return [q["sql"] for q in captured.captured_queries if "game_game" in q["sql"]]


def test_a_move_is_one_select_and_one_guarded_update(client: Client) -> None:
    game = start(client)
    # A second move (the first starts the game's clock: test_only_a_daily_entrys_outcome_...).
    post(client, game, "move", move=a_card_move(game).text)
    game.refresh_from_db()
    move = a_card_move(game).text
    with CaptureQueriesContext(connection) as captured:
        response = post(client, game, "move", htmx=True, move=move, auto="0")
    assert response.status_code == 200
    select, update = game_statements(captured)
    assert select.startswith('SELECT "game_game"."id"')
    assert "django_session" in select
    assert "expire_date" in select
    assert not select.endswith(" FOR UPDATE")
    assert update.startswith('UPDATE "game_game" SET ')
    # (Parameters as the database got them: inlined for SQLite, $n for PostgreSQL's binding.)
    guard = r'WHERE \S+ = \S+ AND \S+"updated_at" = .+ AND \S+"move_count" = (1|\$\d+)$'
    assert re.search(guard, update), update
    # No transaction around them (a test's own transaction makes one a SAVEPOINT).
    others = [q["sql"] for q in captured.captured_queries if "game_game" not in q["sql"]]
    assert not [sql for sql in others if "SAVEPOINT" in sql or "BEGIN" in sql], others


def test_an_embed_move_is_one_select_and_one_guarded_update() -> None:
    client = Client()
    game = embed_start(client)
    move = a_card_move(game).text
    with CaptureQueriesContext(connection) as captured:
        response = embed_post(client, game, "move", move=move)
    assert response.status_code == 303
    select, update = game_statements(captured)
    assert '"game_game"."token" = ' in select
    assert "django_session" not in select
    assert update.startswith('UPDATE "game_game" SET ')


def a_write_between(monkeypatch: pytest.MonkeyPatch, write: Any) -> list[int]:
    """Make `write` (a function of the game's id) run once, right after a change has read its
    game and before it writes: another tab or the page's clock getting in between. Returns the
    list to which each read's lock flag is appended."""
    reads: list[int] = []
    real = rows.read

    def read(model: Any, lookup: rows.Lookup, *, lock: bool) -> Any:
        found = real(model, lookup, lock=lock)
        reads.append(lock)
        if len(reads) == 1 and found is not None:
            write(found.pk)
        return found

    monkeypatch.setattr(rows, "read", read)
    return reads


def test_a_change_that_lost_a_race_to_the_clock_is_made_again_under_the_lock(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = start(client)
    first = a_card_move(game).text
    post(client, game, "move", move=first)
    game.refresh_from_db()
    second = a_card_move(game).text

    def pause(game_id: int) -> None:
        client.post(f"/game/{game_id}/clock/", {"state": "pause"})

    reads = a_write_between(monkeypatch, pause)
    response = post(client, game, "move", htmx=True, move=second, auto="0")
    assert response.status_code == 200
    # Read plainly, then (the UPDATE having found the row changed) again under the lock; the
    # pause's own read in between.
    assert reads[0] is False, reads
    assert reads[-1] is True, reads
    game.refresh_from_db()
    assert game.moves.split() == [first, second]
    assert game.move_count == 2


def test_a_bulk_update_stamps_updated_at_so_a_change_in_flight_is_made_again(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Game.objects' update() stamps updated_at as a save does (the statistics transfer moves
    games to another session that way): the guarded write then finds the row changed, and the
    move is made again on the row as the bulk update left it, which it keeps."""
    game = start(client)
    move = a_card_move(game).text

    def bulk(game_id: int) -> None:
        assert Game.objects.filter(pk=game_id).update(network="bulk") == 1

    reads = a_write_between(monkeypatch, bulk)
    response = post(client, game, "move", htmx=True, move=move, auto="0")
    assert response.status_code == 200
    assert reads[0] is False, reads
    assert reads[-1] is True, reads
    game.refresh_from_db()
    assert game.moves.split() == [move]
    assert game.network == "bulk"


def test_a_change_that_lost_a_race_to_another_move_is_a_stale_board(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = start(client)
    moves = [m.text for m in legal(game) if not m.is_redeal and not m.merci]
    other = Client()
    other.cookies = client.cookies

    def another_tab(game_id: int) -> None:
        answer = other.post(f"/game/{game_id}/move/", {"move": moves[1], "n": 0})
        assert answer.status_code == 303

    a_write_between(monkeypatch, another_tab)
    response = post(client, game, "move", htmx=True, move=moves[0], auto="0")
    assert response.status_code == 409
    game.refresh_from_db()
    # The other tab's move alone, once: nothing of the losing request was written.
    assert game.moves.split() == [moves[1]]
    assert game.move_count == 1


def test_a_write_that_changes_the_daily_figures_is_one_transaction_with_them(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The first move starts a daily entry: its tally row changes with it, or neither does.
    from game import tally

    game = daily_game(client)

    def broken(*args: object, **kwargs: object) -> None:
        raise DatabaseError("disk full")

    monkeypatch.setattr(tally, "record_change", broken)
    response = post(client, game, "move", htmx=True, move=a_card_move(game).text, auto="0")
    assert response.status_code == 503
    game.refresh_from_db()
    assert (game.move_count, game.started_at) == (0, None)


@pytest.mark.parametrize("daily", [True, False])
def test_only_a_daily_entrys_outcome_is_written_in_a_transaction(
    client: Client, daily: bool
) -> None:
    """A first move starts the game (what tally.counted reads). A daily entry's tally row
    changes with it, in one transaction; any other game has no tally row, so its first move is
    the plain guarded write of every move, with no BEGIN or SAVEPOINT."""
    game = daily_game(client) if daily else start(client)
    with CaptureQueriesContext(connection) as captured:
        response = post(client, game, "move", htmx=True, move=a_card_move(game).text, auto="0")
    assert response.status_code == 200
    game.refresh_from_db()
    assert game.started_at is not None
    transactions = [q["sql"] for q in captured.captured_queries if "SAVEPOINT" in q["sql"]]
    assert bool(transactions) is daily, [q["sql"] for q in captured.captured_queries]


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
    game = embed_start(Client())
    Game.objects.filter(pk=game.pk).update(imported=True)
    assert rows.read(Game, find.token_games(game.token), lock=True) is None
    Game.objects.filter(pk=game.pk).update(imported=False)
    assert rows.read(Game, find.token_games(game.token), lock=True) == game


def daily_game(client: Client) -> Game:
    """A stored daily entry of today's deal for this client's session, not begun."""
    from game import deals, engine
    from game.board import store

    session_key = start(client).session_key
    number = deals.todays_deal_number()
    rules = engine.Rules.parse(deals.DAILY_RULES)
    game = store.start(session_key, number, rules, daily=True)
    assert game.daily_entry
    return game
