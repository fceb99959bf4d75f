"""A compute process ends when its worker dies, however it dies (issue 19): a gunicorn worker
killed with SIGKILL (as the out-of-memory killer does) left its compute process and the
multiprocessing resource tracker running for good.

Real gunicorn with production settings, whose searches run in compute processes of each worker.
"""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

import pytest

from tests.web.live_gunicorn import running_gunicorn


def process_state(pid: int) -> tuple[int, str] | None:
    """(parent pid, state letter) of a live process, None once it is gone."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = text[text.rindex(")") + 2 :].split()
    return int(fields[1]), fields[0]


def children(parent: int) -> list[int]:
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        state = process_state(int(stat.parent.name))
        if state is not None and state[0] == parent and state[1] != "Z":
            found.append(int(stat.parent.name))
    return sorted(found)


def alive(pid: int) -> bool:
    state = process_state(pid)
    return state is not None and state[1] != "Z"  # a zombie holds no memory and runs nothing


@pytest.mark.slow
def test_a_sigkilled_worker_leaves_no_compute_process_running(tmp_path: Path) -> None:
    # The worker's own memory as its cache: with CI's shared Redis an earlier test's server may
    # have kept this deal's hint, and then no search (and no compute process) is started.
    with running_gunicorn(tmp_path, workers=1, threads=2, CACHE_URL="") as server:
        (worker,) = server.workers()
        answer = server.player().get("/deal/5/hint/", htmx=True)
        assert answer.status == 200
        assert "Hint:" in answer.body
        spawned = children(worker)
        # One compute process (LUCIE_COMPUTE_SLOTS=1) and the resource tracker.
        assert len(spawned) >= 2, spawned

        os.kill(worker, signal.SIGKILL)

        deadline = time.monotonic() + 5
        while time.monotonic() < deadline and any(alive(pid) for pid in spawned):
            time.sleep(0.1)
        left = [pid for pid in spawned if alive(pid)]
        try:
            assert not left, f"still running 5 s after their worker was killed: {left}"
        finally:
            for pid in left:
                os.kill(pid, signal.SIGKILL)

        # gunicorn has started another worker, whose searches work as before.
        assert server.player().get("/deal/6/hint/", htmx=True).status == 200


def test_a_worker_starts_a_compute_process_before_any_search(tmp_path: Path) -> None:
    """So that no request waits for a fresh interpreter to start (far longer than a hint's
    search on a loaded machine, where they run in the idle class): gunicorn.conf.py starts them
    as each worker starts."""
    with running_gunicorn(tmp_path, workers=1, threads=2, CACHE_URL="") as server:
        (worker,) = server.workers()
        deadline = time.monotonic() + 30
        # The first search's compute process and the multiprocessing resource tracker.
        while time.monotonic() < deadline and len(children(worker)) < 2:
            time.sleep(0.1)
        assert len(children(worker)) == 2, children(worker)
