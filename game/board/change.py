"""One request's change to a stored game, as the actions (game/board/pipeline.py) make it and the
board (game/board/display.py) shows it.

A change holds the locked row, the engine game it is applied to, and the game as it was loaded:
the announcement says what was done since (`action`, from move `seen` on), and the board leaves
out of its answer the parts the browser already has as they were.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from game import engine
from game.models import Game


@dataclass(frozen=True, slots=True)
class Loaded:
    """What a board showed before the change: the position, the row's status and "assisted"
    mark, and whether redo was on offer."""

    position: engine.Position
    status: str
    assisted: bool
    redo: bool


@dataclass(slots=True)
class Change:
    """`game` (the engine game of `row`) changed by the action named `action`, which found it
    at move `seen`. `loaded`: how it stood before, when the request loaded it for a change."""

    row: Game
    game: engine.Game
    action: str = ""
    seen: int = 0
    loaded: Loaded | None = field(default=None)
    # The change stored the game: it was a deal's first board until now.
    created: bool = False

    @classmethod
    def of(cls, row: Game, action: str = "") -> Change:
        """A change about to be made to `row` (stored or a deal's first board)."""
        game = row.resume()
        loaded = Loaded(game.position, row.status, row.assisted, game.can_redo)
        return cls(row, game, action, len(game.moves), loaded)


def drawn(row: Game, change: Change | None) -> engine.Game:
    """The engine game a board of `row` is drawn from: the one `change` made, or else `row`'s
    own, resumed from its snapshot."""
    return change.game if change is not None else row.resume()
