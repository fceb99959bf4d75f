"""Players of today's deal over real HTTP (pytest-django's live server, in the test's process so
that time-machine moves its clock too): each from an address of its own (one player a network),
playing by the board's own POSTs, with the clock moved by hand between moves so that a game's
server-clock time is what the test says."""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING

from game import engine
from game.engine import solver
from tests.web.live_gunicorn import Player

if TYPE_CHECKING:
    import time_machine

RULES = engine.Rules.parse("lucie")
_GAME = re.compile(r'data-game="(\d+)"')
_COUNT = re.compile(r'<div id="board"[^>]*?data-moves="(\d+)"', re.S)


@cache
def winning_line(number: int) -> tuple[str, ...]:
    """A way to win the deal from its start, found by the solver (foresight of every shuffle)."""
    found = solver.solve(engine.Position.start(number, RULES), time_limit=60)
    assert found.won, found.status
    return tuple(move.text for move in found.moves)


@cache
def losing_line(number: int) -> tuple[str, ...]:
    """The greedy hint's game of the deal, which must lose it."""
    played = engine.Play(number, RULES)
    while (found := engine.greedy_hint(played.position)) is not None:
        played.play(found.move)
    outcome = played.outcome()
    assert outcome is not None, "the greedy hint's game does not end"
    assert not outcome.won, "the greedy hint wins this deal"
    return tuple(move.text for move in played.moves)


@dataclass
class DailyPlayer:
    """One browser playing today's deal from its own address."""

    port: int
    address: str
    deal: int
    clock: time_machine.Traveller
    language: str = ""
    game_id: int | None = None
    moves: int = 0
    http: Player = field(init=False)

    def __post_init__(self) -> None:
        self.http = Player(self.port, headers={"X-Forwarded-For": self.address})

    @property
    def prefix(self) -> str:
        return f"/{self.language}" if self.language else ""

    def page(self, path: str, language: str | None = None) -> str:
        prefix = self.prefix if language is None else (f"/{language}" if language else "")
        answer = self.http.get(prefix + path)
        assert answer.status == 200, (path, answer.status, answer.body[:300])
        return html.unescape(answer.body)

    def _read(self, body: str) -> None:
        game = _GAME.search(body)
        count = _COUNT.search(body)
        assert game is not None, body[:400]
        assert count is not None, body[:400]
        self.game_id, self.moves = int(game[1]), int(count[1])

    def change(self, action: str, move: str = "") -> str:
        if self.game_id is None:
            path = f"/deal/{self.deal}/{action}/?rules=lucie&daily=1"
        else:
            path = f"/game/{self.game_id}/{action}/"
        data: dict[str, object] = {"n": self.moves}
        if move:
            data["move"] = move
        answer = self.http.post(path, data)
        assert answer.status == 200, (action, move, answer.status, answer.body[:400])
        self._read(answer.body)
        return answer.body

    def play(self, moves: tuple[str, ...], seconds: float = 0) -> None:
        """The moves, each `seconds` after the last by the server's clock."""
        for text in moves:
            if seconds:
                self.clock.shift(seconds)
            if text == "R":
                self.change("redeal")
            else:
                self.change("move", text)

    def play_paced(self, moves: tuple[str, ...], gaps: tuple[float, ...]) -> None:
        """The moves, each the next of `gaps` (taken in turn) seconds after the last by the
        server's clock: a pace as uneven as a person's."""
        for index, text in enumerate(moves):
            self.clock.shift(gaps[index % len(gaps)])
            if text == "R":
                self.change("redeal")
            else:
                self.change("move", text)

    def undo(self, times: int) -> None:
        for _ in range(times):
            self.change("undo")

    def show_a_win(self) -> None:
        """ "Show a win", asked and confirmed: the game is helped from here on."""
        assert self.game_id is not None
        answer = self.http.post(f"/game/{self.game_id}/show-a-win/", {"n": self.moves})
        assert answer.status == 200, answer.body[:300]

    @property
    def session(self) -> str:
        return self.http.cookies["sessionid"]


def share_text(page: str) -> str:
    """The one share box's text on a page."""
    found = re.findall(r'<textarea id="share-text"[^>]*>(.*?)</textarea>', page, re.S)
    assert len(found) == 1, f"{len(found)} share texts"
    return found[0]


def rank_marks(page: str) -> list[tuple[str, str, str]]:
    """(place, of, percentile) of every ranked mark on a page, in order."""
    return re.findall(r'data-rank-place="(\d+)" data-rank-of="(\d+)" data-percentile="(\d+)"', page)


def month_cell(page: str, day: str) -> str:
    found = re.search(rf'<td class="day[^"]*"\s+data-day="{day}".*?</td>', page, re.S)
    assert found is not None, f"no cell for {day}"
    return found[0]


def text_of(fragment: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", fragment).split())
