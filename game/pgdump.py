"""PostgreSQL's side of `manage.py backup` (game/backup.py): pg_dump's custom format, taken in
one snapshot exported by a REPEATABLE READ transaction (pg_export_snapshot) in which the games
and sessions are counted too, so the figures printed are the copy's own; and the PostgreSQL
client programs, found on PATH or where Debian's postgresql-client-15 puts them.
"""

from __future__ import annotations

import os
import shutil
import subprocess
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


def dump(settings: dict[str, Any], partial: Path) -> tuple[int, int]:
    """pg_dump's custom format of the database `settings` names, into `partial`, checked by
    pg_restore --list; the games and sessions counted in the snapshot it dumped."""
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
                f"--file={partial}",
                *options,
            ],
            environ,
        )
        if dump:
            raise DumpError(f"pg_dump failed: {dump}")
    # The archive reads back: its table of contents is whole.
    listed = _run([pg_restore, "--list", str(partial)], environ)
    if listed:
        raise DumpError(f"the copy failed its check: {listed}")
    return int(games[0]), int(sessions[0])


def _run(command: list[str], environ: dict[str, str]) -> str:
    """Run a client program; what it said on failure, "" on success."""
    try:
        done = subprocess.run(
            command,
            env=environ,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
            timeout=DUMP_SECONDS,
        )
    except subprocess.TimeoutExpired:
        return f"still running after {DUMP_SECONDS} s"
    except OSError as error:
        return str(error)
    if done.returncode != 0:
        return done.stderr.strip() or f"exit status {done.returncode}"
    return ""
