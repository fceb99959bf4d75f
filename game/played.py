"""An engine game as the web layer plays it: the engine's Game, plus which logged moves the
auto-move setting played, so that undo takes those back with the move that caused them.

Auto moves are ordinary moves in the log and the record (a record says what happened, not who
chose it); the flags live beside the log in `Game.auto_flags`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from game import engine

if TYPE_CHECKING:
    from game.models import Game


class Played(engine.Game):
    def __init__(
        self,
        deal_number: int,
        rules: engine.Rules,
        moves: list[engine.Move],
        *,
        redo: list[engine.Move],
        auto_flags: str = "",
    ) -> None:
        self.auto: list[bool] = []
        # The locked row this game was loaded from, while game.play.changing_game changes it.
        self.row: Game | None = None
        super().__init__(deal_number, rules, moves, redo=redo)
        flags = [flag == "1" for flag in auto_flags[: len(moves)]]
        self.auto = flags + [False] * (len(moves) - len(flags))
        # What the request did to the game, for the sentence that announces it (game/announce.py):
        # the move count it was loaded with, and the action's name once a view applies one.
        self.seen = len(moves)
        self.action = ""

    @property
    def auto_flags(self) -> str:
        return "".join("1" if flag else "0" for flag in self.auto)

    def play(self, move: engine.Move, *, auto: bool = False) -> engine.Position:
        position = super().play(move)
        self.auto.append(auto)
        return position

    def undo(self) -> engine.Position:
        position = super().undo()
        self.auto.pop()
        return position

    def redo(self) -> engine.Position:
        position = super().redo()
        self.auto.append(False)
        return position

    def undo_turn(self) -> engine.Position:
        """Undo the player's last move together with the auto moves that followed it."""
        while len(self.auto) > 1 and self.auto[-1]:
            self.undo()
        return self.undo()

    def auto_play(self) -> None:
        """Play every foundation move there is, each flagged as played by the setting."""
        for move in engine.auto_finish(self.position):
            self.play(move, auto=True)
