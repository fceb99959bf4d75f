"""A change to a game, for either front end: read the request's values (game/board/forms.py),
then in one transaction (`run`, the only place it is written) read the game under its row lock,
or store a first board's game, make the change (game/board/actions.py, which never see a
request) and save it; then answer (game/board/answers.py). A refused request becomes its status
and message, with the game as it stands and nothing saved: a stale board is a 409, a move against
the rules or a malformed request a 400, a rate limit or a busy site a 429 or 503.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.utils.cache import patch_vary_headers
from django_htmx.http import replace_url

from game import engine
from game.board import actions, find, forms, store
from game.board.actions import Change
from game.board.answers import answer, refused_board, said_query
from game.board.forms import Posted
from game.board.fronts import Front, board_urls
from game.models import Game
from game.ops import limits

# What a refused request may raise on its way through a change: a stale board, a move against
# the rules or a malformed request, a rate limit met or every compute slot taken (game.ops.limits).
REFUSALS = (
    store.StaleBoardError,
    engine.IllegalMoveError,
    engine.InvalidMoveError,
    *limits.REFUSED,
)


@dataclass(frozen=True, slots=True)
class FirstRow:
    """A deal's first board (`pending`, not stored), which its first change stores in that
    change's transaction, with the hints already shown on it (`hints`, and `hint_places` of
    them shown to their second stage): for the request's session (made then if need be), or on
    a front end without sessions, for no session (the embed's game, found by its token). A
    refused change stores neither the game nor the session."""

    pending: Game
    hints: int = 0
    hint_places: int = 0


def _stored(request: HttpRequest, front: Front, first: FirstRow) -> Game:
    pending = first.pending
    if not front.sessions:
        return store.start_unattached(pending.deal_number, pending.engine_rules)
    daily = pending.dealt_by_daily
    return store.start(
        store.session_key(request),
        pending.deal_number,
        pending.engine_rules,
        daily=daily,
        network=limits.network_tag(request) if daily else "",
        hints=first.hints,
        hint_places=first.hint_places,
        strict=pending.strict,
    )


def read(request: HttpRequest) -> Posted:
    """The change request's values (game.board.forms); InvalidMoveError when malformed."""
    return forms.read(request.POST)


def wants_auto(request: HttpRequest, posted: Posted, front: Front) -> bool:
    """The auto-move setting for this request: the form's `auto` field (board.js sends the
    browser's setting), or without one the settings the front end keeps in the session (the
    site's, game/play/prefs.py; the embed keeps none: no auto moves)."""
    if posted.auto is not None:
        return posted.auto
    if not front.settings_key:
        return False
    kept = request.session.get(front.settings_key)
    return isinstance(kept, dict) and kept.get("auto_move") is True


def perform(request: HttpRequest, front: Front, action: str, row: Game, posted: Posted) -> Change:
    """The change named `action` made to `row` (read under its lock by the caller's transaction):
    one of CHANGES, "show_a_win" (Show a win asked), "show_a_win_next" and "show_a_win_out" (the
    next move of Show a win's line on show, or all of them). The auto-move setting follows a move, a
    redeal and a redo (never an undo, which takes auto moves back)."""
    seen = posted.seen
    if action == "move":
        return actions.play(row, seen, posted.move(), auto=wants_auto(request, posted, front))
    if action == "undo":
        return actions.undo(row, seen)
    if action == "redo":
        return actions.redo(row, seen, auto=wants_auto(request, posted, front))
    if action == "redeal":
        return actions.redeal(row, seen, auto=wants_auto(request, posted, front))
    if action == "auto":
        return actions.auto_finish(row, seen)
    if action == "show_a_win":
        return actions.show_a_win(row, seen)
    if action in ("show_a_win_next", "show_a_win_out"):
        to_the_end = action == "show_a_win_out"
        return actions.show_a_win_next(row, seen, request.session, to_the_end=to_the_end)
    raise Http404("no such change")


def run(
    request: HttpRequest, front: Front, action: str, games: find.Games | FirstRow, posted: Posted
) -> Change:
    """The change transaction, the one place it is written: the game `games` names read under
    its row lock (or, for a `FirstRow`, stored now), the change named `action` made and saved,
    its end and counters with it (game/ending.py, called by the save). A write the database
    refuses becomes limits.Unsaved; any refusal rolls everything back."""
    with store.saving(), transaction.atomic():
        if isinstance(games, FirstRow):
            done = perform(request, front, action, _stored(request, front, games), posted)
            # Counted only for a change the rules allow: a refused one stores nothing.
            limits.check(request, limits.START, session=front.sessions)
            done.created = True
            return done
        return perform(request, front, action, store.locked(games), posted)


def change(request: HttpRequest, games: find.Games, front: Front, action: str) -> HttpResponse:
    """The whole view path of a change to a stored game: read the request, `run` the change,
    then the answer, or the refusal with the game as it stands."""
    try:
        posted = read(request)
        done = run(request, front, action, games, posted)
    except REFUSALS as error:
        return refused(request, games, error, front)
    return changed(request, front, done, posted.previous)


def changed(request: HttpRequest, front: Front, done: Change, previous: str) -> HttpResponse:
    """The answer to a change made: the board (htmx), or a 303 to the game's page
    (post/redirect/get) that says what was done. After a deal's first change the embed's frame
    address names the game, so that reloading the frame keeps it."""
    page = board_urls(front, done.row)["page"]
    if getattr(request, "htmx", False):
        response = answer(request, front, done.row, done, previous=previous)
        if done.created and front.embed:
            replace_url(response, page)
        return response
    response = HttpResponseRedirect(page + said_query(done), status=303)
    patch_vary_headers(response, ["HX-Request"])
    return response


def refused(
    request: HttpRequest, games: find.Games, error: Exception, front: Front
) -> HttpResponse:
    """The board as it stands, with the refusal's status and message."""
    game = error.game if isinstance(error, store.StaleBoardError) else find.found(games)
    return refused_board(request, game, error, front)
