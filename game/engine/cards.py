"""Playing cards: one value object per card, with a two-letter code and a spoken name."""

from __future__ import annotations

from dataclasses import dataclass, field

RANKS = "A23456789TJQK"
SUITS = "CDHS"
RANK_NAMES = (
    "Ace", "Two", "Three", "Four", "Five", "Six", "Seven",
    "Eight", "Nine", "Ten", "Jack", "Queen", "King",
)  # fmt: skip
SUIT_NAMES = {"C": "Clubs", "D": "Diamonds", "H": "Hearts", "S": "Spades"}
SUIT_SYMBOLS = {"C": "\u2663", "D": "\u2666", "H": "\u2665", "S": "\u2660"}
KING = 13


class InvalidCardError(ValueError):
    """A card code that names no card."""


@dataclass(frozen=True, slots=True, eq=False)
class Card:
    """One card. Cards sort in the canonical order: clubs, diamonds, hearts, spades, Ace to King.

    `index` (0-51) is that order: suit position * 13 + rank - 1. Equality, hashing and order use
    the index alone: the engine compares cards in its inner loops, and that keeps it cheap.
    """

    index: int = field(init=False, repr=False)
    rank: int
    suit: str
    # "6C": rank letter then suit letter, made once (the board reads it hundreds of times a move).
    code: str = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not 1 <= self.rank <= 13 or self.suit not in SUIT_NAMES:
            raise InvalidCardError(f"no card has rank {self.rank!r} and suit {self.suit!r}")
        object.__setattr__(self, "index", SUITS.index(self.suit) * 13 + self.rank - 1)
        object.__setattr__(self, "code", RANKS[self.rank - 1] + self.suit)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is Card:
            return bool(self.index == other.index)
        return NotImplemented

    def __hash__(self) -> int:
        return self.index

    def __lt__(self, other: Card) -> bool:
        return self.index < other.index

    def __le__(self, other: Card) -> bool:
        return self.index <= other.index

    def __gt__(self, other: Card) -> bool:
        return self.index > other.index

    def __ge__(self, other: Card) -> bool:
        return self.index >= other.index

    @classmethod
    def parse(cls, code: str) -> Card:
        """`Card.parse("6C")`: rank letter then suit letter, case-insensitive.

        >>> Card.parse("6c").name
        'Six of Clubs'
        >>> Card.parse("TH").code
        'TH'
        """
        card = _BY_CODE.get(code.strip().upper()) if isinstance(code, str) else None
        if card is None:
            raise InvalidCardError(
                f"{code!r} is not a card code: "
                f"use a rank from {RANKS} and a suit from {SUITS}, like 6C"
            )
        return card

    @property
    def name(self) -> str:
        """The spoken name, for screen readers: "Six of Clubs"."""
        return f"{RANK_NAMES[self.rank - 1]} of {SUIT_NAMES[self.suit]}"

    @property
    def suit_index(self) -> int:
        return self.index // 13

    @property
    def is_red(self) -> bool:
        return self.suit in "DH"

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"Card.parse({self.code!r})"


DECK: tuple[Card, ...] = tuple(Card(rank, suit) for suit in SUITS for rank in range(1, 14))
"""All 52 cards in canonical order: DECK[card.index] is card."""

_BY_CODE = {card.code: card for card in DECK}
