"""Everything the board template reads for one answer (`board_context`): the felt (table.py),
its links, the message and the live region's sentence, the controls, the clock, and
which parts the answer may leave out as the browser holds them (`Keep`, `board_key`).
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.template import engines
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from game import engine
from game.board import clock, hints, words
from game.board.actions import Before, Change
from game.board.table import (
    FoundationView,
    fan_is_plainly,
    fan_views,
    foundation_views,
    hint_keys,
    moves_by_card,
    target_key,
)
from game.board.winning_line import Shown
from game.models import Game

# The board's template (Jinja2: game/jinja.py), for the site, the daily page and the embed.
BOARD_TEMPLATE = "board/board.jinja"


def fragment(request: HttpRequest, context: dict[str, Any], *, status: int = 200) -> HttpResponse:
    """The board alone, as the answer to an htmx request (a change, a hint, a refusal), with its
    live region out of band: its template rendered with `context` and the request."""
    html = engines["jinja2"].get_template(BOARD_TEMPLATE).render(context, request)
    return HttpResponse(html, status=status)


def board_context(
    game: Game,
    played: engine.Play,
    *,
    change: Change | None = None,
    selected: str = "",
    hint: engine.Hint | None = None,
    message: str = "",
    spoken: str = "",
    line: Shown | None = None,
    previous: str = "",
) -> dict[str, Any]:
    """Everything the board template (board/board.jinja) needs. `line` is the "Show a win"
    verdict on show: its next move is marked the way a hint is, unless a hint was asked for.
    `previous` is the key (`board_key`) of the board the request came from, as board.js sends
    it: when it is the key of the game as loaded, the browser holds exactly that board, so the
    parts this change left as they were are sent as empty `hx-preserve` placeholders that htmx
    fills with the elements already on the page (`keep`). `spoken`, when given, is what the
    live region says instead of the message (a refusal that quotes the request says it once,
    on the board). `change`: what this request did to the game, to be said."""
    position = played.position
    if hint is not None and message:
        # The hint's message line in the page's language (game/board/pipeline.py words it in
        # English, the one caller that passes a hint).
        message = words.hint_message(position, hint)
    said = announcement(game, played, change, hint=hint, message=spoken or message)
    if not said and line is not None and change is not None and change.action == "solve":
        said = words.verdict(line.status, line.left, line.next_move, position, line.further)
    # Why the hint chose its move, shown only when asked ("Why?"); a line's marked move has none.
    hint_reason = hints.reason_text(position, hint) if hint is not None else ""
    if hint is None and line is not None and line.next_move is not None:
        hint = engine.Hint(line.next_move, "the next move of the winning line")
    legal = played.legal_moves() if game.status == Game.Status.PLAYING else []
    by_card = moves_by_card(legal)
    if selected and selected not in by_card:
        if not message and selected in {c.code for fan in position.fans for c in fan}:
            message = words.no_move(engine.Card.parse(selected))
        selected = ""

    # With JavaScript off the selection lives in the URL (?sel=6C): its moves become buttons.
    targets: dict[str, str] = {}
    if selected and not message:
        card = engine.Card.parse(selected)
        message = words.capfirst(
            _("%(card)s: choose a lit place.") % {"card": words.card_name(card)}
        )
        said = words.choices(
            position, card, [engine.Move.parse(text) for text in by_card[selected]]
        )
    # A board with no card to move says so at once, and what is left (no Hint press needed).
    stuck = words.stuck(position, legal) if game.status == Game.Status.PLAYING else ""
    if stuck and not message and not selected and hint is None:
        message = stuck
        said = f"{said} {stuck}" if said else stuck
    for text in by_card.get(selected, []):
        targets[target_key(engine.Move.parse(text))] = text
    hinted = hint_keys(hint.move) if hint else set()

    key = ""
    if not selected:
        key = board_key(game, position, game.status, game.assisted)
        if hint is not None:
            key = marked_key(key, hint.move, line)

    # The board the browser holds, when the request named it: what it left as it was is kept.
    held = _held(game, change.before if change is not None else None, previous, key)
    marks = {*hinted, *targets, f"card:{selected}"}
    kept = _kept_fans(held, position, by_card, marks) if held is not None else frozenset()
    fans = fan_views(position, by_card, selected=selected, targets=targets, hint=hint, kept=kept)

    foundations = foundation_views(position)
    for foundation in foundations:
        foundation.target_move = targets.get(f"home:{foundation.suit}", "")
        foundation.hint = "target" if f"home:{foundation.suit}" in hinted else ""
        foundation.live = True

    keep = _unchanged(game, played, held, foundations, legal) if held is not None else Keep()
    # The same board with the same line on show (a "Show a win" asked again): its list stays.
    # Only a line with a next move has it in the board's key; any other verdict is sent again
    # (a few lines: a longer look may have settled, or stopped, since).
    keep.line = line is not None and line.next_move is not None and bool(key) and previous == key

    redeals_left = position.redeals_left
    # The timer ticks in the browser while the game is under way and the page is visible; the
    # server's reading is where it starts from (see game/board/clock.py).
    running = game.status == Game.Status.PLAYING and game.started_at is not None
    shown_ms = clock.reading(game, timezone.now())
    return {
        "game": game,
        "rules": position.rules,
        "position": position,
        "fans": fans,
        "foundations": foundations,
        "selected": selected,
        "hint": hint,
        "hint_redeal": bool(hint and hint.move.is_redeal),
        "hint_reason": hint_reason,
        "message": message,
        "announcement": said or spoken or message,
        "can_undo": played.can_undo and game.status in (Game.Status.PLAYING, Game.Status.LOST),
        "can_redo": played.can_redo and game.status == Game.Status.PLAYING,
        "can_redeal": engine.REDEAL in legal,
        "can_auto": any(m.to_foundation and not m.merci for m in legal),
        "redeals_left": "unlimited" if redeals_left is None else redeals_left,
        "mercis_left": position.mercis_left,
        "merci_open": position.merci_open and game.status == Game.Status.PLAYING,
        "merci_waits": position.merci_waits and game.status == Game.Status.PLAYING,
        "elapsed_ms": shown_ms,
        "elapsed_text": clock.format_ms(shown_ms),
        "timer_running": running,
        "timer_cap_ms": clock.STRETCH_CAP_MS,
        "line": line,
        "can_peek": _can_peek(game.status),
        "board_key": key,
        "keep": keep,
        "stuck_redeal": bool(stuck) and engine.REDEAL in legal,
        "stuck_merci": bool(stuck) and any(m.merci for m in legal),
        "blocked": words.blocked(position) if game.status == Game.Status.LOST else [],
        "blocked_cards": " ".join(words.blocked_cards(position))
        if game.status == Game.Status.LOST
        else "",
        **last_move_marks(played),
        **board_links(game, line is not None and game.status != Game.Status.WON),
    }


# The site's pages that the board links to, by URL name (the menu, the info bar, the end panels).
SITE_LINKS = ("daily", "rules", "stats", "settings", "import", "deal_lookup", "home")


def board_links(game: Game, line: bool) -> dict[str, Any]:
    """The links a board shows besides its controls' `urls`: the site's pages, the deal's page,
    and for a finished game its replay and review, and the winning line's buttons when it is on
    show."""
    links: dict[str, Any] = {
        "links": {name: reverse(name) for name in SITE_LINKS},
        "deal_url": reverse("deal", args=[game.deal_number]),
    }
    if game.pk is not None and game.status != Game.Status.PLAYING:
        links["replay_url"] = reverse("replay", args=[game.replay_token])
        links["review_url"] = reverse("review", args=[game.pk])
    if game.pk is not None and line:
        links["line_urls"] = {
            "undo": reverse("undo", args=[game.pk]),
            "next": reverse("solve_next", args=[game.pk]),
            "out": reverse("solve_out", args=[game.pk]),
            "wait": reverse("solve_wait", args=[game.pk]),
        }
    return links


@dataclass
class Keep:
    """The parts of the board that the browser already has as they should be."""

    menu: bool = False
    # The whole menu, its Redo, Auto-finish and Show a win buttons included (board.js sends the
    # board's move count with each request, so a kept form's own count does not matter).
    whole_menu: bool = False
    solve_dialog: bool = False
    # The winning line's section (its key names the line and the step on show).
    line: bool = False


# The longest key a board has: eight hex digits, a dot, a move's text, a dot, eight more.
MAX_KEY = 40


def board_key(game: Game, position: engine.Position, status: str, assisted: bool) -> str:
    """A short name for a plain board (no hint, no selection) of `game` at `position`: equal
    keys, equal markup for every part that `Keep` and `FanView.kept` may leave out."""
    text = f"{game.pk}:{game.token}:{position.text}:{status}:{assisted}"
    return format(zlib.crc32(text.encode()), "08x")


def marked_key(plain: str, mark: engine.Move, line: Shown | None = None) -> str:
    """The key of the board `plain` names with a hint's or a winning line's `mark` on show: the
    plain board's key and the marked move, so that the next answer knows which fans and
    foundations the browser holds marked (`_unchanged`); with the `line` on show, a digest of
    it too (a board with the same key shows the same line, which may then be kept)."""
    if line is None:
        return f"{plain}.{mark.text}"
    text = f"{line.status}:{line.step}:{' '.join(line.line)}"
    return f"{plain}.{mark.text}.{zlib.crc32(text.encode()):08x}"


def _marks_of(previous: str) -> tuple[str, set[str]] | None:
    """The plain board's key and the places marked on the board `previous` names; None for a
    key that is no board's (a client sends it: anything it says is only compared)."""
    plain, dot, rest = previous.partition(".")
    if not dot:
        return plain, set()
    try:
        return plain, hint_keys(engine.Move.parse(rest.partition(".")[0]))
    except engine.InvalidMoveError:
        return None


def _can_peek(status: str) -> bool:
    return status in (Game.Status.PLAYING, Game.Status.LOST)


@dataclass(frozen=True, slots=True)
class _Held:
    """The board the browser holds: the game as `loaded`, its marked places, its legal moves."""

    loaded: Before
    marked: set[str]
    legal: list[engine.Move]
    moves: dict[str, list[str]]
    exact: bool = False


def _held(game: Game, loaded: Before | None, previous: str, key: str) -> _Held | None:
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
    return _Held(loaded, found[1], legal, moves_by_card(legal), exact=previous == key)


def _kept_fans(
    held: _Held, position: engine.Position, by_card: dict[str, list[str]], marks: set[str]
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


def _unchanged(
    game: Game,
    played: engine.Play,
    held: _Held,
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
        _can_peek(status),
    )
    buttons_now = (
        played.can_redo and playing,
        any(move.to_foundation and not move.merci for move in legal_now),
        _can_peek(game.status),
    )
    return Keep(
        menu=True,
        whole_menu=buttons_then == buttons_now,
        solve_dialog=(_can_peek(status), assisted) == (_can_peek(game.status), game.assisted),
    )


def announcement(
    game: Game,
    played: engine.Play,
    change: Change | None,
    *,
    hint: engine.Hint | None,
    message: str,
) -> str:
    """The live region's sentence: what the request changed, else the hint, else the message
    (an error, or a note such as "nothing to hint")."""
    if change is not None and change.action:
        said = words.change(
            played, change.seen, change.action, auto=played.auto, assisted=game.assisted
        )
        if said:
            return said
    if hint is not None:
        return words.hint(played.position, hint)
    return message


def last_move_marks(played: engine.Play) -> dict[str, Any]:
    """The last card move, as the board marks it until the next: the card (wherever it lies
    now) and the fan it left (`data-last-card`, `data-last-from` on the board, read by
    main.js, which marks them). Nothing after a redeal, or before the first move.

    >>> game = engine.Play(1)
    >>> last_move_marks(game)
    {}
    >>> move = next(m for m in game.legal_moves() if m.card is not None)
    >>> _ = game.play(move)
    >>> marks = last_move_marks(game)
    >>> marks["last_card"] == move.card.code and marks["last_from"] >= 0
    True
    """
    if not played.moves or played.moves[-1].card is None:
        return {}
    card = played.moves[-1].card
    before = played.positions_since(len(played.moves) - 1)[0]
    where = before.find(card)
    if where is None:
        return {}
    return {"last_card": card.code, "last_from": where[0]}
