"""A SQLite file of the site's database as a backup, its verify and a restore read one: opened
only when it exists (never a new empty one made by mistake), its rows counted, and checked to be
whole and the site's."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from urllib.parse import quote

from game.ops.backup_error import BackupError


def open_database(path: Path, mode: str) -> sqlite3.Connection:
    """An existing database file (`mode` "ro" or "rw"), never a new empty one made by mistake."""
    if not path.is_file():
        raise BackupError(f"database unavailable: no database file at {path}")
    try:
        return sqlite3.connect(f"file:{quote(str(path))}?mode={mode}", uri=True, timeout=20)
    except sqlite3.Error as error:
        raise BackupError(f"database unavailable: {path}: {error}") from None


def has_table(db: sqlite3.Connection, table: str) -> bool:
    found = db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", (table,))
    return found.fetchone() is not None


def count_rows(db: sqlite3.Connection, table: str) -> int:
    count: int = db.execute(f'SELECT count(*) FROM "{table}"').fetchone()[0]
    return count


def problem(db: sqlite3.Connection, *, pages: bool = True) -> str:
    """What is wrong with a copy of the site's database ("" when nothing is); with `pages`,
    SQLite's quick_check reads every page too."""
    try:
        verdict = db.execute("PRAGMA quick_check").fetchone()[0] if pages else "ok"
        if verdict != "ok":
            return f"SQLite's check says {verdict}"
        if not has_table(db, "game_game") or not has_table(db, "django_session"):
            return "it has no games or sessions table"
    except sqlite3.Error as error:
        return str(error)
    return ""
