"""`manage.py backup --verify` and the nightly backup's check: a backup put back into a throwaway
database (never the live one) and read whole, its tables, its games, its sessions, and every game's
move log replayed through the engine to its stored position.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from django.db import DatabaseError, connections

from game import engine
from game.ops import pgdump, sqlite_file
from game.ops.backup_error import BackupError


@dataclass(frozen=True)
class Verified:
    """A backup put back into a throwaway database and every game in it replayed."""

    path: Path
    games: int
    sessions: int
    seconds: float

    def describe(self) -> str:
        return (
            f"{self.path}: restored into a throwaway database, {self.games} games replayed "
            f"whole, {self.sessions} sessions, in {self.seconds:.1f} s"
        )


@dataclass(frozen=True)
class Restored:
    """What a backup holds once put back into a throwaway database."""

    tables: frozenset[str]
    game_rows: list[dict[str, object]]
    session_data: list[str]


def verify(source: Path, using: str = "default") -> Verified:
    """Restore the backup at `source` into a throwaway database (never the live one) and check
    it whole: every table the live database has is there, it holds games if the live database
    does, every session in it reads with this site's key, and every game's move log replays to
    its stored position. BackupError saying the first thing wrong; the throwaway database is
    removed afterwards."""
    started = time.monotonic()
    source = Path(os.path.abspath(source))
    if not source.is_file():
        raise BackupError(f"no backup at {source}")
    restored = _restored(source, using)
    _check_whole(source, restored, using)
    return Verified(
        source, len(restored.game_rows), len(restored.session_data), time.monotonic() - started
    )


def _restored(source: Path, using: str) -> Restored:
    """What the backup at `source` holds, read back from a throwaway database of the vendor
    `using` names."""
    vendor = connections[using].vendor
    if vendor == "postgresql":
        try:
            held = pgdump.restored(connections[using].settings_dict, source)
        except pgdump.DumpError as error:
            raise BackupError(str(error)) from None
        return Restored(*held)
    if vendor == "sqlite":
        return _sqlite_restored(source)
    raise BackupError(f"no verify for a {vendor} database")


def _check_whole(source: Path, restored: Restored, using: str) -> None:
    """Raise BackupError at the first thing the restored backup lacks: a table of the site, its
    games, a session this site can read, a game whose log replays."""
    tables, live_games = _live_tables_and_games(using)
    missing = sorted(tables - restored.tables)
    if missing:
        raise BackupError(
            f"{source} lacks {len(missing)} of the site's tables: {', '.join(missing[:5])}"
        )
    game_rows = restored.game_rows
    if live_games and not game_rows:
        raise BackupError(f"{source} holds no games, while the database holds {live_games}")
    unreadable = unreadable_sessions(restored.session_data)
    if unreadable:
        raise BackupError(
            f"{source}: {unreadable} of {len(restored.session_data)} sessions cannot be read "
            "with this site's SECRET_KEY"
        )
    wrong = unreplayable(game_rows)
    if wrong:
        shown = "; ".join(wrong[:5])
        raise BackupError(f"{source}: {len(wrong)} of {len(game_rows)} games not whole: {shown}")


def _live_tables_and_games(using: str) -> tuple[frozenset[str], int]:
    """The tables the live database has and how many games it holds; when it cannot be read,
    the tables the site's models name and no games (a backup is then checked on its own)."""
    from django.apps import apps

    connection = connections[using]
    try:
        with connection.cursor() as cursor:
            tables = frozenset(connection.introspection.table_names(cursor))
            cursor.execute("SELECT count(*) FROM game_game")
            games = int(cursor.fetchone()[0])
        return tables, games
    except DatabaseError:
        named = {model._meta.db_table for model in apps.get_models() if model._meta.managed}
        return frozenset(named), 0


def unreadable_sessions(session_data: list[str]) -> int:
    """How many of these stored sessions this site cannot read (a signature that does not
    match its SECRET_KEY or its fallbacks, or data that does not decode)."""
    from importlib import import_module

    from django.conf import settings
    from django.core import signing

    store = import_module(settings.SESSION_ENGINE).SessionStore()
    unreadable = 0
    for data in session_data:
        try:
            signing.loads(data, salt=store.key_salt, serializer=store.serializer)
        except Exception:  # any failure to read is what is counted
            unreadable += 1
    return unreadable


GAME_COLUMNS = ("id", "deal_number", "rules", "moves", "redo", "auto_flags", "snapshot",
                "move_count")  # fmt: skip


def _sqlite_restored(source: Path) -> Restored:
    with contextlib.closing(sqlite_file.open_database(source, mode="ro")) as backup_db:
        problem = sqlite_file.problem(backup_db)
        if problem:
            raise BackupError(f"{source} is not a backup of this site: {problem}")
        with tempfile.TemporaryDirectory(prefix="lucie-verify-") as folder:
            throwaway = Path(folder) / "restored.sqlite3"
            try:
                with contextlib.closing(sqlite3.connect(throwaway)) as restored:
                    backup_db.backup(restored)
                    restored.row_factory = sqlite3.Row
                    tables = frozenset(
                        str(row[0])
                        for row in restored.execute(
                            "SELECT name FROM sqlite_master WHERE type = 'table'"
                        )
                    )
                    columns = ", ".join(GAME_COLUMNS)
                    found = restored.execute(f"SELECT {columns} FROM game_game ORDER BY id")
                    game_rows = [dict(row) for row in found.fetchall()]
                    sessions = restored.execute("SELECT session_data FROM django_session")
                    data = [str(row[0]) for row in sessions.fetchall()]
                    return Restored(tables, game_rows, data)
            except sqlite3.Error as error:
                raise BackupError(f"cannot restore {source} to verify it: {error}") from None


def unreplayable(game_rows: list[dict[str, object]]) -> list[str]:
    """Each game row whose move log does not replay to its stored snapshot, or whose count
    disagrees with its log, with why (empty when every game is whole)."""
    wrong = []
    for row in game_rows:
        try:
            moves = [engine.Move.parse(text) for text in str(row["moves"]).split()]
            game = engine.Play(
                int(str(row["deal_number"])),
                engine.Rules.parse(str(row["rules"])),
                moves,
                redo=[engine.Move.parse(text) for text in str(row["redo"]).split()],
                auto_flags=str(row["auto_flags"]),
            )
        except ValueError as error:
            wrong.append(f"game {row['id']}: its log does not replay: {error}")
            continue
        if row["snapshot"] and game.snapshot != row["snapshot"]:
            wrong.append(f"game {row['id']}: the log replays to another position than stored")
        if row["move_count"] != len(moves):
            wrong.append(f"game {row['id']}: {row['move_count']} counted, {len(moves)} logged")
    return wrong
