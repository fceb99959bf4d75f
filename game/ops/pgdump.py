"""PostgreSQL's side of `manage.py backup`, `restore` and `backup --verify` (game/ops/backup.py):
pg_dump's custom format, taken in one snapshot exported by a REPEATABLE READ transaction
(pg_export_snapshot) in which the games and sessions are counted too, so the figures printed are
the copy's own; pg_restore into the site's database in one transaction (refused over games
unless forced), or into a throwaway database to verify a copy; and the PostgreSQL client
programs, found on PATH or where Debian's postgresql-client-15 puts them.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

PG_BIN = Path("/usr/lib/postgresql/15/bin")
"""Where Debian's postgresql-client-15 puts pg_dump and pg_restore when PATH has none."""

DUMP_SECONDS = 3600
"""A pg_dump or pg_restore that runs longer than this is stopped (100,000 games take seconds)."""


class DumpError(Exception):
    """The database, pg_dump or pg_restore failed, with what they said."""


def client(name: str) -> str:
    """The PostgreSQL client program `name` (pg_dump, pg_restore): on PATH, or Debian's
    postgresql-client-15."""
    found = shutil.which(name) or (
        str(PG_BIN / name) if os.access(PG_BIN / name, os.X_OK) else None
    )
    if found is None:
        raise DumpError(f"{name} not found: install postgresql-client (version 15 or later)")
    return found


def client_environment(settings: dict[str, Any]) -> tuple[list[str], dict[str, str]]:
    """The connection options and environment (the password) for a PostgreSQL client."""
    options = [f"--dbname={settings['NAME']}"]
    if settings.get("HOST"):
        options.append(f"--host={settings['HOST']}")
    if settings.get("PORT"):
        options.append(f"--port={settings['PORT']}")
    if settings.get("USER"):
        options.append(f"--username={settings['USER']}")
    environ = {**os.environ, "PGCONNECT_TIMEOUT": "10"}
    if settings.get("PASSWORD"):
        environ["PGPASSWORD"] = str(settings["PASSWORD"])
    return options, environ


def _connect(settings: dict[str, Any], dbname: str | None = None) -> Any:
    import psycopg

    try:
        return psycopg.connect(
            dbname=dbname or settings["NAME"],
            host=settings.get("HOST") or None,
            port=settings.get("PORT") or None,
            user=settings.get("USER") or None,
            password=settings.get("PASSWORD") or None,
            connect_timeout=10,
        )
    except psycopg.Error as error:
        raise DumpError(f"database unavailable: {str(error).strip()}") from None


def _held_games(db: Any) -> int:
    found = db.execute("SELECT to_regclass('public.game_game') IS NOT NULL").fetchone()
    if not found or not found[0]:
        return 0
    return int(db.execute("SELECT count(*) FROM game_game").fetchone()[0])


def restore(settings: dict[str, Any], source: Path, *, force: bool) -> tuple[int, int]:
    """pg_restore the custom-format backup `source` into the database `settings` names, in one
    transaction (its tables dropped and made again), refusing one that holds games unless
    `force`. The games and sessions it then holds."""
    import psycopg

    pg_restore = client("pg_restore")
    options, environ = client_environment(settings)
    listed = _run([pg_restore, "--list", str(source)], environ)
    if listed:
        raise DumpError(f"{source} is not a backup of this site: {listed}")
    with _connect(settings) as db:
        try:
            held = _held_games(db)
        except psycopg.Error as error:
            raise DumpError(f"cannot read {settings['NAME']}: {str(error).strip()}") from None
    if held and not force:
        raise DumpError(
            f"{settings['NAME']} holds {held} games: restore replaces them only with --force"
        )
    failed = _run(
        [pg_restore, "--clean", "--if-exists", "--no-owner", "--exit-on-error",
         "--single-transaction", *options, str(source)],
        environ,
    )  # fmt: skip
    if failed:
        raise DumpError(f"pg_restore failed (the database is as it was): {failed}")
    with _connect(settings) as db:
        games = int(db.execute("SELECT count(*) FROM game_game").fetchone()[0])
        sessions = int(db.execute("SELECT count(*) FROM django_session").fetchone()[0])
    return games, sessions


@contextlib.contextmanager
def _throwaway(settings: dict[str, Any]) -> Iterator[str]:
    """A new empty database on the server `settings` names, dropped afterwards."""
    import psycopg

    name = f"lucie_verify_{secrets.token_hex(6)}"
    with _connect(settings) as admin:
        admin.autocommit = True
        try:
            admin.execute(f'CREATE DATABASE "{name}"')
        except psycopg.Error as error:
            raise DumpError(f"cannot make a throwaway database: {str(error).strip()}") from None
    try:
        yield name
    finally:
        with _connect(settings) as admin:
            admin.autocommit = True
            try:
                admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            except psycopg.Error as error:
                raise DumpError(f"cannot drop the throwaway database {name}: {error}") from None


def restored(
    settings: dict[str, Any], source: Path
) -> tuple[frozenset[str], list[dict[str, Any]], list[str]]:
    """pg_restore `source` into a throwaway database and read it back: its tables, its games'
    rows and its sessions' stored data; the throwaway database is dropped. DumpError when any
    of it fails (an archive that does not restore whole, a table missing or unreadable)."""
    import psycopg
    from psycopg.rows import dict_row

    pg_restore = client("pg_restore")
    with _throwaway(settings) as name:
        options, environ = client_environment({**settings, "NAME": name})
        failed = _run(
            [pg_restore, "--no-owner", "--exit-on-error", "--single-transaction", *options,
             str(source)],
            environ,
        )  # fmt: skip
        if failed:
            raise DumpError(f"{source} does not restore: {_first_line(failed)}")
        with _connect(settings, name) as db:
            try:
                tables = frozenset(
                    str(row[0])
                    for row in db.execute(
                        "SELECT tablename FROM pg_tables WHERE schemaname = 'public'"
                    ).fetchall()
                )
                db.row_factory = dict_row
                rows = db.execute(
                    "SELECT id, deal_number, rules, moves, redo, auto_flags, snapshot, "
                    "move_count FROM game_game ORDER BY id"
                ).fetchall()
                sessions = db.execute("SELECT session_data FROM django_session").fetchall()
            except psycopg.Error as error:
                raise DumpError(f"{source} restores, but cannot be read: {error}") from None
    return tables, [dict(row) for row in rows], [str(row["session_data"]) for row in sessions]


def _first_line(said: str) -> str:
    """The first line of what a client program said (pg_restore can say pages)."""
    return said.strip().splitlines()[0] if said.strip() else said


def server_folders(settings: dict[str, Any]) -> list[str]:
    """The folders the server keeps its files in, as it names them: its data directory and
    pg_wal (when the role may read the setting: a superuser or pg_read_all_settings), and
    every tablespace's location."""
    import psycopg

    folders: list[str] = []
    with _connect(settings) as db:
        try:
            folders.extend(
                str(row[0])
                for row in db.execute(
                    "SELECT pg_tablespace_location(oid) FROM pg_tablespace"
                ).fetchall()
                if row[0]
            )
        except psycopg.Error as error:
            raise DumpError(f"cannot ask the server where it keeps its files: {error}") from None
        try:
            data = db.execute("SHOW data_directory").fetchone()
        except psycopg.Error:
            data = None  # not allowed to read it: the data directory's marks still refuse it
        if data and data[0]:
            folders.extend([str(data[0]), os.path.join(str(data[0]), "pg_wal")])
    return folders


def dump(settings: dict[str, Any], handle: int) -> tuple[int, int]:
    """pg_dump's custom format of the database `settings` names, written to the open file
    `handle` (pg_dump never sees a path), checked by pg_restore --list reading it back; the
    games and sessions counted in the snapshot it dumped."""
    import psycopg

    pg_dump = client("pg_dump")
    pg_restore = client("pg_restore")
    options, environ = client_environment(settings)
    try:
        db = psycopg.connect(
            dbname=settings["NAME"],
            host=settings.get("HOST") or None,
            port=settings.get("PORT") or None,
            user=settings.get("USER") or None,
            password=settings.get("PASSWORD") or None,
            connect_timeout=10,
        )
    except psycopg.Error as error:
        raise DumpError(f"database unavailable: {str(error).strip()}") from None
    with db:
        try:
            # One snapshot for the counts and for pg_dump: the figures are the copy's own.
            db.isolation_level = psycopg.IsolationLevel.REPEATABLE_READ
            db.read_only = True
            cursor = db.cursor()
            snapshot = cursor.execute("SELECT pg_export_snapshot()").fetchone()
            games = cursor.execute("SELECT count(*) FROM game_game").fetchone()
            sessions = cursor.execute("SELECT count(*) FROM django_session").fetchone()
        except psycopg.Error as error:
            raise DumpError(f"cannot back up: {str(error).strip()}") from None
        assert snapshot is not None
        assert games is not None
        assert sessions is not None
        dump = _run(
            [
                pg_dump,
                "--format=custom",
                f"--snapshot={snapshot[0]}",
                *options,
            ],
            environ,
            stdout=handle,
        )
        if dump:
            raise DumpError(f"pg_dump failed: {dump}")
    # The archive reads back: its table of contents is whole.
    os.lseek(handle, 0, os.SEEK_SET)
    listed = _run([pg_restore, "--list"], environ, stdin=handle)
    os.lseek(handle, 0, os.SEEK_END)
    if listed:
        raise DumpError(f"the copy failed its check: {listed}")
    return int(games[0]), int(sessions[0])


def _run(
    command: list[str],
    environ: dict[str, str],
    *,
    stdin: int | None = None,
    stdout: int | None = None,
) -> str:
    """Run a client program (its input or output an open file when given); what it said on
    failure, "" on success."""
    try:
        done = subprocess.run(
            command,
            env=environ,
            stdin=subprocess.DEVNULL if stdin is None else stdin,
            stdout=subprocess.DEVNULL if stdout is None else stdout,
            stderr=subprocess.PIPE,
            text=True,
            # What pg_restore says about a corrupt archive can quote its bytes: never a
            # traceback over a byte that is not UTF-8.
            errors="replace",
            timeout=DUMP_SECONDS,
        )
    except subprocess.TimeoutExpired:
        return f"still running after {DUMP_SECONDS} s"
    except OSError as error:
        return str(error)
    if done.returncode != 0:
        return done.stderr.strip() or f"exit status {done.returncode}"
    return ""
