"""How a game ends: an Outcome value, None while the game is on, from which every status a player
is shown is derived (won, or lost and why)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class Termination(Enum):
    """How a game ended, in the words a player is told."""

    ALL_HOME = "all 52 cards are home"
    NO_MOVE_LEFT = "no move, redeal or merci is left"


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a game ended (`Position.outcome()` is None while it is on). Every status shown to a
    player is derived from this: the stored game's (game.board.store.save), and the solver's
    verdict uses the same words ("won", "lost").

    >>> Outcome(Termination.ALL_HOME).won, Outcome(Termination.NO_MOVE_LEFT).name
    (True, 'lost')
    """

    termination: Termination

    @property
    def won(self) -> bool:
        return self.termination is Termination.ALL_HOME

    @property
    def name(self) -> str:
        """ "won" or "lost": the word a stored game's status and the solver's verdict use."""
        return "won" if self.won else "lost"

    @property
    def reason(self) -> str:
        return self.termination.value
