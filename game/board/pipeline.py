"""The views' side of a change to a game, for either front end: the main site (whose board the
daily page shows too) and the embed.

A view names the games it may touch (by session, or by token for the embed) and the change; this
module reads the request's values (game.board.forms), runs the change (game.board.actions, which
never see a request) and hands the result to the front end to render. A refused request becomes
its status and message here and nowhere else: a stale board is a 409, a move against the rules
or a malformed request a 400, a rate limit or a busy site a 429 or 503, each shown with the game
as it stands and nothing saved. The hint, the "said" query of a page without JavaScript and the
fair timer's signals are read here too.

A front end (`Front`) says only how its board is drawn and where a plain form post goes after a
change; game.play.site is the site's, game.embed.front the embed's.
"""

from __future__ import annotations

from typing import Protocol

from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.utils import timezone
from django.utils.http import urlencode

from game import engine, limits
from game.board import actions, asides, clock, find, forms, hints, store, words
from game.board.actions import Change
from game.board.forms import Posted
from game.models import Game

# The stale board's msgid (game.board.messages words it in the page's language).
STALE_MESSAGE = words.STALE

# What a refused request may raise on its way through the pipeline: a stale board, a move against
# the rules or a malformed request, a rate limit met or every compute slot taken (game.limits).
REFUSALS = (
    store.StaleBoardError,
    engine.IllegalMoveError,
    engine.InvalidMoveError,
    *limits.REFUSED,
)


class Front(Protocol):
    """How a front end draws its board and answers a change."""

    # Whether its requests have a session (rate limits count per session too).
    sessions: bool

    def auto_move(self, request: HttpRequest) -> bool:
        """The auto-move setting when the request does not say it (JavaScript off)."""
        ...

    def board(
        self,
        request: HttpRequest,
        game: Game,
        change: Change | None = None,
        *,
        status: int = 200,
        message: str = "",
        selected: str = "",
        hint: engine.Hint | None = None,
        previous: str = "",
        spoken: str = "",
    ) -> HttpResponse: ...

    def after_change(self, request: HttpRequest, change: Change) -> HttpResponse: ...


# The changes a board's URLs name (`/game/<id>/<name>/`, `/deal/<n>/<name>/`, the embed's).
ACTIONS = ("move", "undo", "redo", "redeal", "auto")


def read(request: HttpRequest) -> Posted:
    """The change request's values (game.board.forms); InvalidMoveError when malformed."""
    return forms.read(request.POST)


def wants_auto(request: HttpRequest, posted: Posted, front: Front) -> bool:
    """The auto-move setting for this request: the form's `auto` field (board.js sends the
    browser's setting), or without one the front end's (the site keeps it in the session)."""
    if posted.auto is not None:
        return posted.auto
    return front.auto_move(request)


def perform(request: HttpRequest, front: Front, action: str, row: Game, posted: Posted) -> Change:
    """The change named `action` made to `row` (read under its lock by the caller's
    transaction): one of ACTIONS, "solve" (Show a win asked), "line" and "line_all" (the next
    move of the winning line on show, or all of them). The auto-move setting follows a move, a
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
    if action == "solve":
        return actions.show_a_win(row, seen)
    if action in ("line", "line_all"):
        to_the_end = action == "line_all"
        return actions.play_line(row, seen, request.session, to_the_end=to_the_end)
    raise Http404("no such change")


def change(request: HttpRequest, games: find.Games, front: Front, action: str) -> HttpResponse:
    """The whole view path of a change: read the request; in one transaction, read the game
    under its row lock, make the change and save it; then the front end's answer, or the
    refusal with the game as it stands (the transaction rolled back: nothing saved)."""
    try:
        posted = read(request)
        with store.saving(), transaction.atomic():
            done = perform(request, front, action, store.locked(games), posted)
    except REFUSALS as error:
        return refused(request, games, error, front)
    return front.after_change(request, done)


def refused(
    request: HttpRequest, games: find.Games, error: Exception, front: Front
) -> HttpResponse:
    """The board as it stands, with the refusal's status and message."""
    game = error.game if isinstance(error, store.StaleBoardError) else find.found(games)
    return refused_board(request, game, error, front)


def refused_board(
    request: HttpRequest,
    game: Game,
    error: Exception,
    front: Front,
    change: Change | None = None,
) -> HttpResponse:
    """`game`'s board saying why the request was refused; a rate limit or a busy site also says
    when to try again (`Retry-After`), and board.js shows it like a refused move."""
    status, message = refusal(error)
    # A malformed request: the board's message quotes its text (cut short, engine.moves.quoted),
    # and the live region says it once.
    malformed = isinstance(error, engine.InvalidMoveError)
    spoken = words.malformed_spoken() if malformed else ""
    response = front.board(request, game, change, status=status, message=message, spoken=spoken)
    if isinstance(error, limits.REFUSED):
        response["Retry-After"] = str(error.retry_after)
    return response


def refusal(error: Exception) -> tuple[int, str]:
    """The status and the player's message (in the page's language) for a refused request."""
    if isinstance(error, store.StaleBoardError):
        status = 409
    elif isinstance(error, limits.REFUSED):
        status = error.status
    else:
        status = 400
    return status, words.refusal_message(error)


def hint(request: HttpRequest, game: Game, front: Front) -> HttpResponse:
    """The board with the engine's hint marked and said, or why there is none."""
    # Nothing changes: the board as it stands is the one the browser holds (its key, `v`), so
    # the answer may leave out the fans the hint's marks leave alone.
    shown = Change.of(game)
    previous = request.GET.get("v", "") if getattr(request, "htmx", False) else ""
    try:
        found = computed_hint(request, game, shown.played, session=front.sessions)
    except limits.REFUSED as error:
        return refused_board(request, game, error, front, shown)
    if request.GET.get("peek") == "1":
        # Looked up ahead of a press (static/js/board/press.js), so that the press lights it in
        # its own frame: shown to no one yet, so not counted. The press asks again (from the
        # cache) and is counted then.
        said = words.hint_message(shown.played.position, found) if found else ""
        return JsonResponse({"move": found.move.text if found else "", "message": said})
    if found is None:
        message = words.nothing_to_hint()
        return front.board(request, game, shown, message=message)
    if game.pk is not None:
        # A hint shown: the game can no longer be a clean win. One UPDATE, no row lock: a move
        # saving meanwhile writes only the columns it changed.
        asides.count_hint(game)
    elif front.sessions and request.session.session_key:
        # A deal's first board is not stored yet: the session remembers the hint, and the first
        # move counts it (game.play.first). A browser with no session stores nothing, so a hint
        # before its very first move is not counted.
        request.session[FIRST_HINT] = first_hint_name(game)
    message = words.hint_message(shown.played.position, found)
    return front.board(request, game, shown, hint=found, message=message, previous=previous)


FIRST_HINT = "first_hint"


def first_hint_name(game: Game) -> str:
    """What the session keeps of a hint on a deal's first board: the deal and its rules."""
    return f"{game.rules} {game.deal_number}"


def computed_hint(
    request: HttpRequest, game: Game, played: engine.Play, *, session: bool = True
) -> engine.Hint | None:
    """The engine's hint for a game in progress (None when it is over): from the cache, or
    counted against the hint rate limit (per session too, unless `session` is false: the embed
    never reads one) and searched in a compute slot (game/board/hints.py)."""
    if game.status != Game.Status.PLAYING:
        return None

    def count() -> None:
        limits.check(request, limits.HINT, session=session)

    return hints.hint_for(played.record, played.position, before_search=count)


# ---------------------------------------------------------------- the live region without htmx


def said_query(change: Change | None) -> str:
    """Without JavaScript the change is announced by the page the post redirects to, which is
    told what was done and from which move count (`?did=move&from=17`), so that it can say it."""
    if change is None or change.action not in words.ACTIONS:
        return ""
    return "?" + urlencode({"did": change.action, "from": str(change.seen)})


def said_before(request: HttpRequest, game: Game) -> Change | None:
    """What `said_query`'s fields say was done to `game`, freshly loaded; anything odd, None."""
    action = request.GET.get("did", "")
    seen = request.GET.get("from", "")
    if action in words.ACTIONS and seen.isascii() and seen.isdigit() and len(seen) < 6:
        return Change(game, game.resume(), action, int(seen))
    return None


# ---------------------------------------------------------------- the fair timer's two signals


def clock_state(request: HttpRequest) -> bool:
    """`state=resume` (the page is visible) or `state=pause` (hidden); anything else is refused."""
    state = request.POST.get("state", "")
    if state not in ("pause", "resume"):
        raise engine.InvalidMoveError("a clock request says pause or resume")
    return state == "resume"


def clock_response(game: Game) -> JsonResponse:
    """The clock as the server keeps it, for board.js to tick from."""
    running = game.status == Game.Status.PLAYING and game.clock_since is not None
    reading = clock.reading(game, timezone.now())
    response = JsonResponse({"elapsed_ms": reading, "running": running})
    response["Cache-Control"] = "no-store"
    return response
