"""Game records: the rule set, the deal number and the moves, as one line of text.

    lucie 20260726 AS>F 6C>7C R *4H>F

Tokens are separated by any whitespace, so a record may be wrapped over several lines.
docs/notation.md describes the format in full.
"""

from __future__ import annotations

from dataclasses import dataclass

from .deal import InvalidDealError, parse_deal_number
from .moves import InvalidMoveError, Move
from .rules import InvalidRulesError, Rules

MAX_RECORD_MOVES = 5000


class InvalidRecordError(ValueError):
    """Text that is not a well-formed game record."""


@dataclass(frozen=True, slots=True)
class Record:
    rules: Rules
    deal_number: int
    moves: tuple[Move, ...] = ()

    @classmethod
    def parse(cls, text: str) -> Record:
        """Read a record; errors say which token is wrong (moves count from 1).

        >>> record = Record.parse("lucie 5 R")
        >>> (record.rules.name, record.deal_number, len(record.moves))
        ('lucie', 5, 1)
        """
        tokens = text.split() if isinstance(text, str) else []
        if len(tokens) < 2:
            raise InvalidRecordError(
                "a record starts with a rule set and a deal number, like: lucie 20260726"
            )
        if len(tokens) - 2 > MAX_RECORD_MOVES:
            raise InvalidRecordError(f"a record holds at most {MAX_RECORD_MOVES} moves")
        try:
            rules = Rules.parse(tokens[0])
        except InvalidRulesError as error:
            raise InvalidRecordError(f"rule set: {error}") from None
        try:
            number = parse_deal_number(tokens[1])
        except InvalidDealError as error:
            raise InvalidRecordError(f"deal number: {error}") from None
        moves = []
        for count, token in enumerate(tokens[2:], start=1):
            try:
                moves.append(Move.parse(token))
            except InvalidMoveError as error:
                raise InvalidRecordError(f"move {count}: {error}") from None
        return cls(rules, number, tuple(moves))

    @property
    def text(self) -> str:
        return " ".join(
            [self.rules.name, str(self.deal_number), *(move.text for move in self.moves)]
        )

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Record.parse({self.text!r})"
