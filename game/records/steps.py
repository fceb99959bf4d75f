"""A replay's steps: every position of a finished game (and, for its owner's lost game, the
solver's line from where the win slipped away), each with its move's words and the parts of the
felt that differ from the step before it.

The replay page sends them all, so that stepping needs no request once the page is loaded
(static/js/replay/stepper.js). A step carries only the fans and foundations that changed since
its parent step, each rendered by the board's own templates (board/fans.jinja and
board/table.jinja): a move changes two or three of them, a redeal all the fans, so a game's steps
weigh a few kilobytes each, not the 25 kB of a whole felt. The browser puts a step's felt together
by walking up its parents and taking, for each fan and foundation, the nearest version; it
decides nothing about the rules and writes no words of its own.

A step is named by its key: `"43"` after 43 moves of the game, `"43-2"` after the second move of
the solver's line from the position after 43 moves. The page links each as `?at=43` (and
`?at=43&line=2`), and `#m43` (`#m43-2`) opens there too.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from django.template import engines
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from game import engine
from game.board import table, words
from game.ops import limits


@dataclass
class Step:
    key: str
    at: int  # moves of the game played
    line: int  # moves of the solver's line played after them (0: on the game itself)
    parent: str  # the step before it ("" for the deal as dealt)
    number: str  # as the move list shows it: "43", or "44" on the line
    text: str  # the move that led here, in words (or the deal as it was dealt)
    say: str  # the live region's sentence
    deal: int  # the deal in play (1 to 4)
    home: int  # cards home
    mark: str = ""  # "slip": the move that lost the win; "line": a move of the solver's line
    following: str = ""  # the step after it on the same branch ("" at a branch's end)
    parts: list[tuple[str, str]] = field(default_factory=list)  # (part, markup) that changed

    @property
    def href(self) -> str:
        query = f"?at={self.at}" + (f"&line={self.line}" if self.line else "")
        return f"{query}#m{self.key}"


@dataclass
class Steps:
    steps: list[Step]
    last: int  # the game's moves
    slip: int | None  # K: the moves after which a win still existed (move K + 1 lost it)
    line_length: int

    def find(self, at: int, line: int) -> Step:
        key = f"{at}-{line}" if line else str(at)
        return next(step for step in self.steps if step.key == key)

    @property
    def game_steps(self) -> list[Step]:
        return [step for step in self.steps if not step.line]

    @property
    def line_steps(self) -> list[Step]:
        return [step for step in self.steps if step.line]


class _Renderer:
    """Each fan and foundation rendered once per distinct look (the same fan with the same mark
    is the same markup), by the board's own templates."""

    def __init__(self) -> None:
        self._fans = engines["jinja2"].get_template("board/fans.jinja")
        self._table = engines["jinja2"].get_template("board/table.jinja")
        self._sprite = table.sprite()

    def fan(self, view: table.FanView) -> str:
        return self._fans.render({"fans": [view], "static": True, "board_sprite": self._sprite})

    def fans(self, views: Sequence[table.FanView]) -> str:
        return self._fans.render({"fans": views, "static": True, "board_sprite": self._sprite})

    def foundation(self, view: table.FoundationView) -> str:
        return self._table.render(
            {"foundations": [view], "fans": [], "static": True, "board_sprite": self._sprite}
        )


def _signature(views: dict[str, Any]) -> tuple[list[Any], list[Any]]:
    fans = [(tuple((c.code, c.hint) for c in fan.cards)) for fan in views["fans"]]
    homes = [(f.count, f.hint) for f in views["foundations"]]
    return fans, homes


def _parts(
    renderer: _Renderer, views: dict[str, Any], before: dict[str, Any] | None
) -> list[tuple[str, str]]:
    """The fans and foundations of `views` that differ from `before` (all of them at the start;
    the whole row of fans when their number changed, as a redeal does)."""
    fans, homes = _signature(views)
    parts: list[tuple[str, str]] = []
    if before is None or len(before["fans"]) != len(fans):
        parts.append(("fans", renderer.fans(views["fans"])))
    else:
        old_fans, _old = _signature(before)
        for index, (fan, old) in enumerate(zip(fans, old_fans, strict=True)):
            if fan != old:
                parts.append((f"fan-{index}", renderer.fan(views["fans"][index])))
    old_homes = _signature(before)[1] if before is not None else [None] * 4
    for view, home, old in zip(views["foundations"], homes, old_homes, strict=True):
        if home != old:
            parts.append((f"home-{view.suit}", renderer.foundation(view)))
    return parts


def build(
    moves: Sequence[engine.Move],
    positions: Sequence[engine.Position],
    slip: int | None = None,
    line: Sequence[engine.Move] = (),
) -> Steps:
    """Every step of a game of `moves` (its `positions`, one more than the moves), and of the
    solver's `line` from the position after `slip` moves when there is one."""
    renderer = _Renderer()
    last = len(moves)
    steps: list[Step] = []
    before: dict[str, Any] | None = None
    for at, position in enumerate(positions):
        move = moves[at - 1] if at else None
        views = table.still_table(position, move.card if move is not None else None)
        steps.append(
            Step(
                key=str(at),
                at=at,
                line=0,
                parent=str(at - 1) if at else "",
                number=str(at),
                text=(
                    words.describe(move)[:1].upper() + words.describe(move)[1:]
                    if move is not None
                    else _("The deal as it was dealt.")
                ),
                say=words.replay_step(positions[max(at - 1, 0)], move, position, at, last),
                deal=position.redeals_used + 1,
                home=position.cards_home,
                mark="slip" if slip is not None and at == slip + 1 else "",
                parts=_parts(renderer, views, before),
            )
        )
        before = views
    if slip is not None and 0 <= slip < last and line:
        shown = positions[slip]
        before = table.still_table(shown, moves[slip - 1].card if slip else None)
        for index, move in enumerate(line, start=1):
            after = engine.apply(shown, move)
            views = table.still_table(after, move.card)
            described = words.describe(move)
            steps.append(
                Step(
                    key=f"{slip}-{index}",
                    at=slip,
                    line=index,
                    parent=f"{slip}-{index - 1}" if index > 1 else str(slip),
                    number=str(slip + index),
                    text=described[:1].upper() + described[1:],
                    say=_("The solver's line, move %(step)s of %(total)s: %(move)s")
                    % {"step": index, "total": len(line), "move": described},
                    deal=after.redeals_used + 1,
                    home=after.cards_home,
                    mark="line",
                    parts=_parts(renderer, views, before),
                )
            )
            shown, before = after, views
    keys = {step.key for step in steps}
    for step in steps:
        following = f"{step.at}-{step.line + 1}" if step.line else str(step.at + 1)
        step.following = following if following in keys else ""
    return Steps(steps, last, slip if line else None, len(line))


def jumps(steps: Steps) -> list[tuple[str, str]]:
    """The replay's landmarks, as (label, step key): the start, each redeal, the move that lost
    the win, the end."""
    found = [(pgettext("the replay's first position", "Start"), "0")]
    deal = 1
    for step in steps.game_steps:
        if step.deal != deal and len(found) <= limits.MAX_REPLAY_JUMPS:
            deal = step.deal
            label = pgettext("one of the three rounds", "Deal %(number)s") % {"number": deal}
            found.append((label, step.key))
    if steps.slip is not None:
        found.append((_("The move that lost the win"), str(steps.slip + 1)))
    found.append((pgettext("the replay's last position", "End"), str(steps.last)))
    return found
