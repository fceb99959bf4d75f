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
from dataclasses import dataclass, field, replace
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
    """The changed fans and foundations, drawn by the board's own templates. Each card's view
    (its spoken name, its corner index) is worked out once per page, not once per position."""

    def __init__(self) -> None:
        self._fans = engines["jinja2"].get_template("board/fans.jinja")
        self._table = engines["jinja2"].get_template("board/table.jinja")
        self._sprite = table.sprite()
        self._ranks = table.rank_labels()
        self._cards: dict[engine.Card, table.CardView] = {}

    def _card(self, card: engine.Card, top: bool, moved: bool) -> table.CardView:
        if card not in self._cards:
            self._cards[card] = table.card_view(card, self._ranks)
        return replace(self._cards[card], top=top, buried=not top, hint="card" if moved else "")

    def _fan_view(self, felt: _Felt, index: int) -> table.FanView:
        fan = felt.position.fans[index]
        last = len(fan) - 1
        cards = [
            self._card(card, depth == last, card == felt.moved) for depth, card in enumerate(fan)
        ]
        return table.FanView(index=index, cards=cards)

    def _render(self, values: dict[str, Any]) -> str:
        return self._table.render({**values, "static": True, "board_sprite": self._sprite})

    def fan(self, felt: _Felt, index: int) -> str:
        view = self._fan_view(felt, index)
        return self._fans.render({"fans": [view], "static": True, "board_sprite": self._sprite})

    def fans(self, felt: _Felt) -> str:
        views = [self._fan_view(felt, index) for index in range(len(felt.position.fans))]
        return self._fans.render({"fans": views, "static": True, "board_sprite": self._sprite})

    def foundation(self, felt: _Felt, index: int) -> tuple[str, str]:
        """The foundation of suit `index`, as (its suit, its markup)."""
        # Marked as still.still_table marks them: the top card, and the card that just moved.
        view = table.foundation_views(felt.position)[index]
        if view.top is not None:
            view.top.top = True
            if felt.moved is not None and view.top.code == felt.moved.code:
                view.hint = "card"
        return view.suit, self._render({"foundations": [view], "fans": []})


@dataclass(frozen=True)
class _Felt:
    """A position as a step shows it: the card that just moved is marked."""

    position: engine.Position
    moved: engine.Card | None

    @property
    def fans(self) -> list[tuple[tuple[engine.Card, bool], ...]]:
        return [tuple((card, card == self.moved) for card in fan) for fan in self.position.fans]

    @property
    def homes(self) -> list[tuple[int, bool]]:
        return [
            (rank, bool(rank) and engine.DECK[index * 13 + rank - 1] == self.moved)
            for index, rank in enumerate(self.position.foundations)
        ]


def _parts(renderer: _Renderer, felt: _Felt, before: _Felt | None) -> list[tuple[str, str]]:
    """The fans and foundations of `felt` that differ from `before` (all of them at the start;
    the whole row of fans when their number changed, as a redeal does)."""
    fans = felt.fans
    parts: list[tuple[str, str]] = []
    if before is None or len(before.fans) != len(fans):
        parts.append(("fans", renderer.fans(felt)))
    else:
        for index, (fan, was) in enumerate(zip(fans, before.fans, strict=True)):
            if fan != was:
                parts.append((f"fan-{index}", renderer.fan(felt, index)))
    old_homes: list[tuple[int, bool] | None] = [None] * 4 if before is None else [*before.homes]
    for index, (home, old) in enumerate(zip(felt.homes, old_homes, strict=True)):
        if home != old:
            suit, markup = renderer.foundation(felt, index)
            parts.append((f"home-{suit}", markup))
    return parts


def _game_steps(
    renderer: _Renderer,
    moves: Sequence[engine.Move],
    positions: Sequence[engine.Position],
    slip: int | None,
    with_parts: bool,
) -> list[Step]:
    """A step for each position of the game, the deal as it was dealt first; the move after
    `slip` moves is marked as the one that lost the win."""
    last = len(moves)
    found: list[Step] = []
    before: _Felt | None = None
    for at, position in enumerate(positions):
        move = moves[at - 1] if at else None
        felt = _Felt(position, move.card if move is not None else None)
        found.append(
            Step(
                key=str(at),
                at=at,
                line=0,
                parent=str(at - 1) if at else "",
                number=str(at),
                text=(
                    words.capfirst(words.describe(move))
                    if move is not None
                    else _("The deal as it was dealt.")
                ),
                say=words.replay_step(positions[max(at - 1, 0)], move, position, at, last),
                deal=position.redeals_used + 1,
                home=position.cards_home,
                mark="slip" if slip is not None and at == slip + 1 else "",
                parts=_parts(renderer, felt, before) if with_parts else [],
            )
        )
        before = felt
    return found


def _line_steps(
    renderer: _Renderer,
    moves: Sequence[engine.Move],
    positions: Sequence[engine.Position],
    slip: int,
    line: Sequence[engine.Move],
    with_parts: bool,
) -> list[Step]:
    """A step for each move of the solver's `line`, played from the position after `slip`
    moves of the game (the first step's parent)."""
    found: list[Step] = []
    shown = positions[slip]
    before = _Felt(shown, moves[slip - 1].card if slip else None)
    for index, move in enumerate(line, start=1):
        after = engine.apply(shown, move)
        felt = _Felt(after, move.card)
        described = words.describe(move)
        found.append(
            Step(
                key=f"{slip}-{index}",
                at=slip,
                line=index,
                parent=f"{slip}-{index - 1}" if index > 1 else str(slip),
                number=str(slip + index),
                text=words.capfirst(described),
                say=_("The solver's line, move %(step)s of %(total)s: %(move)s")
                % {"step": index, "total": len(line), "move": described},
                deal=after.redeals_used + 1,
                home=after.cards_home,
                mark="line",
                parts=_parts(renderer, felt, before) if with_parts else [],
            )
        )
        shown, before = after, felt
    return found


def _link_following(found: list[Step]) -> None:
    """Give each step the key of the step after it on its own branch, if there is one."""
    keys = {step.key for step in found}
    for step in found:
        following = f"{step.at}-{step.line + 1}" if step.line else str(step.at + 1)
        step.following = following if following in keys else ""


def build(
    moves: Sequence[engine.Move],
    positions: Sequence[engine.Position],
    slip: int | None = None,
    line: Sequence[engine.Move] = (),
    with_parts: bool = True,
) -> Steps:
    """Every step of a game of `moves` (its `positions`, one more than the moves), and of the
    solver's `line` from the position after `slip` moves when there is one; without their felts'
    parts (`with_parts` false) for a record stepped by its links alone."""
    renderer = _Renderer()
    last = len(moves)
    found = _game_steps(renderer, moves, positions, slip, with_parts)
    if slip is not None and 0 <= slip < last and line:
        found += _line_steps(renderer, moves, positions, slip, line, with_parts)
    _link_following(found)
    return Steps(found, last, slip if line else None, len(line))


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
