"""The restore drill (issue 35): a backup taken in the middle of a stream of moves from several
players over real HTTP, restored into a fresh database, holds the site as it stood at one moment.

A real gunicorn (two workers of two threads) serves this run's database (SQLite, or a scratch
PostgreSQL database when DATABASE_URL names one). Before the stream a player loses a game and
opens its review; then four players make moves as fast as the server answers, two of them on
today's deal (a daily entry each, so the day's tally changes), the others on numbered deals,
starting another game when one ends. In the middle, `manage.py backup` runs. The backup is
restored into a fresh database (`manage.py restore` on SQLite, the documented pg_restore on
PostgreSQL) and then:

- every game's move log replays to its stored snapshot, and its move count is its log's length;
- the games and sessions the backup said it wrote are those in the restored database;
- each game holds what the players had seen answered before the backup began, and no move sent
  after it ended, and its log is the start of the log the site went on to keep;
- every session of a restored game is there, the day's tally agrees with its games, and the
  review is there as the site keeps it.
"""

from __future__ import annotations

import re
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from game import deals, engine
from tests.helpers.backups import (
    backup,
    count,
    manage,
    pg_restore,
    rows,
    unreplayable_games,
)
from tests.web.live_gunicorn import (
    Player,
    a_change,
    is_postgres,
    prepare,
    read_board,
    scratch_database,
    serving,
)

LOST = (1, "lucie")  # a deal the greedy hint loses before its first redeal
STREAM_SECONDS = 2.0  # of moves before the backup, and again after it
_STATUS = re.compile(r'<div id="board"[^>]*?data-status="(\w+)"', re.S)


def greedy_moves(number: int, rules: str) -> list[engine.Move]:
    game = engine.Play(number, engine.Rules.parse(rules))
    while (found := engine.greedy_hint(game.position)) is not None:
        game.play(found.move)
    return list(game.moves)


@dataclass
class Tracked:
    """One game as its player saw it: the moves answered, and when each was sent and answered."""

    game_id: int
    # (sent at, answered at, move count after it), on time.monotonic().
    changes: list[tuple[float, float, int]] = field(default_factory=list)
    created_at: float = 0.0

    def answered_before(self, moment: float) -> int:
        return max([0] + [n for _, answered, n in self.changes if answered < moment])

    def sent_before(self, moment: float) -> int:
        return max([0] + [n for sent, _, n in self.changes if sent < moment])


class Stream(threading.Thread):
    """A player making changes as fast as the server answers until told to stop."""

    def __init__(self, player: Player, first_path: str, number: int) -> None:
        super().__init__(daemon=True)
        self.player = player
        self.first_path = first_path
        self.number = number
        self.games: list[Tracked] = []
        self.stop = threading.Event()
        self.failure: BaseException | None = None

    def run(self) -> None:
        import random

        rng = random.Random(self.number)
        try:
            path = self.first_path
            while not self.stop.is_set():
                opened = time.monotonic()
                page = self.player.open_deal(path)
                assert page.status == 200, page.body[:300]
                board = read_board(page.body)
                self.games.append(Tracked(board.game_id, created_at=opened))
                while not self.stop.is_set():
                    change, form, _ = a_change(board, rng)
                    sent = time.monotonic()
                    answer = self.player.post(change, {**form, "auto": "0"})
                    answered = time.monotonic()
                    assert answer.status == 200, answer.body[:300]
                    board = read_board(answer.body)
                    self.games[-1].changes.append((sent, answered, board.move_count))
                    status = _STATUS.search(answer.body)
                    if status is None or status[1] != "playing":
                        break
                # The next numbered deal: a game of its own.
                self.number += 100
                path = f"/deal/{self.number}/"
        except BaseException as error:  # reported by the test, in its own thread
            self.failure = error


@pytest.mark.slow
def test_a_backup_taken_mid_stream_restores_the_site_as_it_stood(tmp_path: Path) -> None:
    with scratch_database(tmp_path / "source") as source:
        if not is_postgres(source):
            (tmp_path / "source").mkdir()
        prepare(source)
        # Each player from a network of its own (one network adds one player a day to the
        # daily figures), as the proxy in front says.
        proxy = {"LUCIE_CLIENT_ADDRESS_HEADER": "X-Forwarded-For"}
        with serving(source, tmp_path, workers=2, threads=2, **proxy) as server:

            def player(number: int) -> Player:
                return Player(server.port, headers={"X-Forwarded-For": f"198.51.100.{number}"})

            # A lost game and its review, before the stream.
            loser = player(10)
            board = read_board(loser.open_deal(f"/deal/{LOST[0]}/?rules={LOST[1]}").body)
            for move in greedy_moves(*LOST):
                action, extra = ("redeal", {}) if move.is_redeal else ("move", {"move": move.text})
                answer = loser.post(
                    f"/game/{board.game_id}/{action}/",
                    {"n": board.move_count, "auto": "0", **extra},
                )
                assert answer.status == 200, answer.body[:300]
                board = read_board(answer.body)
            lost_id = board.game_id
            assert loser.get(f"/game/{lost_id}/review/").status == 200
            # The page's own POST as it loads asks for the review (its row is made then).
            assert loser.post(f"/game/{lost_id}/review/ask/", {}).status == 200

            # Today's deal by the server's clock (a run may move the tests' own clock).
            daily = "/daily/"
            streams = [
                Stream(player(11), daily, 11),
                Stream(player(12), daily, 12),
                Stream(player(13), "/deal/13/", 13),
                Stream(player(14), "/deal/14/", 14),
            ]
            for stream in streams:
                stream.start()
            # Every player under way (a loaded machine may take a while), then some more moves.
            deadline = time.monotonic() + 120
            while not all(s.games and s.games[0].changes for s in streams):
                assert all(s.failure is None for s in streams), [s.failure for s in streams]
                assert time.monotonic() < deadline, "the players made no move"
                time.sleep(0.1)
            time.sleep(STREAM_SECONDS)

            began = time.monotonic()
            written = backup(source, tmp_path / "lucie.backup")
            ended = time.monotonic()

            time.sleep(STREAM_SECONDS)
            for stream in streams:
                stream.stop.set()
            for stream in streams:
                stream.join(timeout=60)
                assert stream.failure is None, repr(stream.failure)
                assert not stream.is_alive()

        tracked = [game for stream in streams for game in stream.games]
        # The backup fell in the middle of the stream: moves were answered on both sides of it.
        assert any(game.answered_before(began) > 0 for game in tracked)
        assert any(sent > ended for game in tracked for sent, _, _ in game.changes)

        with scratch_database(tmp_path / "restored") as restored:
            if is_postgres(restored):
                done = pg_restore(written.path, restored)
            else:
                (tmp_path / "restored").mkdir()
                done = manage(restored, "restore", str(written.path))
            assert done.returncode == 0, done.stderr
            check_restored(source, restored, written.games, written.sessions)
            check_moment(source, restored, tracked, began, ended)
            check_tally_and_review(source, restored, lost_id)


def check_restored(source: str, restored: str, games: int, sessions: int) -> None:
    assert unreplayable_games(restored) == []
    assert count(restored, "game_game") == games
    assert count(restored, "django_session") == sessions
    missing = rows(
        restored,
        "SELECT DISTINCT g.session_key FROM game_game g LEFT JOIN django_session s "
        "ON s.session_key = g.session_key WHERE g.session_key <> '' AND s.session_key IS NULL",
    )
    assert missing == []
    # The site runs on it as it is.
    plan = manage(restored, "migrate", "--plan")
    assert "No planned migration operations." in plan.stdout, plan.stderr


def check_moment(
    source: str, restored: str, tracked: list[Tracked], began: float, ended: float
) -> None:
    kept = {row["id"]: row for row in rows(restored, "SELECT id, moves FROM game_game")}
    later = {row["id"]: row for row in rows(source, "SELECT id, moves FROM game_game")}
    for game in tracked:
        if game.created_at > ended:
            continue  # begun after the backup: it may or may not be there, and is checked above
        if game.answered_before(began) > 0:
            assert game.game_id in kept, f"game {game.game_id} was played before the backup"
        if game.game_id not in kept:
            assert game.answered_before(began) == 0
            continue
        logged = kept[game.game_id]["moves"].split()
        assert game.answered_before(began) <= len(logged) <= game.sent_before(ended), (
            game.game_id,
            len(logged),
            game.changes,
        )
        assert later[game.game_id]["moves"].split()[: len(logged)] == logged


def check_tally_and_review(source: str, restored: str, lost_id: int) -> None:
    # The day's tally is the count of its games, in the same copy (a torn copy would disagree).
    entries = rows(
        restored,
        "SELECT deal_number, count(*) AS players FROM game_game WHERE daily_entry "
        f"AND started_at IS NOT NULL AND rules = '{deals.DAILY_RULES}' GROUP BY deal_number",
    )
    tally = rows(restored, "SELECT deal_number, players FROM game_dailytally")
    assert sorted((r["deal_number"], r["players"]) for r in tally) == sorted(
        (r["deal_number"], r["players"]) for r in entries
    )
    # Today's: both daily players had begun before the backup.
    assert any(r["players"] == 2 for r in tally), tally
    query = f"SELECT game_id, moves, state, found FROM game_gamereview WHERE game_id = {lost_id}"
    review = rows(restored, query)
    assert len(review) == 1
    assert review == rows(source, query)
    query = f"SELECT * FROM game_game WHERE id = {lost_id}"
    assert rows(restored, query) == rows(source, query)
