"""A game: its rules, its deal number and its move log, with undo and redo without limit.

The position is the deal replayed through the log. The positions along the way are kept once
known, so that undo is immediate and a move costs the same at move 150 as at move 5. A game may
also start from a position the caller already holds (a snapshot, see `Play.resume`): the
positions before it are then replayed only when something needs them (undo, a replay).

Each logged move carries one more bit: whether the player chose it or the auto-move setting
played it after the player's move (`auto_flags`), so that one undo takes back the player's move
with the auto moves it caused. A record says what happened, not who chose it: the flags are not
part of it.
"""

from __future__ import annotations

import zlib
from collections.abc import Sequence

from .deal import check_deal_number
from .hint import auto_finish
from .moves import IllegalMoveError, Move
from .notation import Record
from .outcome import Outcome
from .position import InvalidPositionError, Position, legal_moves
from .rules import DEFAULT_RULES, Rules
from .transition import apply


class Play:
    """One play of a deal: a deal number, a rule set and a move log; the position is the log
    replayed, and undo is the log less its last move. (The database's row of a game is
    game.models.Game; this is the game the rules act on.)

    >>> game = Play(5)
    >>> first = game.position
    >>> after = game.play(Move.parse("R"))
    >>> game.undo() == first, game.can_redo
    (True, True)
    >>> game.redo() == after
    True
    """

    def __init__(
        self,
        deal_number: int,
        rules: Rules = DEFAULT_RULES,
        moves: Sequence[Move] = (),
        shuffle_seed: int | None = None,
        redo: Sequence[Move] = (),
        *,
        auto_flags: str = "",
        position: Position | None = None,
    ) -> None:
        """Replay `moves` (IllegalMoveError names the first that breaks the rules), unless the
        caller gives the `position` they lead to (one it has checked, as `resume` does).

        `redo`: the undone moves that redo would play again, next one first. `auto_flags`: one
        "1" or "0" per logged move, "1" where the auto-move setting played it.
        """
        check_deal_number(deal_number)
        self.rules = rules
        self.deal_number = deal_number
        self.shuffle_seed = deal_number if shuffle_seed is None else shuffle_seed
        self._legal: tuple[Position, list[Move]] | None = None
        self._moves: list[Move] = []
        self._auto: list[bool] = []
        self._redo: list[Move] = []
        if position is not None:
            self._moves = list(moves)
            # The positions from the start when known (after a replay), else the current alone.
            self._positions = [position]
        else:
            self._positions = [Position.start(deal_number, rules, shuffle_seed)]
            for count, move in enumerate(moves, start=1):
                try:
                    self.play(move)
                except IllegalMoveError as error:
                    raise IllegalMoveError(f"move {count} ({move.text}): {error}") from None
        flags = [flag == "1" for flag in auto_flags[: len(self._moves)]]
        self._auto = flags + [False] * (len(self._moves) - len(flags))
        self._redo = list(reversed(redo))

    @classmethod
    def from_record(cls, record: Record | str, shuffle_seed: int | None = None) -> Play:
        """Replay a record; an illegal move raises IllegalMoveError naming the move's number."""
        if isinstance(record, str):
            record = Record.parse(record)
        return cls(record.deal_number, record.rules, record.moves, shuffle_seed)

    @classmethod
    def resume(
        cls,
        deal_number: int,
        rules: Rules,
        moves: Sequence[Move],
        *,
        snapshot: str = "",
        redo: Sequence[Move] = (),
        auto_flags: str = "",
    ) -> Play:
        """A stored game: from its `snapshot` (see `Play.snapshot`) when that was written for
        this very log and deal, else by replaying `moves`.

        >>> played = Play(5, moves=[Move.parse("R")])
        >>> again = Play.resume(5, DEFAULT_RULES, played.moves, snapshot=played.snapshot)
        >>> again.position == played.position
        True
        >>> Play.resume(5, DEFAULT_RULES, played.moves, snapshot="junk").position == again.position
        True
        """
        position = snapshot_position(snapshot, moves, rules, deal_number)
        return cls(deal_number, rules, moves, redo=redo, auto_flags=auto_flags, position=position)

    # ------------------------------------------------------------ what the game is now

    @property
    def position(self) -> Position:
        return self._positions[-1]

    @property
    def start(self) -> Position:
        if len(self._positions) == len(self._moves) + 1:
            return self._positions[0]
        return Position.start(self.deal_number, self.rules, self.shuffle_seed)

    @property
    def moves(self) -> tuple[Move, ...]:
        return tuple(self._moves)

    @property
    def redo_moves(self) -> tuple[Move, ...]:
        """The undone moves that redo would play again, next one first."""
        return tuple(reversed(self._redo))

    @property
    def record(self) -> Record:
        return Record(self.rules, self.deal_number, tuple(self._moves))

    @property
    def can_undo(self) -> bool:
        return bool(self._moves)

    @property
    def can_redo(self) -> bool:
        return bool(self._redo)

    @property
    def auto(self) -> tuple[bool, ...]:
        """Per logged move, whether the auto-move setting played it."""
        return tuple(self._auto)

    @property
    def auto_flags(self) -> str:
        """`auto` as text, one "1" or "0" per move (how a stored game keeps it)."""
        return "".join("1" if flag else "0" for flag in self._auto)

    @property
    def snapshot(self) -> str:
        """The current position's text bound to the log it came from:
        `<crc32 of the move text, hex>;<Position.text>` (see `resume`)."""
        return snapshot_text(self.position, self._moves)

    def outcome(self) -> Outcome | None:
        """How the game ended, or None while it is on."""
        return self.position.outcome()

    def legal_moves(self) -> list[Move]:
        """The current position's legal moves, listed once however often they are asked for."""
        if self._legal is None or self._legal[0] is not self.position:
            self._legal = (self.position, legal_moves(self.position))
        return self._legal[1]

    def positions(self) -> tuple[Position, ...]:
        """Every position from the start to now, for replays."""
        self._complete_history()
        return tuple(self._positions)

    def positions_since(self, count: int) -> tuple[Position, ...]:
        """The positions from move `count` on: the log is replayed only when the game started
        from a position that left some of them out."""
        known_from = len(self._moves) + 1 - len(self._positions)
        if count < known_from:
            self._complete_history()
            known_from = 0
        return tuple(self._positions[count - known_from :])

    # ------------------------------------------------------------ changes

    def play(self, move: Move, *, auto: bool = False) -> Position:
        """Apply a move; a new move clears the redo list unless it is the move redo would play.
        `auto`: the auto-move setting played it, not the player."""
        position = apply(self.position, move)
        self._positions.append(position)
        self._moves.append(move)
        self._auto.append(auto)
        if self._redo and self._redo[-1] == move:
            self._redo.pop()
        else:
            self._redo.clear()
        return position

    def undo(self) -> Position:
        if not self._moves:
            raise IllegalMoveError("there is no move to undo")
        self._complete_history()
        self._redo.append(self._moves.pop())
        self._positions.pop()
        self._auto.pop()
        return self.position

    def redo(self) -> Position:
        if not self._redo:
            raise IllegalMoveError("there is no move to redo")
        move = self._redo[-1]
        position = apply(self.position, move)
        self._redo.pop()
        self._positions.append(position)
        self._moves.append(move)
        self._auto.append(False)
        return position

    def undo_turn(self) -> Position:
        """Undo the player's last move together with the auto moves that followed it."""
        while len(self._auto) > 1 and self._auto[-1]:
            self.undo()
        return self.undo()

    def auto_play(self) -> None:
        """Play every foundation move there is, each flagged as played by the setting."""
        for move in auto_finish(self.position):
            self.play(move, auto=True)

    def _complete_history(self) -> None:
        """Replay the log once for the positions a snapshot left out (undo needs the previous)."""
        if len(self._positions) == len(self._moves) + 1:
            return
        # Moves played since the snapshot was loaded are applied again on top of the replay.
        known = len(self._positions) - 1
        loaded = len(self._moves) - known
        replayed = Play(self.deal_number, self.rules, self._moves[:loaded], self.shuffle_seed)
        self._positions = [*replayed.positions()[:-1], *self._positions]


def log_checksum(moves: Sequence[Move]) -> str:
    """The checksum that binds a snapshot to its log: crc32 of the log's text, in hex."""
    text = " ".join(move.text for move in moves)
    return format(zlib.crc32(text.encode()), "08x")


def snapshot_text(position: Position, moves: Sequence[Move]) -> str:
    """`position`'s canonical text, bound to the log (`moves`) it came from by its checksum."""
    return f"{log_checksum(moves)};{position.text}"


def snapshot_position(
    text: str, moves: Sequence[Move], rules: Rules, deal_number: int
) -> Position | None:
    """The position a snapshot holds, or None when it is missing, malformed, or was written for
    another log than `moves` or another game (the caller then replays the log)."""
    checksum, _, position_text = text.partition(";")
    if checksum != log_checksum(moves):
        return None
    try:
        position = Position.parse(position_text)
    except InvalidPositionError:
        return None
    if (position.rules, position.deal_number, position.shuffle_seed) != (
        rules,
        deal_number,
        deal_number,
    ):
        return None
    return position
