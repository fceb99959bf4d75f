"""Moves and their text form.

6C>F     the Six of Clubs to its foundation
6C>7C    the Six of Clubs onto the Seven of Clubs, the top card of another fan
KS>@4    the King of Spades into empty fan 4 (fans count from 0; only with Kings-fill)
*6C>7C   a merci: the buried Six of Clubs drawn out and played onto the Seven of Clubs
R        a redeal
"""

from __future__ import annotations

from dataclasses import dataclass

from .cards import RANKS, SUITS, Card, InvalidCardError

MAX_FAN_DIGITS = 4

QUOTED_CHARACTERS = 20
"""How much of a text that is not a move an error message quotes: any real move is shorter
(`*10H>@17` is 8), and a page that echoed a 2 MB post whole would be 2 MB."""


def quoted(text: str) -> str:
    """`text` as an error message quotes it, cut to a readable length.

    >>> quoted("6C>ZZ")
    "'6C>ZZ'"
    >>> quoted("Q" * 5000)
    "'QQQQQQQQQQQQQQQQQQQQ…'"
    """
    if len(text) <= QUOTED_CHARACTERS:
        return repr(text)
    return repr(text[:QUOTED_CHARACTERS])[:-1] + "…'"


Param = Card | int | str
"""A value a refusal names: a card, a fan (counted from 0, as the engine counts), a count or a
quoted text."""


class MoveError(ValueError):
    """A refused move. `str(error)` is the English sentence; `code` names the refusal and
    `params` its values, for a front end that words it in another language
    (game/board/messages.py). An error raised without a code is worded from its text alone.

    >>> error = MoveError("the Six of Clubs is already on its foundation", "already_home",
    ...                   card=Card.parse("6C"))
    >>> str(error), error.code, error.params
    ('the Six of Clubs is already on its foundation', 'already_home', {'card': Card.parse('6C')})
    """

    def __init__(self, message: str, code: str = "", **params: Param) -> None:
        super().__init__(message)
        self.code = code
        self.params = params


class InvalidMoveError(MoveError):
    """Text or a value that does not describe a move at all."""


class IllegalMoveError(MoveError):
    """A well-formed move that the rules do not allow in this position."""


@dataclass(frozen=True, slots=True)
class Move:
    """One move. A redeal has no card; a move with neither `onto` nor `empty_fan` goes home."""

    card: Card | None = None
    onto: Card | None = None
    empty_fan: int | None = None
    merci: bool = False

    def __post_init__(self) -> None:
        if self.card is None and (
            self.onto is not None or self.empty_fan is not None or self.merci
        ):
            raise InvalidMoveError("a redeal moves no card")
        if self.onto is not None and self.empty_fan is not None:
            raise InvalidMoveError("a card goes onto a card or into an empty fan, not both")
        if self.empty_fan is not None and self.empty_fan < 0:
            raise InvalidMoveError("fan numbers start at 0")

    @classmethod
    def home(cls, card: Card, merci: bool = False) -> Move:
        return cls(card, merci=merci)

    @classmethod
    def build(cls, card: Card, onto: Card, merci: bool = False) -> Move:
        return cls(card, onto=onto, merci=merci)

    @classmethod
    def to_empty(cls, card: Card, fan: int, merci: bool = False) -> Move:
        return cls(card, empty_fan=fan, merci=merci)

    @classmethod
    def redeal(cls) -> Move:
        return REDEAL

    @classmethod
    def parse(cls, text: str) -> Move:
        """Read the text form, for example `Move.parse("6C>7C")`.

        >>> Move.parse("6C>7C").text
        '6C>7C'
        >>> Move.parse("R") == REDEAL
        True
        """
        if not isinstance(text, str):
            raise InvalidMoveError(
                f"{quoted(str(text))} is not a move", "not_a_move", text=quoted(str(text))
            )
        body = text.strip().upper()
        if body == "R":
            return REDEAL
        merci = body.startswith("*")
        source, arrow, target = body.removeprefix("*").partition(">")
        if not arrow or not source or not target:
            raise InvalidMoveError(
                f"{quoted(text)} is not a move: write it like 6C>7C, 6C>F, *6C>F or R",
                "not_a_move_form",
                text=quoted(text),
            )
        try:
            card = Card.parse(source)
            if target == "F":
                return cls.home(card, merci)
            fan = target[1:]
            if target.startswith("@") and fan.isascii() and fan.isdigit():
                # No layout has thousands of fans: a longer number is text, not a fan (and int()
                # refuses more than 4,300 digits).
                if len(fan) > MAX_FAN_DIGITS:
                    raise InvalidMoveError(
                        f"{quoted(text)} is not a move: no layout has that many fans",
                        "too_many_fans",
                        text=quoted(text),
                    )
                return cls.to_empty(card, int(fan), merci)
            return cls.build(card, Card.parse(target), merci)
        except InvalidCardError:
            # The card's own error would quote (a part of) the text a second time.
            raise InvalidMoveError(
                f"{quoted(text)} is not a move: write a card like 6C, a rank from {RANKS} and a"
                f" suit from {SUITS}",
                "not_a_card",
                text=quoted(text),
                ranks=RANKS,
                suits=SUITS,
            ) from None

    @property
    def is_redeal(self) -> bool:
        return self.card is None

    @property
    def to_foundation(self) -> bool:
        return self.card is not None and self.onto is None and self.empty_fan is None

    @property
    def text(self) -> str:
        if self.card is None:
            return "R"
        if self.onto is not None:
            target = self.onto.code
        elif self.empty_fan is not None:
            target = f"@{self.empty_fan}"
        else:
            target = "F"
        return ("*" if self.merci else "") + f"{self.card.code}>{target}"

    def describe(self) -> str:
        """A sentence a player can read: "Six of Clubs onto the Seven of Clubs"."""
        if self.card is None:
            return "Redeal"
        prefix = "Merci: " if self.merci else ""
        if self.onto is not None:
            return f"{prefix}{self.card.name} onto the {self.onto.name}"
        if self.empty_fan is not None:
            return f"{prefix}{self.card.name} into the empty fan"
        return f"{prefix}{self.card.name} to its foundation"

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Move.parse({self.text!r})"


REDEAL = Move()
