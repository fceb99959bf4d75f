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
import errno
import os
import re
import secrets
import sqlite3
import stat
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

from django.db import DatabaseError, connections

from game import engine
from game.ops import fence, pgdump

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
        source_db = _open(Path(str(settings["NAME"])), mode="rw")
    try:
        with target_folder(destination.parent) as folder:
            refuse_live_folder(folder, destination, using)
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
    finally:
        if source_db is not None:
            source_db.close()
    return Copy(destination, size, games, sessions, time.monotonic() - started)


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


Inode = tuple[int, int]
"""A file's device and inode: what the kernel means by "the same file", whatever its path."""


def _inode(status: os.stat_result) -> Inode:
    return (status.st_dev, status.st_ino)


@contextlib.contextmanager
def target_folder(folder: Path) -> Iterator[int]:
    """The folder a backup goes into, opened once (O_DIRECTORY, O_NOFOLLOW): every check and
    write after this goes through the handle, never through the path again."""
    try:
        # strict: a folder that is not there (or vanishes as it is resolved) is refused here,
        # in a sentence, rather than as a traceback.
        resolved = os.path.realpath(folder, strict=True)
        handle = os.open(resolved, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC)
    except (FileNotFoundError, NotADirectoryError):
        raise BackupError(f"cannot write in {folder}: {folder} is not a folder") from None
    except OSError as error:
        if error.errno == errno.ELOOP:
            raise BackupError(
                f"cannot write in {folder}: it was changed into a symlink while being opened"
            ) from None
        raise BackupError(f"cannot write in {folder}: {error.strerror}") from None
    try:
        yield handle
    finally:
        os.close(handle)


def live_folders(using: str = "default") -> dict[Inode, str]:
    """The folders of the live database's files (the database, its -wal, -shm and -journal,
    which SQLite makes there whenever it likes, and the task queue's file), by inode: no backup
    is written into one of them, since a name there may be one SQLite is about to use."""
    found: dict[Inode, str] = {}
    for live in live_files(using):
        with contextlib.suppress(OSError):
            found[_inode(os.stat(live.parent))] = str(live.parent)
    return found


def postgres_folders(using: str = "default") -> dict[Inode, str]:
    """The folders PostgreSQL keeps its files in, as its server names them (the data directory,
    its pg_wal and every tablespace), by inode; empty on SQLite. Those the server will not name
    (a role without pg_read_all_settings) are still found by their marks (refuse_postgres_data)."""
    if connections[using].vendor != "postgresql":
        return {}
    try:
        named = pgdump.server_folders(connections[using].settings_dict)
    except pgdump.DumpError as error:
        raise BackupError(str(error)) from None
    found: dict[Inode, str] = {}
    for name in named:
        with contextlib.suppress(OSError):
            found[_inode(os.stat(name))] = name
    return found


def refuse_live_folder(folder: int, destination: Path, using: str = "default") -> None:
    """Refuse (BackupError) to write `destination` into the opened `folder` when that folder is
    the live database's own folder, or lies inside PostgreSQL's data directory, its WAL or a
    tablespace (by the inodes of the folder and each folder above it), or when the name there
    is already one of the live database's files (a hard link or a symlink to it)."""
    where = _inode(os.fstat(folder))
    own = live_folders(using)
    if where in own:
        raise BackupError(
            f"refusing to write over {destination}: its folder is the live database's folder "
            f"{own[where]}, where SQLite keeps the database, its -wal, -shm and -journal "
            "(choose a folder of its own for backups)"
        )
    live = {}
    for path in live_files(using):
        with contextlib.suppress(OSError):
            live[_inode(os.stat(path))] = path
    for follow in (False, True):
        with contextlib.suppress(OSError):
            there = os.stat(destination.name, dir_fd=folder, follow_symlinks=follow)
            if _inode(there) in live:
                raise BackupError(
                    f"refusing to write over {destination}: it is the live database's file "
                    f"{live[_inode(there)]} (choose a path outside the database's files)"
                )
    refuse_postgres_data(folder, destination, postgres_folders(using))


def refuse_postgres_data(folder: int, destination: Path, named: dict[Inode, str]) -> None:
    """Refuse a folder that is, or lies inside, one of PostgreSQL's folders: those its server
    named, and any folder above the target that carries a data directory's marks (PG_VERSION
    beside global/) or holds a tablespace's version folder (PG_15_…). Walked up through the
    opened handles ("..") to the root, so no path is read again."""
    current = os.dup(folder)
    try:
        while True:
            status = os.fstat(current)
            if _inode(status) in named:
                raise BackupError(
                    f"refusing to write {destination}: its folder is inside PostgreSQL's "
                    f"{named[_inode(status)]} (choose a folder outside the database server's files)"
                )
            marked = _postgres_mark(current)
            if marked:
                raise BackupError(
                    f"refusing to write {destination}: its folder is inside {marked} "
                    "(choose a folder outside the database server's files)"
                )
            parent = os.open("..", os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC, dir_fd=current)
            if _inode(os.fstat(parent)) == _inode(status):
                os.close(parent)
                return
            os.close(current)
            current = parent
    finally:
        os.close(current)


TABLESPACE_FOLDER = re.compile(r"PG_\d+_\d+")


def _postgres_mark(folder: int) -> str:
    """What marks the opened `folder` as PostgreSQL's ("" when nothing does)."""
    try:
        os.stat("PG_VERSION", dir_fd=folder, follow_symlinks=False)
        if stat.S_ISDIR(os.stat("global", dir_fd=folder, follow_symlinks=False).st_mode):
            return "a PostgreSQL data directory (it holds PG_VERSION and global/)"
    except OSError:
        pass
    try:
        names = os.listdir(folder)
    except OSError:
        return ""
    if any(TABLESPACE_FOLDER.fullmatch(name) for name in names):
        return "a PostgreSQL tablespace (it holds a PG_<version>_<catalogue> folder)"
    return ""


def _is_folder(folder: int, name: str) -> bool:
    try:
        return stat.S_ISDIR(os.stat(name, dir_fd=folder, follow_symlinks=False).st_mode)
    except FileNotFoundError:
        return False


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
    vendor = connections[using].vendor
    if vendor == "postgresql":
        try:
            held = pgdump.restored(connections[using].settings_dict, source)
        except pgdump.DumpError as error:
            raise BackupError(str(error)) from None
        restored = Restored(*held)
    elif vendor == "sqlite":
        restored = _sqlite_restored(source)
    else:
        raise BackupError(f"no verify for a {vendor} database")
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
    return Verified(source, len(game_rows), len(restored.session_data), time.monotonic() - started)


def _live_tables_and_games(using: str) -> tuple[frozenset[str], int]:
    """The tables the live database has and how many games it holds; when it cannot be read,
    the tables the site's models name and no games (a backup is then checked on its own)."""
    from django.apps import apps
    from django.db import DatabaseError

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


# ---------------------------------------------------------------- files


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


def _sqlite_backup(source_db: sqlite3.Connection, source: Path, handle: int) -> tuple[int, int]:
    """Copy the open database into memory with SQLite's backup API (one read transaction),
    check the copy, and write its bytes to `handle`: SQLite never opens a path of the backup's
    folder, so nothing it does can land anywhere else."""
    # The copy's pages are checked below; here, only that this is the site's database.
    problem = _checked(source_db, pages=False)
    if problem:
        raise BackupError(f"cannot back up {source}: {problem}")
    try:
        with contextlib.closing(sqlite3.connect(":memory:")) as copy:
            source_db.backup(copy)
            problem = _checked(copy)
            if problem:
                raise BackupError(f"the copy failed its check: {problem}")
            games, sessions = _count(copy, "game_game"), _count(copy, "django_session")
            image = bytearray(copy.serialize())
    except sqlite3.Error as error:
        raise BackupError(f"cannot write the copy of {source}: {error}") from None
    # One self-contained file: the header's file format bytes (18, 19) say "rollback journal"
    # rather than WAL, as PRAGMA journal_mode=DELETE would, so no -wal is sought beside it.
    if len(image) >= 20:
        image[18:20] = b"\x01\x01"
    _write_all(handle, image)
    return games, sessions
