"""A set of foundations packed into one int, four bits a suit (spades in the top four): the
form in which a search lists what a deal can end with, and which of those ends are worth keeping.

>>> packed = pack_foundations((13, 2, 0, 5))
>>> unpack_foundations(packed), cards_home(packed)
((13, 2, 0, 5), 20)
"""

from __future__ import annotations


def pack_foundations(foundations: tuple[int, ...] | list[int]) -> int:
    return foundations[0] | foundations[1] << 4 | foundations[2] << 8 | foundations[3] << 12


def unpack_foundations(packed: int) -> tuple[int, int, int, int]:
    return packed & 15, packed >> 4 & 15, packed >> 8 & 15, packed >> 12 & 15


def cards_home(packed: int) -> int:
    return (packed & 15) + (packed >> 4 & 15) + (packed >> 8 & 15) + (packed >> 12 & 15)


def pareto(keys: list[int]) -> list[int]:
    """The foundation sets that no other set in `keys` is at least as good as in every suit.

    Most cards home first: a set can only be beaten by one with at least as many, and whatever
    beats it is beaten by (or is) a member of the front, so checking the front is enough.

    >>> ends = [pack_foundations(end) for end in [(1, 1, 0, 0), (2, 1, 0, 0), (0, 0, 3, 0)]]
    >>> [unpack_foundations(key) for key in pareto(ends)]
    [(2, 1, 0, 0), (0, 0, 3, 0)]
    """
    front: list[tuple[int, tuple[int, int, int, int]]] = []
    for key in sorted(set(keys), key=lambda key: (-cards_home(key), key)):
        mine = unpack_foundations(key)
        if not any(all(t >= m for t, m in zip(theirs, mine, strict=True)) for _, theirs in front):
            front.append((key, mine))
    return [key for key, _ in front]
