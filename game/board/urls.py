"""The URLs of a board's changes: one list, included wherever a board lives, as healthchecks
includes its check URLs under each way of naming a check.

A board's changes (game.board.fronts.CHANGES: move, undo, redo, redeal, auto) post to
`<the board's place>/<change>/`: a stored game's `game/<id>/`, a deal's first board's
`deal/<n>/`, and the embed's `embed/deal/<n>/` and `embed/g/<token>/`. Each place has one view
for all of them, which is given the change's name as `action`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.urls import URLPattern, path

from game.board.fronts import CHANGES


def change_urls(view: Callable[..., Any], prefix: str = "") -> list[URLPattern]:
    """One URL per change for `view`, each named `<prefix><change>` (`move`, `deal_move`...)."""
    return [
        path(f"{action}/", view, {"action": action}, name=prefix + action) for action in CHANGES
    ]
