"""Numbered deals: our own pseudo-random generator and Fisher-Yates shuffle.

Everything here is specified exactly in docs/deals.md, so that another program can reproduce
every layout; tests/data/deals.json pins the results. Never change it without a new version.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from .cards import DECK, Card
from .rules import Layout

SHUFFLE_VERSION = 1
MIN_DEAL = 1
MAX_DEAL = 2**63 - 1

_MASK = 2**64 - 1
_GAMMA = 0x9E3779B97F4A7C15
_REDEAL_STEP = 0xD1B54A32D192ED03

Fans = tuple[tuple[Card, ...], ...]


class InvalidDealError(ValueError):
    """A deal number outside the range of deals, or not a whole number."""


def check_deal_number(number: object) -> int:
    """Return `number` if it names a deal, or raise InvalidDealError."""
    if isinstance(number, bool) or not isinstance(number, int):
        raise InvalidDealError(f"a deal number is a whole number, not {number!r}")
    if not MIN_DEAL <= number <= MAX_DEAL:
        # MAX_DEAL in full (19 digits) is no help to a player; its size in words is.
        raise InvalidDealError(f"deal numbers run from {MIN_DEAL} to about 9.2 billion billion")
    return number


def parse_deal_number(text: str) -> int:
    """Read a deal number typed by a person: digits only, optional surrounding spaces or '#'."""
    digits = text.strip().lstrip("#").strip() if isinstance(text, str) else ""
    if not digits.isascii() or not digits.isdigit() or len(digits) > 19:
        raise InvalidDealError(f"{text!r} is not a deal number: use digits only, like 20260726")
    return check_deal_number(int(digits))


class SplitMix64:
    """SplitMix64 (Steele, Lea and Flood, 2014): tiny, fast and fully specified."""

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        self.state = seed & _MASK

    def next(self) -> int:
        self.state = (self.state + _GAMMA) & _MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, bound: int) -> int:
        """A uniform whole number in [0, bound), by rejection so that no value is favoured."""
        limit = 2**64 - (2**64 % bound)
        while True:
            value = self.next()
            if value < limit:
                return value % bound


def stream_seed(seed: int, shuffle_index: int) -> int:
    """The generator's starting state for shuffle `shuffle_index` (0 = the first deal)."""
    return (seed + shuffle_index * _REDEAL_STEP) & _MASK


def shuffle(cards: Iterable[Card], seed: int, shuffle_index: int) -> list[Card]:
    """Sort `cards` canonically, then Fisher-Yates them from the top down."""
    order = sorted(cards)
    rng = SplitMix64(stream_seed(seed, shuffle_index))
    for i in range(len(order) - 1, 0, -1):
        j = rng.below(i + 1)
        order[i], order[j] = order[j], order[i]
    return order


def in_fans(cards: Sequence[Card], sizes: Sequence[int] = ()) -> Fans:
    """Lay cards out bottom-first: the given fan sizes first, then threes, then a short last fan."""
    fans: list[tuple[Card, ...]] = []
    start = 0
    for size in sizes:
        fans.append(tuple(cards[start : start + size]))
        start += size
    while start < len(cards):
        fans.append(tuple(cards[start : start + 3]))
        start += 3
    return tuple(fans)


def first_layout(number: int, layout: Layout) -> tuple[Fans, tuple[int, int, int, int]]:
    """The fans and the foundations (top rank per suit) that deal `number` starts from."""
    check_deal_number(number)
    if layout is Layout.TREFOIL:
        cards = shuffle((card for card in DECK if card.rank != 1), number, 0)
        return in_fans(cards), (1, 1, 1, 1)
    cards = shuffle(DECK, number, 0)
    sizes = [3] * 16 + [2, 2] if layout is Layout.SIXTEEN else []
    return in_fans(cards, sizes), (0, 0, 0, 0)


def redeal(cards: Iterable[Card], seed: int, redeal_index: int) -> Fans:
    """Redeal `redeal_index` (1, 2, ...) of the cards still in the fans, in fans of three."""
    return in_fans(shuffle(cards, seed, redeal_index))
