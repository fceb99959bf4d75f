"""What `manage.py backup` and `manage.py restore` do: a consistent copy of the database while
the site runs, and a SQLite copy put back.

A copy is written to a temporary file beside its destination, checked, flushed to disk and only
then renamed over the destination, so a failure at any step (a full disk, a folder that cannot
be written, the database gone) leaves nothing half-written under that name: either the whole
new copy or whatever was there before.

- SQLite: SQLite's online backup API (sqlite3.Connection.backup) copies the database in one
  step under one read transaction. In WAL mode a reader never blocks the site's writers, and the
  copy is the database as it stood at one commit, never the torn file `cp` can make.
- PostgreSQL: `pg_dump --format=custom` in one exported snapshot (game/ops/pgdump.py).

A SQLite copy is restored with `restore` (SQLite's backup API again, into the database the
settings name, as one transaction); a PostgreSQL copy with pg_restore into a fresh database
(docs/operating.md, "Backups").
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

from django.db import connections

from game import engine
from game.ops import pgdump

SQLITE_SIDE_FILES = ("-wal", "-shm", "-journal")
"""The files SQLite keeps beside a database while it is open: writing over one corrupts it."""


class BackupError(Exception):
    """A backup or a restore that could not be made, with what an operator needs to know."""


@dataclass(frozen=True)
class Copy:
    """A backup as written (or a database as restored): where, how big, what it holds."""

    path: Path
    size: int
    games: int
    sessions: int
    seconds: float

    def describe(self) -> str:
        megabytes = self.size / 1_000_000
        return (
            f"{self.path}: {megabytes:.1f} MB ({self.size} bytes), {self.games} games, "
            f"{self.sessions} sessions, in {self.seconds:.1f} s"
        )


def backup(destination: Path, using: str = "default") -> Copy:
    """Write a consistent copy of the database `using` names to `destination`."""
    started = time.monotonic()
    destination = Path(os.path.abspath(destination))
    folder = destination.parent
    if not folder.is_dir():
        raise BackupError(f"cannot write {destination}: {folder} is not a folder")
    if destination.is_dir():
        raise BackupError(f"cannot write {destination}: it is a folder")
    settings = connections[using].settings_dict
    vendor = connections[using].vendor
    refuse_live(destination, using)
    with _partial_file(destination) as partial:
        if vendor == "sqlite":
            games, sessions = _sqlite_backup(Path(settings["NAME"]), partial)
        elif vendor == "postgresql":
            try:
                games, sessions = pgdump.dump(settings, partial)
            except pgdump.DumpError as error:
                raise BackupError(str(error)) from None
        else:
            raise BackupError(f"no backup for a {vendor} database")
        size = partial.stat().st_size
        _flush(partial)
        os.replace(partial, destination)
        _flush(folder)
    return Copy(destination, size, games, sessions, time.monotonic() - started)


def restore(source: Path, *, force: bool = False, using: str = "default") -> Copy:
    """Put a backup back as the database `using` names, refusing to replace one that holds
    games unless `force`. The site must not be serving that database meanwhile. A SQLite copy
    goes back through SQLite's backup API, a PostgreSQL one through pg_restore, each in one
    transaction."""
    started = time.monotonic()
    vendor = connections[using].vendor
    source = Path(os.path.abspath(source))
    if not source.is_file():
        raise BackupError(f"no backup at {source}")
    if vendor == "postgresql":
        settings = connections[using].settings_dict
        connections[using].close()
        try:
            games, sessions = pgdump.restore(settings, source, force=force)
        except pgdump.DumpError as error:
            raise BackupError(str(error)) from None
        return Copy(Path(str(settings["NAME"])), source.stat().st_size, games, sessions,
                    time.monotonic() - started)  # fmt: skip
    if vendor != "sqlite":
        raise BackupError(f"no restore for a {vendor} database")
    target = Path(os.path.abspath(connections[using].settings_dict["NAME"]))
    if _same_file(source, target):
        raise BackupError(f"{source} is the database itself")
    # Django's own connection to the target is closed: the copy below takes the database alone.
    connections[using].close()
    with contextlib.closing(_open(source, mode="ro")) as backup_db:
        problem = _checked(backup_db)
        if problem:
            raise BackupError(f"{source} is not a backup of this site: {problem}")
        if not target.parent.is_dir():
            raise BackupError(f"cannot write {target}: {target.parent} is not a folder")
        try:
            with contextlib.closing(sqlite3.connect(target, timeout=20)) as target_db:
                held = _count(target_db, "game_game") if _has_table(target_db, "game_game") else 0
                if held and not force:
                    raise BackupError(
                        f"{target} holds {held} games: restore replaces them only with --force"
                    )
                # One write transaction on the target: a failure rolls it back whole.
                backup_db.backup(target_db)
                games = _count(target_db, "game_game")
                sessions = _count(target_db, "django_session")
        except sqlite3.Error as error:
            raise BackupError(f"cannot restore into {target}: {error}") from None
    return Copy(target, target.stat().st_size, games, sessions, time.monotonic() - started)


# ---------------------------------------------------------------- the live database


def live_files(using: str = "default") -> list[Path]:
    """The files of the database the site serves (and of the task queue's SQLite file): a
    backup written over any of them would corrupt the live site. Resolved, symlinks followed."""
    from django.conf import settings as django_settings

    names: list[str] = []
    if connections[using].vendor == "sqlite":
        names.append(str(connections[using].settings_dict["NAME"]))
    if not django_settings.QUEUE_URL and django_settings.QUEUE_PATH:
        names.append(str(django_settings.QUEUE_PATH))
    files: list[Path] = []
    for name in names:
        main = Path(os.path.realpath(name))
        files.append(main)
        files.extend(main.with_name(main.name + side) for side in SQLITE_SIDE_FILES)
    return files


def refuse_live(destination: Path, using: str = "default") -> None:
    """Refuse (BackupError) a destination that is one of the live database's files, by its
    resolved path (a symlink to the database included) or by inode (a hard link)."""
    for live in live_files(using):
        if _same_file(destination, live):
            raise BackupError(
                f"refusing to write over {destination}: it is the live database's file {live} "
                "(choose a path outside the database's files)"
            )


def _same_file(one: Path, other: Path) -> bool:
    if os.path.realpath(one) == os.path.realpath(other):
        return True
    try:
        return os.path.samefile(one, other)
    except OSError:  # either is missing: not the same file
        return False


# ---------------------------------------------------------------- verify


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


def verify(source: Path, using: str = "default") -> Verified:
    """Restore the backup at `source` into a throwaway database (never the live one) and replay
    every game's move log against its stored position; BackupError naming the first games that
    fail. The throwaway database is removed afterwards."""
    started = time.monotonic()
    source = Path(os.path.abspath(source))
    if not source.is_file():
        raise BackupError(f"no backup at {source}")
    vendor = connections[using].vendor
    if vendor == "postgresql":
        try:
            game_rows, sessions = pgdump.restored_rows(connections[using].settings_dict, source)
        except pgdump.DumpError as error:
            raise BackupError(str(error)) from None
    elif vendor == "sqlite":
        game_rows, sessions = _sqlite_restored_rows(source)
    else:
        raise BackupError(f"no verify for a {vendor} database")
    wrong = unreplayable(game_rows)
    if wrong:
        shown = "; ".join(wrong[:5])
        raise BackupError(f"{source}: {len(wrong)} of {len(game_rows)} games not whole: {shown}")
    return Verified(source, len(game_rows), sessions, time.monotonic() - started)


GAME_COLUMNS = ("id", "deal_number", "rules", "moves", "redo", "auto_flags", "snapshot",
                "move_count")  # fmt: skip


def _sqlite_restored_rows(source: Path) -> tuple[list[dict[str, object]], int]:
    with contextlib.closing(_open(source, mode="ro")) as backup_db:
        problem = _checked(backup_db)
        if problem:
            raise BackupError(f"{source} is not a backup of this site: {problem}")
        with tempfile.TemporaryDirectory(prefix="lucie-verify-") as folder:
            throwaway = Path(folder) / "restored.sqlite3"
            try:
                with contextlib.closing(sqlite3.connect(throwaway)) as restored:
                    backup_db.backup(restored)
                    restored.row_factory = sqlite3.Row
                    columns = ", ".join(GAME_COLUMNS)
                    found = restored.execute(f"SELECT {columns} FROM game_game ORDER BY id")
                    game_rows = [dict(row) for row in found.fetchall()]
                    return game_rows, _count(restored, "django_session")
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


# ---------------------------------------------------------------- files


@contextlib.contextmanager
def _partial_file(destination: Path) -> Iterator[Path]:
    """An empty file beside `destination` (same folder, so same file system: the rename is
    atomic), removed unless the caller renamed it."""
    try:
        handle, name = tempfile.mkstemp(
            dir=destination.parent, prefix=f".{destination.name}.", suffix=".partial"
        )
    except OSError as error:
        raise BackupError(f"cannot write in {destination.parent}: {error.strerror}") from None
    os.close(handle)
    partial = Path(name)
    try:
        yield partial
    except OSError as error:
        raise BackupError(f"cannot write {destination}: {error.strerror or error}") from None
    finally:
        with contextlib.suppress(FileNotFoundError):
            partial.unlink()


def _flush(path: Path) -> None:
    """Ask the kernel to put `path` (a file, or a folder's entries) on the disk."""
    handle = os.open(path, os.O_RDONLY)
    try:
        os.fsync(handle)
    finally:
        os.close(handle)


# ---------------------------------------------------------------- SQLite


def _open(path: Path, mode: str) -> sqlite3.Connection:
    """An existing database file (`mode` "ro" or "rw"), never a new empty one made by mistake."""
    if not path.is_file():
        raise BackupError(f"database unavailable: no database file at {path}")
    try:
        return sqlite3.connect(f"file:{quote(str(path))}?mode={mode}", uri=True, timeout=20)
    except sqlite3.Error as error:
        raise BackupError(f"database unavailable: {path}: {error}") from None


def _has_table(db: sqlite3.Connection, table: str) -> bool:
    found = db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", (table,))
    return found.fetchone() is not None


def _count(db: sqlite3.Connection, table: str) -> int:
    count: int = db.execute(f'SELECT count(*) FROM "{table}"').fetchone()[0]
    return count


def _checked(db: sqlite3.Connection, *, pages: bool = True) -> str:
    """What is wrong with a copy of the site's database ("" when nothing is); with `pages`,
    SQLite's quick_check reads every page too."""
    try:
        verdict = db.execute("PRAGMA quick_check").fetchone()[0] if pages else "ok"
        if verdict != "ok":
            return f"SQLite's check says {verdict}"
        if not _has_table(db, "game_game") or not _has_table(db, "django_session"):
            return "it has no games or sessions table"
    except sqlite3.Error as error:
        return str(error)
    return ""


def _sqlite_backup(source: Path, partial: Path) -> tuple[int, int]:
    with contextlib.closing(_open(source, mode="rw")) as source_db:
        # The copy's pages are checked below; here, only that this is the site's database.
        problem = _checked(source_db, pages=False)
        if problem:
            raise BackupError(f"cannot back up {source}: {problem}")
        try:
            with contextlib.closing(sqlite3.connect(partial)) as copy:
                source_db.backup(copy)
                # One self-contained file: no -wal beside it to lose when it is moved.
                copy.execute("PRAGMA journal_mode=DELETE")
                problem = _checked(copy)
                if problem:
                    raise BackupError(f"the copy failed its check: {problem}")
                return _count(copy, "game_game"), _count(copy, "django_session")
        except sqlite3.Error as error:
            raise BackupError(f"cannot write the copy of {source}: {error}") from None
