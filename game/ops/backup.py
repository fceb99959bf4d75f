"""What `manage.py backup` and the nightly backup write: a consistent copy of the database while
the site runs.

A copy is written to a temporary file beside its destination, checked, flushed to disk and only
then renamed over the destination, so a failure at any step (a full disk, a folder that cannot
be written, the database gone) leaves nothing half-written under that name: either the whole
new copy or whatever was there before. The destination's folder is opened once and refused when
it could touch the live database (game/ops/backup_folder.py).

- SQLite: SQLite's online backup API (sqlite3.Connection.backup) copies the database in one
  step under one read transaction. In WAL mode a reader never blocks the site's writers, and the
  copy is the database as it stood at one commit, never the torn file `cp` can make.
- PostgreSQL: `pg_dump --format=custom` in one exported snapshot (game/ops/pgdump.py).

A copy is checked whole by game/ops/backup_verify.py and put back by game/ops/restore.py (a
PostgreSQL one can also go back with pg_restore into a fresh database: docs/operating.md,
"Backups").
"""

from __future__ import annotations

import contextlib
import os
import secrets
import sqlite3
import stat
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from django.db import connections

from game.ops import backup_folder, pgdump, sqlite_file
from game.ops.backup_error import BackupError


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
    """Write a consistent copy of the database `using` names to `destination`.

    The destination's folder is opened once and every later step goes through that handle:
    the checks (is it the database's folder, or inside PostgreSQL's data?) look at the folder
    actually opened, the copy is a new file made in it with O_EXCL and O_NOFOLLOW, and the
    rename happens in it. Swapping the folder's path for a symlink after the check changes
    nothing: no path is looked up again."""
    started = time.monotonic()
    destination = Path(os.path.abspath(destination))
    if not destination.name or destination.name in (".", ".."):
        raise BackupError(f"cannot write {destination}: name a file")
    settings = connections[using].settings_dict
    vendor = connections[using].vendor
    if vendor not in ("sqlite", "postgresql"):
        raise BackupError(f"no backup for a {vendor} database")
    source_db = None
    if vendor == "sqlite":
        # The database is opened first: a database that is away says so before anything else.
        source_db = sqlite_file.open_database(Path(str(settings["NAME"])), mode="rw")
    try:
        with backup_folder.target_folder(destination.parent) as folder:
            backup_folder.refuse_live_folder(folder, destination, using)
            games, sessions, size = _write_in(folder, destination, settings, source_db)
    finally:
        if source_db is not None:
            source_db.close()
    return Copy(destination, size, games, sessions, time.monotonic() - started)


def _write_in(
    folder: int,
    destination: Path,
    settings: dict[str, Any],
    source_db: sqlite3.Connection | None,
) -> tuple[int, int, int]:
    """Write the copy (of `source_db` when the database is SQLite, else by pg_dump) to a
    partial file in the opened `folder`, flush it and rename it over `destination`'s name:
    the copy's games, sessions and size in bytes."""
    with _partial_file(folder, destination) as (partial, handle):
        if source_db is not None:
            games, sessions = _sqlite_backup(source_db, Path(str(settings["NAME"])), handle)
        else:
            try:
                games, sessions = pgdump.dump(settings, handle)
            except pgdump.DumpError as error:
                raise BackupError(str(error)) from None
        size = os.fstat(handle).st_size
        os.fsync(handle)
        if _is_folder(folder, destination.name):
            raise BackupError(f"cannot write {destination}: it is a folder")
        os.rename(partial, destination.name, src_dir_fd=folder, dst_dir_fd=folder)
    os.fsync(folder)
    return games, sessions, size


def _is_folder(folder: int, name: str) -> bool:
    try:
        return stat.S_ISDIR(os.stat(name, dir_fd=folder, follow_symlinks=False).st_mode)
    except FileNotFoundError:
        return False


@contextlib.contextmanager
def _partial_file(folder: int, destination: Path) -> Iterator[tuple[str, int]]:
    """A new empty file in the opened `folder` (its name and an open handle), made with O_EXCL
    and O_NOFOLLOW so it is never an existing file or a symlink's target, and removed unless
    the caller renamed it (same folder, so the rename is atomic)."""
    name = f".{destination.name}.{secrets.token_hex(8)}.partial"
    flags = os.O_RDWR | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
    try:
        handle = os.open(name, flags, 0o600, dir_fd=folder)
    except OSError as error:
        where = destination.parent
        raise BackupError(f"cannot write in {where}: {error.strerror}") from None
    try:
        yield name, handle
    except OSError as error:
        raise BackupError(f"cannot write {destination}: {error.strerror or error}") from None
    finally:
        os.close(handle)
        with contextlib.suppress(FileNotFoundError):
            os.unlink(name, dir_fd=folder)


def _write_all(handle: int, data: bytes | bytearray) -> None:
    view = memoryview(data)
    while view:
        written = os.write(handle, view[: 1 << 20])
        view = view[written:]


def _sqlite_backup(source_db: sqlite3.Connection, source: Path, handle: int) -> tuple[int, int]:
    """Copy the open database into memory with SQLite's backup API (one read transaction),
    check the copy, and write its bytes to `handle`: SQLite never opens a path of the backup's
    folder, so nothing it does can land anywhere else."""
    # The copy's pages are checked below; here, only that this is the site's database.
    problem = sqlite_file.problem(source_db, pages=False)
    if problem:
        raise BackupError(f"cannot back up {source}: {problem}")
    try:
        with contextlib.closing(sqlite3.connect(":memory:")) as copy:
            source_db.backup(copy)
            problem = sqlite_file.problem(copy)
            if problem:
                raise BackupError(f"the copy failed its check: {problem}")
            games = sqlite_file.count_rows(copy, "game_game")
            sessions = sqlite_file.count_rows(copy, "django_session")
            image = bytearray(copy.serialize())
    except sqlite3.Error as error:
        raise BackupError(f"cannot write the copy of {source}: {error}") from None
    # One self-contained file: the header's file format bytes (18, 19) say "rollback journal"
    # rather than WAL, as PRAGMA journal_mode=DELETE would, so no -wal is sought beside it.
    if len(image) >= 20:
        image[18:20] = b"\x01\x01"
    _write_all(handle, image)
    return games, sessions
