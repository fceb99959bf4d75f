"""Load benchmark: the site under gunicorn on this machine, driven by wrk.

    apt-get install -y wrk            # the HTTP load generator (Debian package)
    .venv/bin/python bench/load.py [--duration 10] [--clients 1,10,50]

It starts gunicorn with gunicorn.conf.py and production settings (DEBUG off, collected and
compressed static files) on a free loopback port, against a fresh SQLite file, and prints:

- first, the CPU time the server processes spend per request (utime + stime of gunicorn's workers
  from /proc, and of PostgreSQL's processes where used, around a wrk run, divided by the requests
  served; steadier on a shared machine than throughput): `CPU per request: move X ms, ping Y ms,
  ratio R (SQLite)`, then the same for the baseline commit (BASELINE_COMMIT, checked out into a
  temporary git worktree and served the same way in this run: both servers are up at once and
  measured in turn, `--cpu-rounds` rounds, so a change in the machine's load weighs on both) and
  `CPU per move vs 4b0e946 (SQLite): X ms vs Y ms, ratio R`; with --database-url the
  same two lines `(PostgreSQL)`; after each server's `CPU per request` line, `CPU per request:
  cached hint X ms, cached Show a win Y ms, move Z ms; ...`, the same measure of a hint and of
  "Show a win" asked again on one connection once their answers are cached, beside a move
  measured on one connection too, in the same `--cpu-rounds` rounds taken in turn (the issue
  asks that they cost no more than a move);
  `--cpu-only` stops there;

- throughput and p50/p99 latency at 1, 10 and 50 concurrent clients for a move request and for
  /ping, a bare view through the same stack, and their ratio (goal: a move costs at most 3x);
- the 5th and the 150th move of a game (goal: within 1.3x) and the queries per move request;
- bytes on the wire: the board fragment a move answers (goal: under 1.5 kB gzipped), and a first
  page load (HTML, CSS, JS and icon, compressed as served; goal: under 60 kB);
- where the server's time in one move goes (load, apply, save, render, the rest), as medians
  over some 500 move requests of one long game, made in this process through Django's test
  client against the same database;
- with --database-url postgres://..., the same move/ping table again on that PostgreSQL
  database (which it fills with its own games), printed after SQLite's.

The move load: every wrk connection has a game of its own (its own session cookie and CSRF
token, made through the site's own URLs before the run) and alternates two requests, both
through the full move pipeline (row lock, stale-board check, load from the snapshot, apply,
save, render the board fragment): play a legal move with the right `n`, then undo it with the
next `n`. So every
request changes and saves its game, none is refused as stale, and the game stays 1 or 2 moves
long, which keeps the figure about the request rather than the game's length (measured apart).
"""

from __future__ import annotations

import argparse
import cProfile
import functools
import gzip
import io
import json
import os
import pstats
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from game import engine  # noqa: E402
from tests.web.live_gunicorn import (  # noqa: E402
    Player,
    Server,
    free_port,
    prepare,
    read_board,
    server_environment,
    stop,
    wait_until_healthy,
)

DEAL = 5
RULES = "lucie-ru"  # unlimited redeals: a long game never runs out of moves
GOAL_MOVE_VS_PING = 3.0
GOAL_LONG_VS_SHORT = 1.3
GOAL_FIRST_LOAD = 60_000
GOAL_FRAGMENT_GZIPPED = 1_500
PROFILE_MOVES = 500

# Where the server's time in a move request goes. Each phase names the functions (module:attribute)
# whose time is counted in it, innermost first: time spent in a named function called from another
# one counts in the inner one's phase only. SQL is timed apart (SELECT in load; writes and COMMIT
# in save). Whatever is left is "other": middleware, the session, routing, the transaction.
# Keep the names in step with the code: a name that no longer exists stops the benchmark.
PHASES: dict[str, tuple[str, ...]] = {
    # The read (its SELECT, and the row made a Game; under the lock only after a lost race) and
    # the snapshot.
    "load": (
        "game.board.find:found",
        "game.board.store:locked",
        "game.models:Game.resume",
    ),
    "apply": (
        "game.engine:Play.play",
        "game.engine:Play.undo",
        "game.engine:Play.redo",
        "game.engine:auto_finish",
    ),
    "save": ("game.board.store:save",),
    "render": ("game.board.answers:answer",),
}

REPORT_LUA = """
function done(summary, latency, requests)
  io.write(string.format(
    'WRK {"requests": %d, "duration_us": %d, "p50_us": %d, "p99_us": %d, "mean_us": %.1f, '
    .. '"status_errors": %d, "socket_errors": %d}\\n',
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(99),
    latency.mean, summary.errors.status,
    summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout))
end
"""

MOVE_LUA = (
    """
-- One connection per wrk thread (-t N -c N), so each thread's state is one player's game.
local counter, games = 0, {}

function setup(thread)
  thread:set("index", counter)
  counter = counter + 1
end

function init(args)
  local number = 0
  for line in io.lines(args[1]) do
    if number == index then
      local fields = "^(%S+)\\t(%S+)\\t(%S+)\\t(%S+)\\t(%d+)\\t(%a+)\\t(%x*)$"
      game, cookie, csrf, move, n, phase, key = line:match(fields)
      n = tonumber(n)
    end
    number = number + 1
  end
  headers = {
    ["Cookie"] = cookie, ["X-CSRFToken"] = csrf, ["HX-Request"] = "true",
    ["Content-Type"] = "application/x-www-form-urlencoded",
  }
end

-- auto=0 and v (the key of the board on show) as board.js sends them: the server need not
-- read the session for the auto-move setting, and leaves out the parts of the board that the
-- browser already has.
function request()
  if phase == "move" then
    return wrk.format("POST", "/game/" .. game .. "/move/", headers,
      "move=" .. move .. "&n=" .. n .. "&auto=0&v=" .. key)
  end
  return wrk.format("POST", "/game/" .. game .. "/undo/", headers,
    "n=" .. n .. "&auto=0&v=" .. key)
end

function response(status, headers, body)
  if status == 200 then
    if phase == "move" then phase, n = "undo", n + 1 else phase, n = "move", n - 1 end
    key = body:match('data%-position="(%x+)"') or ""
  end
end
"""
    + REPORT_LUA
)

# A cached hint (GET, args[2] == "hint") or a cached "Show a win" (POST) asked again and again
# on each seat's game as it stands, as the board's buttons ask them (the seats' file as for
# MOVE_LUA). Both answers were computed once per seat before the run, so these are the cache's.
ANSWER_LUA = (
    """
local counter = 0

function setup(thread)
  thread:set("index", counter)
  counter = counter + 1
end

function init(args)
  local number = 0
  for line in io.lines(args[1]) do
    if number == index then
      local fields = "^(%S+)\\t(%S+)\\t(%S+)\\t(%S+)\\t(%d+)\\t(%a+)\\t(%x*)$"
      game, cookie, csrf, move, n, phase, key = line:match(fields)
    end
    number = number + 1
  end
  kind = args[2]
  segment = args[3] or kind
  headers = {
    ["Cookie"] = cookie, ["X-CSRFToken"] = csrf, ["HX-Request"] = "true",
    ["Content-Type"] = "application/x-www-form-urlencoded",
  }
end

function request()
  if kind == "hint" then
    -- board.js names the board it holds, so the answer sends only what the hint's marks change
    return wrk.format("GET", "/game/" .. game .. "/hint/?v=" .. key, headers)
  end
  return wrk.format("POST", "/game/" .. game .. "/" .. segment .. "/", headers,
    "n=" .. n .. "&auto=0&v=" .. key)
end

function response(status, headers, body)
  -- The answer is the board on show now, as board.js reads its key: a hint's or a winning
  -- line's board has a key of its own (the plain board's, a dot, the marked move; a line's
  -- digest after another dot), sent back with the next request.
  if status == 200 then
    key = (body:match('data%-position="([^"]+)"') or ""):gsub("&gt;", ">"):gsub("&lt;", "<")
    key = key:gsub("([^%w%.%-_])", function(c) return string.format("%%%02X", string.byte(c)) end)
  end
end
"""
    + REPORT_LUA
)


@dataclass
class Run:
    clients: int
    requests: int
    seconds: float
    p50_ms: float
    p99_ms: float
    errors: int

    @property
    def per_second(self) -> float:
        return self.requests / self.seconds


@dataclass
class Seat:
    """One wrk connection's game."""

    player: Player
    game_id: int
    move: str


# ---------------------------------------------------------------- the server


@dataclass
class Site:
    port: int
    process: subprocess.Popen[bytes]
    environ: dict[str, str]
    server: Server
    # Show a win's path segment: "show-a-win", or "solve" at the baseline commit (4b0e946),
    # which served it there.
    show_a_win: str = "show-a-win"

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.port}{path}"


def start_site(workdir: Path, database_url: str | None, root: Path = ROOT) -> Site:
    """gunicorn with production settings on `database_url` (a fresh SQLite file by default),
    serving the code at `root`: this checkout, or the baseline commit's worktree."""
    database_url = database_url or f"sqlite:///{workdir / 'bench.sqlite3'}"
    environ = server_environment(
        database_url,
        ALLOWED_HOSTS="127.0.0.1,testserver",
        DJANGO_STATIC_MANIFEST="1",
        DJANGO_STATIC_ROOT=str(workdir / "static"),
        # Every seat is a new browser with a new session, all from 127.0.0.1: past 30 of them the
        # per-address limit on new sessions would refuse the rest. The limits are measured by
        # bench/attack.py; this bench measures a move.
        LUCIE_RATE_LIMITS="0",
    )
    # gunicorn sizes itself from this machine's cores (gunicorn.conf.py), as in production.
    if root == ROOT:
        prepare(
            database_url,
            collectstatic=True,
            **{
                k: environ[k]
                for k in ("ALLOWED_HOSTS", "DJANGO_STATIC_MANIFEST", "DJANGO_STATIC_ROOT")
            },
        )
    else:
        # The baseline's own code, migrations and static files: its folder first on the path.
        environ["PYTHONPATH"] = str(root)
        for step in (["migrate", "--noinput"], ["collectstatic", "--noinput"]):
            subprocess.run(
                [sys.executable, "manage.py", *step, "-v0"], cwd=root, env=environ, check=True
            )
    port = free_port()
    log = (workdir / "gunicorn.log").open("wb")
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gunicorn",
            "-c",
            "gunicorn.conf.py",
            "lucie.wsgi",
            "--bind",
            f"127.0.0.1:{port}",
            # gunicorn's access log stays off, as gunicorn.conf.py leaves it in production (the
            # site logs each request itself): writing it to /dev/null still formatted a line per
            # request, some 5% of a move's CPU.
        ],
        cwd=root,
        env=environ,
        stdout=log,
        stderr=log,
    )
    server = Server(port, process, database_url, workdir / "gunicorn.log")
    try:
        # A loaded machine boots a preloaded gunicorn slowly: allow it two minutes.
        wait_until_healthy(server, seconds=120)
    except RuntimeError:
        stop(process)
        raise
    segment = "solve" if (root / "game" / "play" / "solve.py").exists() else "show-a-win"
    return Site(port, process, environ, server, segment)


# ---------------------------------------------------------------- CPU time

BASELINE_COMMIT = "4b0e946"
"""Main before a move's answer became one Board value rendered once with the front ends as data
(issue 40: a move's answer must not get dearer): the CPU figures of a move are quoted against it,
measured in the same run (a temporary worktree of it serves the same load)."""
TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    """utime + stime of one process, in seconds (0 for one that has gone)."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return 0.0
    fields = text[text.rindex(")") + 2 :].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def children_of(parent: int) -> list[int]:
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            text = stat.read_text()
        except OSError:
            continue
        if int(text[text.rindex(")") + 2 :].split()[1]) == parent:
            found.append(int(stat.parent.name))
    return found


def database_pids(database_url: str) -> list[int]:
    """PostgreSQL's server processes (the postmaster and its children: backends, writer, WAL),
    whose CPU a move costs too; none for SQLite, which runs inside the workers."""
    if not database_url.startswith(("postgres://", "postgresql://")):
        return []
    import psycopg

    with psycopg.connect(database_url) as connection:
        row = connection.execute("SELECT pg_backend_pid()").fetchone()
        assert row is not None
        # Read while the connection is open: its backend exits once it closes.
        text = Path(f"/proc/{row[0]}/stat").read_text()
    postmaster = int(text[text.rindex(")") + 2 :].split()[1])
    return [postmaster, *children_of(postmaster)]


@dataclass
class CpuRun:
    requests: int
    app_seconds: float
    database_seconds: float

    @property
    def ms_per_request(self) -> float:
        return 1000 * (self.app_seconds + self.database_seconds) / max(self.requests, 1)


def measured_cpu(site: Site, run: Callable[[], Run]) -> CpuRun:
    """`run` (a wrk run against `site`), with the CPU time its gunicorn workers (and PostgreSQL's
    processes) spent meanwhile."""
    workers = site.server.workers()
    database = database_pids(site.environ["DATABASE_URL"])
    app_before = sum(cpu_seconds(pid) for pid in workers)
    db_before = {pid: cpu_seconds(pid) for pid in database}
    result = run()
    app = sum(cpu_seconds(pid) for pid in workers) - app_before
    db_after = {pid: cpu_seconds(pid) for pid in {*database, *database_pids_or_none(site)}}
    db = sum(max(0.0, db_after[pid] - db_before.get(pid, 0.0)) for pid in db_after)
    return CpuRun(result.requests, app, db)


def database_pids_or_none(site: Site) -> list[int]:
    # Backends started during the run (new connections) count from zero.
    try:
        return database_pids(site.environ["DATABASE_URL"])
    except Exception:
        return []


def cpu_runs(site: Site, workdir: Path, seats: list[Seat], seconds: int) -> tuple[CpuRun, CpuRun]:
    """One wrk run of /ping and one of moves (and their undos) against `site`, with the CPU
    time each cost; the seats' file is written afresh first, from their games as they stand."""
    report_lua = workdir / "report.lua"
    report_lua.write_text(REPORT_LUA)
    move_lua = workdir / "move.lua"
    move_lua.write_text(MOVE_LUA)
    seats_file = workdir / "cpu-seats.tsv"
    write_seats(seats, seats_file)
    clients = len(seats)
    ping = measured_cpu(site, lambda: wrk(site, "/ping", clients, seconds, report_lua))
    move = measured_cpu(site, lambda: wrk(site, "/", clients, seconds, move_lua, str(seats_file)))
    return move, ping


def added(one: CpuRun, other: CpuRun) -> CpuRun:
    return CpuRun(
        one.requests + other.requests,
        one.app_seconds + other.app_seconds,
        one.database_seconds + other.database_seconds,
    )


def print_cpu(
    site: Site,
    workdir: Path,
    seats: list[Seat],
    seconds: int,
    label: str,
    move: CpuRun,
    ping: CpuRun,
    rounds: int,
) -> None:
    """The `CPU per request` lines of one server (after its rounds), and its cached answers'."""
    print(
        f"CPU per request: move {move.ms_per_request:.2f} ms, ping {ping.ms_per_request:.2f} ms, "
        f"ratio {move.ms_per_request / ping.ms_per_request:.2f} ({label})"
    )
    print(
        f"  {len(seats)} clients, {rounds} rounds of {seconds} s each; move: {move.requests} "
        f"requests, app {move.app_seconds:.2f} s + database {move.database_seconds:.2f} s of CPU; "
        f"ping: {ping.requests} requests, {ping.app_seconds + ping.database_seconds:.2f} s"
    )
    hint, show_a_win, single = answers_beside_a_move(site, workdir, seats, seconds, rounds)
    print(
        f"CPU per request: cached hint {hint.ms_per_request:.2f} ms, cached Show a win "
        f"{show_a_win.ms_per_request:.2f} ms, move {single.ms_per_request:.2f} ms; hint/move "
        f"{hint.ms_per_request / single.ms_per_request:.2f}, Show a win/move "
        f"{show_a_win.ms_per_request / single.ms_per_request:.2f} ({label}; 1 client)"
    )

    first, moves = first_show_a_win(site, FIRST_GAMES)
    print(
        f"CPU per request: first Show a win on a searched board {first.ms_per_request:.2f} ms, "
        f"first move {moves.ms_per_request:.2f} ms; ratio "
        f"{first.ms_per_request / moves.ms_per_request:.2f} ({label}; {FIRST_GAMES} games)"
    )


FIRST_GAMES = 150
"""Games of the first Show a win's measure, and of the moves it is compared with."""


def first_show_a_win(site: Site, count: int) -> tuple[CpuRun, CpuRun]:
    """CPU per request of "Show a win" pressed for the first time on a game, on a board whose
    verdict is cached (another player asked it there before): the answer a crowd on the daily
    deal's opening gets. It marks the game assisted (a write) and draws the line's whole list,
    which no wrk run can repeat on one game. Beside it, a first move on as many other games of
    the same deal, sent the same way (each game its own keep-alive connection, the request as
    board.js sends it, with the key of the board on show), and measured the same way."""
    fill = seat_players(site, 12)  # the verdict searched, in every worker's own cache
    for seat in fill:
        answer = seat.player.post(f"/game/{seat.game_id}/{site.show_a_win}/", {"n": 0, "auto": 0})
        assert answer.status == 200, answer.body[:200]
    runs: dict[str, CpuRun] = {}
    for kind in ("show-a-win", "move"):
        seats = seat_players(site, count)
        pages = [seat.player.get(f"/game/{seat.game_id}/", htmx=True) for seat in seats]
        keys = [board_key(page.body) for page in pages]

        def run(seats: list[Seat] = seats, keys: list[str] = keys, kind: str = kind) -> Run:
            started = time.monotonic()
            for seat, key in zip(seats, keys, strict=True):
                form: dict[str, object] = {"n": 0, "auto": 0, "v": key}
                if kind == "move":
                    form["move"] = seat.move
                segment = site.show_a_win if kind == "show-a-win" else kind
                answer = seat.player.post(f"/game/{seat.game_id}/{segment}/", form)
                assert answer.status == 200, (kind, answer.status, answer.body[:200])
            return Run(1, len(seats), time.monotonic() - started, 0.0, 0.0, 0)

        runs[kind] = measured_cpu(site, run)
        for seat in seats:
            seat.player.close()
    return runs["show-a-win"], runs["move"]


KINDS = ("hint", "show-a-win")


def answers_beside_a_move(
    site: Site, workdir: Path, seats: list[Seat], seconds: int, rounds: int
) -> tuple[CpuRun, CpuRun, CpuRun]:
    """CPU per request of a cached hint, a cached "Show a win" and a move, each on one connection,
    in `rounds` rounds that take the three in a different order each time, summed: one run of
    each swung by a third from run to run on the shared machine (a hint read 0.77 of a move in one
    bench and 1.01 in the next, with nothing changed between).

    One connection: "Show a win" takes a compute slot (one per worker) even when its verdict is
    cached, so concurrent ones on a worker are refused as busy; one keep-alive connection also
    stays on one worker. Each is asked on a game of its own, all three on the same board: "Show a
    win" marks its game assisted and puts its line on show, which every later answer on that
    game draws (a hint asked there would send the line's list of moves as well)."""
    assert len(seats) >= 3, "the move, the hint and Show a win need a game each"
    games = {"move": seats[:1], "hint": seats[1:2], "show-a-win": seats[2:3]}
    script = workdir / "answer.lua"
    script.write_text(ANSWER_LUA)
    for kind in KINDS:
        fill_answer(site, games[kind], workdir, script, seconds, kind)
    measure: dict[str, Callable[[], CpuRun]] = {
        "move": lambda: single_move(site, workdir, games["move"], seconds),
        "hint": lambda: cached_answer(site, games["hint"], workdir, script, seconds, "hint"),
        "show-a-win": lambda: cached_answer(
            site, games["show-a-win"], workdir, script, seconds, "show-a-win"
        ),
    }
    kinds = list(measure)
    totals = dict.fromkeys(kinds, CpuRun(0, 0.0, 0.0))
    for number in range(rounds):
        for kind in kinds[number % 3 :] + kinds[: number % 3]:
            totals[kind] = added(totals[kind], measure[kind]())
    return totals["hint"], totals["show-a-win"], totals["move"]


def single_move(site: Site, workdir: Path, seats: list[Seat], seconds: int) -> CpuRun:
    """CPU per move (and its undo) on one connection, as the cached answers are measured."""
    move_lua = workdir / "move.lua"
    move_lua.write_text(MOVE_LUA)
    seats_file = workdir / "single-seat.tsv"
    write_seats(seats, seats_file)
    return measured_cpu(site, lambda: wrk(site, "/", 1, seconds, move_lua, str(seats_file)))


def fill_answer(
    site: Site, seats: list[Seat], workdir: Path, script: Path, seconds: int, kind: str
) -> None:
    """Each seat's hint or "Show a win" asked once (the search), then asked again for a run
    that is not measured: without CACHE_URL each worker keeps its own cache, which it fills."""
    for seat in seats:
        if kind == "hint":
            answer = seat.player.get(f"/game/{seat.game_id}/hint/", htmx=True)
        else:
            board = read_board(seat.player.get(f"/game/{seat.game_id}/", htmx=True).body)
            answer = seat.player.post(
                f"/game/{seat.game_id}/{site.show_a_win}/", {"n": board.move_count, "auto": 0}
            )
        assert answer.status == 200, (kind, answer.status, answer.body[:200])
    seats_file = workdir / f"{kind}-seats.tsv"
    write_seats(seats, seats_file)
    wrk(site, "/", len(seats), seconds, script, str(seats_file), kind, site.show_a_win)


def cached_answer(
    site: Site, seats: list[Seat], workdir: Path, script: Path, seconds: int, kind: str
) -> CpuRun:
    """CPU per request of the seats' cached hint or "Show a win" (fill_answer first)."""
    seats_file = workdir / f"{kind}-seats.tsv"
    write_seats(seats, seats_file)
    runs: list[Run] = []

    def run() -> Run:
        runs.append(
            wrk(site, "/", len(seats), seconds, script, str(seats_file), kind, site.show_a_win)
        )
        return runs[-1]

    found = measured_cpu(site, run)
    if runs[0].errors:
        print(f"  {kind}: {runs[0].errors} of {runs[0].requests} answers were errors")
    return found


@contextmanager
def baseline_worktree(workdir: Path) -> Iterator[Path]:
    """The baseline commit checked out into a temporary worktree (removed afterwards)."""
    folder = workdir / "baseline"
    subprocess.run(
        ["git", "worktree", "add", "--detach", "--quiet", str(folder), BASELINE_COMMIT],
        cwd=ROOT,
        check=True,
    )
    try:
        yield folder
    finally:
        subprocess.run(["git", "worktree", "remove", "--force", str(folder)], cwd=ROOT, check=False)


def cpu_against_baseline(
    workdir: Path, database_url: str | None, label: str, options: argparse.Namespace
) -> None:
    """This checkout's move against the baseline commit's, on the same database server, in this
    run: both servers are up at once and measured in turn, round after round (this checkout
    first in one round, the baseline first in the next), so that a machine whose load changes
    during the run weighs on both alike: `CPU per move vs 4b0e946 (...)`."""
    clients, seconds, rounds = options.cpu_clients, options.duration, options.cpu_rounds
    here_dir = workdir / f"cpu-{label}"
    here_dir.mkdir()
    base_dir = workdir / f"cpu-{label}-baseline"
    base_dir.mkdir()
    with baseline_worktree(base_dir) as root:
        here = start_site(here_dir, scratch_url(database_url, "here"))
        try:
            base = start_site(base_dir, scratch_url(database_url, "baseline"), root=root)
            try:
                sites = {"here": (here, here_dir), "base": (base, base_dir)}
                seats = {name: seat_players(site, clients) for name, (site, _) in sites.items()}
                empty = CpuRun(0, 0.0, 0.0)
                totals = {name: (empty, empty) for name in sites}
                for number in range(rounds):
                    order = ("here", "base") if number % 2 == 0 else ("base", "here")
                    for name in order:
                        site, folder = sites[name]
                        move, ping = cpu_runs(site, folder, seats[name], seconds)
                        totals[name] = (added(totals[name][0], move), added(totals[name][1], ping))
                for name, suffix in (("here", ""), ("base", ", baseline")):
                    site, folder = sites[name]
                    move, ping = totals[name]
                    print_cpu(
                        site, folder, seats[name], seconds, label + suffix, move, ping, rounds
                    )
            finally:
                stop(base.process)
        finally:
            stop(here.process)
    here_ms, base_ms = totals["here"][0].ms_per_request, totals["base"][0].ms_per_request
    print(
        f"CPU per move vs {BASELINE_COMMIT} ({label}): {here_ms:.2f} ms vs "
        f"{base_ms:.2f} ms, ratio {here_ms / base_ms:.2f}"
    )
    print(f"  baseline {BASELINE_COMMIT}; load average now {load_average()}")


def scratch_url(database_url: str | None, name: str) -> str | None:
    """A fresh database for each server on a PostgreSQL server (None: a fresh SQLite file)."""
    if not database_url:
        return None
    from urllib.parse import urlsplit, urlunsplit

    import psycopg

    database = f"lucie_bench_{name}_{os.getpid()}"
    with psycopg.connect(database_url, autocommit=True) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)')
        admin.execute(f'CREATE DATABASE "{database}"')
    return urlunsplit(urlsplit(database_url)._replace(path=f"/{database}"))


# ---------------------------------------------------------------- wrk


def wrk(site: Site, path: str, clients: int, seconds: int, script: Path, *args: str) -> Run:
    command = [
        "wrk",
        "-t",
        str(clients),
        "-c",
        str(clients),
        "-d",
        f"{seconds}s",
        "--timeout",
        "10s",
        "-s",
        str(script),
        site.url(path),
    ]
    if args:
        command += ["--", *args]
    output = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    line = next(line for line in output.splitlines() if line.startswith("WRK "))
    figures = json.loads(line[4:])
    return Run(
        clients=clients,
        requests=figures["requests"],
        seconds=figures["duration_us"] / 1e6,
        p50_ms=figures["p50_us"] / 1000,
        p99_ms=figures["p99_us"] / 1000,
        errors=figures["status_errors"] + figures["socket_errors"],
    )


def seat_players(site: Site, count: int) -> list[Seat]:
    """A game for each connection, made as a browser would: a deal page, then its first move."""
    seats = []
    for _ in range(count):
        player = Player(site.port)
        board = read_board(player.open_deal(f"/deal/{DEAL}/?rules={RULES}").body)
        move = sorted(m for moves in board.moves.values() for m in moves)[0]
        seats.append(Seat(player, board.game_id, move))
    return seats


def write_seats(seats: list[Seat], path: Path) -> None:
    """Each seat's game as it stands now: the phase (move or undo) follows from its move count."""
    lines = []
    for seat in seats:
        board = read_board(seat.player.get(f"/game/{seat.game_id}/", htmx=True).body)
        cookie = "; ".join(f"{k}={v}" for k, v in seat.player.cookies.items())
        phase = "move" if board.move_count == 0 else "undo"
        key = board_key(seat.player.get(f"/game/{seat.game_id}/", htmx=True).body)
        # The token a browser's htmx sends: the page's own, masked (`<body hx-headers>`).
        page = seat.player.get(f"/game/{seat.game_id}/").body
        found = re.search(r'"X-CSRFToken": "(\w+)"', page)
        token = found[1] if found else seat.player.cookies["csrftoken"]
        lines.append(
            "\t".join(
                [
                    str(seat.game_id),
                    cookie.replace(" ", ""),
                    token,
                    quote(seat.move, safe=""),
                    str(board.move_count),
                    phase,
                    key,
                ]
            )
        )
    path.write_text("\n".join(lines) + "\n")


# ---------------------------------------------------------------- a long game


def script_of(length: int) -> list[str]:
    """`length` legal moves of deal DEAL under RULES: card moves while many cards are out,
    redeals otherwise, so the game is long but never won."""
    rng = random.Random(1)
    game = engine.Play(DEAL, engine.Rules.parse(RULES))
    while len(game.moves) < length:
        cards = [m for m in engine.legal_moves(game.position) if not m.is_redeal]
        game.play(rng.choice(cards) if cards and game.position.cards_home < 40 else engine.REDEAL)
    return [move.text for move in game.moves]


def change(player: Player, game_id: int, entry: str, n: int, key: str = "") -> float:
    """Post one move (or redeal) as board.js does, and return its latency in milliseconds."""
    form: dict[str, object] = {"n": n, "auto": 0, "v": key}
    if entry == "R":
        path = f"/game/{game_id}/redeal/"
    else:
        path = f"/game/{game_id}/move/"
        form["move"] = entry
    started = time.perf_counter()
    answer = player.post(path, form)
    elapsed = (time.perf_counter() - started) * 1000
    assert answer.status == 200, (answer.status, answer.body[:200])
    return elapsed


def long_and_short(site: Site, samples: int) -> tuple[list[float], list[float]]:
    """Latencies of the 5th and the 150th move, measured in turn so drift hits both alike."""
    moves = script_of(150)
    games = []
    for length in (4, 149):
        player = Player(site.port)
        board = read_board(player.open_deal(f"/deal/{DEAL}/?rules={RULES}").body)
        for n, entry in enumerate(moves[:length]):
            change(player, board.game_id, entry, n)
        games.append((player, board.game_id, moves[length], length))
    for player, game_id, _, _ in games:
        # The first game's connection idled while the second was built: reopen it untimed.
        player.get(f"/game/{game_id}/", htmx=True)
    timings: list[list[float]] = [[], []]
    for _ in range(samples):
        for index, (player, game_id, entry, length) in enumerate(games):
            key = board_key(player.get(f"/game/{game_id}/", htmx=True).body)
            timings[index].append(change(player, game_id, entry, length, key))
            player.post(f"/game/{game_id}/undo/", {"n": length + 1})
    return timings[0], timings[1]


# ---------------------------------------------------------------- in process: queries, profile


def in_process(site: Site) -> None:
    """Point Django in this process at the benchmark's database, with its settings."""
    os.environ.update(site.environ)
    import django

    django.setup()


def queries_per_request(lengths: tuple[int, ...]) -> dict[int, list[str]]:
    """The SQL of one move request at each game length, through Django's test client."""
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    moves = script_of(max(lengths) + 1)
    found = {}
    for length in lengths:
        client = Client()
        game_id = start_in_process(client, moves[:length])
        with CaptureQueriesContext(connection) as captured:
            post_in_process(client, game_id, moves[length], length)
        found[length] = [query["sql"] for query in captured.captured_queries]
    return found


def start_in_process(client: object, moves: list[str]) -> int:
    from django.test import Client

    from game.board import store
    from game.models import Game

    assert isinstance(client, Client)
    # A POST deals it for real (a GET with no session stores nothing): 303 to /game/<id>/.
    response = client.post(f"/deal/{DEAL}/?rules={RULES}")
    game_id = int(response["Location"].split("/")[2])
    game = Game.objects.get(pk=game_id)
    played = engine.Play(DEAL, engine.Rules.parse(RULES), [engine.Move.parse(m) for m in moves])
    store.save(game, played)
    return game_id


def post_in_process(client: object, game_id: int, entry: str, n: int, key: str = "") -> str:
    """Post one move as board.js does (auto and the board's key); returns the new board's key."""
    from django.test import Client

    assert isinstance(client, Client)
    form: dict[str, object] = {"n": n, "auto": 0, "v": key}
    if entry != "R":
        form["move"] = entry
    action = "redeal" if entry == "R" else "move"
    response = client.post(f"/game/{game_id}/{action}/", form, headers={"HX-Request": "true"})
    assert response.status_code == 200, response.status_code
    return board_key(response.content.decode())


def board_key(html: str) -> str:
    """The key of the board on show (data-position), which board.js sends with each change."""
    found = re.search(r'data-position="(\w+)"', html)
    return found[1] if found else ""


def profile_long_move(repeats: int = 30) -> str:
    from django.test import Client

    moves = script_of(150)
    client = Client()
    game_id = start_in_process(client, moves[:149])
    profiler = cProfile.Profile()
    for _ in range(repeats):
        profiler.enable()
        post_in_process(client, game_id, moves[149], 149)
        profiler.disable()
        client.post(f"/game/{game_id}/undo/", {"n": 150}, headers={"HX-Request": "true"})
    out = io.StringIO()
    pstats.Stats(profiler, stream=out).sort_stats("cumulative").print_stats(r"game/|template", 14)
    return out.getvalue()


class PhaseClock:
    """Times named functions and SQL during requests, each moment counted in the innermost phase."""

    def __init__(self) -> None:
        self.totals: dict[str, float] = {}
        self.stack: list[list[float]] = []  # [start, time spent in inner phases]

    def timed(self, phase: str, call: Any, *args: Any, **kwargs: Any) -> Any:
        self.stack.append([time.perf_counter(), 0.0])
        try:
            return call(*args, **kwargs)
        finally:
            started, inner = self.stack.pop()
            spent = time.perf_counter() - started
            self.totals[phase] = self.totals.get(phase, 0.0) + spent - inner
            if self.stack:
                self.stack[-1][1] += spent

    def wrap(self, phase: str, function: Any) -> Any:
        @functools.wraps(function)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            return self.timed(phase, function, *args, **kwargs)

        return wrapper

    def sql(self, execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        phase = "load" if sql.lstrip().upper().startswith("SELECT") else "save"
        return self.timed(phase, execute, sql, params, many, context)


def install_phases(clock: PhaseClock) -> list[tuple[object, str, object]]:
    """Wrap each function that PHASES names; returns what to put back."""
    import importlib

    undo: list[tuple[object, str, object]] = []
    targets = [(phase, name) for phase, names in PHASES.items() for name in names]
    targets.append(("save", "django.db.backends.base.base:BaseDatabaseWrapper.commit"))
    for phase, name in targets:
        module_name, _, path = name.partition(":")
        owner: object = importlib.import_module(module_name)
        *parents, attribute = path.split(".")
        for parent in parents:
            owner = getattr(owner, parent)
        original = getattr(owner, attribute)
        undo.append((owner, attribute, original))
        setattr(owner, attribute, clock.wrap(phase, original))
    return undo


def phase_breakdown(count: int) -> dict[str, float]:
    """Median milliseconds per phase over `count` move requests of one long game (in process)."""
    from django.db import connection
    from django.test import Client

    moves = script_of(count)
    client = Client()
    game_id = start_in_process(client, [])
    clock = PhaseClock()
    undo = install_phases(clock)
    samples: dict[str, list[float]] = {name: [] for name in (*PHASES, "other", "total")}
    try:
        with connection.execute_wrapper(clock.sql):
            key = ""
            for n, entry in enumerate(moves):
                clock.totals.clear()
                started = time.perf_counter()
                key = post_in_process(client, game_id, entry, n, key)
                total = time.perf_counter() - started
                for name in PHASES:
                    samples[name].append(clock.totals.get(name, 0.0) * 1000)
                samples["other"].append((total - sum(clock.totals.values())) * 1000)
                samples["total"].append(total * 1000)
    finally:
        for owner, attribute, original in reversed(undo):
            setattr(owner, attribute, original)
    return {name: statistics.median(values) for name, values in samples.items()}


# ---------------------------------------------------------------- bytes on the wire


def first_load(site: Site) -> tuple[int, list[tuple[str, int, str]]]:
    """A first visit: the page, then every stylesheet, script and icon it names, asking for gzip
    as a browser does. Returns the total and (path, bytes, encoding) for each."""
    visitor = Player(site.port)
    page = visitor.request("GET", "/", accept_gzip=True)
    html = page.raw
    items = [("/ (HTML)", len(page.raw), page.headers.get("Content-Encoding") or "none")]
    if page.headers.get("Content-Encoding") == "gzip":
        html = gzip.decompress(page.raw)
    # Each asset once, as a browser fetches it: the cards' sprite is named by every card
    # (`/static/cards.svg#c-7H`), one file whatever the fragment.
    # Not the home-screen icon, which no browser fetches on a visit (see test_weight.py).
    html = re.sub(rb'<link rel="apple-touch-icon"[^>]*>', b"", html)
    named = re.findall(rb'(?:src|href)="(/static/[^"#]+)', html)
    for path in dict.fromkeys(named):
        asset = visitor.request("GET", path.decode(), accept_gzip=True)
        assert asset.status == 200, path
        items.append(
            (path.decode(), len(asset.raw), asset.headers.get("Content-Encoding") or "none")
        )
    visitor.close()
    return sum(size for _, size, _ in items), items


def fragment_size(seat: Seat) -> tuple[int, int, str]:
    """The board fragment a move answers: as sent, gzip-compressed, and the encoding used."""
    board = read_board(seat.player.get(f"/game/{seat.game_id}/", htmx=True).body)
    if board.move_count:
        seat.player.post(f"/game/{seat.game_id}/undo/", {"n": board.move_count})
    key = board_key(seat.player.get(f"/game/{seat.game_id}/", htmx=True).body)
    answer = seat.player.request(
        "POST",
        f"/game/{seat.game_id}/move/",
        {"move": seat.move, "n": 0, "v": key},
        htmx=True,
        accept_gzip=True,
    )
    assert answer.status == 200
    plain = gzip.decompress(answer.raw) if answer.headers.get("Content-Encoding") else answer.raw
    encoding = answer.headers.get("Content-Encoding") or "none"
    seat.player.post(f"/game/{seat.game_id}/undo/", {"n": 1})
    return len(answer.raw), len(gzip.compress(plain)), encoding


# ---------------------------------------------------------------- report


def verdict(ok: bool) -> str:
    return "goal met" if ok else "GOAL MISSED"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--duration", type=int, default=10, help="seconds per wrk run")
    parser.add_argument("--clients", default="1,10,50", help="concurrent clients, comma-separated")
    parser.add_argument("--samples", type=int, default=150, help="5th/150th move timings each")
    parser.add_argument(
        "--database-url",
        help="also run the move/ping table on this PostgreSQL database (postgres://...)",
    )
    parser.add_argument(
        "--cpu-clients", type=int, default=4, help="connections for the CPU-time runs"
    )
    parser.add_argument(
        "--cpu-rounds",
        type=int,
        default=3,
        help="rounds of the CPU-time runs, this checkout and the baseline in turn",
    )
    parser.add_argument(
        "--cpu-only",
        action="store_true",
        help="print only the CPU-time lines (this checkout and the baseline commit)",
    )
    parser.add_argument(
        "--smoke",
        action="store_true",
        help="a few seconds: serve this checkout, seat two players and post a move each (no wrk)",
    )
    parser.add_argument(
        "--profile-only",
        action="store_true",
        help="print only where a move's server time goes (no server, no wrk)",
    )
    options = parser.parse_args()
    if options.smoke:
        smoke()
        return
    if options.profile_only:
        with tempfile.TemporaryDirectory(prefix="lucie-bench-") as tmp:
            print_phases(Path(tmp))
        return
    if shutil.which("wrk") is None:
        sys.exit("wrk is not installed: apt-get install -y wrk")
    levels = [int(c) for c in options.clients.split(",")]

    with tempfile.TemporaryDirectory(prefix="lucie-bench-") as tmp:
        workdir = Path(tmp)
        print(
            f"\n== CPU time of the server processes per request (load average {load_average()}) =="
        )
        cpu_against_baseline(workdir, None, "SQLite", options)
        if options.database_url:
            cpu_against_baseline(workdir, options.database_url, "PostgreSQL", options)
        if options.cpu_only:
            return
        site = start_site(workdir, None)
        try:
            report(site, workdir, levels, options)
        finally:
            stop(site.process)
        if options.database_url:
            postgres = workdir / "postgres"
            postgres.mkdir()
            site = start_site(postgres, options.database_url)
            try:
                report_postgres(site, postgres, levels, options)
            finally:
                stop(site.process)


def smoke() -> None:
    """What a run needs, in a few seconds and without wrk: this checkout under gunicorn, two
    players seated through the site's URLs, a move posted by each, the CPU it cost."""
    with tempfile.TemporaryDirectory(prefix="lucie-bench-smoke-") as tmp:
        site = start_site(Path(tmp), None)
        try:
            seats = seat_players(site, 2)
            pids = children_of(site.process.pid) or [site.process.pid]
            before = sum(cpu_seconds(pid) for pid in pids)
            for seat in seats:
                key = board_key(seat.player.get(f"/game/{seat.game_id}/", htmx=True).body)
                change(seat.player, seat.game_id, seat.move, 0, key)
            spent = sum(cpu_seconds(pid) for pid in pids) - before
            # Closed first: gunicorn's graceful stop lets a kept-alive connection linger 2 s.
            for seat in seats:
                seat.player.close()
        finally:
            stop(site.process)
    print(f"smoke: {len(seats)} moves under gunicorn, {spent * 1000 / len(seats):.1f} ms CPU each")


def load_average() -> str:
    return "{:.2f} {:.2f} {:.2f}".format(*os.getloadavg())


def throughput_table(
    site: Site, workdir: Path, levels: list[int], options: argparse.Namespace
) -> tuple[float, list[Seat]]:
    """The move/ping table at each level of clients; returns the worst ratio and the seats."""
    report_lua = workdir / "report.lua"
    report_lua.write_text(REPORT_LUA)
    move_lua = workdir / "move.lua"
    move_lua.write_text(MOVE_LUA)
    seats_file = workdir / "seats.tsv"
    seats = seat_players(site, max(levels))

    print(f"{'clients':>7} {'':>6} {'req/s':>8} {'p50 ms':>8} {'p99 ms':>8} {'errors':>6}")
    worst = 0.0
    for clients in levels:
        ping = wrk(site, "/ping", clients, options.duration, report_lua)
        write_seats(seats[:clients], seats_file)
        move = wrk(site, "/", clients, options.duration, move_lua, str(seats_file))
        for name, run in (("ping", ping), ("move", move)):
            print(
                f"{clients:>7} {name:>6} {run.per_second:>8.0f} {run.p50_ms:>8.2f} "
                f"{run.p99_ms:>8.2f} {run.errors:>6}"
            )
        ratio = ping.per_second / move.per_second
        worst = max(worst, ratio)
        print(
            f"{clients:>7} {'ratio':>6} {ratio:>7.2f}x throughput; "
            f"p50 {move.p50_ms / ping.p50_ms:.2f}x, p99 {move.p99_ms / ping.p99_ms:.2f}x"
        )
    return worst, seats


def print_phases(workdir: Path | None) -> None:
    """The phase table; with `workdir`, first set Django up on a fresh SQLite file there."""
    if workdir is not None:
        environ = server_environment(
            f"sqlite:///{workdir / 'profile.sqlite3'}",
            ALLOWED_HOSTS="127.0.0.1,testserver",
            DJANGO_STATIC_ROOT=str(workdir),
        )
        subprocess.run(
            [sys.executable, "manage.py", "migrate", "--noinput", "-v0"],
            cwd=ROOT,
            env=environ,
            check=True,
        )
        os.environ.update(environ)
        import django

        django.setup()
    print(f"\n== where a move's server time goes (in process, median of {PROFILE_MOVES} moves) ==")
    phases = phase_breakdown(PROFILE_MOVES)
    for name, millis in phases.items():
        print(f"{name:>8} {millis:>7.3f} ms")


def report_postgres(
    site: Site, workdir: Path, levels: list[int], options: argparse.Namespace
) -> None:
    print("\n== on PostgreSQL (--database-url): move request vs bare /ping ==")
    print(f"load average before: {load_average()}")
    worst, _ = throughput_table(site, workdir, levels, options)
    print(
        f"PostgreSQL: move vs ping, worst throughput ratio: {worst:.2f}x "
        f"(the goal is read on SQLite; printed beside it)"
    )
    print(f"load average after: {load_average()}")


def report(site: Site, workdir: Path, levels: list[int], options: argparse.Namespace) -> None:
    cores = len(os.sched_getaffinity(0))
    print(f"machine: {cores} cores; gunicorn.conf.py defaults; database: SQLite file")
    print(f"wrk: {options.duration} s per run, one connection per client, keep-alive")
    print(f"load average before: {load_average()} (other work here skews figures)")

    print("\n== move request (play a legal move / undo it, board fragment) vs bare /ping ==")
    worst, seats = throughput_table(site, workdir, levels, options)
    print(
        f"move vs ping, worst throughput ratio: {worst:.2f}x (goal <= {GOAL_MOVE_VS_PING:g}x: "
        f"{verdict(worst <= GOAL_MOVE_VS_PING)})"
    )

    print("\n== the cost of a move as the game grows (one client, median of each) ==")
    short, long = long_and_short(site, options.samples)
    short_ms, long_ms = statistics.median(short), statistics.median(long)
    growth = long_ms / short_ms
    print(f"5th move:   p50 {short_ms:.2f} ms  p90 {statistics.quantiles(short, n=10)[-1]:.2f} ms")
    print(f"150th move: p50 {long_ms:.2f} ms  p90 {statistics.quantiles(long, n=10)[-1]:.2f} ms")
    print(
        f"150th / 5th: {growth:.2f}x (goal <= {GOAL_LONG_VS_SHORT:g}x: "
        f"{verdict(growth <= GOAL_LONG_VS_SHORT)})"
    )

    in_process(site)
    queries = queries_per_request((4, 149))
    counts = {length + 1: len(sql) for length, sql in queries.items()}
    print(
        "queries per move request: "
        + ", ".join(f"{c} at move {m}" for m, c in counts.items())
        + (" (fixed)" if len(set(counts.values())) == 1 else " (GROWS with the game)")
    )
    for sql in queries[149]:
        print(f"    {sql[:96]}")

    print("\n== bytes on the wire ==")
    sent, gzipped, encoding = fragment_size(seats[0])
    print(
        f"board fragment per move: {sent} bytes as sent (Content-Encoding: {encoding}); "
        f"{gzipped} bytes if gzip-compressed (goal < {GOAL_FRAGMENT_GZIPPED} bytes: "
        f"{verdict(gzipped < GOAL_FRAGMENT_GZIPPED)})"
    )
    total, items = first_load(site)
    for path, size, enc in items:
        print(f"    {size:>7} bytes  {enc:<5} {path}")
    print(
        f"first page load: {total} bytes = {total / 1000:.1f} kB as served "
        f"(goal < {GOAL_FIRST_LOAD / 1000:g} kB: {verdict(total < GOAL_FIRST_LOAD)})"
    )

    print_phases(None)
    print(f"load average after: {load_average()}")
    if growth > GOAL_LONG_VS_SHORT:
        print("\n== profile: 30 requests for the 150th move, in process ==")
        print(profile_long_move())


if __name__ == "__main__":
    main()
