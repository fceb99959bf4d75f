"""What a move's three statements cost through Django's ORM, against the same statements written
by hand: the share of a move's CPU that issue 30's "no hand SQL" costs.

    .venv/bin/python bench/orm.py [--rounds 7] [--moves 300] [--database-url postgres://...]

A move reads the session, reads the game under its row lock and saves it (game/board/store.py).
This sets up a scratch SQLite database (or the PostgreSQL one named, which it fills with one
session and one game), then times, in this process and in turn, rounds of:

- the ORM's: `Session.objects.get(...)` as Django's session store asks it, `select_for_update()
  .first()` on the game, and `save(update_fields=store.CHANGED)`, in one transaction;
- the same three statements as SQL strings on a cursor, the row made a `Game` with `from_db`,
  in one transaction (what game/rows.py and lucie/sessions.py did at 096a910, by hand).

It prints the median CPU time per move of each and their difference:
`three statements per move: ORM A ms, by hand B ms, difference D ms`. A loop this
tight runs hotter than a request does (the request runs much other code between statements),
so the difference inside a request is larger: docs/benchmarks.md gives both.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--moves", type=int, default=300, help="statements' sets per round")
    parser.add_argument("--database-url", help="PostgreSQL instead of a scratch SQLite file")
    parser.add_argument("--smoke", action="store_true", help="a few seconds: 1 round of 10")
    options = parser.parse_args()
    if options.smoke:
        options.rounds, options.moves = 1, 10

    folder = Path(tempfile.mkdtemp(prefix="lucie-orm-"))
    os.environ["DATABASE_URL"] = options.database_url or f"sqlite:///{folder / 'db.sqlite3'}"
    os.environ.pop("CACHE_URL", None)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "lucie.settings")
    import django

    django.setup()
    from django.contrib.sessions.models import Session
    from django.core.management import call_command
    from django.db import connection, transaction
    from django.utils import timezone

    from game.board import store
    from game.models import Game
    from lucie.sessions import SessionStore

    call_command("migrate", verbosity=0)
    session = SessionStore()
    session["player"] = True
    session.save()
    key = session.session_key
    game = Game.objects.create(deal_number=5, session_key=key, moves="TC>JC", move_count=1)
    table = connection.ops.quote_name(Game._meta.db_table)
    columns = [field.column for field in Game._meta.concrete_fields]
    select = ", ".join(connection.ops.quote_name(column) for column in columns)
    lock = " FOR UPDATE" if connection.features.has_select_for_update else ""
    written = [Game._meta.get_field(name) for name in store.CHANGED]
    assignments = ", ".join(f"{connection.ops.quote_name(f.column)} = %s" for f in written)

    def by_orm() -> None:
        Session.objects.get(session_key=key, expire_date__gt=timezone.now())
        with transaction.atomic():
            row = Game.objects.filter(pk=game.pk, session_key=key).select_for_update().first()
            assert row is not None
            row.save(update_fields=store.CHANGED)

    def by_hand() -> None:
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT session_data, expire_date FROM django_session"
                " WHERE session_key = %s AND expire_date > %s",
                [key, timezone.now()],
            )
            assert cursor.fetchone() is not None
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(
                f"SELECT {select} FROM {table} WHERE id = %s AND session_key = %s{lock}",
                [game.pk, key],
            )
            row = Game.from_db(connection.alias, None, cursor.fetchone())
            row.updated_at = timezone.now()
            values = [
                field.get_db_prep_save(getattr(row, field.attname), connection) for field in written
            ]
            cursor.execute(f"UPDATE {table} SET {assignments} WHERE id = %s", [*values, row.pk])

    timings: dict[str, list[float]] = {"ORM": [], "by hand": []}
    for _ in range(options.rounds):
        for name, run in (("ORM", by_orm), ("by hand", by_hand)):
            started = time.process_time()
            for _ in range(options.moves):
                run()
            timings[name].append((time.process_time() - started) / options.moves * 1000)
    orm, hand = (statistics.median(timings[name]) for name in ("ORM", "by hand"))
    print(f"database: {connection.vendor}; {options.rounds} rounds of {options.moves} moves")
    print(
        f"three statements per move: ORM {orm:.2f} ms, by hand {hand:.2f} ms, "
        f"difference {orm - hand:.2f} ms"
    )
    print(f"load average: {' '.join(f'{load:.2f}' for load in os.getloadavg())}")


if __name__ == "__main__":
    main()
