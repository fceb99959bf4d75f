"""An engine game as the web layer plays it: the log, the redo list, the current position, and
which logged moves the auto-move setting played (undo takes those back with the move that caused
them).

A game is loaded either by replaying its log through the engine, or from the snapshot of its
current position kept on its row (see `snapshot_text`), so that a move does not replay the whole
log. The log stays the truth: a snapshot is only taken when it names the very log it was written
with (a checksum of the move text), and otherwise the log is replayed. Undo needs the position
before the last move, which a snapshot does not hold: the first undo of a request rebuilds the
positions by replaying the log, once.

Auto moves are ordinary moves in the log and the record (a record says what happened, not who
chose it); the flags live beside the log in `Game.auto_flags`.
"""

from __future__ import annotations

import functools
import zlib
from typing import TYPE_CHECKING

from game import engine

if TYPE_CHECKING:
    from game.models import Game

# snapshot text: "<crc32 of the move text, hex>;<the position's canonical text>" (see
# engine.Position.text: "lucie 20260726 0/0 9DQH8H,4CJS3H,...").


class Played:
    def __init__(
        self,
        deal_number: int,
        rules: engine.Rules,
        moves: list[engine.Move],
        *,
        redo: list[engine.Move],
        auto_flags: str = "",
        position: engine.Position | None = None,
    ) -> None:
        """Replay `moves` (IllegalMoveError names the first that breaks the rules), unless the
        caller gives the `position` they lead to (a snapshot it has checked)."""
        self.deal_number = deal_number
        self.rules = rules
        # The locked row this game was loaded from, while game.board.store.changing_game changes it.
        self.row: Game | None = None
        self._moves = list(moves)
        self._redo = list(reversed(redo))
        # Every position from the start when known (after a replay), else the current one alone.
        if position is None:
            self._positions = list(engine.Game(deal_number, rules, moves).positions())
        else:
            self._positions = [position]
        flags = [flag == "1" for flag in auto_flags[: len(moves)]]
        self.auto: list[bool] = flags + [False] * (len(moves) - len(flags))
        # What the request did to the game, for the sentence that announces it
        # (game/board/announce.py):
        # the move count it was loaded with, and the action's name once a view applies one.
        self.seen = len(moves)
        self.action = ""
        # The game as it was loaded, for the board to tell which of its parts a change left as
        # they were: the position, and the row's status and "assisted" mark (set by the loader).
        self.loaded_position: engine.Position | None = self.position
        self.loaded_state: tuple[str, bool] | None = None
        self.loaded_redo = bool(redo)
        self._legal: tuple[engine.Position, list[engine.Move]] | None = None

    @classmethod
    def from_row(cls, game: Game) -> Played:
        """The row's game: from its snapshot when that matches its log, else by replay."""
        rules = game.engine_rules
        moves = parse_moves(game.moves)
        position = snapshot_position(game.snapshot, game.moves, rules, game.deal_number)
        return cls(
            game.deal_number,
            rules,
            moves,
            redo=parse_moves(game.redo),
            auto_flags=game.auto_flags,
            position=position,
        )

    # ------------------------------------------------------------ what the game is now

    @property
    def position(self) -> engine.Position:
        return self._positions[-1]

    @property
    def moves(self) -> tuple[engine.Move, ...]:
        return tuple(self._moves)

    @property
    def redo_moves(self) -> tuple[engine.Move, ...]:
        """The undone moves that redo would play again, next one first."""
        return tuple(reversed(self._redo))

    @property
    def record(self) -> engine.Record:
        return engine.Record(self.rules, self.deal_number, tuple(self._moves))

    @property
    def can_undo(self) -> bool:
        return bool(self._moves)

    @property
    def can_redo(self) -> bool:
        return bool(self._redo)

    @property
    def auto_flags(self) -> str:
        return "".join("1" if flag else "0" for flag in self.auto)

    def legal_moves(self) -> list[engine.Move]:
        """The current position's legal moves, listed once however often they are asked for."""
        if self._legal is None or self._legal[0] is not self.position:
            self._legal = (self.position, engine.legal_moves(self.position))
        return self._legal[1]

    def positions(self) -> tuple[engine.Position, ...]:
        """Every position from the start to now, for replays."""
        self._complete_history()
        return tuple(self._positions)

    def positions_since(self, count: int) -> tuple[engine.Position, ...]:
        """The positions from move `count` on: the log is replayed only when a snapshot left
        some of them out."""
        known_from = len(self._moves) + 1 - len(self._positions)
        if count < known_from:
            self._complete_history()
            known_from = 0
        return tuple(self._positions[count - known_from :])

    def snapshot(self) -> str:
        return snapshot_text(self.position, " ".join(move.text for move in self._moves))

    # ------------------------------------------------------------ changes

    def play(self, move: engine.Move, *, auto: bool = False) -> engine.Position:
        """Apply a move; a new move clears the redo list unless it is the move redo would play."""
        position = engine.apply(self.position, move)
        self._positions.append(position)
        self._moves.append(move)
        self.auto.append(auto)
        if self._redo and self._redo[-1] == move:
            self._redo.pop()
        else:
            self._redo.clear()
        return position

    def undo(self) -> engine.Position:
        if not self._moves:
            raise engine.IllegalMoveError("there is no move to undo")
        self._complete_history()
        self._redo.append(self._moves.pop())
        self._positions.pop()
        self.auto.pop()
        return self.position

    def redo(self) -> engine.Position:
        if not self._redo:
            raise engine.IllegalMoveError("there is no move to redo")
        move = self._redo[-1]
        position = engine.apply(self.position, move)
        self._redo.pop()
        self._positions.append(position)
        self._moves.append(move)
        self.auto.append(False)
        return position

    def undo_turn(self) -> engine.Position:
        """Undo the player's last move together with the auto moves that followed it."""
        while len(self.auto) > 1 and self.auto[-1]:
            self.undo()
        return self.undo()

    def auto_play(self) -> None:
        """Play every foundation move there is, each flagged as played by the setting."""
        for move in engine.auto_finish(self.position):
            self.play(move, auto=True)

    def _complete_history(self) -> None:
        """Replay the log once for the positions a snapshot left out (undo needs the previous)."""
        if len(self._positions) == len(self._moves) + 1:
            return
        # Moves played since the snapshot was loaded are applied again on top of the replay.
        known = len(self._positions) - 1
        loaded = len(self._moves) - known
        replayed = engine.Game(self.deal_number, self.rules, self._moves[:loaded]).positions()
        self._positions = [*replayed[:-1], *self._positions]


def parse_moves(text: str) -> list[engine.Move]:
    """A stored log's moves. Each request loads its game's whole log, so a move's text is read
    once per process (engine.Move is an immutable value; the texts of moves are few)."""
    return [_stored_move(token) for token in text.split()]


@functools.lru_cache(maxsize=8192)
def _stored_move(token: str) -> engine.Move:
    return engine.Move.parse(token)


def log_checksum(moves_text: str) -> str:
    return format(zlib.crc32(moves_text.encode()), "08x")


def snapshot_text(position: engine.Position, moves_text: str) -> str:
    """The position's canonical text (engine.Position.text), bound to the log (`moves_text`) it
    came from by the log's checksum."""
    return f"{log_checksum(moves_text)};{position.text}"


def snapshot_position(
    text: str, moves_text: str, rules: engine.Rules, deal_number: int
) -> engine.Position | None:
    """The position a snapshot holds, or None when it is missing, malformed, or was written for
    another log than `moves_text` or another game (the caller then replays the log)."""
    checksum, _, position_text = text.partition(";")
    if checksum != log_checksum(moves_text):
        return None
    try:
        position = engine.Position.parse(position_text)
    except engine.InvalidPositionError:
        return None
    if (position.rules, position.deal_number, position.shuffle_seed) != (
        rules,
        deal_number,
        deal_number,
    ):
        return None
    return position
