"""Reviews on the queue's real workers, against gunicorn, with the machine kept busy.

Three lost games of about 45 moves are reviewed while two processes burn a core each: each page
sends only what its markup asks (its ask as it loads, then a poll every few seconds, or the ask
again once a refusal's wait is over: a queue too loaded to answer in time refuses), no button is
pressed, and each review ends decided. Meanwhile another player asks for hints, and none is refused
as busy: the reviews search on the workers, not in the processes that serve pages. Runs on a SQLite
file with its queue beside it, or on a scratch PostgreSQL database with the queue on Redis when
QUEUE_URL names one (CI's PostgreSQL pass).
"""

from __future__ import annotations

import os
import re
import secrets
import time
from pathlib import Path

import pytest

from game import engine
from tests.helpers.play import status_of
from tests.helpers.review import burners
from tests.web.live_gunicorn import (
    Player,
    queue_workers,
    read_board,
    running_gunicorn,
)

# Slow (real workers searching beside two CPU burners): it runs once per CI run, in the
# PostgreSQL pass, where the workers take their jobs from Redis as production's do.
pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        not os.environ.get("DATABASE_URL", "").startswith("postgres"),
        reason="once per CI run: the PostgreSQL pass, with its workers on Redis",
    ),
]

# Deals the greedy hint loses in 47, 48 and 47 moves.
LOSSES = (11, 6, 26)
POLL_SECONDS = 2
REVIEW_WAIT = 600


def _greedy(number: int) -> list[str]:
    game = engine.Play(number)
    while (found := engine.greedy_hint(game.position)) is not None:
        game.play(found.move)
    assert status_of(game) == "lost"
    return [move.text for move in game.moves]


def _lost_game(player: Player, number: int) -> int:
    moves = _greedy(number)
    assert player.get(f"/deal/{number}/").status == 200  # the page, and its CSRF cookie
    answer = player.post(f"/deal/{number}/move/", {"move": moves[0], "n": 0})
    assert answer.status == 200, answer.body[:300]
    game = read_board(answer.body).game_id
    for count, move in enumerate(moves[1:], start=1):
        action, data = ("redeal", {}) if move == "R" else ("move", {"move": move})
        answer = player.post(f"/game/{game}/{action}/", {"n": count, "auto": "0", **data})
        assert answer.status == 200, (count, move, answer.body[:300])
    return game


def _state(html: str) -> str:
    found = re.search(r'data-review-state="(\w+)"', html)
    assert found is not None, html[:500]
    return found[1]


def _next_request(html: str) -> tuple[str, float] | None:
    """What the review page's own markup sends next, and after how many seconds: "poll" (a GET
    of the review, `data-review-poll`) or "ask" (the POST of `data-review-ask`: a review not
    asked yet, or asked when the queue could not take it, which the page asks again once the
    refusal's wait is over). None once the review has nothing more to ask."""
    for kind, marker in (("poll", "data-review-poll"), ("ask", "data-review-ask")):
        element = re.search(rf"<[^>]*{marker}[^>]*>", html)
        if element is not None:
            delay = re.search(r'hx-trigger="load(?: delay:(\d+)s)?', element[0])
            assert delay is not None, element[0]
            return kind, float(delay[1] or 0)
    return None


def _due(html: str) -> float:
    """When the page holding `html` sends its next request (time.monotonic)."""
    next_one = _next_request(html)
    return time.monotonic() + (next_one[1] if next_one is not None else 0)


def test_reviews_are_decided_on_the_workers_by_polling_alone_while_hints_are_served(
    tmp_path: Path,
) -> None:
    queue = {
        "LUCIE_QUEUE_PATH": str(tmp_path / "queue.sqlite3"),
        "LUCIE_QUEUE_NAME": f"lucie-test-{secrets.token_hex(4)}",
        # No daily deal on offer yet, to the site as to the queue's workers (queue_workers).
        "LUCIE_SITE_START": "2099-01",
    }
    with running_gunicorn(tmp_path, workers=2, threads=4, **queue) as server:
        loser, hinter = server.player(), server.player()
        hinter.get("/deal/100/")
        games = [_lost_game(loser, number) for number in LOSSES]
        with (
            queue_workers(server.database_url, tmp_path / "work.log", **queue) as worker,
            burners(2),
        ):
            # Each review page posts its ask as it loads (a GET only reads), then sends what
            # its markup says: a poll every few seconds, or the ask again after a refusal.
            pages = {game: loser.post(f"/game/{game}/review/ask/", {}).body for game in games}
            due = {game: _due(page) for game, page in pages.items()}
            hints: list[int] = []
            deadline = time.monotonic() + REVIEW_WAIT
            while time.monotonic() < deadline:
                sending = {game: _next_request(pages[game]) for game in games}
                if all(next_one is None for next_one in sending.values()):
                    break
                # Another player asks for a hint on a fresh deal's first board each round.
                hints.append(hinter.get(f"/deal/{100 + len(hints)}/hint/", htmx=True).status)
                time.sleep(POLL_SECONDS)
                for game, next_one in sending.items():
                    if next_one is None or time.monotonic() < due[game]:
                        continue
                    if next_one[0] == "poll":
                        page = loser.get(f"/game/{game}/review/", htmx=True)
                    else:
                        page = loser.post(f"/game/{game}/review/ask/", {})
                    assert page.status == 200
                    pages[game] = page.body
                    due[game] = _due(page.body)
            assert worker.poll() is None, (tmp_path / "work.log").read_text()[-2000:]

    states = {game: _state(page) for game, page in pages.items()}
    assert states == dict.fromkeys(games, "done"), (tmp_path / "work.log").read_text()[-3000:]
    assert hints
    assert 503 not in hints
    assert set(hints) == {200}
