"""A board's one answer, rendered once: the board alone for htmx, inside the front end's page
otherwise (`answer`); a refused request's answer, with its status and message, nothing saved
(`refused_board`); what the page after a post/redirect/get says was done (`said_query`,
`said_before`); and the fair timer's two signals (`clock_state`, `clock_response`).

The board itself is built in game/board/drawn.py from small values.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.template import engines
from django.utils import timezone
from django.utils.cache import patch_vary_headers
from django.utils.http import urlencode

from game import deals, engine
from game.board import clock, forms, store, words
from game.board.actions import Change
from game.board.drawn import Drawing, board
from game.board.fronts import Front
from game.models import Game
from game.ops import limits

# The stale board's msgid (game.board.words words it in the page's language).
STALE_MESSAGE = words.STALE

# The board's template (Jinja2: game/jinja.py), for the site, the daily page and the embed.
BOARD_TEMPLATE = "board/board.jinja"


def answer(
    request: HttpRequest,
    front: Front,
    game: Game,
    change: Change | None = None,
    *,
    status: int = 200,
    message: str = "",
    selected: str = "",
    hint: engine.Hint | None = None,
    hint_stage: int = 2,
    previous: str = "",
    spoken: str = "",
) -> HttpResponse:
    """The one answer of a board: `game`'s `Board` (after `change`, with `hint` marked to its
    `hint_stage` or the card `selected`, saying `message`), rendered once: the board alone for
    htmx, inside the front end's page otherwise."""
    played = change.played if change is not None else game.resume()
    asked = Drawing(change, selected, hint, message, spoken, previous, hint_stage)
    drawn = board(request, front, game, played, asked)
    context = drawn.context()
    if getattr(request, "htmx", False):
        html = engines["jinja2"].get_template(BOARD_TEMPLATE).render(context, request)
        response = HttpResponse(html, status=status)
    else:
        if front.sessions:
            context["new_form"] = forms.NewGameForm(initial=request.session.get("new_game", {}))
            context["today"] = deals.todays_deal_number()
        response = render(request, front.page_template, context, status=status)
    patch_vary_headers(response, ["HX-Request"])
    return response


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
    response = answer(request, front, game, change, status=status, message=message, spoken=spoken)
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


# ---------------------------------------------------------------- the live region without htmx


def said_query(change: Change | None) -> str:
    """Without JavaScript the change is announced by the page the post redirects to, which is
    told what was done and from which move count (`?did=move&from=17`), so that it can say it."""
    if change is None or change.action not in words.SAID_CHANGES:
        return ""
    return "?" + urlencode({"did": change.action, "from": str(change.seen)})


def said_before(request: HttpRequest, game: Game) -> Change | None:
    """What `said_query`'s fields say was done to `game`, freshly loaded; anything odd, None."""
    action = request.GET.get("did", "")
    seen = request.GET.get("from", "")
    if action in words.SAID_CHANGES and seen.isascii() and seen.isdigit() and len(seen) < 6:
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
