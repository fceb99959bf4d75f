"""A game: its rules, its deal number and its move list, with undo and redo without limit.

The position is the deal replayed through the moves; the positions along the way are kept so
that undo is immediate and a move costs the same at move 150 as at move 5.
"""

from __future__ import annotations

from .deal import check_deal_number
from .moves import IllegalMoveError, Move
from .notation import Record
from .position import Outcome, Position, apply
from .rules import DEFAULT_RULES, Rules


class Game:
    """A deal number, a rule set and a move log; the position is the log replayed, and undo is
    the log less its last move.

    >>> game = Game(5)
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
        moves: tuple[Move, ...] | list[Move] = (),
        shuffle_seed: int | None = None,
        redo: tuple[Move, ...] | list[Move] = (),
    ) -> None:
        check_deal_number(deal_number)
        self.rules = rules
        self.deal_number = deal_number
        self._positions = [Position.start(deal_number, rules, shuffle_seed)]
        self._moves: list[Move] = []
        self._redo: list[Move] = []
        for count, move in enumerate(moves, start=1):
            try:
                self.play(move)
            except IllegalMoveError as error:
                raise IllegalMoveError(f"move {count} ({move.text}): {error}") from None
        self._redo = list(reversed(redo))

    @classmethod
    def from_record(cls, record: Record | str, shuffle_seed: int | None = None) -> Game:
        """Replay a record; an illegal move raises IllegalMoveError naming the move's number."""
        if isinstance(record, str):
            record = Record.parse(record)
        return cls(record.deal_number, record.rules, record.moves, shuffle_seed)

    @property
    def position(self) -> Position:
        return self._positions[-1]

    @property
    def start(self) -> Position:
        return self._positions[0]

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

    def outcome(self) -> Outcome:
        return self.position.outcome()

    def play(self, move: Move) -> Position:
        """Apply a move; a new move clears the redo list unless it is the move redo would play."""
        position = apply(self.position, move)
        self._positions.append(position)
        self._moves.append(move)
        if self._redo and self._redo[-1] == move:
            self._redo.pop()
        else:
            self._redo.clear()
        return position

    def undo(self) -> Position:
        if not self._moves:
            raise IllegalMoveError("there is no move to undo")
        self._redo.append(self._moves.pop())
        self._positions.pop()
        return self.position

    def redo(self) -> Position:
        if not self._redo:
            raise IllegalMoveError("there is no move to redo")
        move = self._redo[-1]
        position = apply(self.position, move)
        self._redo.pop()
        self._positions.append(position)
        self._moves.append(move)
        return position

    def positions(self) -> tuple[Position, ...]:
        """Every position from the start to now, for replays."""
        return tuple(self._positions)
