"""Many clients racing on one stored game, and the check that every answer and the stored game
agree."""

from __future__ import annotations

import random
import threading
from collections.abc import Callable
from dataclasses import dataclass, field

from django.db import connection

from game import engine
from tests.web.live_gunicorn import Board, Player, a_change, read_board

ROUNDS = 4
FREE_MOVES = 4


@dataclass
class Outcome:
    """What the clients saw, gathered from every thread."""

    lock: threading.Lock = field(default_factory=threading.Lock)
    # (round or -1 in free play, move count seen, status, board answered)
    answers: list[tuple[int, int, int, Board]] = field(default_factory=list)
    errors: list[BaseException] = field(default_factory=list)

    def add(self, round_: int, seen: int, status: int, board: Board) -> None:
        with self.lock:
            self.answers.append((round_, seen, status, board))


Fetch = Callable[[], tuple[int, str]]


Send = Callable[[str, dict[str, object]], tuple[int, str]]


def play_the_race(fetch: list[Fetch], send: list[Send], seed: int) -> Outcome:
    """Run every client's rounds and free play in threads; return what they saw."""
    outcome = Outcome()
    barrier = threading.Barrier(len(fetch), timeout=60)

    def client(index: int) -> None:
        rng = random.Random(seed * 100 + index)
        try:
            for round_ in [*range(ROUNDS), *[-1] * FREE_MOVES]:
                if round_ >= 0:
                    barrier.wait()
                status, html = fetch[index]()
                assert status == 200, html[:300]
                board = read_board(html)
                if round_ >= 0:
                    barrier.wait()  # everyone has the same board: now all post at once
                path, form, _ = a_change(board, rng)
                status, html = send[index](path, form)
                outcome.add(round_, board.move_count, status, read_board(html))
        except BaseException as error:
            outcome.errors.append(error)
            barrier.abort()
        finally:
            connection.close()

    threads = [threading.Thread(target=client, args=(i,)) for i in range(len(fetch))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return outcome


def race_over_http(tabs: list[Player], game_id: int, seed: int) -> Outcome:
    """The race run by tabs of real HTTP clients (on one server or several) on game `game_id`;
    the tabs are closed after."""

    def fetcher(tab: Player) -> Fetch:
        def fetch() -> tuple[int, str]:
            answer = tab.get(f"/game/{game_id}/", htmx=True)
            return answer.status, answer.body

        return fetch

    def sender(tab: Player) -> Send:
        def send(path: str, form: dict[str, object]) -> tuple[int, str]:
            answer = tab.post(path, form)
            return answer.status, answer.body

        return send

    try:
        return play_the_race([fetcher(t) for t in tabs], [sender(t) for t in tabs], seed=seed)
    finally:
        for tab in tabs:
            tab.close()


def check(outcome: Outcome, deal_number: int, rules: str, moves: list[str], count: int) -> None:
    if outcome.errors:
        raise outcome.errors[0]
    statuses = sorted({status for _, _, status, _ in outcome.answers})
    assert set(statuses) <= {200, 409}, statuses
    applied = [a for a in outcome.answers if a[2] == 200]
    # The stored log replays, and it holds exactly the applied requests.
    played = engine.Play(
        deal_number, engine.Rules.parse(rules), [engine.Move.parse(t) for t in moves]
    )
    assert len(applied) == count == len(moves) == len(played.moves)
    for round_ in range(ROUNDS):
        winners = [a for a in applied if a[0] == round_]
        assert len(winners) == 1, f"round {round_}: {len(winners)} moves applied"
    # Every answer shows a board the log gives: the loser's is newer than the one it saw.
    for _, seen, status, board in outcome.answers:
        assert board.move_count > seen if status == 409 else board.move_count == seen + 1
        expected = engine.Play(
            deal_number,
            engine.Rules.parse(rules),
            [engine.Move.parse(t) for t in moves[: board.move_count]],
        ).position
        assert board.fans == [[card.code for card in fan] for fan in expected.fans]
