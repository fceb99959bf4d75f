"""Positions: the fans, the foundations and what is left to use, their one text form, how a
game ends here, and the moves the rules allow.

A Position is an immutable value; `Position.text` and `Position.parse` round-trip it.
`legal_moves(position)` lists what may be played (what a move then does to the position is
`transition.apply`).
"""

from __future__ import annotations

from dataclasses import dataclass

from . import deal as deals
from .cards import DECK, KING, SUITS, Card
from .moves import REDEAL, Move
from .outcome import Outcome, Termination
from .rules import DEFAULT_RULES, Rules

Fans = tuple[tuple[Card, ...], ...]
Foundations = tuple[int, int, int, int]


class InvalidPositionError(ValueError):
    """Text that is not a position's canonical form (see Position.text)."""


@dataclass(frozen=True, slots=True)
class Position:
    """Fans bottom-to-top, foundations as the top rank per suit (0 for none), and counters.

    `shuffle_seed` drives the redeals; it is the deal number unless a test or benchmark
    chooses another to keep the real shuffles from a player.

    `text` is the position's one canonical form, which `Position.parse` reads back (as a chess
    board's FEN): the rule set, the deal number, redeals and mercis used, and the fans, bottom
    card first, with what is home left out (it follows from the fans). Under the `once` option,
    the cards moved from fan to fan in this deal follow (`moved=9C`): they may only go home.

    >>> start = Position.start(1)
    >>> start.text[:32]
    'lucie 1 0/0 7D9C4D,8H8D5S,JD6D9S'
    >>> Position.parse(start.text) == start
    True
    >>> Position.parse("lucie 7 2/1 KC,KDQD,,KS").foundations
    (12, 11, 13, 12)
    >>> Position.parse("lucie-free-once 7 2/1 KC,KDQD,,KS moved=QD").only_home(Card.parse("QD"))
    True
    """

    rules: Rules
    deal_number: int
    fans: Fans
    foundations: Foundations
    redeals_used: int = 0
    mercis_used: int = 0
    shuffle_seed: int = 0
    moved: frozenset[Card] = frozenset()  # under `once`: moved fan to fan in this deal

    @classmethod
    def start(
        cls, deal_number: int, rules: Rules = DEFAULT_RULES, shuffle_seed: int | None = None
    ) -> Position:
        """The first deal of `deal_number` under `rules`."""
        fans, foundations = deals.first_layout(deal_number, rules.layout)
        seed = deal_number if shuffle_seed is None else shuffle_seed
        return cls(rules, deal_number, fans, foundations, shuffle_seed=seed)

    @property
    def cards_home(self) -> int:
        return sum(self.foundations)

    @property
    def tops(self) -> tuple[Card | None, ...]:
        return tuple(fan[-1] if fan else None for fan in self.fans)

    @property
    def redeals_left(self) -> int | None:
        """Redeals still allowed; None when they are unlimited."""
        if self.rules.redeals is None:
            return None
        return self.rules.redeals - self.redeals_used

    @property
    def is_last_deal(self) -> bool:
        return self.redeals_left == 0

    @property
    def mercis_left(self) -> int:
        return self.rules.mercis - self.mercis_used

    @property
    def can_redeal(self) -> bool:
        left = self.redeals_left
        return (left is None or left > 0) and self.cards_home < 52

    @property
    def merci_due(self) -> bool:
        """Whether the merci's time has come: the last deal, one left, and a buried card to take
        (under `stuck` it may still wait for the other moves to run out: see `merci_open`)."""
        return self.is_last_deal and self.mercis_left > 0 and any(len(fan) > 1 for fan in self.fans)

    @property
    def merci_open(self) -> bool:
        """Whether a merci may be taken now: its time has come, and under `stuck` no other move
        is left."""
        return self.merci_due and not (self.rules.stuck and _plays(self))

    @property
    def merci_waits(self) -> bool:
        """Whether the merci is held back by the `stuck` rule alone: a card can still move.

        >>> start = Position.start(1, Rules.parse("lucie-r0-stuck"))
        >>> start.merci_waits, start.merci_open
        (True, False)
        """
        return self.merci_due and self.rules.stuck and bool(_plays(self))

    def only_home(self, card: Card) -> bool:
        """Whether `card` may go nowhere but to its foundation (under `once`, once it has moved
        from one fan to another in this deal)."""
        return card in self.moved

    def is_home_next(self, card: Card) -> bool:
        return self.foundations[card.suit_index] == card.rank - 1

    def find(self, card: Card) -> tuple[int, int] | None:
        """(fan, depth from the bottom) of a card in the fans, or None if it is home."""
        for fan_index, fan in enumerate(self.fans):
            if card in fan:
                return fan_index, fan.index(card)
        return None

    def outcome(self) -> Outcome | None:
        """How the game ended here, or None while a move, a redeal or the merci is left."""
        if self.cards_home == 52:
            return Outcome(Termination.ALL_HOME)
        if self.can_redeal or any(True for _ in legal_moves(self)):
            return None
        return Outcome(Termination.NO_MOVE_LEFT)

    @property
    def text(self) -> str:
        """The canonical form: `lucie 20260726 0/0 9DQH8H,...` (see the class's doc). A shuffle
        seed other than the deal number is written after it (`seed=7`)."""
        fans = ",".join("".join(card.code for card in fan) for fan in self.fans)
        seed = "" if self.shuffle_seed == self.deal_number else f" seed={self.shuffle_seed}"
        used = f"{self.redeals_used}/{self.mercis_used}"
        moved = " moved=" + "".join(card.code for card in sorted(self.moved)) if self.moved else ""
        return f"{self.rules.name} {self.deal_number}{seed} {used} {fans}{moved}"

    @classmethod
    def parse(cls, text: str) -> Position:
        """The position whose `text` is `text`; InvalidPositionError when it is not one."""
        parts = text.split(" ") if isinstance(text, str) else []
        seed_part = [part for part in parts[2:3] if part.startswith("seed=")]
        if seed_part:
            parts.pop(2)
        moved_text = parts.pop()[6:] if len(parts) == 5 and parts[4].startswith("moved=") else ""
        if len(parts) != 4:
            raise InvalidPositionError(
                "a position reads `rules deal redeals/mercis fans`, like `lucie 7 0/0 9DQH8H,...`"
            )
        name, number, used, fan_text = parts
        try:
            rules = Rules.parse(name)
            deal_number = int(number)
            seed = int(seed_part[0].removeprefix("seed=")) if seed_part else deal_number
            redeals, mercis = (int(part) for part in used.split("/"))
            fans = tuple(
                tuple(Card.parse(fan[i : i + 2]) for i in range(0, len(fan), 2))
                for fan in fan_text.split(",")
            )
            moved = frozenset(
                Card.parse(moved_text[i : i + 2]) for i in range(0, len(moved_text), 2)
            )
        except ValueError as error:
            raise InvalidPositionError(f"not a position: {error}") from None
        if redeals < 0 or mercis < 0:
            raise InvalidPositionError("not a position: counts are never negative")
        if moved and not rules.once:
            raise InvalidPositionError("not a position: only the `once` option keeps moved cards")
        if not moved <= {card for fan in fans for card in fan}:
            raise InvalidPositionError("not a position: a moved card is not in the fans")
        return cls(
            rules,
            deal_number,
            fans,
            _foundations_of(fans),
            redeals_used=redeals,
            mercis_used=mercis,
            shuffle_seed=seed,
            moved=moved,
        )

    def __str__(self) -> str:
        """A readable picture, one fan a line, for tests and debugging."""
        home = " ".join(f"{suit}{rank}" for suit, rank in zip(SUITS, self.foundations, strict=True))
        lines = [f"home {home}"]
        lines += [f"{i:2}: {' '.join(c.code for c in fan)}" for i, fan in enumerate(self.fans)]
        return "\n".join(lines)


def _foundations_of(fans: Fans) -> Foundations:
    """What is home, given the fans: every card not in a fan, each suit built from its Ace up
    without a gap (else InvalidPositionError)."""
    out = [card for fan in fans for card in fan]
    if len(set(out)) != len(out):
        raise InvalidPositionError("not a position: a card is in two places")
    missing = set(out)
    foundations = []
    for suit in range(4):
        ranks = [card.rank for card in DECK[suit * 13 : suit * 13 + 13] if card not in missing]
        if ranks != list(range(1, len(ranks) + 1)):
            raise InvalidPositionError(
                f"not a position: the {SUITS[suit]} foundation would have a gap"
            )
        foundations.append(len(ranks))
    return (foundations[0], foundations[1], foundations[2], foundations[3])


# ---------------------------------------------------------------- the moves the rules allow


def legal_moves(position: Position) -> list[Move]:
    """Every legal move: plays of top cards, then mercis, then the redeal.

    >>> [move.text for move in legal_moves(Position.start(1))][-3:]
    ['3D>4D', '9H>TH', 'R']
    """
    moves = _plays(position)
    if position.merci_due and not (position.rules.stuck and moves):
        moves += _mercis(position)
    if position.can_redeal:
        moves.append(REDEAL)
    return moves


def card_moves(position: Position) -> list[Move]:
    """The plays of top cards alone: no merci, no redeal.

    >>> REDEAL in card_moves(Position.start(1))
    False
    """
    return _plays(position)


def top_index(position: Position) -> dict[Card, int]:
    """The fan each top card lies on, by card."""
    return {fan[-1]: i for i, fan in enumerate(position.fans) if fan}


def _plays(position: Position) -> list[Move]:
    tops = top_index(position)
    empties = [i for i, fan in enumerate(position.fans) if not fan]
    kings_fill = position.rules.kings_fill_empty
    moved = position.moved
    moves: list[Move] = []
    for fan in position.fans:
        if not fan:
            continue
        card = fan[-1]
        if position.is_home_next(card):
            moves.append(Move.home(card))
        if card in moved:
            continue
        if card.rank < KING:
            above = DECK[card.index + 1]
            if above in tops:
                moves.append(Move.build(card, above))
        elif kings_fill and len(fan) > 1:
            moves += [Move.to_empty(card, i) for i in empties]
    return moves


def _mercis(position: Position) -> list[Move]:
    tops = top_index(position)
    empties = [i for i, fan in enumerate(position.fans) if not fan]
    moves: list[Move] = []
    for fan in position.fans:
        for card in fan[:-1]:
            if position.is_home_next(card):
                moves.append(Move.home(card, merci=True))
            if card in position.moved:
                continue
            if position.rules.free_merci:
                moves += [Move.build(card, top, merci=True) for top in tops]
            elif card.rank < KING and DECK[card.index + 1] in tops:
                moves.append(Move.build(card, DECK[card.index + 1], merci=True))
            if card.rank == KING and position.rules.kings_fill_empty:
                moves += [Move.to_empty(card, i, merci=True) for i in empties]
    return moves
