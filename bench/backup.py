"""Backup benchmark: how long `manage.py backup` and a restore take on 100,000 games.

    .venv/bin/python bench/backup.py [--games N]

Builds a scratch database (a SQLite file in a temporary folder; with DATABASE_URL naming a
PostgreSQL server, a scratch database on it, dropped afterwards), migrates it and fills it with
bulk_create: N games with real move logs and their snapshots (played by the engine), half as many
sessions (two games each), a daily entry for each session on one of a year's deals, and the
tally of those days. Then it runs the real commands as an operator would, each in a process of
its own, timed from start to exit (Django's start included):

- `manage.py backup PATH`;
- the restore into a fresh database: `manage.py restore PATH` on SQLite, `pg_restore --no-owner
  --exit-on-error --single-transaction` into a new database on PostgreSQL (the PostgreSQL 15
  client, on PATH or in /usr/lib/postgresql/15/bin);

checks that the restored database holds N games, and prints

    backup: 100000 games, 41.2 MB, 1.9 s; restore 1.4 s

(the load average goes to stderr, to quote beside the figures).
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import random
import secrets
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

PLAYED = 400  # distinct engine games whose logs the rows reuse
BATCH = 5000


def is_postgres(url: str) -> bool:
    return url.startswith(("postgres://", "postgresql://", "pgsql://"))


def scratch_url(base: str, admin_sql: list[str]) -> str:
    """A new database beside the one `base` names (its name is added to `admin_sql` to drop)."""
    import psycopg

    name = f"lucie_bench_{secrets.token_hex(5)}"
    with psycopg.connect(base, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    admin_sql.append(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    return urlunsplit(urlsplit(base)._replace(path=f"/{name}"))


def fill(games: int, distinct: int = PLAYED) -> None:
    """Migrate the database DATABASE_URL names and bulk-insert `games` games (this process),
    whose logs are those of `distinct` games played by the engine."""
    import django

    django.setup()
    from importlib import import_module

    from django.conf import settings
    from django.contrib.sessions.models import Session
    from django.core.management import call_command
    from django.db import connections
    from django.utils import timezone

    from game import deals, engine, tally
    from game.models import Game

    call_command("migrate", verbosity=0)
    rng = random.Random(35)
    played = []
    for _ in range(distinct):
        game = engine.Play(rng.randrange(1, 10**6), engine.DEFAULT_RULES)
        for _ in range(rng.randrange(10, 120)):
            moves = game.legal_moves()
            if not moves:
                break
            game.play(rng.choice(moves))
        played.append(game)

    store = import_module(settings.SESSION_ENGINE).SessionStore
    now = timezone.now()
    expires = now + dt.timedelta(seconds=settings.SESSION_COOKIE_AGE)
    first_day = deals.deal_number_for(now.date() - dt.timedelta(days=364))
    days = [deals.deal_number_for(now.date() - dt.timedelta(days=back)) for back in range(365)]
    sessions = (games + 1) // 2
    for start in range(0, sessions, BATCH):
        Session.objects.bulk_create(
            Session(
                session_key=f"bench{number:027d}",
                session_data=store().encode({"rules": "lucie", "visits": number % 40}),
                expire_date=expires,
            )
            for number in range(start, min(start + BATCH, sessions))
        )
    for start in range(0, games, BATCH):
        batch = []
        for number in range(start, min(start + BATCH, games)):
            game = played[number % distinct]
            daily = number % 2 == 0
            outcome = game.outcome()
            batch.append(
                Game(
                    session_key=f"bench{number // 2:027d}",
                    deal_number=days[(number // 2) % len(days)] if daily else game.deal_number,
                    rules=game.rules.name,
                    moves=" ".join(move.text for move in game.moves),
                    move_count=len(game.moves),
                    snapshot=game.snapshot,
                    auto_flags=game.auto_flags,
                    status=Game.Status.PLAYING if outcome is None else Game.Status.LOST,
                    cards_home=game.position.cards_home,
                    started_at=now,
                    daily_entry=daily,
                    daily=daily,
                )
            )
        Game.objects.bulk_create(batch)
    tally.rebuild(first_day, days[0])
    connections.close_all()


def timed(command: list[str], database_url: str) -> float:
    """Run `command` with DATABASE_URL set; its wall time from start to exit. What it printed
    goes to stderr."""
    environ = {**os.environ, "DATABASE_URL": database_url, "DJANGO_LOG_LEVEL": "WARNING"}
    started = time.perf_counter()
    done = subprocess.run(command, cwd=ROOT, env=environ, capture_output=True, text=True)
    seconds = time.perf_counter() - started
    if done.returncode != 0:
        sys.exit(f"{' '.join(command)} failed:\n{done.stderr}")
    if done.stdout.strip():
        print(done.stdout.strip(), file=sys.stderr)
    return seconds


def count_games(database_url: str) -> int:
    if is_postgres(database_url):
        import psycopg

        with psycopg.connect(database_url) as db:
            row = db.execute("SELECT count(*) FROM game_game").fetchone()
    else:
        import sqlite3

        with sqlite3.connect(database_url.removeprefix("sqlite:///")) as db:
            row = db.execute("SELECT count(*) FROM game_game").fetchone()
    assert row is not None
    return int(row[0])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument(
        "--smoke", action="store_true", help="a few seconds: 200 games reusing 10 logs"
    )
    args = parser.parse_args()
    distinct = PLAYED
    if args.smoke:
        # Playing 400 games through the engine was a third of the smoke's CPU.
        args.games, distinct = 200, 10

    folder = tempfile.TemporaryDirectory(prefix="lucie-bench-backup-")
    base = os.environ.get("DATABASE_URL", "")
    cleanup: list[str] = []
    try:
        if is_postgres(base):
            source = scratch_url(base, cleanup)
            target = scratch_url(base, cleanup)
        else:
            source = f"sqlite:///{folder.name}/source.sqlite3"
            target = f"sqlite:///{folder.name}/restored.sqlite3"
        os.environ["DATABASE_URL"] = source
        os.environ["DJANGO_SETTINGS_MODULE"] = "lucie.settings"
        fill(args.games, distinct)

        from game.ops.pgdump import client

        # A folder of its own: backup refuses the database's folder (game/ops/backup_folder.py).
        (Path(folder.name) / "backups").mkdir()
        path = Path(folder.name) / "backups" / "lucie.backup"
        python = [sys.executable, "manage.py"]
        backup_seconds = timed([*python, "backup", str(path)], source)
        size = path.stat().st_size
        if is_postgres(base):
            restore = [client("pg_restore"), "--no-owner", "--exit-on-error",
                       "--single-transaction", f"--dbname={target}", str(path)]  # fmt: skip
        else:
            restore = [*python, "restore", str(path)]
        restore_seconds = timed(restore, target)
        restored = count_games(target)
        if restored != args.games:
            sys.exit(f"the restored database holds {restored} games, not {args.games}")
        print(
            f"backup: {args.games} games, {size / 1_000_000:.1f} MB, {backup_seconds:.1f} s; "
            f"restore {restore_seconds:.1f} s",
            flush=True,
        )
        print(f"load average: {Path('/proc/loadavg').read_text().strip()}", file=sys.stderr)
    finally:
        if cleanup:
            import psycopg
            from django.db import connections

            connections.close_all()
            with psycopg.connect(base, autocommit=True) as admin:
                for statement in cleanup:
                    admin.execute(statement)
        folder.cleanup()


if __name__ == "__main__":
    main()
