"""What the browser already holds: the short key of a board (`board_key`, `marked_key`), and,
from the key a request names, which parts of the answer's board are as it shows them, so that they
are sent as empty `hx-preserve` placeholders (`Keep`, and each fan's `FanView.kept`).

Why a server-side diff rather than a morph: docs/architecture.md, "What a move's answer sends".
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass

from game import engine
from game.board import forms
from game.board.actions import Before
from game.board.show_a_win import OnShow
from game.board.table import (
    FoundationView,
    fan_is_plainly,
    foundation_views,
    hint_keys,
    moves_by_card,
)
from game.models import Game


@dataclass
class Keep:
    """The parts of the board that the browser already has as they should be."""

    menu: bool = False
    # The whole menu, its Redo, Auto-finish and Show a win buttons included (board.js sends the
    # board's move count with each request, so a kept form's own count does not matter).
    whole_menu: bool = False
    show_a_win_dialog: bool = False
    # Show a win's section (its key names the line and the step on show).
    show_a_win: bool = False


# The longest key a board has: eight hex digits, a dot, a move's text, a dot, eight more.
MAX_KEY = forms.MAX_KEY


def board_key(game: Game, position: engine.Position, status: str, assisted: bool) -> str:
    """A short name for a plain board (no hint, no selection) of `game` at `position`: equal
    keys, equal markup for every part that `Keep` and `FanView.kept` may leave out."""
    text = f"{game.pk}:{game.token}:{position.text}:{status}:{assisted}"
    return format(zlib.crc32(text.encode()), "08x")


def marked_key(
    plain: str, mark: engine.Move, on_show: OnShow | None = None, *, stage: int = 2
) -> str:
    """The key of the board `plain` names with a hint's or Show a win's `mark` on show: the
    plain board's key and the marked move (at a hint's first `stage`, its card alone), so that
    the next answer knows which fans and foundations the browser holds marked (`unchanged`);
    with Show a win `on_show`, a digest of its line too (a board with the same key shows the
    same line, which may then be kept)."""
    if on_show is None:
        if stage < 2 and mark.card is not None:
            return f"{plain}.{mark.card.code}"
        return f"{plain}.{mark.text}"
    text = f"{on_show.status}:{on_show.step}:{' '.join(on_show.line)}"
    return f"{plain}.{mark.text}.{zlib.crc32(text.encode()):08x}"


def _marks_of(previous: str) -> tuple[str, set[str]] | None:
    """The plain board's key and the places marked on the board `previous` names; None for a
    key that is no board's (a client sends it: anything it says is only compared)."""
    plain, dot, rest = previous.partition(".")
    if not dot:
        return plain, set()
    mark = rest.partition(".")[0]
    try:
        return plain, hint_keys(engine.Move.parse(mark))
    except engine.InvalidMoveError:
        pass
    try:
        card = engine.Card.parse(mark)
    except ValueError:
        return None
    # A hint's first stage marks its card alone.
    return (plain, {f"card:{card.code}"}) if card.code == mark else None


def can_show_a_win(status: str) -> bool:
    """Whether Show a win is offered on a game of `status`."""
    return status in (Game.Status.PLAYING, Game.Status.LOST)


@dataclass(frozen=True, slots=True)
class Held:
    """The board the browser holds: the game as `loaded`, its marked places, its legal moves."""

    loaded: Before
    marked: set[str]
    legal: list[engine.Move]
    moves: dict[str, list[str]]
    exact: bool = False


def held_board(game: Game, loaded: Before | None, previous: str, key: str) -> Held | None:
    """What the board with key `previous` showed, when it is the game as `loaded` for this
    request (plain or marked); None for any other key, and then the whole board is sent. When it
    is `key`, the very board this answer draws (a hint asked again), no mark differs."""
    if loaded is None or not previous or len(previous) > MAX_KEY:
        return None
    found = _marks_of(previous)
    if found is None or found[0] != board_key(
        game, loaded.position, loaded.status, loaded.assisted
    ):
        return None
    playing = loaded.status == Game.Status.PLAYING
    legal = engine.legal_moves(loaded.position) if playing else []
    return Held(loaded, found[1], legal, moves_by_card(legal), exact=previous == key)


def kept_fans(
    held: Held, position: engine.Position, by_card: dict[str, list[str]], marks: set[str]
) -> frozenset[int]:
    """The fans as the held board shows them: the same cards and moves, marked neither there
    (those places are sent again, unmarked) nor now (`marks`); on the very board the answer
    draws (`held.exact`), marked or not alike."""
    marked = set() if held.exact else held.marked | marks
    kept = set()
    # A redeal changes the number of fans: one that was not there is not kept.
    fans = zip(position.fans, held.loaded.position.fans, strict=False)
    for index, (now, then) in enumerate(fans):
        if f"fan:{index}" in marked or any(f"card:{card.code}" in marked for card in now):
            continue
        if fan_is_plainly(now, then, by_card, held.moves):
            kept.add(index)
    return frozenset(kept)


def unchanged(
    game: Game,
    played: engine.Play,
    held: Held,
    foundations: list[FoundationView],
    legal_now: list[engine.Move],
) -> Keep:
    """Mark the foundations that are as the held board shows them, and say which other parts
    are (`legal_now`: the moves of the board this answer draws)."""
    loaded = held.loaded
    before, status, assisted = loaded.position, loaded.status, loaded.assisted
    for home, was in zip(foundations, foundation_views(before), strict=True):
        was.live = True
        home.kept = f"home:{home.suit}" not in held.marked and home == was
    playing = game.status == Game.Status.PLAYING
    buttons_then = (
        loaded.redo and status == Game.Status.PLAYING,
        any(move.to_foundation and not move.merci for move in held.legal),
        can_show_a_win(status),
    )
    buttons_now = (
        played.can_redo and playing,
        any(move.to_foundation and not move.merci for move in legal_now),
        can_show_a_win(game.status),
    )
    return Keep(
        menu=True,
        whole_menu=buttons_then == buttons_now,
        show_a_win_dialog=(can_show_a_win(status), assisted)
        == (can_show_a_win(game.status), game.assisted),
    )
