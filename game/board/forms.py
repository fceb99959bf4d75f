"""What a board's change request carries, read and checked in one place (Django forms), so that
the actions (game/board/actions.py) are given values and never a request.

A board's forms post `n` (the move count of the board the request was made on), and as they
apply `move` (a move's text, game.engine.notation) and `auto` (the browser's auto-move setting,
"1" or "0"; board.js adds it). board.js also sends `v`, the key of the board it holds
(game.board.display.board_key), so the answer may leave out what the browser has already.
"""

from __future__ import annotations

from dataclasses import dataclass

from django import forms

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
    # A move count has a handful of digits (see limits.MAX_GAME_MOVES): int() of thousands of
    # digits is slow, and past 4,300 it raises, so the text is checked before it is read.
    n = forms.RegexField(regex=r"\A[0-9]{1,9}\Z")
    move = forms.CharField(required=False, strip=False)
    auto = forms.ChoiceField(choices=[("0", "off"), ("1", "on")], required=False)
    v = forms.RegexField(regex=r"\A[0-9a-f]{8}\Z", required=False)

    def posted(self) -> Posted:
        """The request's values; InvalidMoveError when it did not say which board it was made
        on (a key that is not one is only ignored: the whole board is sent)."""
        if not self.is_valid() and "n" in self.errors:
            raise engine.InvalidMoveError("the request did not say which board it was made on")
        data = self.cleaned_data
        auto = data.get("auto") or ""
        return Posted(
            seen=int(data["n"]),
            move_text=data.get("move") or self.data.get("move", ""),
            auto=None if auto == "" else auto == "1",
            previous=data.get("v") or "",
        )
