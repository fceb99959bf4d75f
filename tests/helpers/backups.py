"""Helpers for the backup tests: the real commands run as an operator runs them, a database
filled with real games, the rows of a database read straight from it, and the check that a
restored database is whole (every game's log replays to its stored snapshot).

Each command runs in a process of its own with DATABASE_URL naming the database, as on a server.
"""

from __future__ import annotations

import contextlib
import re
import sqlite3
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from game import engine
from game.ops.pgdump import client
from tests.helpers import forked
from tests.web.live_gunicorn import is_postgres, server_environment

# What `manage.py backup` prints on success.
WRITTEN = re.compile(
    r"backup written to (?P<path>\S+): [\d.]+ MB \((?P<size>\d+) bytes\), (?P<games>\d+) games, "
    r"(?P<sessions>\d+) sessions, in [\d.]+ s"
)


SITE_KEY = "backup-tests-" + "k" * 50
"""One SECRET_KEY for every command of a backup test, as on one site: `backup --verify` reads
each session with the site's key, and a key of its own per command would make every session
unreadable."""


def manage(
    database_url: str, *args: str, timeout: float = 300, **env: str
) -> subprocess.CompletedProcess[str]:
    """`python manage.py ARGS` against `database_url` (and `env`), as an operator would type it
    (in a process forked from one with Django imported: tests/helpers/forked.py)."""
    environ = server_environment(database_url, SECRET_KEY=SITE_KEY, **env)
    return forked.run("manage.py", *args, env=environ, timeout=timeout)


@dataclass(frozen=True)
class Written:
    path: Path
    size: int
    games: int
    sessions: int


def backup(database_url: str, path: Path) -> Written:
    """`manage.py backup PATH`, which must succeed and say what it wrote."""
    done = manage(database_url, "backup", str(path))
    assert done.returncode == 0, done.stderr
    said = WRITTEN.fullmatch(done.stdout.strip())
    assert said is not None, done.stdout
    return Written(Path(said["path"]), int(said["size"]), int(said["games"]), int(said["sessions"]))


def seed(database_url: str, games: int, seed: int = 1) -> None:
    """Fill a migrated database with `games` games in progress, each of its own session, played
    some random legal moves through the engine and stored as the site stores them."""
    code = (
        "import django; django.setup(); from tests.helpers.backups import seed_here; "
        f"seed_here({games}, {seed})"
    )
    environ = server_environment(database_url, SECRET_KEY=SITE_KEY)
    done = forked.run("-c", code, env=environ, timeout=300)
    assert done.returncode == 0, done.stderr


def seed_here(games: int, seed: int) -> None:
    """seed's work, in the process whose settings name the database."""
    import random
    from importlib import import_module

    from django.conf import settings

    from game.models import Game

    store = import_module(settings.SESSION_ENGINE).SessionStore
    rng = random.Random(seed)
    for number in range(games):
        session = store()
        session["seeded"] = number
        session.create()
        game = engine.Play(rng.randrange(1, 10**6), engine.DEFAULT_RULES)
        for _ in range(rng.randrange(1, 30)):
            moves = game.legal_moves()
            if not moves or game.outcome() is not None:
                break
            game.play(rng.choice(moves))
        Game.objects.create(
            session_key=session.session_key,
            deal_number=game.deal_number,
            rules=game.rules.name,
            moves=" ".join(move.text for move in game.moves),
            move_count=len(game.moves),
            snapshot=game.snapshot,
            auto_flags=game.auto_flags,
            status=Game.Status.PLAYING if game.outcome() is None else Game.Status.LOST,
        )


# ---------------------------------------------------------------- reading a database


def rows(database_url: str, query: str) -> list[dict[str, Any]]:
    """The rows a query returns, read straight from the database, as dicts."""
    if is_postgres(database_url):
        import psycopg
        from psycopg.rows import dict_row

        with psycopg.connect(database_url, row_factory=dict_row) as db:
            return list(db.execute(query).fetchall())  # type: ignore[arg-type]
    path = database_url.removeprefix("sqlite:///")
    with contextlib.closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as db:
        db.row_factory = sqlite3.Row
        return [dict(row) for row in db.execute(query).fetchall()]


def count(database_url: str, table: str) -> int:
    return int(rows(database_url, f"SELECT count(*) AS n FROM {table}")[0]["n"])


def unreplayable_games(database_url: str) -> list[str]:
    """Each game whose move log does not replay to its stored snapshot, or whose counters
    disagree with its log, with why (empty when every game is whole)."""
    wrong = []
    for row in rows(database_url, "SELECT * FROM game_game ORDER BY id"):
        try:
            moves = [engine.Move.parse(text) for text in row["moves"].split()]
            game = engine.Play(
                row["deal_number"],
                engine.Rules.parse(row["rules"]),
                moves,
                redo=[engine.Move.parse(text) for text in row["redo"].split()],
                auto_flags=row["auto_flags"],
            )
        except ValueError as error:
            wrong.append(f"game {row['id']}: its log does not replay: {error}")
            continue
        if game.snapshot != row["snapshot"]:
            wrong.append(f"game {row['id']}: the log replays to another position than stored")
        if row["move_count"] != len(moves):
            wrong.append(f"game {row['id']}: {row['move_count']} counted, {len(moves)} logged")
    return wrong


def pg_restore(dump: Path, database_url: str) -> subprocess.CompletedProcess[str]:
    """The documented PostgreSQL restore (docs/operating.md, Backups): pg_restore into a fresh,
    empty database."""
    return subprocess.run(
        [client("pg_restore"), "--no-owner", "--exit-on-error", "--single-transaction",
         f"--dbname={database_url}", str(dump)],
        capture_output=True,
        text=True,
        timeout=300,
    )  # fmt: skip
