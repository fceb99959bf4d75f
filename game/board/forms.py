"""What a board's change request carries, read and checked by a Django form, so that the actions
(game/board/actions.py) are given values and never a request.

A board's forms post `n` (the move count of the board the request was made on), and as they
apply `move` (a move's text, game.engine.notation) and `auto` (the browser's auto-move setting,
"1" or "0"; board.js adds it). board.js also sends `v`, the key of the board it holds
(game.board.display.board_key), so the answer may leave out what the browser has already.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from django import forms
from django.core.validators import RegexValidator
from django.http import QueryDict

from game import engine


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


class ChangeForm(forms.Form):
    # A move count has a handful of digits (see limits.MAX_GAME_MOVES): the text is checked
    # before it is read, as int() of thousands of digits is slow and past 4,300 raises.
    n = forms.CharField(validators=[RegexValidator(r"^[0-9]{1,9}\Z")])
    # Checked by the engine when the action reads it (InvalidMoveError quotes it, cut short).
    move = forms.CharField(required=False, strip=False)
    auto = forms.CharField(required=False)
    v = forms.CharField(required=False)


# `auto` is "1" or "0"; anything else is taken as unsaid.
AUTO = {"0": False, "1": True}
# A plain board's key (display.board_key); anything else is none.
KEY = re.compile(r"[0-9a-f]{8}")


def read(data: QueryDict) -> Posted:
    """The request's values; InvalidMoveError when it did not say which board it was made on.
    A key that is not one is taken as none (the whole board is sent)."""
    form = ChangeForm(data)
    if not form.is_valid():
        raise engine.InvalidMoveError("the request did not say which board it was made on")
    values = form.cleaned_data
    key = values["v"]
    return Posted(
        seen=int(values["n"]),
        move_text=values["move"],
        auto=AUTO.get(values["auto"]),
        previous=key if KEY.fullmatch(key) else "",
    )
