"""The snapshot of the position kept on the game row: a move loads it instead of replaying the log,
so it must always be the position the log replays to, and a snapshot that does not belong to the
log must be ignored (the log replayed instead).
"""

from __future__ import annotations

import random

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from game import engine
from game.engine import snapshot_position, snapshot_text
from game.models import Game, parse_moves
from tests.helpers.play import post, start

pytestmark = pytest.mark.django_db


def assert_snapshot_agrees(game: Game) -> None:
    game.refresh_from_db()
    replayed = game.replay()
    from_snapshot = snapshot_position(
        game.snapshot, parse_moves(game.moves), replayed.rules, game.deal_number
    )
    assert from_snapshot == replayed.position, game.record
    resumed = game.resume()
    assert resumed.position == replayed.position
    assert resumed.moves == replayed.moves
    assert resumed.redo_moves == replayed.redo_moves
    assert resumed.auto_flags == replayed.auto_flags


@pytest.mark.parametrize(
    ("rules", "seed"),
    [("lucie", 1), ("lucie", 2), ("lucie-ru", 3), ("trefoil", 4), ("lucie-m2-free-kings", 5)],
)
def test_snapshot_and_replay_agree_after_random_play(client: Client, rules: str, seed: int) -> None:
    """Random moves, mercis, redeals, undos (with auto moves), redos and auto-finishes through
    the site: after every change the stored snapshot is the position the log replays to."""
    rng = random.Random(seed)
    game = start(client, 1000 + seed, rules)
    for _ in range(120):
        game.refresh_from_db()
        if game.status == Game.Status.WON:
            break
        legal = engine.legal_moves(game.replay().position)
        choice = rng.random()
        auto = rng.choice(["0", "1"])
        if choice < 0.15:
            response = post(client, game, "undo", htmx=True, auto=auto)
        elif choice < 0.25:
            response = post(client, game, "redo", htmx=True, auto=auto)
        elif choice < 0.3:
            response = post(client, game, "auto", htmx=True)
        elif legal:
            move = rng.choice(legal)
            action = "redeal" if move.is_redeal else "move"
            response = post(client, game, action, htmx=True, move=move.text, auto=auto)
        else:
            response = post(client, game, "undo", htmx=True)
        assert response.status_code in (200, 400), response.content[:300]
        assert_snapshot_agrees(game)


def test_a_snapshot_of_another_log_is_ignored(client: Client) -> None:
    game = start(client)
    moves = [m for m in engine.legal_moves(engine.Position.start(5)) if not m.is_redeal][:1]
    post(client, game, "move", move=moves[0].text)
    game.refresh_from_db()
    # The log changed behind the snapshot's back (say, by hand in the admin).
    Game.objects.filter(pk=game.pk).update(moves="", move_count=0, auto_flags="")
    game.refresh_from_db()
    assert snapshot_position(game.snapshot, parse_moves(game.moves), game.engine_rules, 5) is None
    assert game.resume().position == engine.Position.start(5)


@pytest.mark.parametrize(
    "text",
    [
        "",
        "garbage",
        "{crc};0;0",
        "x;0;0;AC",
        "{crc};0;0;ACAC",
        "{crc};0;0;2C",
        "{crc};a;0;",
        "{crc};-1;0;",
    ],
)
def test_a_malformed_snapshot_is_ignored(text: str) -> None:
    crc = snapshot_text(engine.Position.start(5), ()).split(";")[0]
    found = snapshot_position(text.format(crc=crc), (), engine.DEFAULT_RULES, 5)
    assert found is None


def test_a_move_loads_the_snapshot_and_does_not_replay(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = start(client, rules="lucie-ru")
    played = engine.Play(5, engine.Rules.parse("lucie-ru"))
    for _ in range(40):
        played.play(next(m for m in engine.legal_moves(played.position) if not m.is_redeal))
    from game.board import store

    store.save(game, played)
    replays = []
    original = engine.Play.__init__

    def counting(self: engine.Play, *args: object, **kwargs: object) -> None:
        if kwargs.get("position") is None:  # a replay, not a start from the snapshot
            replays.append(args)
        original(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(engine.Play, "__init__", counting)
    move = next(m for m in engine.legal_moves(played.position) if not m.is_redeal)
    response = post(client, game, "move", htmx=True, move=move.text, auto="0")
    assert response.status_code == 200
    assert replays == []
    # Undo needs the position before the last move: the log is replayed once for it.
    game.refresh_from_db()
    response = post(client, game, "undo", htmx=True, auto="0")
    assert response.status_code == 200
    assert len(replays) == 1
    assert_snapshot_agrees(game)


def test_a_move_writes_only_the_columns_that_changed(client: Client) -> None:
    game = start(client)
    move = next(m for m in engine.legal_moves(engine.Position.start(5)) if not m.is_redeal)
    post(client, game, "move", move=move.text, auto="0")
    game.refresh_from_db()
    move = next(m for m in engine.legal_moves(game.replay().position) if not m.is_redeal)
    with CaptureQueriesContext(connection) as captured:
        response = post(client, game, "move", htmx=True, move=move.text, auto="0")
    assert response.status_code == 200
    (update,) = [q["sql"] for q in captured.captured_queries if q["sql"].startswith("UPDATE")]
    assigned = update.split(" SET ")[1].split(" WHERE ")[0]
    for column in ("moves", "snapshot", "move_count", "auto_flags", "elapsed_ms", "clock_since"):
        assert f'"{column}" =' in assigned
    for column in ("deal_number", "rules", "token", "replay_token", "session_key", "created_at"):
        assert f'"{column}" =' not in assigned


def test_undo_after_a_snapshot_load_matches_the_engine() -> None:
    rules = engine.Rules.parse("lucie-ru")
    game = engine.Play(7, rules)
    for _ in range(30):
        game.play(engine.legal_moves(game.position)[0])
    played = engine.Play.resume(7, rules, game.moves, snapshot=game.snapshot)
    assert len(played.positions_since(len(game.moves))) == 1  # from the snapshot, not replayed
    extra = engine.legal_moves(played.position)[0]
    played.play(extra)
    game.play(extra)
    for _ in range(5):
        assert played.undo() == game.undo()
    assert played.positions() == game.positions()
    assert played.redo_moves == game.redo_moves


def test_a_move_is_the_locked_read_and_one_update(client: Client) -> None:
    # In a transaction (a savepoint, inside the test's own): the game read under its row lock,
    # and one UPDATE; the session comes from the cache (cached_db), not the database.
    game = start(client)
    moves = [m for m in engine.legal_moves(engine.Position.start(5)) if not m.is_redeal]
    post(client, game, "move", move=moves[0].text)
    game.refresh_from_db()
    move = next(m for m in engine.legal_moves(game.resume().position) if not m.is_redeal)
    with CaptureQueriesContext(connection) as captured:
        response = post(client, game, "move", htmx=True, move=move.text, auto="0")
    assert response.status_code == 200
    sql = [q["sql"] for q in captured.captured_queries]
    assert [q.split()[0] for q in sql] == ["SAVEPOINT", "SELECT", "UPDATE", "RELEASE"], sql
    assert not any("django_session" in q for q in sql)
