"""A worker killed with SIGKILL in the middle of a stream of moves loses nothing it acknowledged.

A real gunicorn (two workers) serves one player who plays move after move over keep-alive HTTP,
while the test kills every worker with `kill -9` a few times. The master starts new workers; a
request cut off by a kill gets no answer and the player reloads the board and goes on. Afterwards
the stored log must hold every acknowledged move at the place it was played, nothing that was not
asked for, and replay through the engine.
"""

from __future__ import annotations

import http.client
import os
import random
import signal
import threading
import time
from pathlib import Path

import pytest

from game import engine
from tests.web.live_gunicorn import (
    Player,
    Server,
    a_change,
    read_board,
    running_gunicorn,
    stored_game,
)

DEAL = 5
# Unlimited redeals: a board always offers a move or a redeal, so the stream never runs dry.
RULES = "lucie-ru"
KILLS = 4
MOVES = 90


# Between kills. A move takes a few milliseconds: the MOVES of the stream must outlast the kills,
# or none lands while a request is in flight.
KILL_EVERY = 0.1


def kill_workers_now_and_then(server: Server, stop: threading.Event, killed: list[int]) -> None:
    for _ in range(KILLS):
        if stop.wait(KILL_EVERY):
            return
        for pid in server.workers():
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                continue
            killed.append(pid)


@pytest.mark.slow
def test_a_killed_worker_loses_no_acknowledged_move(tmp_path: Path) -> None:
    rng = random.Random(7)
    acknowledged: dict[int, str] = {}  # log index -> move the server said it played there
    cut_off: dict[int, set[str]] = {}  # log index -> moves sent there that got no answer
    refused = 0
    killed: list[int] = []

    with running_gunicorn(tmp_path, workers=2) as server:
        player = server.player()
        page = player.open_deal(f"/deal/{DEAL}/?rules={RULES}")
        assert page.status == 200
        board = read_board(page.body)
        stop = threading.Event()
        killer = threading.Thread(target=kill_workers_now_and_then, args=(server, stop, killed))
        killer.start()
        try:
            deadline = time.monotonic() + 60
            while len(acknowledged) < MOVES and time.monotonic() < deadline:
                path, form, entry = a_change(board, rng)
                try:
                    answer = player.post(path, form)
                except (OSError, http.client.HTTPException):
                    cut_off.setdefault(board.move_count, set()).add(entry)
                    board = read_board(get_board(player, board.game_id))
                    continue
                if answer.status == 409:
                    refused += 1
                else:
                    assert answer.status == 200, answer.body[:300]
                    acknowledged[board.move_count] = entry
                board = read_board(answer.body)
            killer.join()
        finally:
            stop.set()
            killer.join()
        survivors = workers_back(server, 2, killed)
        stored = stored_game(server.database_url, board.game_id)

    assert len(set(killed)) >= KILLS, "the workers were not killed"
    assert len(survivors) == 2, "the master did not start two new workers in place of the killed"
    # Four kills while the player is nearly always waiting on the server: some land mid-request.
    assert cut_off, "no kill landed while a request was in flight"
    assert len(acknowledged) == MOVES
    # A 409 can only come from a cut-off request that was saved before its worker died.
    assert refused <= len(cut_off)

    assert stored.move_count == len(stored.moves)
    for index, entry in acknowledged.items():
        assert stored.moves[index] == entry, f"acknowledged move {index} ({entry}) is lost"
    for index, entry in enumerate(stored.moves):
        assert entry == acknowledged.get(index) or entry in cut_off.get(index, set())
    played = engine.Play(
        stored.deal_number,
        engine.Rules.parse(stored.rules),
        [engine.Move.parse(text) for text in stored.moves],
    )
    assert len(played.moves) == stored.move_count


def get_board(player: Player, game_id: int) -> str:
    """The game page, retried while the master is still starting workers."""
    for _ in range(50):
        try:
            answer = player.get(f"/game/{game_id}/", htmx=True)
        except (OSError, http.client.HTTPException):
            time.sleep(0.1)
            continue
        assert answer.status == 200
        return answer.body
    raise AssertionError("the server did not come back after its workers were killed")


def workers_back(server: Server, count: int, killed: list[int]) -> list[int]:
    """The master's `count` workers once none of them is one the test killed: a process that has
    just been sent SIGKILL can still be listed for a moment before it dies."""
    workers: list[int] = []
    for _ in range(100):
        workers = [pid for pid in server.workers() if pid not in killed]
        if len(workers) == count:
            return workers
        time.sleep(0.1)
    return workers
