"""Scale benchmark: moves per second with two app servers against one, on PostgreSQL and Redis.

    apt-get install -y wrk redis-server
    .venv/bin/python bench/scale.py --database-url postgres://... --cache-url redis://... \
        [--clients 20] [--duration 10] [--rounds 3]

(DATABASE_URL and CACHE_URL are read when the options are not given.) It migrates a scratch
database on that PostgreSQL server, starts two gunicorn instances with gunicorn.conf.py and
production settings on two loopback ports, both on that database and that Redis (as two machines
behind a load balancer would be), and seats `--clients` players, each with a game of its own
(bench/load.py's move load: play a legal move, undo it, each through the whole move pipeline).
Then it runs wrk against one server with every connection, and against both with the
connections dealt round robin (connection i to server i mod 2, one wrk per server, run at once),
alternately, `--rounds` times each, and prints the medians:

    two servers vs one: moves/s X vs Y

Each server has the workers gunicorn.conf.py gives it on this machine (2 x cores + 1), as each
machine of a real deployment would. On one machine the two servers share its cores, so the figure
cannot double here: what it shows is whether anything shared (row locks, the cache, sessions)
makes two servers slower than one. Rate limits are off for the run: seating the players makes
more sessions and games from one address in a minute than the limits allow, and moves are not
rate-limited anyway.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shutil
import statistics
import sys
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from load import MOVE_LUA, Run, Site, seat_players, write_seats, wrk  # noqa: E402

from tests.web.live_gunicorn import (  # noqa: E402
    Server,
    is_postgres,
    prepare,
    scratch_database,
    serving,
)


@contextlib.contextmanager
def two_servers(workdir: Path, database_url: str, cache_url: str) -> Iterator[list[Server]]:
    os.environ["DATABASE_URL"] = database_url  # scratch_database makes its database beside it
    with scratch_database(workdir) as scratch:
        prepare(scratch, CACHE_URL=cache_url)
        workers = min(2 * len(os.sched_getaffinity(0)) + 1, 12)
        with (
            serving(
                scratch, workdir, name="a", workers=workers,
                CACHE_URL=cache_url, LUCIE_RATE_LIMITS="0",
            ) as a,
            serving(
                scratch, workdir, name="b", workers=workers,
                CACHE_URL=cache_url, LUCIE_RATE_LIMITS="0",
            ) as b,
        ):  # fmt: skip
            yield [a, b]


def site_of(server: Server) -> Site:
    return Site(server.port, server.process, {}, server)


def run_on(
    sites: list[Site],
    seats_files: list[Path],
    clients: list[int],
    args: argparse.Namespace,
    script: Path,
) -> Run:
    """wrk against each site at once (its share of the connections); the runs added up."""
    runs: list[Run | None] = [None] * len(sites)

    def one(index: int) -> None:
        runs[index] = wrk(
            sites[index], "/", clients[index], args.duration, script, str(seats_files[index])
        )

    threads = [threading.Thread(target=one, args=(i,)) for i in range(len(sites))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    done = [run for run in runs if run is not None]
    assert len(done) == len(sites), "a wrk run failed"
    seconds = max(run.seconds for run in done)
    return Run(
        clients=sum(clients),
        requests=sum(run.requests for run in done),
        seconds=seconds,
        p50_ms=max(run.p50_ms for run in done),
        p99_ms=max(run.p99_ms for run in done),
        errors=sum(run.errors for run in done),
    )


def load_average() -> str:
    return "{:.2f} {:.2f} {:.2f}".format(*os.getloadavg())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database-url", default=os.environ.get("DATABASE_URL", ""))
    parser.add_argument("--cache-url", default=os.environ.get("CACHE_URL", ""))
    parser.add_argument("--clients", type=int, default=20, help="wrk connections in all")
    parser.add_argument("--duration", type=int, default=10, help="seconds per wrk run")
    parser.add_argument("--rounds", type=int, default=3, help="runs of each, alternated")
    parser.add_argument(
        "--smoke",
        action="store_true",
        help="seconds: 2 connections, 1 s, 1 round; without PostgreSQL, Redis and wrk, only the"
        " imports and the two servers' settings",
    )
    args = parser.parse_args()
    if args.smoke:
        args.clients, args.duration, args.rounds = 2, 1, 1
        ready = is_postgres(args.database_url) and args.cache_url.startswith("redis")
        if not ready or shutil.which("wrk") is None:
            print("smoke: no PostgreSQL, Redis or wrk here: the script imports, nothing served")
            return
    if not is_postgres(args.database_url):
        sys.exit("give a PostgreSQL server: --database-url postgres://... (or DATABASE_URL)")
    if not args.cache_url.startswith(("redis://", "rediss://", "unix://")):
        sys.exit("give a Redis: --cache-url redis://... (or CACHE_URL)")
    if shutil.which("wrk") is None:
        sys.exit("wrk is not installed: apt-get install -y wrk")

    with (
        tempfile.TemporaryDirectory(prefix="lucie-scale-") as tmp,
        two_servers(Path(tmp), args.database_url, args.cache_url) as servers,
    ):
        workdir = Path(tmp)
        script = workdir / "move.lua"
        script.write_text(MOVE_LUA)
        sites = [site_of(server) for server in servers]
        seats = seat_players(sites[0], args.clients)  # one session each, valid on both servers
        halves = [seats[0::2], seats[1::2]]  # connection i to server i mod 2
        files = [workdir / "all.tsv", workdir / "a.tsv", workdir / "b.tsv"]

        cores = len(os.sched_getaffinity(0))
        print(
            f"machine: {cores} cores; each server: gunicorn.conf.py defaults "
            f"({min(2 * cores + 1, 12)} workers x 2 threads); PostgreSQL + Redis"
        )
        print(
            f"wrk: {args.clients} connections in all, {args.duration} s per run, "
            f"{args.rounds} runs of each, alternated"
        )
        print(f"load average before: {load_average()}")
        one: list[Run] = []
        two: list[Run] = []
        for _ in range(args.rounds):
            write_seats(seats, files[0])
            one.append(run_on(sites[:1], files[:1], [args.clients], args, script))
            write_seats(halves[0], files[1])
            write_seats(halves[1], files[2])
            two.append(run_on(sites, files[1:], [len(halves[0]), len(halves[1])], args, script))
        print(f"{'':>12} {'moves/s':>8} {'p50 ms':>8} {'p99 ms':>8} {'errors':>6}")
        for name, runs in (("one server", one), ("two servers", two)):
            for run in runs:
                print(
                    f"{name:>12} {run.per_second:>8.0f} {run.p50_ms:>8.2f} {run.p99_ms:>8.2f} "
                    f"{run.errors:>6}"
                )
        print(f"load average after: {load_average()}")
        one_rate = statistics.median(run.per_second for run in one)
        two_rate = statistics.median(run.per_second for run in two)
        print(f"two servers vs one: moves/s {two_rate:.0f} vs {one_rate:.0f}")


if __name__ == "__main__":
    main()
