"""Daily benchmark: the month page's time and query count, empty database versus 100,000 games;
the daily page of a finished game (its rank among the day's players) on an empty day versus a
day of 100,000 finished entries.

    .venv/bin/python bench/daily.py [--games N] [--entries N] [--renders N] [--cpu] [--alternate]

Builds a throwaway SQLite database in a temporary folder (DATABASE_URL is set before Django
starts), migrates it, renders /daily/<this month>/ through the test client for a browser that has
played, then bulk-inserts N games (default 100,000): a third on this month's days, a third on other
months' days and a third on random deals, from many browsers, this one among them. The games of
a day's deal under the daily rules are real daily entries (`daily_entry`, one per browser and
deal, with the server's time of a win), as the daily page makes them, so everyone's figures count
them; the rest are other games the figures must pass over. Each
render clears the cache first, so every one runs its queries (a last set keeps it, as most
requests do). Prints lines like

    month page: empty 12.3 ms (4 queries), 100000 games 14.1 ms (4 queries), ratio 1.15
    daily page, finished game: empty day 40.1 ms (12 queries), 100000 entries 43.0 ms ...

The daily page is this browser's finished entry of today's deal, whose rank is two counts over
the ranks' index (game/rank.py); each render clears the cache so that they run, then a
last set keeps the cache, as most requests do.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import random
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--entries", type=int, default=100_000)
    parser.add_argument("--renders", type=int, default=15)
    # On a shared machine the wall clock of a render moves with everyone else's work; this
    # process's CPU time (SQLite runs in it) moves far less.
    parser.add_argument("--cpu", action="store_true", help="time renders by this process's CPU")
    # Or render a copy of the empty database and the full one in turn, so that both see the same
    # load (each render then opens its database afresh, as a request does with CONN_MAX_AGE 0).
    parser.add_argument(
        "--alternate", action="store_true", help="render the empty and the full database in turn"
    )
    parser.add_argument(
        "--smoke", action="store_true", help="a few seconds: 200 games and entries, 1 render each"
    )
    args = parser.parse_args()
    if args.smoke:
        args.games, args.entries, args.renders = 200, 200, 1

    folder = tempfile.TemporaryDirectory(prefix="lucie-bench-")
    os.environ["DATABASE_URL"] = f"sqlite:///{folder.name}/bench.sqlite3"
    os.environ["DJANGO_SETTINGS_MODULE"] = "lucie.settings"
    os.environ.setdefault("DJANGO_LOG_LEVEL", "WARNING")

    import django

    django.setup()
    from django.conf import settings
    from django.core.cache import cache
    from django.core.management import call_command
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from game import deals, tally
    from game.models import DailyRank, Game

    settings.ALLOWED_HOSTS = ["testserver"]
    call_command("migrate", verbosity=0)

    today = deals.today_utc()
    first = today.replace(day=1)
    url = f"/daily/{first:%Y}/{first:%m}/"
    client = Client()
    session = client.session
    session["player"] = True
    session.save()
    key = session.session_key
    assert key is not None

    clock = time.process_time if args.cpu else time.perf_counter

    def measure(cold: bool = True, page: str = url) -> tuple[float, int]:
        times = []
        queries = 0
        for _ in range(args.renders):
            if cold:
                cache.clear()
            with CaptureQueriesContext(connection) as captured:
                started = clock()
                response = client.get(page)
                times.append(clock() - started)
            assert response.status_code == 200, response.status_code
            queries = len(captured)
        return statistics.median(times) * 1000, queries

    # This browser's entry of today's deal, won: the daily page shows its rank.
    today_number = deals.deal_number_for(today)
    begun = dt.datetime.combine(today, dt.time(0), tzinfo=dt.UTC)
    Game.objects.create(
        session_key=key, deal_number=today_number, rules="lucie", daily=True, daily_entry=True,
        network="bench-this-one", status=Game.Status.WON, started_at=begun, finished_at=begun,
        elapsed_ms=300_000, wall_ms=301_000, move_count=90, cards_home=52,
    )  # fmt: skip
    client.get(url)  # warm templates and connections
    client.get("/daily/")
    empty_ms, empty_queries = measure()
    day_empty_ms, day_empty_queries = measure(page="/daily/")
    full_db = connection.settings_dict["NAME"]
    empty_db = f"{folder.name}/empty.sqlite3"
    if args.alternate:
        connection.close()
        shutil.copy(full_db, empty_db)

    rnd = random.Random(20261129)
    days_this_month = [first + dt.timedelta(days=d) for d in range(today.day)]
    statuses = [Game.Status.WON, Game.Status.LOST, Game.Status.ABANDONED, Game.Status.PLAYING]
    batch: list[Game] = []
    entered: set[tuple[str, int]] = {(key, today_number)}
    for index in range(args.games):
        kind = index % 3
        if kind == 0:
            day = rnd.choice(days_this_month)
            number = deals.deal_number_for(day)
        elif kind == 1:
            day = first - dt.timedelta(days=rnd.randint(1, 700))
            number = deals.deal_number_for(day)
        else:
            day = today - dt.timedelta(days=rnd.randint(0, 60))
            number = rnd.randint(1, 10**9)
        status = rnd.choice(statuses)
        started = dt.datetime.combine(day, dt.time(rnd.randint(0, 23)), tzinfo=dt.UTC)
        # One game in 500 is this browser's, all under the daily rules so that its month and
        # streak have its own entries to read.
        # (Not of today's deal: the daily page must show this browser's entry, made above.)
        mine = index % 500 == 1 and number != today_number
        browser = key if mine else f"browser-{index}"
        # A game of a day's deal under the daily rules begun from the daily page (Game.daily) is
        # that browser's entry in everyone's figures if it is its first of the deal (one per
        # browser, and per client network, and deal), a later try otherwise, as store.start
        # makes them.
        daily = kind != 2 and index % 10 != 0
        entry = daily and (browser, number) not in entered
        if entry:
            entered.add((browser, number))
        network = ("bench-this-one" if mine else f"n{index:015}") if entry else ""
        elapsed = rnd.randint(60, 1800) * 1000
        batch.append(
            Game(
                session_key=browser,
                daily=daily,
                daily_entry=entry,
                network=network,
                wall_ms=None if status == Game.Status.PLAYING else elapsed + rnd.randint(0, 9999),
                deal_number=number,
                rules="lucie" if index % 10 else "lucie-r0",
                status=status,
                started_at=started,
                finished_at=started if status != Game.Status.PLAYING else None,
                elapsed_ms=elapsed,
                move_count=rnd.randint(20, 120),
                cards_home=52 if status == Game.Status.WON else rnd.randint(4, 51),
            )
        )
        if len(batch) == 5_000:
            Game.objects.bulk_create(batch)
            batch = []
    Game.objects.bulk_create(batch)
    # A day of finished entries on today's deal: one per browser and network, as the daily
    # page makes them, a third lost or left.
    batch = []
    for index in range(args.entries):
        status = (Game.Status.WON, Game.Status.WON, Game.Status.LOST, Game.Status.ABANDONED)[
            index % 4
        ]
        won = status == Game.Status.WON
        batch.append(
            Game(
                session_key=f"day-{index}", deal_number=today_number, rules="lucie",
                daily=True, daily_entry=True, network=f"d{index:015}", status=status,
                started_at=begun, finished_at=begun, elapsed_ms=rnd.randint(60, 1800) * 1000,
                wall_ms=rnd.randint(60, 1800) * 1000, move_count=rnd.randint(80, 120),
                cards_home=52 if won else rnd.randint(4, 51),
            )
        )  # fmt: skip
        if len(batch) == 5_000:
            Game.objects.bulk_create(batch)
            batch = []
    Game.objects.bulk_create(batch)
    # A bulk write goes around the ORM's signals that keep everyone's figures per day up to date
    # (game/tally.py): count every day afresh, as the migration did for existing games.
    tally.rebuild(deals.deal_number_for(deals.site_start()) - 10_000, 99991231)
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")

    def use(name: str) -> None:
        connection.close()
        connection.settings_dict["NAME"] = name
        connection.ensure_connection()

    def measure_in_turn() -> tuple[tuple[float, int], tuple[float, int]]:
        times: dict[str, list[float]] = {empty_db: [], full_db: []}
        queries: dict[str, int] = {}
        for _ in range(args.renders):
            for name in (empty_db, full_db):
                use(name)
                cache.clear()
                with CaptureQueriesContext(connection) as captured:
                    started = clock()
                    response = client.get(url)
                    times[name].append(clock() - started)
                assert response.status_code == 200, response.status_code
                queries[name] = len(captured)
        use(full_db)
        empty = (statistics.median(times[empty_db]) * 1000, queries[empty_db])
        return empty, (statistics.median(times[full_db]) * 1000, queries[full_db])

    if args.alternate:
        (empty_ms, empty_queries), (full_ms, full_queries) = measure_in_turn()
    else:
        full_ms, full_queries = measure()
    warm_ms, warm_queries = measure(cold=False)
    day_full_ms, day_full_queries = measure(page="/daily/")
    day_warm_ms, day_warm_queries = measure(cold=False, page="/daily/")
    ranked = DailyRank.objects.filter(deal_number=today_number).count()
    count = Game.objects.count()
    entries = Game.objects.filter(daily_entry=True).count()
    month_entries = Game.objects.filter(
        daily_entry=True,
        deal_number__gte=deals.deal_number_for(first),
        deal_number__lte=deals.deal_number_for(today),
    ).count()
    print(
        f"database: SQLite, {count} games ({entries} daily entries, {month_entries} of them this "
        f"month), month {first:%Y-%m}, median of {args.renders} renders"
        + (", CPU time" if args.cpu else "")
        + (", the empty and the full database in turn" if args.alternate else "")
    )
    print(
        f"month page: empty {empty_ms:.1f} ms ({empty_queries} queries), "
        f"{count} games {full_ms:.1f} ms ({full_queries} queries), ratio {full_ms / empty_ms:.2f}"
    )
    print(
        f"month page, everyone's figures cached: {count} games {warm_ms:.1f} ms "
        f"({warm_queries} queries)"
    )
    print(
        f"daily page, finished game: empty day {day_empty_ms:.1f} ms ({day_empty_queries} "
        f"queries), {ranked} ranked entries {day_full_ms:.1f} ms ({day_full_queries} queries), "
        f"ratio {day_full_ms / day_empty_ms:.2f}"
    )
    print(
        f"daily page, rank cached: {ranked} ranked entries {day_warm_ms:.1f} ms "
        f"({day_warm_queries} queries)"
    )
    print("load average: " + " ".join(f"{value:.2f}" for value in os.getloadavg()))
    folder.cleanup()


if __name__ == "__main__":
    main()
