"""How hard a deal's layout is: how often a strong fair player wins it over hidden shuffles.

The first layout is the deal's own; the redeals are shuffled from sample seeds instead of the
deal's real one (which a player cannot see), so each sample is a game the layout could have
been. The player is the fair hint with no deadline (deterministic: the same deal always gets the
same figure), which never looks through a redeal and plays the last deal perfectly.

>>> sample_seed(20261201, 0) != sample_seed(20261201, 1)
True
>>> rating(7, 10), rating(4, 10), rating(1, 10)
('Easy', 'Medium', 'Hard')
"""

from __future__ import annotations

import hashlib

from .hint import hint
from .play import Play
from .rules import DEFAULT_RULES, Rules

SAMPLES = 100
"""Shuffles played out per deal. A game takes the hint about 0.05 s of CPU on average here (2 s for
40 games of 20261201), so a deal costs about 5 s; the share's standard error is at most 0.05."""

MAX_REDEALS = 10  # only reachable with unlimited redeals

EASY = 0.6
"""At or above this share of wins a layout is Easy; below HARD it is Hard."""
HARD = 0.3


def sample_seed(deal_number: int, index: int, rules: Rules = DEFAULT_RULES) -> int:
    """The `index`-th hidden shuffle seed for the deal: never the deal's real seed (a hash of
    a text that names it as a sample, 64 bits)."""
    text = f"lucie difficulty v1 {rules.name} {deal_number} {index}".encode()
    return int.from_bytes(hashlib.sha256(text).digest()[:8], "big")


def fair_win(deal_number: int, index: int, rules: Rules = DEFAULT_RULES) -> bool:
    """Whether the fair hint, following its own advice, wins sample `index` of the deal."""
    game = Play(deal_number, rules, shuffle_seed=sample_seed(deal_number, index, rules))
    redeals = 0
    while (found := hint(game.position, time_limit=None)) is not None:
        redeals += found.move.is_redeal
        if redeals > MAX_REDEALS:
            break
        game.play(found.move)
    return game.position.cards_home == 52


def rating(wins: int, played: int) -> str:
    """Easy, Medium or Hard for `wins` of `played`."""
    share = wins / played if played else 0.0
    if share >= EASY:
        return "Easy"
    return "Hard" if share < HARD else "Medium"


def in_ten(wins: int, played: int) -> int:
    """The share of wins as "N times in 10", rounded."""
    return round(10 * wins / played) if played else 0
