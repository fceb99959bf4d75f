"""Python calls per move, and the queries of the move that ends a game.

    .venv/bin/python bench/calls.py [--smoke]

Sets up a scratch SQLite database with production settings (as bench/load.py's profile does),
deals deal 5 through the site's own POST, stores its first 40 moves, then profiles 30 htmx posts
of the 41st move with cProfile (each undone between) and prints the calls a move makes: all of
them, and those in game/ outside the engine (the board's Jinja2 templates count once per chunk
they yield). Then it plays a greedily won deal to its last move and prints the queries of the
request whose move wins it. `--smoke` profiles 3 moves.
"""

from __future__ import annotations

import cProfile
import os
import pstats
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench import load  # noqa: E402

MOVE = 40


def setup() -> None:
    folder = Path(tempfile.mkdtemp(prefix="lucie-calls-"))
    environ = load.server_environment(
        f"sqlite:///{folder / 'calls.sqlite3'}",
        ALLOWED_HOSTS="127.0.0.1,testserver",
        DJANGO_STATIC_ROOT=str(folder),
    )
    migrate = [sys.executable, "manage.py", "migrate", "--noinput", "-v0"]
    subprocess.run(migrate, cwd=ROOT, env=environ, check=True)
    os.environ.update(environ)
    import django

    django.setup()


def calls_per_move(repeats: int) -> tuple[float, float]:
    """All calls a move makes, and those in game/ outside the engine."""
    from django.test import Client

    moves = load.script_of(MOVE + 1)
    client = Client()
    game_id = load.start_in_process(client, moves[:MOVE])
    undo = {"n": MOVE + 1}
    headers = {"HX-Request": "true"}
    load.post_in_process(client, game_id, moves[MOVE], MOVE)  # warm: templates, caches
    client.post(f"/game/{game_id}/undo/", undo, headers=headers)
    profiler = cProfile.Profile()
    for _ in range(repeats):
        profiler.enable()
        load.post_in_process(client, game_id, moves[MOVE], MOVE)
        profiler.disable()
        client.post(f"/game/{game_id}/undo/", undo, headers=headers)
    stats = pstats.Stats(profiler)
    web = sum(
        each[1]
        for (path, _, _), each in stats.stats.items()  # type: ignore[attr-defined]
        if f"{os.sep}game{os.sep}" in path and f"{os.sep}engine{os.sep}" not in path
    )
    return stats.total_calls / repeats, web / repeats  # type: ignore[attr-defined]


def greedy_win() -> tuple[int, list[str]]:
    """A deal that greedy play (foundations first, else the first legal move) wins."""
    from game import engine

    for number in range(1, 1000):
        play = engine.Play(number, engine.DEFAULT_RULES)
        while play.outcome() is None:
            moves = play.legal_moves()
            home = [move for move in moves if move.to_foundation]
            play.play((home or moves)[0])
        outcome = play.outcome()
        if outcome is not None and outcome.won:
            return number, [move.text for move in play.moves]
    raise SystemExit("no deal under 1000 is won greedily")


def queries_of_a_win() -> list[str]:
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from game import engine
    from game.board import store
    from game.models import Game

    number, moves = greedy_win()
    client = Client()
    dealt = client.post(f"/deal/{number}/")
    game = Game.objects.get(pk=int(dealt["Location"].split("/")[2]))
    before = [engine.Move.parse(text) for text in moves[:-1]]
    store.save(game, engine.Play(number, engine.DEFAULT_RULES, before))
    form = {"n": len(before), "move": moves[-1], "auto": 0}
    with CaptureQueriesContext(connection) as captured:
        answer = client.post(f"/game/{game.pk}/move/", form, headers={"HX-Request": "true"})
    assert answer.status_code == 200, answer.status_code
    game.refresh_from_db()
    assert game.status == Game.Status.WON, game.status
    return [query["sql"] for query in captured.captured_queries]


def main() -> None:
    repeats = 3 if "--smoke" in sys.argv[1:] else 30
    setup()
    every, web = calls_per_move(repeats)
    print(
        f"python calls per move: {every:,.0f} (in game/ outside the engine: {web:,.0f}), "
        f"move {MOVE + 1} of deal {load.DEAL}, {repeats} moves profiled"
    )
    queries = queries_of_a_win()
    print(f"the request of a winning move: {len(queries)} queries")
    for sql in queries:
        print(f"  {sql[:100]}")


if __name__ == "__main__":
    main()
