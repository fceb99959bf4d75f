"""What `manage.py restore` does: a backup put back as the database the settings name, refusing
to replace one that holds games unless forced. A SQLite copy goes back through SQLite's backup
API, a PostgreSQL one through pg_restore (game/ops/pgdump.py), each in one transaction. The
queue's workers are fenced off meanwhile and the shared cache's keys forgotten before the fence
comes down (game/ops/fence.py), so nothing of the database as it was answers for it as restored.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import time
from pathlib import Path

from django.db import DatabaseError, connections

from game.ops import fence, pgdump, sqlite_file
from game.ops.backup import Copy
from game.ops.backup_error import BackupError


def restore(source: Path, *, force: bool = False, using: str = "default") -> Copy:
    """Put a backup back as the database `using` names, refusing to replace one that holds
    games unless `force`. The site must not be serving that database meanwhile. A SQLite copy
    goes back through SQLite's backup API, a PostgreSQL one through pg_restore, each in one
    transaction. The queue's workers are fenced off meanwhile, and once the copy is in, every
    key of the site in the shared cache is forgotten (sessions and figures of the database as
    it was), before the fence comes down (game/ops/fence.py)."""
    source = Path(os.path.abspath(source))
    if not source.is_file():
        raise BackupError(f"no backup at {source}")
    _try_fence(using)
    try:
        copy = _restore(source, force=force, using=using)
        _try_fence(using)  # the copy replaced the fence's table with the backup's
        try:
            fence.forget_caches()
        except Exception as error:
            raise BackupError(
                f"{source} is restored, but the shared cache could not be emptied ({error}): "
                "empty the site's keys in Redis before the site serves again"
            ) from None
    finally:
        if _database_there(using):
            with contextlib.suppress(DatabaseError):
                fence.lower_fence()
        connections[using].close()
    return copy


def _database_there(using: str) -> bool:
    """False for a SQLite file that does not exist (opening it would make it)."""
    connection = connections[using]
    return connection.vendor != "sqlite" or Path(str(connection.settings_dict["NAME"])).is_file()


def _try_fence(using: str) -> None:
    """Raise the fence, if the database has the table for it (a new, empty one has none, and
    no worker can take work from it either; a SQLite file that is not there is not made)."""
    if not _database_there(using):
        return
    try:
        fence.raise_fence()
    except DatabaseError:
        pass
    finally:
        connections[using].close()


def _restore(source: Path, *, force: bool, using: str) -> Copy:
    started = time.monotonic()
    vendor = connections[using].vendor
    if vendor == "postgresql":
        return _restore_postgres(source, force=force, using=using, started=started)
    if vendor != "sqlite":
        raise BackupError(f"no restore for a {vendor} database")
    return _restore_sqlite(source, force=force, using=using, started=started)


def _restore_postgres(source: Path, *, force: bool, using: str, started: float) -> Copy:
    settings = connections[using].settings_dict
    connections[using].close()
    try:
        games, sessions = pgdump.restore(settings, source, force=force)
    except pgdump.DumpError as error:
        raise BackupError(str(error)) from None
    return Copy(Path(str(settings["NAME"])), source.stat().st_size, games, sessions,
                time.monotonic() - started)  # fmt: skip


def _restore_sqlite(source: Path, *, force: bool, using: str, started: float) -> Copy:
    """The SQLite backup at `source` copied over the database file `using` names, once it is
    checked to be the site's, in one write transaction on the target."""
    target = Path(os.path.abspath(connections[using].settings_dict["NAME"]))
    if _same_file(source, target):
        raise BackupError(f"{source} is the database itself")
    # Django's own connection to the target is closed: the copy below takes the database alone.
    connections[using].close()
    with contextlib.closing(sqlite_file.open_database(source, mode="ro")) as backup_db:
        problem = sqlite_file.problem(backup_db)
        if problem:
            raise BackupError(f"{source} is not a backup of this site: {problem}")
        if not target.parent.is_dir():
            raise BackupError(f"cannot write {target}: {target.parent} is not a folder")
        try:
            with contextlib.closing(sqlite3.connect(target, timeout=20)) as target_db:
                games, sessions = _copy_over(backup_db, target_db, target, force=force)
        except sqlite3.Error as error:
            raise BackupError(f"cannot restore into {target}: {error}") from None
    return Copy(target, target.stat().st_size, games, sessions, time.monotonic() - started)


def _copy_over(
    backup_db: sqlite3.Connection, target_db: sqlite3.Connection, target: Path, *, force: bool
) -> tuple[int, int]:
    """Copy the backup over the target, refused over games unless `force`; the games and
    sessions it then holds."""
    held = (
        sqlite_file.count_rows(target_db, "game_game")
        if sqlite_file.has_table(target_db, "game_game")
        else 0
    )
    if held and not force:
        raise BackupError(f"{target} holds {held} games: restore replaces them only with --force")
    # One write transaction on the target: a failure rolls it back whole.
    backup_db.backup(target_db)
    return (
        sqlite_file.count_rows(target_db, "game_game"),
        sqlite_file.count_rows(target_db, "django_session"),
    )


def _same_file(one: Path, other: Path) -> bool:
    if os.path.realpath(one) == os.path.realpath(other):
        return True
    try:
        return os.path.samefile(one, other)
    except OSError:  # either is missing: not the same file
        return False
