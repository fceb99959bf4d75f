"""A client's own connection refused in front of Django waits a second before its next request is
read (lucie/gunicorn_worker.py), under gunicorn with the repository's config; a proxy's
connection, which carries other people's requests, never waits, nor does anyone else."""

from __future__ import annotations

import signal
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from lucie.gunicorn_worker import HOLD_SECONDS
from tests.web.live_gunicorn import Answer, Player, Server, running_gunicorn

pytestmark = [pytest.mark.slow, pytest.mark.timed]

# The fixture's server: one worker of this many threads.
THREADS = 2

# The embed's first change of a fresh deal counts against new games (limits.START, 60 a minute
# from one address): cheap to use up, and guarded by the front.
NEW_GAME = "/embed/deal/{n}/redeal/"


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    # One worker, so one memory of the counts: the cache is the worker's own (no CACHE_URL), so
    # no other test's server shares this one's counts. The client's address is read from
    # X-Forwarded-For when a request carries one, as behind a proxy.
    with running_gunicorn(
        tmp_path, workers=1, threads=THREADS, CACHE_URL="", LUCIE_RATE_LIMITS="1",
        LUCIE_CLIENT_ADDRESS_HEADER="X-Forwarded-For",
    ) as server:  # fmt: skip
        yield server


def new_game(player: Player, number: int) -> tuple[int, float]:
    """The status of a new embed game's first change, and how long its answer took."""
    started = time.monotonic()
    status = player.post(NEW_GAME.format(n=number), {"n": 0}, htmx=False).status
    return status, time.monotonic() - started


def past_the_limit(player: Player, seconds_needed: float = 20) -> None:
    """New games from the player's address until the front refuses one (the view refuses the
    first; the front the ones after, once the count is past the limit), with at least
    `seconds_needed` of the limit's window (fixed, a minute) left, so that the count does not
    start again under the test: on a loaded machine, filling it takes a good part of a window."""
    for _attempt in range(3):
        for number in range(1, 400):
            status, _took = new_game(player, number)
            if status == 429:
                break
        else:
            raise AssertionError("the limit on new games was never met")
        answer = player.post(NEW_GAME.format(n=1000), {"n": 0}, htmx=False)
        left = int(answer.headers.get("Retry-After", "0"))
        if answer.status == 429 and left >= seconds_needed:
            return
        # Too near the window's end, or past it already (the count started again).
        time.sleep(left + 1)  # the next window, whose count starts from nothing
        player.close()  # the refused connection is held: start the next try on a new one
    raise AssertionError("each try met the limit too near the end of its window")


def refused_in_front(answer: Answer) -> bool:
    """Whether the front answered: its short page, not a board saying why (the view's)."""
    return answer.status == 429 and 'id="board"' not in answer.body


def test_a_clients_next_request_after_a_refusal_waits_and_no_one_else_does(
    server: Server,
) -> None:
    script = Player(server.port)
    past_the_limit(script)
    # The refusal just written left at once; the script's next request on that connection is
    # read a second later.
    status, took = new_game(script, 1001)
    assert status == 429
    assert took >= HOLD_SECONDS * 0.9

    # The wait holds no thread: with more connections held than the worker has threads (the
    # fixture's one worker has two), another browser's request is answered before any of them.
    scripts = [Player(server.port) for _ in range(THREADS + 1)]
    for number, held in enumerate(scripts, start=1100):
        assert new_game(held, number)[0] == 429  # refused in front: held from now on
    ended: dict[int, float] = {}

    def asked_again(index: int) -> None:
        new_game(scripts[index], 1200 + index)
        ended[index] = time.monotonic()

    waiting = [threading.Thread(target=asked_again, args=(n,)) for n in range(len(scripts))]
    for thread in waiting:
        thread.start()
    assert Player(server.port).get("/ping").status == 200
    answered = time.monotonic()
    for thread in waiting:
        thread.join()
    assert len(ended) == len(scripts), ended  # each held script was answered again
    assert answered < min(ended.values()), (answered, ended)

    # Through a proxy (the address in X-Forwarded-For), the same address's refusals are never
    # held: the proxy's connection may carry someone else's request next.
    proxy = Player(server.port, headers={"X-Forwarded-For": "127.0.0.1"})
    answers = [new_game(proxy, 2000 + n) for n in range(5)]
    assert [status for status, _took in answers] == [429] * 5
    # Held, each of the four after the first would wait a second: 4 s at least.
    assert sum(took for _status, took in answers[1:]) < 3 * HOLD_SECONDS


def test_a_boards_own_request_is_never_held(server: Server) -> None:
    """A board's htmx request is a player's browser: on an address past its limit (a school's,
    say), its refusal leaves the connection free for the player's next move."""
    past_the_limit(Player(server.port))
    board = Player(server.port)
    statuses = []
    for number in range(3000, 3020):  # its grace from the view first, then the front's refusals
        answer = board.post(NEW_GAME.format(n=number), {"n": 0}, htmx=True)
        statuses.append(answer.status)
        if refused_in_front(answer):
            break
    else:
        raise AssertionError(f"the front never refused the board's request: {statuses}")
    started = time.monotonic()
    for number in range(4000, 4004):
        assert refused_in_front(board.post(NEW_GAME.format(n=number), {"n": 0}, htmx=True))
    # Held, each of the four would wait a second after the refusal before it: 4 s at least.
    assert time.monotonic() - started < 3 * HOLD_SECONDS


def test_a_held_connection_does_not_keep_the_server_from_stopping(server: Server) -> None:
    script = Player(server.port)
    past_the_limit(script)  # its connection is held now
    started = time.monotonic()
    server.process.send_signal(signal.SIGTERM)
    server.process.wait(timeout=20)
    assert time.monotonic() - started < 10
    assert server.process.returncode == 0
