"""The felt with nothing on it to press: a replay's or a review's still table, and the rules
page's worked example, drawn by the board's templates with `static` (game/board/table.py's views
and markup, none of them on a move's path).
"""

from __future__ import annotations

from typing import Any

from game import engine
from game.board.table import FanView, card_view, foundation_views


def still_table(position: engine.Position, moved: engine.Card | None = None) -> dict[str, Any]:
    """The felt of `position` with nothing to press: for replays (`static` in table.jinja). The
    card that just `moved` is marked the way a hint is, so the eye finds it."""
    fans = []
    for index, fan in enumerate(position.fans):
        views = []
        for depth, card in enumerate(fan):
            view = card_view(card)
            view.top = depth == len(fan) - 1
            view.buried = not view.top
            if card == moved:
                view.hint = "card"
            views.append(view)
        fans.append(FanView(index=index, cards=views))
    foundations = foundation_views(position)
    for foundation in foundations:
        if foundation.top is not None:
            foundation.top.top = True
            if moved is not None and foundation.top.code == moved.code:
                foundation.hint = "card"
    return {"fans": fans, "foundations": foundations, "static": True}


def rules_example() -> dict[str, Any]:
    """The small position that the rules page's worked example draws."""

    def fans(*rows: str) -> list[FanView]:
        result = []
        for index, row in enumerate(rows):
            cards = [card_view(engine.Card.parse(code)) for code in row.split()]
            if cards:
                cards[-1].top = True
            result.append(FanView(index=index, cards=cards))
        return result

    home = [card_view(engine.Card.parse(code)) for code in ("4C", "AH")]
    return {
        "example_home": home,
        "example_before": fans("9S 5C 7H", "KD 2H 8H", "3H 6C", "QS"),
        "example_after": fans("9S", "KD 2H 8H 7H", "3H", "QS"),
        "example_home_after": [card_view(engine.Card.parse(code)) for code in ("6C", "AH")],
        # The same fans in a last deal: the merci pulls the Two of Hearts out from under its fan.
        "example_merci": fans("9S", "KD 8H 7H", "", "QS"),
        "example_home_merci": [card_view(engine.Card.parse(code)) for code in ("6C", "3H")],
    }
