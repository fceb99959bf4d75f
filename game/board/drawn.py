"""The board an answer draws, built from small values, each by a function of its own: the felt
(`Felt`), what the board says (`Said`), and the controls on offer, the fair timer and where each
control and link goes (game/board/controls.py). `board()` puts them together as one `Board`,
which the template reads as one flat context (`Board.context`), its names unchanged.
Which parts the browser already holds (`keep`, each fan's `kept`) is game/board/kept.py's.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, fields
from typing import Any

from django.http import HttpRequest
from django.utils.module_loading import import_string
from django.utils.translation import gettext as _

from game import engine
from game.board import controls, hints, kept, show_a_win_job, words
from game.board.actions import Change
from game.board.controls import Controls, Places, Timer
from game.board.fronts import Front
from game.board.show_a_win import OnShow
from game.board.table import (
    FanView,
    FoundationView,
    fan_views,
    foundation_views,
    hint_keys,
    moves_by_card,
    target_key,
)
from game.models import Game
from game.ops import limits


@dataclass(frozen=True, slots=True)
class Felt:
    """The table as drawn: fans and foundations (game/board/table.py), the picked card, the
    hint's (or Show a win's next) move and its marks, the stage of the hint asked for that the
    board shows (`hint_shown`: 0 none, 1 its card, 2 where it goes too), the last card moved,
    what blocked a loss."""

    position: engine.Position
    fans: list[FanView]
    foundations: list[FoundationView]
    selected: str
    hint: engine.Hint | None
    hint_redeal: bool
    hint_shown: int
    last_card: str
    last_from: int
    blocked: list[Any]
    blocked_cards: str


@dataclass(frozen=True, slots=True)
class Said:
    """What the board says: its message line, the live region's sentence, the hint's reason,
    and the hint it carries before any press, with what each of its two stages says."""

    message: str
    announcement: str
    hint_reason: str
    ready_hint: str = ""  # the board's hint before any press (hints.ready)
    ready_said: str = ""  # its first stage's sentence: the card
    ready_said_place: str = ""  # its second stage's: where the card goes


@dataclass(frozen=True, slots=True)
class Board:
    """One answer's board: the game and its rules, the small values above, Show a win's line
    on show, the board's key and what the browser keeps (game/board/kept.py), and a finished
    game's panels beside it (`end`: `win`, `challenge`, `rank`; None under way)."""

    game: Game
    rules: engine.Rules
    felt: Felt
    said: Said
    controls: Controls
    timer: Timer
    places: Places
    show_a_win: OnShow | None
    board_key: str
    keep: kept.Keep
    end: dict[str, Any] | None

    def context(self) -> dict[str, Any]:
        """The template's context: each small value's fields by name, beside the board's own."""
        context: dict[str, Any] = {
            "game": self.game,
            "rules": self.rules,
            "show_a_win": self.show_a_win,
            "board_key": self.board_key,
            "keep": self.keep,
            "end": self.end,
        }
        for part in (self.felt, self.said, self.controls, self.timer, self.places):
            context.update({each.name: getattr(part, each.name) for each in fields(part)})
        return context


@dataclass(frozen=True, slots=True)
class Drawing:
    """What the request asks the board to show besides the game: the change it made, a card
    picked, a hint and its stage (1 the card, 2 where it goes too), a message, what the live
    region says instead of it (`spoken`), and the key of the board the browser holds
    (`previous`)."""

    change: Change | None = None
    selected: str = ""
    hint: engine.Hint | None = None
    message: str = ""
    spoken: str = ""
    previous: str = ""
    hint_stage: int = 2


def board(
    request: HttpRequest, front: Front, game: Game, played: engine.Play, asked: Drawing
) -> Board:
    """`game`'s board on `front` after `played`. Show a win's line on show (a front end that
    keeps sessions, an assisted game) has its next move marked the way a hint is, unless a hint
    was asked for; the parts of the board the browser holds as they are (`asked.previous`) are
    kept (game/board/kept.py)."""
    # Only an assisted game can have Show a win on show (asking marks it); a search on that has
    # found its answer since is shown with it. A read: a GET draws boards too.
    on_show = (
        show_a_win_job.follow(request.session, game) if front.sessions and game.assisted else None
    )
    playing = game.status == Game.Status.PLAYING
    legal = played.legal_moves() if playing else []
    stuck = words.stuck(played.position, legal) if playing else ""
    # Strict mode offers no hint: none is looked up or carried.
    ready = (
        hints.ready(played.record, played.position, charge=_ready_charge(request, front))
        if playing and not game.strict
        else None
    )
    said, selected, hint = _said(game, played, asked, on_show, legal, stuck, ready)
    # The stage of the hint asked for; Show a win's next move is marked whole.
    stage = asked.hint_stage if asked.hint is not None else 2
    key = _key(game, played.position, selected, hint, on_show, stage)
    change = asked.change
    held = kept.held_board(game, change.before if change else None, asked.previous, key)
    shown = stage if asked.hint is not None else 0
    felt = _felt(game, played, legal, selected, hint, held, stage, shown)
    keep = kept.unchanged(game, played, held, felt.foundations, legal) if held else kept.Keep()
    # The same board with the same line on show (Show a win asked again) keeps its list; only a
    # line with a next move is in the key, any other verdict (a few lines) is sent again.
    keep.show_a_win = (
        on_show is not None
        and on_show.next_move is not None
        and bool(key)
        and asked.previous == key
    )
    return Board(
        game=game,
        rules=played.position.rules,
        felt=felt,
        said=said,
        controls=controls.on_offer(game, played, legal, bool(stuck)),
        timer=controls.timer(game),
        places=controls.places(front, game, on_show),
        show_a_win=on_show,
        board_key=key,
        keep=keep,
        end=_end(request, front, game),
    )


def _ready_charge(request: HttpRequest, front: Front) -> Callable[[], None]:
    """Who pays for the search of a board's ready hint. A page view (a GET) pays from the
    client's hint budget (limits.HINT, per network and session, as a press does): any number
    names a deal, so a script fetching first boards of fresh deals would otherwise start a
    search with every page, free. A change's answer (a POST) searches as before: it wrote a
    row, and a player's press of Hint that follows finds the hint kept and costs nothing."""
    if request.method == "POST":
        return lambda: None
    return lambda: limits.check(request, limits.HINT, session=front.sessions)


def _said(
    game: Game,
    played: engine.Play,
    asked: Drawing,
    on_show: OnShow | None,
    legal: list[engine.Move],
    stuck: str,
    ready: engine.Hint | None,
) -> tuple[Said, str, engine.Hint | None]:
    """What the board says, the card still picked (a picked card with no move is let go) and
    the move marked: the hint, else Show a win's next move. `stuck`: what a board with no card
    to move says."""
    position = played.position
    message, reason = _hint_words(position, asked)
    hint = asked.hint
    said = announcement(
        game,
        played,
        asked.change,
        hint=hint,
        message=asked.spoken or message,
        hint_stage=asked.hint_stage,
    )
    change = asked.change
    if not said and on_show is not None and change is not None and change.action == "show_a_win":
        said = words.show_a_win_verdict(
            on_show.status, on_show.left, on_show.next_move, position, on_show.search_on
        )
    if hint is None and on_show is not None and on_show.next_move is not None:
        hint = engine.Hint(on_show.next_move, "the next move of the winning line")
    selected, message, said = _picked(position, moves_by_card(legal), asked.selected, message, said)
    # A board with no card to move says so at once, and what is left (no Hint press needed).
    if stuck and not message and not selected and hint is None:
        message = stuck
        said = f"{said} {stuck}" if said else stuck
    ready_said = words.hint_card_said(position, ready) if ready is not None else ""
    ready_place = words.hint_message(position, ready) if ready is not None else ""
    ready_move = ready.move.text if ready is not None else ""
    return (
        Said(message, said or asked.spoken or message, reason, ready_move, ready_said, ready_place),
        selected,
        hint,
    )


def _hint_words(position: engine.Position, asked: Drawing) -> tuple[str, str]:
    """The message line (the hint asked for, else the request's message) and why the hint
    chose its move."""
    hint = asked.hint
    if hint is None:
        return asked.message, ""
    # The hint, worded here once: its message line, and in the live region its sentence; at
    # its first stage the card alone.
    if asked.hint_stage < 2 and hint.move.card is not None:
        return words.hint_card(position, hint), ""
    # Why the hint chose its move, shown only when asked ("Why?") and once the hint is whole
    # (a reason such as "it can go home" would tell where the card goes); a line's marked move
    # has none.
    return words.hint_message(position, hint), hints.reason_text(position, hint)


def _picked(
    position: engine.Position,
    by_card: dict[str, list[str]],
    selected: str,
    message: str,
    said: str,
) -> tuple[str, str, str]:
    """The card still picked, the message line and the live region's sentence, after the
    picked card: one with no move is let go (and said so, if nothing else is), one with moves
    has its places named."""
    if selected and selected not in by_card:
        if not message and selected in {c.code for fan in position.fans for c in fan}:
            message = words.no_move(engine.Card.parse(selected))
        return "", message, said
    if selected and not message:
        # With JavaScript off the selection lives in the URL (?sel=6C): its moves are buttons.
        card = engine.Card.parse(selected)
        message = words.capfirst(
            _("%(card)s: choose a lit place.") % {"card": words.card_name(card)}
        )
        moves = [engine.Move.parse(text) for text in by_card[selected]]
        said = words.choices(position, card, moves)
    return selected, message, said


def _key(
    game: Game,
    position: engine.Position,
    selected: str,
    hint: engine.Hint | None,
    on_show: OnShow | None,
    stage: int,
) -> str:
    """The board's key (none while a card is picked), with its marked move (at a hint's first
    `stage`, its card)."""
    if selected:
        return ""
    key = kept.board_key(game, position, game.status, game.assisted)
    if hint is None:
        return key
    return kept.marked_key(key, hint.move, on_show, stage=stage)


def _felt(
    game: Game,
    played: engine.Play,
    legal: list[engine.Move],
    selected: str,
    hint: engine.Hint | None,
    held: kept.Held | None,
    stage: int = 2,
    shown: int = 0,
) -> Felt:
    """The fans and foundations, with the picked card's places lit and the hint's marked (its
    card alone at the hint's first `stage`); `shown`: the stage of a hint asked for, else 0."""
    position = played.position
    by_card = moves_by_card(legal)
    targets = {target_key(engine.Move.parse(text)): text for text in by_card.get(selected, [])}
    hinted = hint_keys(hint.move, stage) if hint else set()
    marks = {*hinted, *targets, f"card:{selected}"}
    kept_fans = kept.kept_fans(held, position, by_card, marks) if held else frozenset()
    fans = fan_views(
        position,
        by_card,
        selected=selected,
        targets=targets,
        hint=hint,
        hint_stage=stage,
        kept=kept_fans,
    )
    foundations = foundation_views(position)
    for foundation in foundations:
        foundation.target_move = targets.get(f"home:{foundation.suit}", "")
        foundation.hint = "target" if f"home:{foundation.suit}" in hinted else ""
        foundation.live = True
    lost = game.status == Game.Status.LOST
    last_card, last_from = last_move(played)
    return Felt(
        position=position,
        fans=fans,
        foundations=foundations,
        selected=selected,
        hint=hint,
        hint_redeal=bool(hint and hint.move.is_redeal),
        hint_shown=shown,
        last_card=last_card,
        last_from=last_from,
        blocked=words.blocked(position) if lost else [],
        blocked_cards=" ".join(words.blocked_cards(position)) if lost else "",
    )


def _end(request: HttpRequest, front: Front, game: Game) -> dict[str, Any] | None:
    """A finished game's panels, read by the function the front end names (`Front.end_panels`)."""
    if game.pk is None or game.status == Game.Status.PLAYING:
        return None
    panels: dict[str, Any] = import_string(front.end_panels)(request, game, front.embed)
    return panels


def announcement(
    game: Game,
    played: engine.Play,
    change: Change | None,
    *,
    hint: engine.Hint | None,
    message: str,
    hint_stage: int = 2,
) -> str:
    """The live region's sentence: what the request changed, else the hint (at its first
    `hint_stage`, the card and that a second press says where), else the message (an error,
    or a note such as "nothing to hint")."""
    if change is not None and change.action:
        said = words.change_said(
            played, change.seen, change.action, auto=played.auto, assisted=game.assisted
        )
        if said:
            return said
    if hint is not None:
        if hint_stage < 2:
            return words.hint_card_said(played.position, hint)
        return words.hint(played.position, hint)
    return message


def last_move(played: engine.Play) -> tuple[str, int]:
    """The last card move, as the board marks it until the next: the card (wherever it lies
    now) and the fan it left (`data-last-card`, `data-last-from` on the board, read by
    main.js, which marks them). Nothing ("", -1) after a redeal, or before the first move.

    >>> game = engine.Play(1)
    >>> last_move(game)
    ('', -1)
    >>> move = next(m for m in game.legal_moves() if m.card is not None)
    >>> _ = game.play(move)
    >>> card, fan = last_move(game)
    >>> card == move.card.code and fan >= 0
    True
    """
    if not played.moves or played.moves[-1].card is None:
        return "", -1
    card = played.moves[-1].card
    before = played.positions_since(len(played.moves) - 1)[0]
    where = before.find(card)
    if where is None:
        return "", -1
    return card.code, where[0]
