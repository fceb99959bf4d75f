"""`manage.py work` stops when told (issue 50): SIGTERM ends every process it started (the
workers, Huey's scheduler and the lease keeper, a keeper started again after a crash included)
before a job's lease lapses (by the code's own clock; the test waits longer, for a starved
machine), and then no heartbeat says a worker is there.
"""

from __future__ import annotations

import contextlib
import os
import re
import secrets
import signal
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.helpers.backups import rows
from tests.web.live_gunicorn import prepare, start_queue_workers

pytestmark = pytest.mark.slow

# The worker's lease (LUCIE_QUEUE_LEASE_SECONDS): a short one, so that its keeper sweeps and beats
# every 2 s and a stopping `manage.py work` kills what is left after 4 s.
LEASE_SECONDS = 8
SWEEP_SECONDS = LEASE_SECONDS / 4


def descendants(pid: int) -> set[int]:
    """Every live process under `pid` (children, their children…)."""
    found: set[int] = set()
    todo = [pid]
    while todo:
        parent = todo.pop()
        with contextlib.suppress(OSError):
            for child in Path(f"/proc/{parent}/task/{parent}/children").read_text().split():
                found.add(int(child))
                todo.append(int(child))
    return found


def running(pid: int) -> bool:
    """The process exists and is not a zombie."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def keeper_pid(database_url: str) -> int | None:
    found = rows(database_url, "SELECT detail FROM game_beat WHERE name LIKE 'worker:%'")
    if not found:
        return None
    said = re.search(r"keeper pid (\d+)", str(found[0]["detail"]))
    return int(said[1]) if said else None


def last_beat(database_url: str) -> object:
    found = rows(database_url, "SELECT at FROM game_beat WHERE name LIKE 'worker:%'")
    return found[0]["at"] if found else None


def wait_for(what: str, check: object, seconds: float) -> object:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = check()  # type: ignore[operator]
        if value:
            return value
        time.sleep(0.2)
    raise AssertionError(f"no {what} within {seconds} s")


@pytest.fixture
def work(tmp_path: Path) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """`manage.py work --workers 2` on a database and queue of its own."""
    folder = tmp_path / "db"
    folder.mkdir()
    database_url = f"sqlite:///{folder / 'site.sqlite3'}"
    env = {
        "LUCIE_QUEUE_PATH": str(tmp_path / "queue.sqlite3"),
        "LUCIE_QUEUE_NAME": f"lucie-test-{secrets.token_hex(4)}",
        "QUEUE_URL": "",
        "LUCIE_QUEUE_LEASE_SECONDS": str(LEASE_SECONDS),
    }
    prepare(database_url)
    process = start_queue_workers(database_url, tmp_path / "work.log", **env)
    try:
        yield database_url, process
    finally:
        for pid in descendants(process.pid):
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
        if process.poll() is None:
            process.kill()
        process.wait(timeout=10)


def test_sigterm_after_the_keeper_was_restarted_ends_every_process(
    work: tuple[str, subprocess.Popen[bytes]],
) -> None:
    database_url, process = work
    first = int(str(wait_for("keeper's beat", lambda: keeper_pid(database_url), 60)))
    assert first in descendants(process.pid)
    os.kill(first, signal.SIGKILL)
    # Started again by the consumer's health check, and beating under its new pid.
    again = int(
        str(
            wait_for(
                "keeper started again",
                lambda: (pid := keeper_pid(database_url)) != first and pid,
                30,
            )
        )
    )
    started = descendants(process.pid)
    assert again in started
    assert len(started) >= 4  # two workers, Huey's scheduler, the keeper

    process.send_signal(signal.SIGTERM)
    # The code kills what is left STOP_SECONDS (half a lease) after SIGTERM, on its own clock;
    # a process starved by a saturated machine (CI's) can take longer to be scheduled and exit,
    # so the test gives it three leases. Without the kill it would never exit: multiprocessing
    # waits for a child at exit without end.
    try:
        process.wait(timeout=3 * LEASE_SECONDS)
    except subprocess.TimeoutExpired:
        pytest.fail(f"manage.py work still running {3 * LEASE_SECONDS} s after SIGTERM")
    left = [pid for pid in started if running(pid)]
    assert left == [], f"still running after manage.py work exited: {left}"

    # No one beats for a worker now: the pages may say the workers are away.
    beaten = last_beat(database_url)
    time.sleep(SWEEP_SECONDS + 2)
    assert last_beat(database_url) == beaten
