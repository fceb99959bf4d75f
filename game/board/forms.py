"""What a board's change request carries, read and checked in one place, so that the actions
(game/board/actions.py) are given values and never a request.

A board's forms post `n` (the move count of the board the request was made on), and as they
apply `move` (a move's text, game.engine.notation) and `auto` (the browser's auto-move setting,
"1" or "0"; board.js adds it). board.js also sends `v`, the key of the board it holds
(game.board.display.board_key), so the answer may leave out what the browser has already.

These four fields were a Django form, whose every instance deep-copies its fields and runs
their cleaning: some 4% of a move's CPU on the hot path, for four fields whose rules fit in
four lines. `read` applies the same rules (surrounding spaces stripped, as a form field does);
any other form of the site is a Django form.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from django.http import QueryDict

from game import engine

# A move count has a handful of digits (see limits.MAX_GAME_MOVES): int() of thousands of
# digits is slow, and past 4,300 it raises, so the text is checked before it is read.
SEEN = re.compile(r"[0-9]{1,9}")
# A plain board's key (display.board_key).
KEY = re.compile(r"[0-9a-f]{8}")
AUTO = {"0": False, "1": True}


@dataclass(frozen=True, slots=True)
class Posted:
    """A change request's values: the board's move count, the move's text (parsed by
    `move()`), the auto-move setting when the form said it, the held board's key."""

    seen: int
    move_text: str
    auto: bool | None
    previous: str

    def move(self) -> engine.Move:
        """The posted move (InvalidMoveError quotes text that is not one)."""
        return engine.Move.parse(self.move_text)


def read(data: QueryDict) -> Posted:
    """The request's values; InvalidMoveError when it did not say which board it was made on.
    An `auto` that is neither "0" nor "1" is taken as unsaid, and a key that is not one as none
    (the whole board is sent)."""
    seen = data.get("n", "").strip()
    if not SEEN.fullmatch(seen):
        raise engine.InvalidMoveError("the request did not say which board it was made on")
    key = data.get("v", "").strip()
    return Posted(
        seen=int(seen),
        move_text=data.get("move", ""),
        auto=AUTO.get(data.get("auto", "").strip()),
        previous=key if KEY.fullmatch(key) else "",
    )
