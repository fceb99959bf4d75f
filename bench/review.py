"""Review benchmark: how soon a worker picks up a review and how soon its page shows the verdict.

    .venv/bin/python bench/review.py [--reviews N] [--smoke]

Starts gunicorn with production settings on a SQLite file and one `manage.py work` (the queue a
SQLite file beside it, as `make run` has it), then for each of N lost games (the greedy hint's
losses of about 45 moves, played over real HTTP) opens the review as a browser does: the POST
its page makes as it loads, then a poll every 100 ms until the page says it is done. It prints

    review: pickup p50 X ms, verdict p50 Y s over N reviews

where pickup is the time from the ask to the worker's claim of the job (the job row's asked_at
and started_at, both on the server's clock) and verdict the time from the ask to the first poll
that shows the review finished, as the player sees it. The load average goes to stderr, to quote
beside the figures. `--smoke` reviews one game, the loss of LOSSES whose review is quickest: it
checks that the benchmark still runs.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import secrets
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

LOSSES = (11, 6, 26, 3, 15, 21, 29, 33, 40, 47)
# The smoke's one game: of LOSSES, the loss whose review costs least (about 0.1 s of CPU against
# 0.3 to 0.8 s for most others).
SMOKE_LOSS = 26


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reviews", type=int, default=10)
    parser.add_argument("--smoke", action="store_true", help="one review: does it still run?")
    options = parser.parse_args()
    count = max(1, options.reviews)
    numbers = [LOSSES[i % len(LOSSES)] for i in range(count)]
    if options.smoke:
        numbers = [SMOKE_LOSS]
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "lucie.settings")
    os.environ.pop("QUEUE_URL", None)
    with tempfile.TemporaryDirectory(prefix="lucie-bench-review-") as folder:
        tmp = Path(folder)
        queue = {
            "LUCIE_QUEUE_PATH": str(tmp / "queue.sqlite3"),
            "LUCIE_QUEUE_NAME": f"lucie-bench-{secrets.token_hex(4)}",
            "LUCIE_SITE_START": "2099-01",  # no daily difficulty jobs ahead of the reviews
        }
        # This process migrates the server's database itself, once, as `manage.py migrate`
        # would: a process of its own for it would start Django a second time.
        database_url = f"sqlite:///{tmp / 'live.sqlite3'}"
        os.environ.update(queue, DATABASE_URL=database_url)
        import django

        django.setup()
        from django.core.management import call_command
        from django.db import connections

        from game.ops.jobs import Beat
        from tests.helpers.backups import rows
        from tests.helpers.review import lost_over_http
        from tests.web.live_gunicorn import server_environment, serving, stop

        call_command("migrate", interactive=False, verbosity=0)
        connections.close_all()
        # The worker starts beside the server, while the lost games are played: its own start
        # is not a review's, and the first ask waits for its first heartbeat below.
        with (tmp / "work.log").open("wb") as log:
            worker = subprocess.Popen(
                [sys.executable, "manage.py", "work", "--workers", "1"],
                cwd=ROOT,
                env=server_environment(database_url, **queue),
                stdout=log,
                stderr=log,
            )
        try:
            with serving(database_url, tmp, workers=2, threads=4, **queue) as server:
                player = server.player()
                games = [lost_over_http(player, number) for number in numbers]
                # The server closes a connection idle past its keep-alive while the worker
                # starts: the asks open a fresh one.
                player.close()
                beats = f"SELECT name FROM {Beat._meta.db_table} WHERE name LIKE 'worker:%'"
                began = time.monotonic()
                while not rows(database_url, beats):
                    assert worker.poll() is None, (tmp / "work.log").read_text()[-2000:]
                    assert time.monotonic() - began < 120, "the worker never beat"
                    time.sleep(0.05)
                verdicts: list[float] = []
                for game in games:
                    asked = time.monotonic()
                    answer = player.post(f"/game/{game}/review/ask/", {})
                    assert answer.status == 200, answer.body[:300]
                    while 'data-review-state="working"' in answer.body:
                        assert time.monotonic() - asked < 120, "a review took over 2 minutes"
                        time.sleep(0.1)
                        answer = player.get(f"/game/{game}/review/", htmx=True)
                    verdicts.append(time.monotonic() - asked)
                    ended = re.search(r'data-review-state="(\w+)"', answer.body)
                    assert ended is not None, answer.body[:500]
                    # A failed review says why in the worker's log.
                    assert ended[1] in ("done", "undecided"), (
                        ended[1],
                        (tmp / "work.log").read_text()[-2000:],
                    )
                # Closed before the server stops, which lets a kept-alive connection linger.
                player.close()
        finally:
            stop(worker)
        found = rows(
            database_url, "SELECT asked_at, started_at FROM game_job WHERE kind = 'review'"
        )
    pickups = [_seconds(row["started_at"]) - _seconds(row["asked_at"]) for row in found]
    print(f"load average {os.getloadavg()[0]:.2f}", file=sys.stderr)
    print(
        f"review: pickup p50 {statistics.median(pickups) * 1000:.0f} ms, "
        f"verdict p50 {statistics.median(verdicts):.1f} s over {len(verdicts)} reviews"
    )


def _seconds(value: object) -> float:
    import datetime as dt

    if isinstance(value, str):
        value = dt.datetime.fromisoformat(value)
    assert isinstance(value, dt.datetime)
    return value.timestamp()


if __name__ == "__main__":
    with contextlib.suppress(KeyboardInterrupt):
        main()
