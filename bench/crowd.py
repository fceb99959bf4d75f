"""A crowd on today's deal, with reviews on the task queue's workers.

    .venv/bin/python bench/crowd.py [--players 300] [--within 60] [--reviews 30]

Against gunicorn with the project's config (gunicorn.conf.py sizes its workers from the cores,
as in production) on a scratch database: a SQLite file with the queue beside it, or, with
DATABASE_URL naming a PostgreSQL server, a scratch database there with CACHE_URL's Redis as the
cache and QUEUE_URL's as the queue when they are set. `manage.py work` runs the workers.

First, not measured: `--reviews` players, each from an address of its own, lose a deal the greedy
hint loses (about 50 moves each). Then the crowd: `--players` new browsers, each from an address
of its own (X-Forwarded-For, which the server is told to trust, so rate limits count per player
as they would behind a proxy), start within `--within` seconds; each opens today's deal, makes
`--moves` legal moves (random, from the engine) and asks `--hints` hints. Halfway through the
start window the losers ask for their reviews (a POST to review/ask/, as the page's button
does), and their pages poll every 2 s as a browser's
would. Prints

    crowd: N players, move p50 X ms, p99 Y ms, E errors, reviews done D/30 in T s

where E counts every answer that was not a 200 (moves, hints, review pages) or did not arrive,
and T runs from the first review asked to the last one done (or to `--review-wait`).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import random
import re
import secrets
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "lucie.settings")

import django  # noqa: E402

django.setup()

from game import deals, engine  # noqa: E402
from tests.web.live_gunicorn import (  # noqa: E402
    Player,
    Server,
    free_port,
    prepare,
    scratch_database,
    server_environment,
    stop,
    wait_until_healthy,
)

_GAME = re.compile(r'data-game="(\d+)"')
_STATE = re.compile(r'data-review-state="(\w+)"')


@dataclass
class Tally:
    lock: threading.Lock = field(default_factory=threading.Lock)
    move_ms: list[float] = field(default_factory=list)
    errors: int = 0
    error_kinds: dict[str, int] = field(default_factory=dict)

    def error(self, kind: str) -> None:
        with self.lock:
            self.errors += 1
            self.error_kinds[kind] = self.error_kinds.get(kind, 0) + 1


def _address(index: int) -> str:
    return f"10.{index // 65536 % 256}.{index // 256 % 256}.{index % 256 + 1}"


def _player(port: int, index: int) -> Player:
    return Player(port, timeout=60, headers={"X-Forwarded-For": _address(index)})


def _losing_deals(count: int) -> list[tuple[int, list[str]]]:
    found = []
    number = 1
    while len(found) < count:
        game = engine.Play(number)
        while (hint := engine.greedy_hint(game.position)) is not None:
            game.play(hint.move)
        outcome = game.outcome()
        if outcome is not None and outcome.name == "lost":
            found.append((number, [move.text for move in game.moves]))
        number += 1
    return found


def _play_loss(player: Player, number: int, moves: list[str]) -> int:
    player.get(f"/deal/{number}/")
    answer = player.post(f"/deal/{number}/move/", {"move": moves[0], "n": 0})
    found = _GAME.search(answer.body)
    assert answer.status == 200, answer.body[:300]
    assert found is not None, answer.body[:300]
    game = int(found[1])
    for count, move in enumerate(moves[1:], start=1):
        action, data = ("redeal", {}) if move == "R" else ("move", {"move": move})
        answer = player.post(f"/game/{game}/{action}/", {"n": count, "auto": "0", **data})
        assert answer.status == 200, (count, move, answer.status)
    return game


def _crowd_player(
    port: int, index: int, delay: float, args: argparse.Namespace, tally: Tally
) -> None:
    time.sleep(delay)
    rng = random.Random(index)
    player = _player(port, 100_000 + index)
    number = deals.todays_deal_number()
    played = engine.Play(number, engine.Rules.parse(deals.DAILY_RULES))
    game = None
    hint_at = set(rng.sample(range(args.moves), min(args.hints, args.moves)))
    try:
        page = player.get("/daily/")
        if page.status != 200:
            tally.error(f"daily page {page.status}")
            return
        for count in range(args.moves):
            if played.outcome() is not None:
                break
            if count in hint_at and game is not None:
                hinted = player.get(f"/game/{game}/hint/", htmx=True)
                if hinted.status != 200:
                    tally.error(f"hint {hinted.status}")
            move = rng.choice(sorted(engine.legal_moves(played.position), key=str))
            action, data = ("redeal", {}) if move.is_redeal else ("move", {"move": move.text})
            if game is None:
                query = urlencode({"rules": deals.DAILY_RULES, "daily": "1"})
                path = f"/deal/{number}/{action}/?{query}"
            else:
                path = f"/game/{game}/{action}/"
            began = time.perf_counter()
            answer = player.post(path, {"n": count, "auto": "0", **data})
            took = (time.perf_counter() - began) * 1000
            if answer.status != 200:
                tally.error(f"move {answer.status}")
                return
            with tally.lock:
                tally.move_ms.append(took)
            if game is None:
                found = _GAME.search(answer.body)
                if found is None:
                    tally.error("move: no game in the answer")
                    return
                game = int(found[1])
            played.play(move)
    except OSError as error:
        tally.error(f"connection: {type(error).__name__}")
    finally:
        player.close()


def _reviews(
    players: list[Player], games: list[int], wait: float, tally: Tally
) -> tuple[int, float]:
    began = time.monotonic()
    states = {}
    for player, game in zip(players, games, strict=True):
        # As the page does: its GET only shows the review (a GET never writes), and the review
        # starts when the player presses for it, a POST to review/ask/.
        shown = player.get(f"/game/{game}/review/")
        if shown.status != 200:
            tally.error(f"review {shown.status}")
        answer = player.post(f"/game/{game}/review/ask/", {})
        if answer.status != 200:
            tally.error(f"review ask {answer.status}")
        found = _STATE.search(answer.body)
        states[game] = found[1] if found else "?"
    finished = began
    while "working" in states.values() and time.monotonic() - began < wait:
        time.sleep(2)
        for player, game in zip(players, games, strict=True):
            if states[game] != "working":
                continue
            answer = player.get(f"/game/{game}/review/", htmx=True)
            if answer.status != 200:
                tally.error(f"review poll {answer.status}")
                continue
            found = _STATE.search(answer.body)
            states[game] = found[1] if found else "?"
            if states[game] != "working":
                finished = time.monotonic()
    done = sum(state in ("done", "undecided") for state in states.values())
    decided = sum(state == "done" for state in states.values())
    print(
        f"  reviews: {done} of {len(games)} finished ({decided} decided, {done - decided} not "
        f"settled), {sum(state == 'working' for state in states.values())} still working"
    )
    return done, finished - began


@contextlib.contextmanager
def _site(workdir: Path, workers: int) -> Iterator[Server]:
    with scratch_database(workdir) as database_url:
        extra = {
            "LUCIE_CLIENT_ADDRESS_HEADER": "X-Forwarded-For",
            "LUCIE_QUEUE_PATH": str(workdir / "queue.sqlite3"),
            "LUCIE_QUEUE_NAME": f"crowd-{secrets.token_hex(4)}",
            "DJANGO_LOG_LEVEL": "WARNING",
        }
        prepare(database_url, **extra)
        environ = server_environment(database_url, **extra)
        port = free_port()
        log = (workdir / "gunicorn.log").open("wb")
        server_process = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "-c", "gunicorn.conf.py", "lucie.wsgi",
             "--bind", f"127.0.0.1:{port}"],
            cwd=ROOT, env=environ, stdout=log, stderr=log,
        )  # fmt: skip
        work_log = (workdir / "work.log").open("wb")
        worker = subprocess.Popen(
            [sys.executable, "manage.py", "work", "--workers", str(workers)],
            cwd=ROOT, env=environ, stdout=work_log, stderr=work_log,
        )  # fmt: skip
        server = Server(port, server_process, database_url, workdir / "gunicorn.log")
        try:
            wait_until_healthy(server)
            yield server
        finally:
            stop(worker)
            stop(server_process)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, default=300)
    parser.add_argument("--within", type=float, default=60.0)
    parser.add_argument("--moves", type=int, default=20)
    parser.add_argument("--hints", type=int, default=2)
    parser.add_argument("--reviews", type=int, default=30)
    parser.add_argument("--review-wait", type=float, default=900.0)
    parser.add_argument("--workers", type=int, default=2, help="queue worker processes")
    parser.add_argument(
        "--smoke", action="store_true", help="seconds: 2 players at once, 2 moves each, no review"
    )
    args = parser.parse_args()
    if args.smoke:
        args.players, args.within, args.moves, args.hints = 2, 0.0, 2, 1
        args.reviews, args.review_wait, args.workers = 0, 5.0, 1

    database = os.environ.get("DATABASE_URL", "")
    kind = "PostgreSQL" if database.startswith("postgres") else "SQLite"
    queue = "Redis" if os.environ.get("QUEUE_URL") else "SQLite"
    print(f"crowd bench: {kind}, queue on {queue}, load average {_load()}")
    tally = Tally()
    with (
        tempfile.TemporaryDirectory(prefix="lucie-crowd-") as folder,
        _site(Path(folder), args.workers) as server,
    ):
        losers = [_player(server.port, index) for index in range(args.reviews)]
        games = [
            _play_loss(player, number, moves)
            for player, (number, moves) in zip(losers, _losing_deals(args.reviews), strict=True)
        ]
        print(f"  {len(games)} lost games ready; the crowd starts, load average {_load()}")
        threads = [
            threading.Thread(
                target=_crowd_player,
                args=(server.port, index, args.within * index / args.players, args, tally),
            )
            for index in range(args.players)
        ]
        began = time.monotonic()
        for thread in threads:
            thread.start()
        time.sleep(args.within / 2)
        reviewed: list[tuple[int, float]] = []
        reviewing = threading.Thread(
            target=lambda: reviewed.append(_reviews(losers, games, args.review_wait, tally))
        )
        reviewing.start()
        for thread in threads:
            thread.join()
        crowd_seconds = time.monotonic() - began
        reviewing.join()
    done, seconds = reviewed[0]
    ms = sorted(tally.move_ms)
    p50 = statistics.median(ms) if ms else float("nan")
    p99 = ms[min(len(ms) - 1, int(len(ms) * 0.99))] if ms else float("nan")
    print(f"  {len(ms)} moves in {crowd_seconds:.0f} s; errors by kind: {tally.error_kinds}")
    print(f"  load average at the end {_load()}")
    print(
        f"crowd: {args.players} players, move p50 {p50:.0f} ms, p99 {p99:.0f} ms, "
        f"{tally.errors} errors, reviews done {done}/{args.reviews} in {seconds:.0f} s"
    )


def _load() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


if __name__ == "__main__":
    main()
