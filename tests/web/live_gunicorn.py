"""A real gunicorn for the tests that need one, and a small HTTP player that keeps its cookies.

The server runs with production settings (DEBUG off, a fresh SECRET_KEY) over plain HTTP on a free
loopback port, against a database of its own: a SQLite file, or a scratch database on the
PostgreSQL server that DATABASE_URL names, created for the run and dropped after it.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import random
import re
import secrets
import select
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from html import unescape
from http.cookies import SimpleCookie
from pathlib import Path
from urllib.parse import urlencode, urlsplit, urlunsplit

from tests.helpers import forked
from tests.helpers.migrated import migrated_template
from tests.helpers.processes import ROOT

# Variables of ours that the test process may carry and the server must not inherit.
DROPPED = (
    "DJANGO_DEBUG",
    "DJANGO_STATIC_MANIFEST",
    "DJANGO_STATIC_ROOT",
    "DJANGO_ALLOW_ASYNC_UNSAFE",
    "WEB_CONCURRENCY",
    "GUNICORN_BIND",
    "GUNICORN_THREADS",
)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def is_postgres(url: str) -> bool:
    return url.startswith(("postgres://", "postgresql://", "pgsql://"))


@contextlib.contextmanager
def scratch_database(tmp_path: Path) -> Iterator[str]:
    """A database URL that no one else uses, emptied afterwards."""
    base = os.environ.get("DATABASE_URL", "")
    if not is_postgres(base):
        yield f"sqlite:///{tmp_path / 'live.sqlite3'}"
        return
    import psycopg

    name = f"lucie_live_{secrets.token_hex(6)}"
    parts = urlsplit(base)
    with psycopg.connect(base, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    try:
        yield urlunsplit(parts._replace(path=f"/{name}"))
    finally:
        with psycopg.connect(base, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@dataclass
class StoredGame:
    deal_number: int
    rules: str
    moves: list[str]
    move_count: int
    session_key: str


def stored_game(database_url: str, game_id: int) -> StoredGame:
    """The game's row read straight from the database, not through the server."""
    query = "SELECT deal_number, rules, moves, move_count, session_key FROM game_game WHERE id = "
    row: tuple[int, str, str, int, str] | None
    if is_postgres(database_url):
        import psycopg

        with psycopg.connect(database_url) as db:
            row = db.execute(query + "%s", (game_id,)).fetchone()
    else:
        path = database_url.removeprefix("sqlite:///")
        with contextlib.closing(sqlite3.connect(path)) as db:
            row = db.execute(query + "?", (game_id,)).fetchone()
    assert row is not None, f"game {game_id} is not stored"
    deal_number, rules, moves, move_count, session_key = row
    return StoredGame(deal_number, rules, moves.split(), move_count, session_key)


@dataclass
class Server:
    port: int
    process: subprocess.Popen[bytes]
    database_url: str
    log: Path

    @property
    def master(self) -> int:
        return self.process.pid

    def workers(self) -> list[int]:
        """The live worker processes: the master's children, less any not yet reaped."""
        children = []
        for stat in Path("/proc").glob("[0-9]*/stat"):
            try:
                text = stat.read_text()
            except OSError:
                continue
            # The command name sits in parentheses and may hold spaces: read after the last ")".
            fields = text[text.rindex(")") + 2 :].split()
            if int(fields[1]) == self.master and fields[0] != "Z":
                children.append(int(stat.parent.name))
        return sorted(children)

    def player(self) -> Player:
        return Player(self.port)


def worker_cache_url() -> dict[str, str]:
    """With CACHE_URL set, the Redis database this test process uses: tests/conftest.py gives
    each pytest-xdist worker one of its own, and a server a test starts shares it. Given
    CACHE_URL's own database, the servers of both workers' tests shared one, and so their rate
    limits' counts: a test's first new game was refused by the other worker's requests (seen
    once in a CI rehearsal's PostgreSQL pass)."""
    if not os.environ.get("CACHE_URL"):
        return {}
    from django.conf import settings

    location = settings.CACHES["default"].get("LOCATION") if settings.configured else None
    if isinstance(location, str) and location.startswith("redis"):
        return {"CACHE_URL": location}
    return {}


def server_environment(database_url: str, **extra: str) -> dict[str, str]:
    environ = {k: v for k, v in os.environ.items() if k not in DROPPED}
    environ.update(worker_cache_url())
    environ.update(
        DJANGO_SETTINGS_MODULE="lucie.settings",
        SECRET_KEY=secrets.token_urlsafe(50),
        ALLOWED_HOSTS="127.0.0.1",
        DATABASE_URL=database_url,
        # Plain HTTP on loopback: no HTTPS redirect, no HSTS; no collectstatic either.
        DJANGO_SECURE_SSL_REDIRECT="0",
        DJANGO_HSTS_SECONDS="0",
        DJANGO_STATIC_MANIFEST="0",
        DJANGO_LOG_LEVEL="WARNING",
    )
    environ.update(extra)
    return environ


@contextlib.contextmanager
def running_gunicorn(
    tmp_path: Path,
    *,
    workers: int = 2,
    threads: int = 2,
    collectstatic: bool = False,
    **extra_env: str,
) -> Iterator[Server]:
    """gunicorn with the repository's config on a fresh, migrated database; stopped afterwards.

    With `collectstatic`, static files are collected first (into DJANGO_STATIC_ROOT, which the
    caller then sets to a folder of its own)."""
    with scratch_database(tmp_path) as database_url:
        prepare(database_url, collectstatic=collectstatic, **extra_env)
        with serving(
            database_url, tmp_path, workers=workers, threads=threads, **extra_env
        ) as server:
            yield server


def prepare(database_url: str, *, collectstatic: bool = False, **extra_env: str) -> None:
    """Migrate the database (and collect static files) as a release would, once per database.

    Both commands run in one process: each `manage.py` started Django afresh, about a second of
    CPU on the shared machine. A new SQLite file that only needs its schema (no static files
    collected) starts as a copy of the run's migrated template instead, when one is kept
    (tests/helpers/migrated.py): a migration in a process of its own cost those tests some 22 s
    of CPU in all. A release's whole `migrate` and `collectstatic` still run for a server that
    collects its static files (test_deploy.py's, bench/load.py's and bench/attack.py's)."""
    if not collectstatic and _copied_template(database_url):
        return
    steps = ["migrate"] + ["collectstatic"] * collectstatic
    environ = server_environment(database_url, **extra_env)
    done = forked.run("-c", _PREPARE, *steps, env=environ, timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]


def _copied_template(database_url: str) -> bool:
    """Whether a new SQLite file at `database_url` was made a copy of the migrated template."""
    if not database_url.startswith("sqlite:///"):
        return False
    path = Path(database_url.removeprefix("sqlite:///"))
    template = migrated_template()
    if path.exists() or not template.exists():
        return False
    shutil.copyfile(template, path)
    return True


# `manage.py migrate --noinput -v0`, then `manage.py collectstatic --noinput -v0` if asked.
_PREPARE = """
import sys
import django
django.setup()
from django.core.management import call_command
for step in sys.argv[1:]:
    call_command(step, interactive=False, verbosity=0)
"""


@contextlib.contextmanager
def serving(
    database_url: str,
    tmp_path: Path,
    *,
    name: str = "gunicorn",
    workers: int = 2,
    threads: int = 2,
    **extra_env: str,
) -> Iterator[Server]:
    """gunicorn on a free port against a database that `prepare` has readied; several may serve
    one database at once (an app server each), with their logs in `<tmp_path>/<name>.log`."""
    environ = server_environment(database_url, **extra_env)
    port = free_port()
    log = tmp_path / f"{name}.log"
    command = [
        sys.executable, "-m", "gunicorn", "-c", "gunicorn.conf.py", "lucie.wsgi",
        "--bind", f"127.0.0.1:{port}", "--workers", str(workers), "--threads", str(threads),
    ]  # fmt: skip
    with log.open("wb") as sink:
        process = subprocess.Popen(command, cwd=ROOT, env=environ, stdout=sink, stderr=sink)
    server = Server(port, process, database_url, log)
    try:
        wait_until_healthy(server)
        yield server
    finally:
        stop(process)


def wait_until_healthy(server: Server, seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if server.process.poll() is not None:
            raise RuntimeError(f"gunicorn exited early:\n{server.log.read_text()}")
        with contextlib.suppress(OSError, http.client.HTTPException):
            connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=2)
            connection.request("GET", "/healthz")
            if connection.getresponse().status == 200:
                return
        time.sleep(0.1)
    raise RuntimeError(f"gunicorn did not answer /healthz:\n{server.log.read_text()}")


def stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=5)


# ---------------------------------------------------------------- the task queue's workers

NO_DAILY_DEAL = {"LUCIE_SITE_START": "2099-01"}
"""No daily deal on offer to a queue worker. On starting and every five minutes, `manage.py work`
asks for the difficulty of today's and tomorrow's deals and of every earlier day of the month
still without one (game/daily/difficulty_job.py): searches of seconds each, one more for each
day of the month so far. A test that reads no difficulty leaves them out, or they take both cores
for its whole run (80 s of CPU on the 7th of a month for test_two_servers.py) and grow through
the month."""


def start_queue_workers(
    database_url: str, log: Path, *, workers: int = 2, **env: str
) -> subprocess.Popen[bytes]:
    """`manage.py work --workers N` on `database_url`, its output appended to `log`; without the
    month's difficulty searches, whatever LUCIE_SITE_START `env` gives the servers beside them
    (no test reads a difficulty the workers compute)."""
    settings = {**env, **NO_DAILY_DEAL}
    with log.open("ab") as sink:
        return subprocess.Popen(
            [sys.executable, "manage.py", "work", "--workers", str(workers)],
            cwd=ROOT,
            env=server_environment(database_url, **settings),
            stdout=sink,
            stderr=sink,
        )


@contextlib.contextmanager
def queue_workers(
    database_url: str, log: Path, *, workers: int = 2, **env: str
) -> Iterator[subprocess.Popen[bytes]]:
    """start_queue_workers, stopped (SIGTERM, as a deploy stops them) afterwards."""
    worker = start_queue_workers(database_url, log, workers=workers, **env)
    try:
        yield worker
    finally:
        stop(worker)


# ---------------------------------------------------------------- a player over HTTP

# Below gunicorn.conf.py's keepalive (5 s), with room for a loaded machine's delays.
IDLE_REUSE_SECONDS = 3.0


@dataclass
class Answer:
    status: int
    headers: http.client.HTTPMessage
    raw: bytes

    @property
    def body(self) -> str:
        return self.raw.decode(errors="replace")


@dataclass
class Player:
    """One browser: a keep-alive connection, its cookies, and the CSRF header htmx would send."""

    port: int
    timeout: float = 20
    cookies: dict[str, str] = field(default_factory=dict)
    # Sent with every request, e.g. the X-Forwarded-Proto a TLS proxy would add.
    headers: dict[str, str] = field(default_factory=dict)
    _connection: http.client.HTTPConnection | None = None
    # When the last answer was read: an idle connection is not reused past IDLE_REUSE_SECONDS.
    _answered_at: float = 0.0

    def request(
        self,
        method: str,
        path: str,
        data: dict[str, object] | None = None,
        htmx: bool = False,
        accept_gzip: bool = False,
    ) -> Answer:
        headers = {"Host": f"127.0.0.1:{self.port}", **self.headers}
        if accept_gzip:
            headers["Accept-Encoding"] = "gzip"
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        if "csrftoken" in self.cookies:
            headers["X-CSRFToken"] = self.cookies["csrftoken"]
        if htmx:
            headers["HX-Request"] = "true"
        body = None
        if data is not None:
            body = urlencode(data)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        if self._connection is not None and self._server_may_have_closed():
            self.close()
        reused = self._connection is not None
        if self._connection is None:
            self._connection = http.client.HTTPConnection("127.0.0.1", self.port, self.timeout)
        try:
            self._connection.request(method, path, body=body, headers=headers)
            response = self._connection.getresponse()
            raw = response.read()
        except (OSError, http.client.HTTPException) as error:
            # The connection is gone (say its worker was killed): the next request opens another.
            self.close()
            if reused and (method == "GET" or isinstance(error, BrokenPipeError)):
                # An idle keep-alive connection the server has closed: a GET is safe to resend,
                # and so is a request that could not even be sent (nothing reached the server).
                return self.request(method, path, data, htmx, accept_gzip)
            raise
        self._answered_at = time.monotonic()
        for header in response.headers.get_all("Set-Cookie") or []:
            for name, morsel in SimpleCookie(header).items():
                self.cookies[name] = morsel.value
        return Answer(response.status, response.headers, raw)

    def _server_may_have_closed(self) -> bool:
        """Whether the keep-alive connection may be gone: idle near gunicorn's `keepalive`
        (5 s), or already closed by the server (readable with nothing sent). A POST sent on such a
        connection meets a reset, and a POST is not resent blindly; a browser (and urllib3) opens
        a new connection instead, and so does this player. A loaded machine can hold a client at
        a barrier past the 5 s: a CI run of 6 December failed so."""
        if time.monotonic() - self._answered_at > IDLE_REUSE_SECONDS:
            return True
        sock = self._connection.sock if self._connection is not None else None
        if sock is None:
            return True
        poller = select.poll()  # not select.select, which fails on a descriptor past 1023
        poller.register(sock, select.POLLIN)
        return bool(poller.poll(0))

    def get(self, path: str, htmx: bool = False) -> Answer:
        return self.request("GET", path, htmx=htmx)

    def open_deal(self, path: str) -> Answer:
        """A deal's page with its game stored: a browser with no session is shown the deal's
        first board with nothing stored, so this deals it for real (the page's own POST, as
        "start it anyway" does) and opens it."""
        page = self.get(path)
        if page.status == 200 and re.search(r'data-game="\d+"', page.body) is None:
            self.post(path, {}, htmx=False)
            page = self.get(path)
        return page

    def post(self, path: str, data: dict[str, object], htmx: bool = True) -> Answer:
        return self.request("POST", path, data, htmx=htmx)

    def close(self) -> None:
        if self._connection is not None:
            self._connection.close()
            self._connection = None


# ---------------------------------------------------------------- reading a board


@dataclass
class Board:
    game_id: int
    move_count: int
    # Each movable card's legal moves, as the server listed them.
    moves: dict[str, list[str]]
    can_redeal: bool
    fans: list[list[str]]


_GAME = re.compile(r'data-game="(\d+)"')
_COUNT = re.compile(r'<div id="board"[^>]*?data-moves="(\d+)"', re.S)
_CARD_MOVES = re.compile(r'data-card="(\w+)" data-moves="([^"]+)"')
_FAN = re.compile(r'data-fan="\d+".*?>(.*?)</div>', re.S)
_CARD = re.compile(r'data-card="(\w+)"')
_REDEAL = re.compile(r'<button[^>]*data-action="redeal"[^>]*>')


def read_board(html: str) -> Board:
    """What a player sees in the board HTML: the game, its move count and the listed moves."""
    html = unescape(html)
    game = _GAME.search(html)
    count = _COUNT.search(html)
    redeal = _REDEAL.search(html)
    assert game is not None, html[:500]
    assert count is not None, html[:500]
    assert redeal is not None, html[:500]
    return Board(
        game_id=int(game[1]),
        move_count=int(count[1]),
        moves={card: moves.split() for card, moves in _CARD_MOVES.findall(html)},
        can_redeal=" disabled" not in redeal[0],
        fans=[_CARD.findall(body) for body in _FAN.findall(html)],
    )


def debug_json(value: object) -> str:
    return json.dumps(value, indent=1, default=str)[:2000]


def a_change(board: Board, rng: random.Random) -> tuple[str, dict[str, object], str]:
    """A legal change for this board: (path, form, the log entry it makes).

    A card move when the board lists one, else a redeal; `n` names the board it was made on.
    """
    choices = [move for moves in board.moves.values() for move in moves]
    if choices:
        move = rng.choice(sorted(choices))
        return f"/game/{board.game_id}/move/", {"move": move, "n": board.move_count}, move
    assert board.can_redeal, "the board offers no move and no redeal"
    return f"/game/{board.game_id}/redeal/", {"n": board.move_count}, "R"
