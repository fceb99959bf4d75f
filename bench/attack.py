"""Attack benchmark: what an anonymous client can do to the site, under gunicorn.

    .venv/bin/python bench/attack.py [--seconds 30] [--attackers 8] [--only forged,...]

It starts gunicorn with gunicorn.conf.py and production settings (DEBUG off, collected static
files, rate limits on) on a free loopback port against a fresh SQLite file, as bench/load.py does,
and prints issue 11's lines, each followed by an indented line of detail:

- `victim p99: quiet X ms, under attack Y ms, ratio R`: a plain page (`/rules/`) fetched one
  request after another, alone and then while `--attackers` clients hammer the embed's hint on
  fresh deals under every rule set the New game form offers (`lucie-r0-m2` included) and Show a
  win on fresh games, for `--seconds` (goal: R at most 3). Printed twice: with the rate limits
  (the attackers share one address, as a single machine would), and with them off
  (`LUCIE_RATE_LIMITS=0`, as if every request came from a different address), which leaves the
  compute slots and the hint's deadline alone in the way.
- `victim p99 quiet A ms, under 8 hint clients B ms (ratio R)` (issue 39): the same plain page
  alone, then while `--attackers` anonymous clients, each from an address of its own, ask
  nothing but the embed's hint on fresh deals under the default rules (goal: R at most 3).
  Printed twice: rate limits off (every request a search), then on (most requests refused at
  once).
- `refusal CPU A ms vs page B ms` and `victim p99 quiet A ms, under the flood B ms (ratio R)`
  (issue 47): with a Redis of its own as the cache and the limits on, the CPU gunicorn's workers
  spend per request (utime + stime from /proc around a run, divided by the requests) on refused
  embed hints from one address past its limit, sent as through a proxy (never held), against
  `/rules/` (goal: A under B / 10), and the plain page's p99 alone and under `--attackers`
  clients looping on the embed's hint from one address straight from the clients, whose
  connections are held a second after each refusal (goal: R at most 3), with the CPU the
  workers and the clients spent; then the same flood through a proxy.
- `hint p99: X ms (default rules), Y ms (worst rule set)`: the embed hint on fresh deals, quiet
  server, under the default rules and under the rule set whose p99 is worst (each of the 126 rule
  sets on a few deals).
- `redis down: N requests, E errors (pages, first moves, hints, daily calendar)`: 4 clients
  doing what players do against a server whose Redis (a `redis-server` of the benchmark's own,
  the cache `CACHE_URL` names) is frozen with SIGSTOP for half of `--redis-down-seconds`, then
  stopped; errors are 5xx answers other than the "busy, try again" 503, and requests that got no
  answer (goal: 0).
- `rows created by 1000 anonymous page views: N` (games and sessions; `/`, `/deal/N/`,
  `/daily/`, `/embed/`, `/embed/deal/N/`, each from a fresh client with no cookie; goal 0), and
  `rows created by a 20 s flood of embed moves: N` (cookieless first moves in the embed from 4
  clients on one address), with the limit that bounds them beside it.
- `forged daily: players +P, winners +W from one address, best time T s (real duration D s)`:
  ten fresh cookieless clients on one address each open `/daily/` and play today's winning line
  (found by the project's own solver) at 0.26 s a move, posting `pause` then `resume` to the
  game's clock before each move, as the forgery in issue 19 did; P, W and T are read from the
  month page as everyone sees it (goal: P and W at most 1, T no less than D).
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import random
import re
import resource
import signal
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager, suppress
from pathlib import Path
from typing import ClassVar

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "lucie.settings")

from game import engine  # noqa: E402
from game.ops import limits  # noqa: E402
from tests.web.live_gunicorn import (  # noqa: E402
    Player,
    Server,
    free_port,
    prepare,
    server_environment,
    wait_until_healthy,
)

VICTIM = "/rules/"
# What migrate and collectstatic need from the server's environment.
PREPARED = ("ALLOWED_HOSTS", "DJANGO_STATIC_MANIFEST", "DJANGO_STATIC_ROOT")
Counts = dict[int, int]


# Every part's server reads the client's address from X-Forwarded-For when a client sends one
# (only hintflood's clients do: an address each); the others come from 127.0.0.1 as before. So
# the parts with the same limits ask for the same settings, and the smoke keeps one server each.
ADDRESS_HEADER = {"LUCIE_CLIENT_ADDRESS_HEADER": "X-Forwarded-For"}
LIMITS_ON = {"LUCIE_RATE_LIMITS": "1", **ADDRESS_HEADER}
LIMITS_OFF = {"LUCIE_RATE_LIMITS": "0", **ADDRESS_HEADER}


class Kept:
    """The servers the smoke keeps: one per settings, handed to every part that asks for the
    same settings (the smoke checks that each part runs, in seconds, and most of a server's
    start is importing the site). A full run starts a fresh server for each part."""

    stack: ClassVar[ExitStack | None] = None
    servers: ClassVar[dict[tuple[tuple[str, str], ...], Server]] = {}


@contextmanager
def site(workdir: Path, **extra: str) -> Iterator[tuple[int, Path]]:
    """gunicorn with production settings on a fresh SQLite file; yields its port and database."""
    if Kept.stack is None:
        with served(workdir, **extra) as server:
            yield server.port, Path(server.database_url)
        return
    key = tuple(sorted(extra.items()))
    if key not in Kept.servers:
        Kept.servers[key] = Kept.stack.enter_context(served(workdir, **extra))
    yield Kept.servers[key].port, Path(Kept.servers[key].database_url)


@contextmanager
def served(workdir: Path, **extra: str) -> Iterator[Server]:
    """gunicorn with production settings on a fresh SQLite file (`Server.database_url` is the
    file's path)."""
    database = workdir / f"attack-{len(list(workdir.glob('attack-*.sqlite3')))}.sqlite3"
    environ = server_environment(
        f"sqlite:///{database}",
        ALLOWED_HOSTS="127.0.0.1",
        DJANGO_STATIC_MANIFEST="1",
        DJANGO_STATIC_ROOT=str(workdir / "static"),
        **extra,
    )
    # Migrated and collected once per run: each site starts from a copy of the first database
    # (a part of its own, as before, at a fraction of the start-up).
    fresh = workdir / "fresh.sqlite3"
    if not fresh.exists():
        prepare(f"sqlite:///{fresh}", collectstatic=True, **{k: environ[k] for k in PREPARED})
    with sqlite3.connect(fresh) as source, sqlite3.connect(database) as copy:
        source.backup(copy)
    port = free_port()
    log_path = workdir / "gunicorn.log"
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "-c", "gunicorn.conf.py", "lucie.wsgi",
             "--bind", f"127.0.0.1:{port}"],
            cwd=ROOT, env=environ, stdout=log, stderr=log,
        )  # fmt: skip
        server = Server(port, process, str(database), log_path)
        try:
            wait_until_healthy(server)
            yield server
        finally:
            quick_stop(server)


def quick_stop(server: Server) -> None:
    """Stop a benchmark's gunicorn at once: it has nothing to finish, and a graceful stop waits
    seconds on the keep-alive connections and compute processes its clients left. Quick
    shutdown (SIGINT), then SIGKILL for the master and its workers after 2 s."""
    process = server.process
    if process.poll() is not None:
        return
    workers = server.workers()
    process.send_signal(signal.SIGINT)
    try:
        process.wait(timeout=2)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout=5)
    for pid in workers:
        with suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)


def p99(samples: list[float]) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]


def timed_get(player: Player, path: str) -> tuple[float, int]:
    began = time.perf_counter()
    answer = player.get(path)
    return (time.perf_counter() - began) * 1000, answer.status


def victim(port: int, seconds: float) -> list[float]:
    """A plain page, one request after another, for `seconds`."""
    player = Player(port, timeout=120)
    player.get(VICTIM)
    samples = []
    until = time.monotonic() + seconds
    while time.monotonic() < until:
        elapsed, status = timed_get(player, VICTIM)
        assert status == 200, status
        samples.append(elapsed)
    return samples


OFFERED = [rules.name for rules in engine.every_rule_set()]


def attacker(
    port: int,
    until: float,
    seed: int,
    answers: multiprocessing.Queue[Counts],
    hints_only: bool = False,
) -> None:
    """Embed hints on fresh deals under every offered rule set, and now and then Show a win on a
    fresh game of the site (a session of its own, its CSRF token, as a browser would); with
    `hints_only`, nothing but embed hints on fresh deals under the default rules. Each attacker
    is a process of its own, so that the victim's timings are the server's, not this
    benchmark's interpreter lock shared with the attackers' parsing."""
    counts: Counts = {}
    rng = random.Random(seed)
    player = Player(port, timeout=120)
    if hints_only:  # an address of its own (the server reads X-Forwarded-For in that part)
        player.headers["X-Forwarded-For"] = f"203.0.113.{seed + 1}"
    site_player = Player(port, timeout=120)
    turn = 0
    while time.monotonic() < until:
        turn += 1
        try:
            if hints_only:
                number = rng.randrange(1, 10**9)
                status = player.get(f"/embed/deal/{number}/hint/").status
            elif turn % 4 == 0:
                status = show_a_win(site_player, rng)
            else:
                name = "lucie-r0-m2" if turn % 3 == 0 else rng.choice(OFFERED)
                number = rng.randrange(1, 10**9)
                status = player.get(f"/embed/deal/{number}/hint/?rules={name}").status
        except OSError:
            status = 0
        counts[status] = counts.get(status, 0) + 1
    answers.put(counts)


def show_a_win(player: Player, rng: random.Random) -> int:
    """Deal a fresh game with the page's own POST (as "start it anyway" does: it leaves the game
    under way), then ask Show a win on it."""
    if "csrftoken" not in player.cookies:
        player.get(VICTIM)  # every page hands out the CSRF cookie that a form post needs
    number = rng.randrange(1, 10**9)
    name = rng.choice(["lucie", "lucie-r0-m2", "nomerci", "trefoil"])
    dealt = player.post(f"/deal/{number}/?rules={name}", {}, htmx=False)
    found = GAME_URL.fullmatch(dealt.headers.get("Location", ""))
    if dealt.status != 303 or found is None:
        return dealt.status
    return player.post(f"/game/{found[1]}/show-a-win/", {"n": 0}).status


GAME_URL = re.compile(r"/game/(\d+)/")


def attack(
    port: int, seconds: float, attackers: int, hints_only: bool = False
) -> tuple[list[float], Counts]:
    until = time.monotonic() + seconds  # CLOCK_MONOTONIC: the same clock in every process
    context = multiprocessing.get_context("fork")
    answers: multiprocessing.Queue[Counts] = context.Queue()
    processes = [
        context.Process(target=attacker, args=(port, until, seed, answers, hints_only), daemon=True)
        for seed in range(attackers)
    ]
    for process in processes:
        process.start()
    build_up = min(1.0, seconds / 2)  # let the attack build up (the smoke's half its run)
    time.sleep(build_up)
    samples = victim(port, seconds - build_up)
    counts: Counts = {}
    for _ in processes:
        for status, count in answers.get(timeout=180).items():
            counts[status] = counts.get(status, 0) + count
    for process in processes:
        process.join(timeout=10)
    return samples, counts


def victim_p99s(
    port: int, seconds: float, attackers: int, quiet_seconds: float, hints_only: bool = False
) -> tuple[float, float, Counts]:
    """The plain page's p99 alone, then under `attackers`, and the attackers' answers."""
    quiet = victim(port, quiet_seconds)
    loud, counts = attack(port, seconds, attackers, hints_only)
    return p99(quiet), p99(loud), counts


def victim_line(
    port: int, seconds: float, attackers: int, quiet_seconds: float = 10
) -> tuple[str, Counts]:
    quiet, loud, counts = victim_p99s(port, seconds, attackers, quiet_seconds)
    line = f"victim p99: quiet {quiet:.1f} ms, under attack {loud:.1f} ms, ratio {loud / quiet:.2f}"
    return line, counts


def hint_flood_line(
    port: int, seconds: float, clients: int, quiet_seconds: float = 10
) -> tuple[str, Counts]:
    """Issue 39's line: a plain page alone, then while `clients` anonymous clients ask the
    embed's hint on fresh deals and nothing else."""
    quiet, loud, counts = victim_p99s(port, seconds, clients, quiet_seconds, hints_only=True)
    line = (
        f"victim p99 quiet {quiet:.1f} ms, under {clients} hint clients {loud:.1f} ms "
        f"(ratio {loud / quiet:.2f})"
    )
    return line, counts


def hint_line(
    port: int, per_rule_set: int, default_samples: int, rule_sets: list[str] = OFFERED
) -> str:
    player = Player(port, timeout=120)
    rng = random.Random(11)

    def samples(name: str, count: int) -> list[float]:
        found = []
        for _ in range(count):
            elapsed, status = timed_get(
                player, f"/embed/deal/{rng.randrange(1, 10**9)}/hint/?rules={name}"
            )
            assert status == 200, (name, status)
            found.append(elapsed)
        return found

    default = p99(samples("lucie", default_samples))
    worst_name, worst = "lucie", default
    for name in rule_sets:
        figure = p99(samples(name, per_rule_set))
        if figure > worst:
            worst_name, worst = name, figure
    return (
        f"hint p99: {default:.1f} ms (default rules), {worst:.1f} ms (worst rule set)\n"
        f"  worst rule set: {worst_name}; {default_samples} fresh deals under the default rules, "
        f"{per_rule_set} under each of {len(rule_sets)} rule sets"
    )


def rows(database: Path) -> int:
    with sqlite3.connect(database) as connection:
        games = connection.execute("SELECT count(*) FROM game_game").fetchone()[0]
        sessions = connection.execute("SELECT count(*) FROM django_session").fetchone()[0]
    return int(games) + int(sessions)


def page_views(port: int, database: Path, count: int) -> str:
    before = rows(database)
    paths = ["/", "/deal/{n}/", "/daily/", "/embed/", "/embed/deal/{n}/"]
    statuses: dict[int, int] = {}
    for index in range(count):
        player = Player(port)  # no cookie: a fresh client each time
        path = paths[index % len(paths)].format(n=index + 1)
        status = player.get(path).status
        statuses[status] = statuses.get(status, 0) + 1
        player.close()
    return (
        f"rows created by {count} anonymous page views: {rows(database) - before}\n"
        f"  games and sessions; answers: {format_counts(statuses)}"
    )


def embed_flood(port: int, database: Path, seconds: float, clients: int) -> str:
    before = rows(database)
    until = time.monotonic() + seconds
    counts: dict[int, int] = {}

    def flood() -> None:
        player = Player(port)
        while time.monotonic() < until:
            number = random.randrange(1, 10**9)
            status = player.post(f"/embed/deal/{number}/redeal/", {"n": 0}, htmx=False).status
            counts[status] = counts.get(status, 0) + 1

    threads = [threading.Thread(target=flood) for _ in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    workers = worker_count()
    return (
        f"rows created by a {seconds:g} s flood of embed moves: {rows(database) - before} "
        f"(limit: {limits.START.per_address} new games per client address)\n"
        f"  {clients} clients on one address; without a shared cache each of {workers} worker "
        f"processes counts the limit on its own, in windows of a minute (a run may straddle "
        f"two); answers: {format_counts(counts)}"
    )


FORGERS = 10
FORGED_STEP = 0.26
SMOKE_MOVES = 6


def daily_figures_now(player: Player, day: str) -> dict[str, str]:
    """Today's row of everyone's figures on the month page, as any visitor reads it."""
    page = player.get(f"/daily/{day[:4]}/{day[4:6]}/").body
    row = re.search(rf'<tr[^>]*data-day="{day[:4]}-{day[4:6]}-{day[6:]}"[^>]*>.*?</tr>', page, re.S)
    return dict(re.findall(r'data-figure="([\w-]+)">([^<]*)<', row[0])) if row else {}


def forge(port: int, number: int, line: list[str], durations: list[float]) -> None:
    player = Player(port)
    player.get("/daily/")
    started = time.monotonic()
    first = player.post(
        f"/deal/{number}/move/?rules=lucie&daily=1", {"n": 0, "move": line[0]}, htmx=False
    )
    assert first.status == 303, first.status
    found = re.search(r'data-game="(\d+)"', player.get("/daily/").body)
    assert found is not None
    game = found[1]
    for count, move in enumerate(line[1:], start=1):
        player.post(f"/game/{game}/clock/", {"state": "pause"}, htmx=False)
        time.sleep(FORGED_STEP)
        player.post(f"/game/{game}/clock/", {"state": "resume"}, htmx=False)
        player.post(f"/game/{game}/move/", {"n": count, "move": move}, htmx=False)
    durations.append(time.monotonic() - started)
    player.close()


def forged_daily_line(port: int, smoke: bool = False) -> str:
    """`smoke`: two forgers play the greedy hint's first moves (no win: the part runs, in
    seconds, with no solver's search of up to a minute)."""
    from game.engine import solver

    day = time.strftime("%Y%m%d", time.gmtime())
    number = int(day)
    if smoke:
        played = engine.Play(number)
        while len(played.moves) < SMOKE_MOVES and (hint := engine.greedy_hint(played.position)):
            played.play(hint.move)
        line = [move.text for move in played.moves]
    else:
        found = solver.solve(engine.Play(number).position, time_limit=60)
        if found.status != "won":
            return f"forged daily: today's deal #{number} has no winning line the solver found"
        line = [move.text for move in found.moves]
    forgers = 2 if smoke else FORGERS
    reader = Player(port)
    before = daily_figures_now(reader, day)
    durations: list[float] = []
    threads = [
        threading.Thread(target=forge, args=(port, number, line, durations)) for _ in range(forgers)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if smoke and len(durations) < forgers:
        raise SystemExit(f"forged daily: {forgers - len(durations)} of {forgers} forgers failed")
    after = daily_figures_now(reader, day)
    players = int(after.get("players", "0")) - int(before.get("players", "0") or 0)
    winners = int(after.get("winners", "0")) - int(before.get("winners", "0") or 0)
    best = after.get("best-time", "")
    best_s = f"{int(best.split(':')[0]) * 60 + int(best.split(':')[1])}" if ":" in best else "none"
    real = min(durations) if durations else float("nan")
    return (
        f"forged daily: players +{players}, winners +{winners} from one address, best time "
        f"{best_s} s (real duration {real:.1f} s)\n"
        f"  {forgers} fresh sessions, deal #{number}, a {len(line)}-move "
        f"{'greedy' if smoke else 'solver'} line at "
        f"{FORGED_STEP} s a move with pause and resume before each; {len(durations)} finished"
    )


# ---------------------------------------------------------------- refusals (issue 47)

FLOODED = "/embed/deal/{n}/hint/"
TICKS = os.sysconf("SC_CLK_TCK")


def looper(
    port: int, until: float, seed: int, path: str, answers: multiprocessing.Queue[Counts],
    until_refused: bool, headers: dict[str, str],
) -> None:  # fmt: skip
    """One client on the benchmark's address asking `path` (`{n}`: a fresh deal each time) one
    request after another until `until` (or its first refusal); puts its answers by status."""
    counts: Counts = {}
    rng = random.Random(seed)
    player = Player(port, timeout=120, headers=dict(headers))
    while time.monotonic() < until:
        try:
            status = player.get(path.format(n=rng.randrange(1, 10**9))).status
        except OSError:
            status = 0
        counts[status] = counts.get(status, 0) + 1
        if until_refused and status == 429:
            break
    answers.put(counts)


# What a proxy in front of the site adds to each request it passes on (the refusals part's server
# reads the client's address from it): the benchmark's one address, as the direct clients have.
PROXIED = {"X-Forwarded-For": "127.0.0.1"}


def loop(
    port: int, seconds: float, clients: int, path: str, until_refused: bool = False,
    headers: dict[str, str] | None = None,
) -> Counts:  # fmt: skip
    """`clients` looping clients, each a process of its own, for `seconds`; their answers."""
    until = time.monotonic() + seconds
    context = multiprocessing.get_context("fork")
    answers: multiprocessing.Queue[Counts] = context.Queue()
    processes = [
        context.Process(
            target=looper,
            args=(port, until, seed, path, answers, until_refused, headers or {}),
            daemon=True,
        )
        for seed in range(clients)
    ]
    for process in processes:
        process.start()
    counts: Counts = {}
    for _ in processes:
        for status, count in answers.get(timeout=seconds + 180).items():
            counts[status] = counts.get(status, 0) + count
    for process in processes:
        process.join(timeout=10)
    return counts


def flooded_victim(
    port: int, seconds: float, clients: int, headers: dict[str, str] | None = None
) -> tuple[list[float], Counts]:
    """The plain page, one request after another, while `clients` loop on the embed's hint on
    fresh deals from the benchmark's one address; the page's timings and the clients' answers."""
    flood: dict[str, Counts] = {}
    thread = threading.Thread(
        target=lambda: flood.update(answers=loop(port, seconds, clients, FLOODED, False, headers))
    )
    thread.start()
    time.sleep(min(1.0, seconds / 2))  # let the flood build up
    samples = victim(port, seconds - min(1.0, seconds / 2))
    thread.join()
    return samples, flood["answers"]


def cpu_seconds(pid: int) -> float:
    """utime + stime of one process, in seconds (0 for one that has gone)."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return 0.0
    fields = text[text.rindex(")") + 2 :].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def children_cpu() -> float:
    """utime + stime of this benchmark's ended children (the client processes, once joined)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def cpu_per_request(
    server: Server, seconds: float, clients: int, path: str, headers: dict[str, str] | None = None
) -> tuple[float, Counts]:
    """The CPU gunicorn's workers spend per request (ms) while `clients` loop on `path`."""
    workers = server.workers()
    before = sum(cpu_seconds(pid) for pid in workers)
    counts = loop(server.port, seconds, clients, path, headers=headers)
    after = sum(cpu_seconds(pid) for pid in workers)
    if server.workers() != workers:
        raise SystemExit("a gunicorn worker was replaced during the run: its CPU is lost")
    return 1000 * (after - before) / max(1, sum(counts.values())), counts


def over_the_limit(port: int, clients: int, seconds_left: float) -> int:
    """Flood until the benchmark's address is refused the embed's hint, with at least
    `seconds_left` of the counting window to go; the window's seconds left."""
    for _ in range(3):
        # At least as many clients as the smoke's server has threads (two workers of two).
        loop(port, 120, max(clients, 4), FLOODED, until_refused=True)
        probe = Player(port).get(FLOODED.format(n=1))
        left = int(probe.headers.get("Retry-After", "0"))
        if probe.status == 429 and left >= seconds_left:
            return left
        time.sleep(left + 1)
    raise SystemExit("the benchmark's address never met the hint's limit")


def refusal_lines(
    workdir: Path, seconds: float, clients: int, quiet_seconds: float, measure_seconds: float
) -> str:
    """gunicorn with the limits on and a Redis of its own as the cache (the counts shared by the
    workers, as by servers sharing a cache), reading a proxy's X-Forwarded-For. First the
    victim's page alone, then under `clients` looping clients on one address asking the embed's
    hint on fresh deals (searched until the address meets its limit, refused after): straight
    from the clients (their connections held a second after each refusal:
    lucie/gunicorn_worker.py), then through a proxy (never held). Then the CPU the workers spend
    per request, refusals only (the address past its limit, through the proxy, so that every
    request is answered at once) against the plain page."""
    from tests.web.redis_server import start_redis

    redis = start_redis()
    try:
        with served(workdir, CACHE_URL=redis.url, **LIMITS_ON) as server:
            load_before = load_average()
            workers = server.workers()
            cpu_before = sum(cpu_seconds(pid) for pid in workers), children_cpu()
            quiet = p99(victim(server.port, quiet_seconds))
            loud_samples, counts = flooded_victim(server.port, seconds, clients)
            server_cpu = sum(cpu_seconds(pid) for pid in workers) - cpu_before[0]
            clients_cpu = children_cpu() - cpu_before[1]
            proxied_samples, proxied_counts = flooded_victim(
                server.port, seconds, clients, PROXIED
            )
            left = over_the_limit(server.port, clients, measure_seconds + 2)
            refusal, refused = cpu_per_request(
                server, measure_seconds, clients, FLOODED, PROXIED
            )
            page, pages = cpu_per_request(server, measure_seconds, clients, VICTIM)
            load_after = load_average()
    finally:
        redis.process.kill()
    loud, proxied = p99(loud_samples), p99(proxied_samples)
    return (
        f"refusal CPU {refusal:.2f} ms vs page {page:.2f} ms\n"
        f"  ratio {refusal / page:.3f}; gunicorn workers' utime+stime over {measure_seconds:g} s "
        f"of {clients} looping clients each: {sum(refused.values())} refusals (the embed's hint "
        f"on fresh deals, one address past its limit, through a proxy, {left} s of its window "
        f"left; answers: {format_counts(refused)}), "
        f"{sum(pages.values())} pages ({VICTIM}: {format_counts(pages)})\n"
        f"victim p99 quiet {quiet:.1f} ms, under the flood {loud:.1f} ms "
        f"(ratio {loud / quiet:.2f})\n"
        f"  {clients} looping clients on one address, the embed's hint on fresh deals for "
        f"{seconds:g} s, rate limits on, straight from the clients; their answers: "
        f"{format_counts(counts)}; CPU over the quiet and flooded runs: gunicorn's workers "
        f"{server_cpu:.1f} s, the clients {clients_cpu:.1f} s (on the same two cores)\n"
        f"  the same flood through a proxy (X-Forwarded-For; never held): victim p99 "
        f"{proxied:.1f} ms (ratio {proxied / quiet:.2f}); answers: "
        f"{format_counts(proxied_counts)}; load average {load_before} before, {load_after} after"
    )


# ---------------------------------------------------------------- Redis down (issue 19)

# What a player asks for, in turn: pages, a stranger's first move, a hint, the daily calendar.
REDIS_DOWN_KINDS = ("page", "first move", "hint", "daily calendar")


def redis_down_client(port: int, until: float, seed: int, answers: Counts, kinds: Counts) -> None:
    """One client doing what players do, in turn, until `until`; counts answers by status (0: no
    answer at all) and requests by kind."""
    rng = random.Random(seed)
    pages = Player(port, timeout=30)
    today = time.strftime("%Y/%m", time.gmtime())
    turn = 0
    while time.monotonic() < until:
        kind = REDIS_DOWN_KINDS[turn % len(REDIS_DOWN_KINDS)]
        turn += 1
        number = rng.randrange(1, 10**9)
        try:
            if kind == "page":
                answer = pages.get(rng.choice(["/", f"/deal/{number}/", "/daily/"]))
            elif kind == "first move":
                stranger = Player(port, timeout=30)  # a fresh browser, no session yet
                stranger.get(f"/deal/{number}/")  # its CSRF cookie
                move = engine.card_moves(engine.Play(number).position)[0].text
                answer = stranger.post(f"/deal/{number}/move/", {"n": 0, "move": move})
                stranger.close()
            elif kind == "hint":
                answer = pages.get(f"/deal/{number}/hint/", htmx=True)
            else:
                answer = pages.get(f"/daily/{today}/")
            status = answer.status
            if status == 503 and limits.BUSY_MESSAGE not in answer.body:
                status = 599  # a 503 that is not the designed "busy, try again"
        except OSError:
            status = 0
            pages.close()
        answers[status] = answers.get(status, 0) + 1
        kinds[kind] = kinds.get(kind, 0) + 1


def cache_errors(port: int) -> float:
    text = Player(port).get("/metrics").body
    found = re.findall(r"^lucie_cache_errors_total\{[^}]*\} (\S+)$", text, re.M)
    return sum(float(n) for n in found)


def redis_down_line(workdir: Path, seconds: float, clients: int = 4) -> str:
    """gunicorn with production settings (rate limits on) and a Redis of its own as the cache,
    which is frozen (SIGSTOP) for the first half of `seconds` and stopped for the second, while
    `clients` do what players do. Errors: any 5xx but the designed "busy, try again" (a 503 with
    Retry-After is counted apart), or no answer at all."""
    from tests.web.redis_server import start_redis

    redis = start_redis()
    try:
        with site(workdir, CACHE_URL=redis.url) as (port, _database):
            # Warm up with Redis answering, so the outage meets a running site.
            warm: Counts = {}
            redis_down_client(port, time.monotonic() + min(3.0, seconds), 99, warm, {})
            errors_before = cache_errors(port)
            answers: Counts = {}
            kinds: Counts = {}
            began = time.monotonic()
            half = began + seconds / 2
            threads = [
                threading.Thread(
                    target=redis_down_client,
                    args=(port, began + seconds, seed, answers, kinds),
                )
                for seed in range(clients)
            ]
            redis.freeze()
            for thread in threads:
                thread.start()
            time.sleep(max(0.0, half - time.monotonic()))
            redis.stop()
            for thread in threads:
                thread.join()
            health = Player(port).get("/healthz")
            counted = cache_errors(port) - errors_before
    finally:
        if redis.process.poll() is None:
            redis.thaw()
            redis.process.kill()
    busy = answers.get(503, 0)  # only "busy, try again" (redis_down_client)
    failed = sum(n for status, n in answers.items() if status == 0 or status >= 500) - busy
    total = sum(answers.values())
    return (
        f"redis down: {total} requests, {failed} errors "
        f"(pages, first moves, hints, daily calendar)\n"
        f"  load average {load_average()}; Redis frozen (SIGSTOP) {seconds / 2:.0f} s, then "
        f"stopped {seconds / 2:.0f} s, {clients} clients on one address, rate limits on; "
        f"requests: {format_counts_by_name(kinds)}; answers: {format_counts(answers)} "
        f"(503: busy, try again; 599: any other 503; 0: no answer); "
        f"lucie_cache_errors_total +{counted:.0f}; "
        f"/healthz {health.status} {health.body.strip()!r}"
    )


def format_counts_by_name(counts: dict[str, int]) -> str:
    return ", ".join(f"{name}: {n}" for name, n in counts.items())


def worker_count() -> int:
    """The worker processes gunicorn.conf.py starts on this machine."""
    cores = len(os.sched_getaffinity(0))
    return int(os.environ.get("WEB_CONCURRENCY", min(2 * cores + 1, 12)))


def format_counts(counts: dict[int, int]) -> str:
    return ", ".join(f"{status}: {n}" for status, n in sorted(counts.items()))


def load_average() -> str:
    return " ".join(f"{value:.2f}" for value in os.getloadavg())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--attackers", type=int, default=8)
    parser.add_argument("--per-rule-set", type=int, default=5)
    parser.add_argument("--page-views", type=int, default=1000)
    parser.add_argument("--redis-down-seconds", type=float, default=20)
    parser.add_argument(
        "--only",
        default="victim,flood,forged,hints,hintflood,refusals,redis",
        help="the parts to run, comma-separated: victim (with page views), flood, forged, hints, "
        "hintflood, refusals, redis",
    )
    parser.add_argument(
        "--smoke",
        action="store_true",
        help="seconds: each part briefly, with two attackers and a handful of page views",
    )
    options = parser.parse_args()
    if options.smoke:
        options.seconds, options.attackers, options.per_rule_set = 0.4, 2, 1
        options.page_views, options.redis_down_seconds = 5, 0.5
        # Two workers, not one per core and more: each starts a compute process (a fresh
        # interpreter, a few tenths of a second of CPU), and the smoke measures nothing.
        os.environ["WEB_CONCURRENCY"] = "2"
        # The smoke runs beside a test suite that keeps both cores busy, where a search niced
        # to 10 gets almost no CPU and a press of Hint waits up to its 30 s of grace: its flood
        # never met the address's 120 searched hints a minute (the smoke failed so at a load
        # average of 17). At the requests' priority the searches keep pace; the full run keeps
        # the niceness a deployment has.
        os.environ["LUCIE_COMPUTE_NICENESS"] = "0"
    # The smoke floods for a quarter of a second instead of 20 and asks 2 hints under 2 rule
    # sets, not 100 and all; its quiet and measured runs last a quarter of a second, not 10.
    # (Each flood keeps both cores busy: the smoke's CPU is about twice its floods' seconds.)
    flood_seconds, default_hints = (0.25, 2) if options.smoke else (20.0, 100)
    quiet = 0.25 if options.smoke else 10.0
    measure = 0.25 if options.smoke else 10.0
    rule_sets = OFFERED[:2] if options.smoke else OFFERED
    parts = set(options.only.split(","))

    print(f"load average before: {load_average()}; {os.cpu_count()} cores", flush=True)
    with tempfile.TemporaryDirectory(prefix="lucie-attack-") as folder, ExitStack() as kept:
        workdir = Path(folder)
        Kept.stack = kept if options.smoke else None
        # The forged daily first: the smoke's kept server then meets it before the flood's and the
        # attackers' new games have used up its address's limit on new games.
        if "forged" in parts:
            with site(workdir, **LIMITS_ON) as (port, database):
                print(forged_daily_line(port, options.smoke), flush=True)
        if "victim" in parts:
            with site(workdir, **LIMITS_ON) as (port, database):
                line, counts = victim_line(port, options.seconds, options.attackers, quiet)
                print(line)
                print(f"  rate limits on; attackers' answers: {format_counts(counts)}", flush=True)
                print(page_views(port, database, options.page_views), flush=True)
        if "flood" in parts:
            with site(workdir, **LIMITS_ON) as (port, database):
                print(embed_flood(port, database, flood_seconds, 4), flush=True)
        if "hints" in parts:
            with site(workdir, **LIMITS_OFF) as (port, database):
                line, counts = victim_line(port, options.seconds, options.attackers, quiet)
                print(line)
                print(f"  rate limits off; attackers' answers: {format_counts(counts)}", flush=True)
                print(hint_line(port, options.per_rule_set, default_hints, rule_sets), flush=True)
        if "hintflood" in parts:
            # Each client from an address of its own, first with the rate limits off (every
            # request a search: what the searches cost the pages), then on (most requests
            # refused at once, in front of Django: game/ops/early_refusal.py).
            for limits_on in ("0", "1"):
                settings = LIMITS_ON if limits_on == "1" else LIMITS_OFF
                with site(workdir, **settings) as (port, database):
                    line, counts = hint_flood_line(port, options.seconds, options.attackers, quiet)
                    said = (
                        "on, an address each (most refused at once)"
                        if limits_on == "1"
                        else "off (every request a search)"
                    )
                    print(line)
                    print(f"  rate limits {said}; the clients' answers: {format_counts(counts)}",
                          flush=True)  # fmt: skip
        if "refusals" in parts:
            print(refusal_lines(workdir, options.seconds, options.attackers, quiet, measure),
                  flush=True)  # fmt: skip
        if "redis" in parts:
            print(redis_down_line(workdir, options.redis_down_seconds), flush=True)
    print(f"load average after: {load_average()}")


if __name__ == "__main__":
    main()
