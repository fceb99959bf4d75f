"""Where issue 30's CPU budget goes: a move of this checkout against one of 096a910 (the last
commit with the November speed devices), split into the part the issue asked for and the rest.

    .venv/bin/python bench/budget.py [--moves 400] [--rounds 3]

Each checkout (this one, and 096a910 in a temporary git worktree) runs in a process of its own
with production settings on a scratch SQLite file (no cache: the session is read from the
database, as `bench/load.py` runs it without CACHE_URL). A move and its undo are posted through
Django's test client (every middleware included), the moves of one deal over and over; only the
moves are timed. Named functions are timed while they run, each moment counted in the innermost:

- **the three statements** of a move: the session's read, the game's locked read and its save
  (here Django's ORM: `SessionStore._get_session_from_db`, `store.locked`, `Model.save`; at
  096a910 the hand-written `lucie.sessions._live_row`, `game.rows.read`, `game.rows.update`,
  where a move read no session: its game's read checked the session in the same statement);
- **the devices given back**: the change form, the board's URLs, the CSP header (here Django's
  `Form`, `reverse()` per URL, django-csp per response; at 096a910 the hand-rolled form, the URL
  memo, the prebuilt header, the CSRF echo);
- **the rest**: everything else in the request.

The rounds take the two checkouts in turn; it prints the medians of each round's medians, then
the line the issue's budget is read from:
`budget: this checkout X ms vs 096a910 Y ms a move (ratio R): statements +S, devices +D, rest +E`
where each + is that part's extra CPU as a share of 096a910's whole move. A ratio of at most 1.5
leaves +0.50 in all.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

# The baseline commit and its temporary worktree, as bench/load.py measures against them.
from load import BASELINE_COMMIT as BASELINE  # noqa: E402
from load import baseline_worktree  # noqa: E402

# The functions timed, by part, in each checkout ("module:Class.attribute").
PARTS = {
    "here": {
        "statements": (
            "django.contrib.sessions.backends.db:SessionStore._get_session_from_db",
            "game.board.store:locked",
            "django.db.models.base:Model.save",
        ),
        "devices": (
            "game.board.changes:read",
            "game.board.fronts:board_urls",
            "csp.middleware:CSPMiddleware.process_response",
        ),
    },
    BASELINE: {
        "statements": (
            "django.contrib.sessions.backends.db:SessionStore._get_session_from_db",
            "game.board.store:locked",
            "django.db.models.base:Model.save",
        ),
        "devices": (
            "game.board.pipeline:read",
            "game.play.site:game_urls",
            "game.board.display:board_links",
            "csp.middleware:CSPMiddleware.process_response",
        ),
    },
}

# Run in the checkout's own process: Django set up on a scratch database, a deal played.
CHILD = r"""
import gc, html, json, os, re, statistics, sys, time, importlib
root, parts, count = sys.argv[1], json.loads(sys.argv[2]), int(sys.argv[3])
warmup = int(sys.argv[4])
sys.path.insert(0, root)
os.chdir(root)
import django
django.setup()
from django.core.management import call_command
from django.db import connections
from django.test import Client
# Migrated here rather than by `manage.py migrate`, which would start Django a second time; what
# the migrations left is collected before anything is timed.
call_command("migrate", interactive=False, verbosity=0)
connections.close_all()
gc.collect()

totals, stack = {}, []

def wrap(part, function):
    def timed(*args, **kwargs):
        stack.append([time.process_time(), 0.0])
        try:
            return function(*args, **kwargs)
        finally:
            started, inner = stack.pop()
            spent = time.process_time() - started
            totals[part] = totals.get(part, 0.0) + spent - inner
            if stack:
                stack[-1][1] += spent
    return timed

for part, names in parts.items():
    for name in names:
        module_name, _, path = name.partition(":")
        try:
            owner = importlib.import_module(module_name)
            *parents, attribute = path.split(".")
            for parent in parents:
                owner = getattr(owner, parent)
            setattr(owner, attribute, wrap(part, getattr(owner, attribute)))
        except (ImportError, AttributeError):
            print(f"not found in {root}: {name}", file=sys.stderr)
            sys.exit(2)

client = Client()
page = client.post("/deal/5/", follow=True, headers={"HX-Request": "true"})
board = page.content.decode()
game = re.search(r'data-game="(\d+)"', board)[1]

def first_move(board):
    for found in re.finditer(r'data-card="\w+" data-moves="([^"]+)"', board):
        return html.unescape(found[1]).split()[0]

move = first_move(board)
samples = {part: [] for part in (*parts, "rest", "total")}
for index in range(count + warmup):
    board = client.get(f"/game/{game}/", headers={"HX-Request": "true"}).content.decode()
    key = re.search(r'data-position="(\w+)"', board)[1]
    totals.clear()
    started = time.process_time()
    answer = client.post(
        f"/game/{game}/move/",
        {"n": 0, "move": move, "auto": 0, "v": key},
        headers={"HX-Request": "true"},
    )
    spent = time.process_time() - started
    assert answer.status_code == 200, answer.status_code
    if index >= warmup:
        for part in parts:
            samples[part].append(totals.get(part, 0.0) * 1000)
        samples["rest"].append((spent - sum(totals.values())) * 1000)
        samples["total"].append(spent * 1000)
    client.post(f"/game/{game}/undo/", {"n": 1}, headers={"HX-Request": "true"})
print(json.dumps({part: statistics.median(values) for part, values in samples.items()}))
"""


def measure(
    root: Path, parts: dict[str, tuple[str, ...]], moves: int, folder: Path, warmup: int = 50
) -> dict:
    """The medians of `moves` timed moves in the checkout at `root`, after `warmup` untimed."""
    from tests.web.live_gunicorn import server_environment

    database = folder / f"{root.name}-{os.getpid()}.sqlite3"
    database.unlink(missing_ok=True)
    environ = server_environment(
        f"sqlite:///{database}",
        ALLOWED_HOSTS="127.0.0.1,testserver",
        DJANGO_STATIC_ROOT=str(folder),
    )
    environ.pop("CACHE_URL", None)
    done = subprocess.run(
        [sys.executable, "-c", CHILD, str(root), json.dumps(parts), str(moves), str(warmup)],
        cwd=root,
        env=environ,
        capture_output=True,
        text=True,
    )
    if done.returncode != 0:
        sys.exit(f"the run in {root} failed:\n{done.stderr}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=400, help="timed moves per round")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument(
        "--smoke",
        action="store_true",
        help="a few seconds: 5 moves after 1 untimed, one round, this checkout only",
    )
    options = parser.parse_args()
    if options.smoke:
        with tempfile.TemporaryDirectory(prefix="lucie-budget-") as scratch:
            found = measure(ROOT, PARTS["here"], 5, Path(scratch), warmup=1)
        print("smoke: " + ", ".join(f"{part} {millis:.2f} ms" for part, millis in found.items()))
        return
    load = " ".join(f"{value:.2f}" for value in os.getloadavg())
    print(f"load average at the start: {load}")
    with tempfile.TemporaryDirectory(prefix="lucie-budget-") as scratch:
        folder = Path(scratch)
        with baseline_worktree(folder) as baseline:
            runs: dict[str, list[dict]] = {"here": [], BASELINE: []}
            for _ in range(options.rounds):
                for name, root in (("here", ROOT), (BASELINE, baseline)):
                    runs[name].append(measure(root, PARTS[name], options.moves, folder))
    medians = {
        name: {part: statistics.median(run[part] for run in found) for part in found[0]}
        for name, found in runs.items()
    }
    for name, parts in medians.items():
        print(
            f"{name:>8}: " + ", ".join(f"{part} {millis:.2f} ms" for part, millis in parts.items())
        )
    here, base = medians["here"], medians[BASELINE]
    extra = {
        part: (here[part] - base[part]) / base["total"]
        for part in ("statements", "devices", "rest")
    }
    print(
        f"budget: this checkout {here['total']:.2f} ms vs {BASELINE} {base['total']:.2f} ms a move "
        f"(ratio {here['total'] / base['total']:.2f}): "
        + ", ".join(f"{part} {share:+.2f}" for part, share in extra.items())
    )
    load = " ".join(f"{value:.2f}" for value in os.getloadavg())
    print(f"load average at the end: {load}")


if __name__ == "__main__":
    main()
