"""Where a backup may be written: the folder opened once and every later step done through that
handle, and refused when writing there could touch the live database, whose files are its own
(SQLite's database, its -wal, -shm and -journal, the task queue's file) or PostgreSQL's (its data
directory, its WAL, a tablespace, as the server names them or by their marks).

Every check looks at the folder actually opened (by its inode) and walks up through opened
handles, never through a path again: swapping the folder's path for a symlink after the check
changes nothing.
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import stat
from collections.abc import Iterator
from pathlib import Path

from django.db import connections

from game.ops import pgdump
from game.ops.backup_error import BackupError

SQLITE_SIDE_FILES = ("-wal", "-shm", "-journal")
"""The files SQLite keeps beside a database while it is open: writing over one corrupts it."""


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
    """The file `status` describes, as the kernel knows it."""
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
    _refuse_database_folder(folder, destination, using)
    _refuse_live_file(folder, destination, using)
    refuse_postgres_data(folder, destination, postgres_folders(using))


def _refuse_database_folder(folder: int, destination: Path, using: str) -> None:
    where = _inode(os.fstat(folder))
    own = live_folders(using)
    if where in own:
        raise BackupError(
            f"refusing to write over {destination}: its folder is the live database's folder "
            f"{own[where]}, where SQLite keeps the database, its -wal, -shm and -journal "
            "(choose a folder of its own for backups)"
        )


def _refuse_live_file(folder: int, destination: Path, using: str) -> None:
    """Refuse a name in `folder` that is already one of the live database's files, whether it
    is that file itself (a hard link) or a symlink to it."""
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
