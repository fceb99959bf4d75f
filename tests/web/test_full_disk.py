"""A real full disk under a real gunicorn (issue 19): the SQLite database lives on a small tmpfs
that the test fills. /healthz must then say the database is unavailable (a load balancer takes
the server out), a move must be "could not be saved, try again" (503) and change nothing, and
once there is room again both recover.

Needs root and a kernel that lets it mount a tmpfs (a container may not): skipped otherwise.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from game.ops import limits
from tests.web.live_gunicorn import prepare, read_board, serving, stored_game

DEAL = 5


@contextlib.contextmanager
def small_disk(where: Path, size: str = "8m") -> Iterator[Path]:
    where.mkdir()
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(where)],
        capture_output=True,
        text=True,
    )
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {mounted.stderr.strip()}")
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], check=False)


def fill(disk: Path) -> Path:
    """Write zeros until the disk is full (ENOSPC)."""
    filler = disk / "filler"
    block = b"\0" * 65536
    with filler.open("wb", buffering=0) as sink, contextlib.suppress(OSError):
        while True:
            sink.write(block)
    with contextlib.suppress(OSError), (disk / "crumbs").open("wb", buffering=0) as sink:
        while True:
            sink.write(b"\0")
    return filler


def health(server_port: int) -> tuple[int, str]:
    import http.client

    connection = http.client.HTTPConnection("127.0.0.1", server_port, timeout=10)
    connection.request("GET", "/healthz")
    answer = connection.getresponse()
    # The health lines of the queue and the backups below the verdict are not this test's.
    return answer.status, answer.read().decode().split("queue:")[0].removesuffix("\n") + (
        "\n" if answer.status != 200 else ""
    )


@pytest.mark.skipif(os.geteuid() != 0, reason="mounting a tmpfs needs root")
@pytest.mark.slow
def test_a_full_disk_fails_health_and_moves_say_try_again(tmp_path: Path) -> None:
    with small_disk(tmp_path / "disk") as disk:
        database_url = f"sqlite:///{disk / 'live.sqlite3'}"
        prepare(database_url)
        with serving(database_url, tmp_path, workers=1, threads=2) as server:
            player = server.player()
            board = read_board(player.open_deal(f"/deal/{DEAL}/").body)
            move = sorted(m for moves in board.moves.values() for m in moves)[0]
            answer = player.post(f"/game/{board.game_id}/move/", {"move": move, "n": 0})
            assert answer.status == 200
            before = stored_game(database_url, board.game_id)
            assert before.move_count == 1

            filler = fill(disk)
            time.sleep(1.1)  # past the health answer's reuse

            assert health(server.port) == (503, "database unavailable\n")
            board = read_board(player.get(f"/game/{board.game_id}/").body)
            move = sorted(m for moves in board.moves.values() for m in moves)[0]
            refused = player.post(f"/game/{board.game_id}/move/", {"move": move, "n": 1})
            assert refused.status == 503, refused.body[:500]
            assert limits.UNSAVED_MESSAGE in refused.body
            assert int(refused.headers["Retry-After"]) >= 1
            assert stored_game(database_url, board.game_id) == before
            stranger = server.player()
            assert stranger.get(f"/deal/{DEAL + 1}/").status == 200  # its CSRF cookie
            first = stranger.post(f"/deal/{DEAL + 1}/redeal/", {"n": 0})
            assert first.status == 503, first.body[:500]

            filler.unlink()
            (disk / "crumbs").unlink()
            time.sleep(1.1)

            # Healthy again. On a loaded machine the health check's Redis probe (production's
            # 100 ms) can fail on its own, which /healthz reports, and the server gives Redis a
            # few seconds before asking again: the verdict is awaited, not taken at once.
            deadline = time.monotonic() + 15
            while (verdict := health(server.port)) != (200, "ok") and time.monotonic() < deadline:
                time.sleep(0.5)
            assert verdict == (200, "ok")
            again = player.post(f"/game/{board.game_id}/move/", {"move": move, "n": 1})
            assert again.status == 200
            assert stored_game(database_url, board.game_id).move_count == 2
