"""Thin views: load the game, guard, apply through the engine (game.play), save, render.

Each screen is one template; htmx requests get its partial (`play.html#board`), a plain form post
gets a 303 redirect to the full page (post/redirect/get), so every control works without
JavaScript. Engine errors become a 400 in one place: `board_action`.
"""

from __future__ import annotations

import datetime as dt
import functools
import logging
from collections.abc import Callable
from typing import Any

from django.http import HttpRequest, HttpResponse, HttpResponseRedirect, JsonResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone
from django.utils.cache import patch_vary_headers
from django.utils.http import urlencode
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.middleware import HtmxDetails

from game import (
    announce,
    board,
    charts,
    clock,
    daily,
    engine,
    hints,
    limits,
    peek,
    play,
    prefs,
    stats,
)
from game.forms import NewGameForm
from game.models import Game
from game.played import Played

logger = logging.getLogger(__name__)


class HtmxHttpRequest(HttpRequest):
    """A request as django-htmx's middleware leaves it (for type checkers)."""

    htmx: HtmxDetails


STALE_MESSAGE = "That board was out of date, so nothing was played. Here is the game as it stands."


# ---------------------------------------------------------------- helpers


def session_key(request: HttpRequest) -> str:
    """This browser's session key, creating the session (and its cookie) if need be."""
    if not request.session.session_key:
        limits.check(request, limits.SESSION)
        request.session["player"] = True
        request.session.save()
    key = request.session.session_key
    assert key is not None
    return key


def start_game(
    request: HttpRequest, key: str, deal_number: int, rules: engine.Rules, *, daily: bool = False
) -> Game:
    """play.start, counted against the rate limit on new games."""
    limits.check(request, limits.START)
    return play.start(key, deal_number, rules, daily=daily)


def _remembered_rules(request: HtmxHttpRequest) -> engine.Rules:
    try:
        return engine.Rules.parse(request.session.get("rules", engine.DEFAULT_RULES.name))
    except engine.InvalidRulesError:
        return engine.DEFAULT_RULES


def _sentence(text: str) -> str:
    text = text.strip()
    return text[:1].upper() + text[1:] + ("" if text.endswith((".", "!", "?")) else ".")


def _page_context(request: HtmxHttpRequest) -> dict[str, Any]:
    """What every full game page carries besides the board: the menu's dialogs."""
    return {
        "new_form": NewGameForm(initial=request.session.get("new_game", {})),
        "today": daily.todays_deal_number(),
    }


def render_board(
    request: HtmxHttpRequest,
    game: Game,
    played: Played | None = None,
    *,
    status: int = 200,
    message: str = "",
    selected: str = "",
    hint: engine.Hint | None = None,
) -> HttpResponse:
    """The board alone for htmx, the whole page otherwise."""
    context = board.board_context(
        game,
        played or game.resume(),
        selected=selected,
        hint=hint,
        message=message,
        line=peek.shown(request.session, game),
    )
    context["today"] = daily.todays_deal_number()
    if request.htmx:
        response = render(request, "game/play.html#board", context, status=status)
    else:
        context.update(_page_context(request))
        response = render(request, "game/play.html", context, status=status)
    patch_vary_headers(response, ["HX-Request"])
    return response


def _after_change(
    request: HtmxHttpRequest, game: Game, played: Played | None = None
) -> HttpResponse:
    """The board (htmx) or a redirect to the page. `played` is the engine game just saved, when
    the caller has it, so that the board is not replayed from the log a second time."""
    if request.htmx:
        return render_board(request, game, played)
    url = reverse("game", args=[game.pk]) + said_query(played)
    response = HttpResponseRedirect(url, status=303)
    patch_vary_headers(response, ["HX-Request"])
    return response


def said_query(played: Played | None) -> str:
    """Without JavaScript the change is announced by the page the post redirects to, which is
    told what was done and from which move count (`?did=move&from=17`), so that it can say it."""
    if not isinstance(played, Played) or not played.action:
        return ""
    return "?" + urlencode({"did": played.action, "from": str(played.seen)})


def said_before(request: HttpRequest, played: Played) -> None:
    """Read `said_query`'s fields back onto a freshly replayed game; anything odd says nothing."""
    action = request.GET.get("did", "")
    seen = request.GET.get("from", "")
    if action in announce.ACTIONS and seen.isascii() and seen.isdigit() and len(seen) < 6:
        played.action = action
        played.seen = int(seen)


def _seen_moves(request: HtmxHttpRequest) -> int:
    """The move count of the board the request was made on (the form's `n`)."""
    text = request.POST.get("n", "")
    # A move count has a handful of digits (see limits.MAX_GAME_MOVES); int() of thousands of
    # digits is slow, and past 4,300 it raises.
    if not text.isascii() or not text.isdigit() or len(text) > 9:
        raise engine.InvalidMoveError("the request did not say which board it was made on")
    return int(text)


# A changing view returns the engine game it changed and saved (its row in `played.row`).
Action = Callable[[HtmxHttpRequest, int], Played]


def board_action(view: Action) -> Callable[[HtmxHttpRequest, int], HttpResponse]:
    """Turn a changing view's outcome into a response: the one place engine errors become a 400,
    and a stale board a 409, both with the game as it stands and nothing saved."""

    @functools.wraps(view)
    def wrapper(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
        try:
            played = view(request, game_id)
        except play.StaleBoardError as error:
            return render_board(request, error.game, status=409, message=STALE_MESSAGE)
        except (engine.IllegalMoveError, engine.InvalidMoveError) as error:
            game = play.get_game(game_id, request.session.session_key)
            return render_board(request, game, status=400, message=_sentence(str(error)))
        except limits.REFUSED as refused:
            game = play.get_game(game_id, request.session.session_key)
            return refused_board(render_board, request, game, refused)
        assert played.row is not None
        return _after_change(request, played.row, played)

    return wrapper


def refused_board(
    render: Callable[..., HttpResponse],
    request: HtmxHttpRequest,
    game: Game,
    refused: limits.Refused,
    played: Played | None = None,
) -> HttpResponse:
    """The board as it stands, saying the request was refused (a rate limit or busy) and when
    to try again (`Retry-After`); board.js shows it like a refused move."""
    response = render(request, game, played, status=refused.status, message=refused.message)
    response["Retry-After"] = str(refused.retry_after)
    return response


def wants_auto(request: HttpRequest, *, session: bool = True) -> bool:
    """The auto-move setting for this request: the form's `auto` field (board.js sends the
    browser's setting), or without one the setting kept in the session (JavaScript off)."""
    field = request.POST.get("auto")
    if field in ("0", "1"):
        return field == "1"
    return session and prefs.from_session(request).auto_move


def _change(
    request: HtmxHttpRequest, game_id: int, name: str, action: Callable[[Played], None]
) -> Played:
    seen = _seen_moves(request)
    with play.changing(game_id, request.session.session_key, seen) as played:
        played.action = name
        action(played)
        play.auto_move(played, name, wants_auto(request))
    return played


def clock_response(game: Game) -> JsonResponse:
    """The clock as the server keeps it, for board.js to tick from."""
    running = game.status == Game.Status.PLAYING and game.clock_since is not None
    reading = clock.reading(game, timezone.now())
    response = JsonResponse({"elapsed_ms": reading, "running": running})
    response["Cache-Control"] = "no-store"
    return response


def clock_state(request: HttpRequest) -> bool:
    """`state=resume` (the page is visible) or `state=pause` (hidden); anything else is refused."""
    state = request.POST.get("state", "")
    if state not in ("pause", "resume"):
        raise engine.InvalidMoveError("a clock request says pause or resume")
    return state == "resume"


def _bad_request(request: HtmxHttpRequest, message: str, status: int = 400) -> HttpResponse:
    return render(request, "game/error.html", {"message": message}, status=status)


# ---------------------------------------------------------------- pages


@require_GET
def home(request: HtmxHttpRequest) -> HttpResponse:
    """Resume this browser's game in progress, or deal a new random one."""
    key = session_key(request)
    game = play.current_game(key)
    if game is None or game.status != Game.Status.PLAYING:
        game = start_game(request, key, play.random_deal_number(), _remembered_rules(request))
    return render_board(request, game)


@require_GET
def deal_lookup(request: HtmxHttpRequest) -> HttpResponse:
    """The deal-number field: `/deal/?number=123` goes to `/deal/123/`."""
    text = request.GET.get("number", "")
    try:
        number = engine.parse_deal_number(text)
    except engine.InvalidDealError as error:
        return _bad_request(request, _sentence(str(error)))
    return HttpResponseRedirect(reverse("deal", args=[number]))


@require_http_methods(["GET", "POST"])
def deal(request: HtmxHttpRequest, number: str) -> HttpResponse:
    """Play deal `number` (under `?rules=` or the remembered rule set).

    GET resumes it or starts it; if another game is under way it asks first, and the POST from
    that question starts the deal, abandoning the other game.
    """
    try:
        deal_number = engine.parse_deal_number(number)
    except engine.InvalidDealError as error:
        return _bad_request(request, _sentence(str(error)))
    rules_name = request.GET.get("rules") or request.POST.get("rules")
    try:
        rules = engine.Rules.parse(rules_name) if rules_name else _remembered_rules(request)
    except engine.InvalidRulesError as error:
        return _bad_request(request, _sentence(str(error)))
    key = session_key(request)
    current = play.current_game(key)
    if request.method == "GET" and current is not None and current.status == Game.Status.PLAYING:
        if current.deal_number == deal_number and current.rules == rules.name:
            return render_board(request, current)
        if current.started_at is not None:
            context = {"current": current, "deal_number": deal_number, "rules": rules}
            return render(request, "game/deal_confirm.html", context)
    game = start_game(request, key, deal_number, rules)
    if request.method == "POST":
        return _after_change(request, game)
    return render_board(request, game)


@require_GET
def game_page(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    """One game's full page; `?sel=6C` selects a card (how tapping works without JavaScript)."""
    game = play.get_game(game_id, request.session.session_key)
    selected = request.GET.get("sel", "").strip().upper()[:3]
    played = game.resume()
    said_before(request, played)
    return render_board(request, game, played, selected=selected)


@require_GET
def hint(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    game = play.get_game(game_id, request.session.session_key)
    played = game.resume()
    try:
        found = computed_hint(request, game, played)
    except limits.REFUSED as refused:
        return refused_board(render_board, request, game, refused, played)
    if found is None:
        message = "There is nothing to hint: the game is over."
        return render_board(request, game, played, message=message)
    return render_board(request, game, played, hint=found, message=hint_message(played, found))


def computed_hint(
    request: HttpRequest, game: Game, played: Played, *, session: bool = True
) -> engine.Hint | None:
    """The engine's hint for a game in progress (None when it is over), counted against the hint
    rate limit (per session too, unless `session` is false: the embed never reads one) and
    searched in a compute slot unless the cache has it (game/hints.py)."""
    if game.status != Game.Status.PLAYING:
        return None
    limits.check(request, limits.HINT, session=session)
    return hints.hint_for(played.record, played.position)


def hint_message(played: Played, found: engine.Hint) -> str:
    """What the hint says: the move, and plainly when it is a redeal or the merci (naming the
    buried card and the fan it lies in). Its reason waits behind "Why?" on the board."""
    move = found.move
    if move.is_redeal:
        return "Hint: Redeal now."
    if move.merci and move.card is not None:
        where = played.position.find(move.card)
        fan = f", buried in fan {where[0] + 1}," if where is not None else ""
        if move.onto is not None:
            goes = f"onto the {move.onto.name}"
        elif move.empty_fan is not None:
            goes = "into the empty fan"
        else:
            goes = "to its foundation"
        return f"Hint: take the merci: the {move.card.name}{fan} {goes}."
    return f"Hint: {move.describe()}."


@require_POST
@board_action
def move(request: HtmxHttpRequest, game_id: int) -> Played:
    text = request.POST.get("move", "")
    return _change(request, game_id, "move", lambda played: play.play_move(played, text))


@require_POST
@board_action
def undo(request: HtmxHttpRequest, game_id: int) -> Played:
    return _change(request, game_id, "undo", play.undo)


@require_POST
@board_action
def redo(request: HtmxHttpRequest, game_id: int) -> Played:
    return _change(request, game_id, "redo", play.redo)


@require_POST
@board_action
def redeal(request: HtmxHttpRequest, game_id: int) -> Played:
    return _change(request, game_id, "redeal", play.redeal)


@require_POST
@board_action
def auto_finish(request: HtmxHttpRequest, game_id: int) -> Played:
    return _change(request, game_id, "auto", play.auto_finish)


# ---------------------------------------------------------------- "Show a win"


@require_http_methods(["GET", "POST"])
def solve(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    """GET asks first (it is a peek: the game will count as played, not won); POST marks the game
    assisted, asks the solver (bounded, cached per position) and shows its verdict."""
    if request.method == "POST":
        return _solve(request, game_id)
    game = play.get_game(game_id, request.session.session_key)
    response = render(request, "game/solve_confirm.html", {"game": game})
    patch_vary_headers(response, ["HX-Request"])
    return response


@board_action
def _solve(request: HtmxHttpRequest, game_id: int) -> Played:
    seen = _seen_moves(request)
    limits.check(request, limits.SOLVE)
    # The slot is taken before the game is marked: a busy site refuses the peek untouched.
    with limits.computing():
        with play.changing(game_id, request.session.session_key, seen) as played:
            played.action = "solve"
            peek.mark_assisted(played)
        game = played.row
        assert game is not None
        # The search runs after the row is written and unlocked: it may take two seconds, and a
        # move made meanwhile only means the player has left the line (see peek.shown).
        found = peek.answer(game.record, played.position)
    peek.remember(request.session, game, found)
    return played


@require_POST
@board_action
def solve_next(request: HtmxHttpRequest, game_id: int) -> Played:
    """Play the winning line's next move (Previous is Undo)."""
    return _change(request, game_id, "line", lambda played: peek.play_next(played, request.session))


@require_POST
@board_action
def solve_out(request: HtmxHttpRequest, game_id: int) -> Played:
    """Play the rest of the winning line in one change."""
    return _change(request, game_id, "line", lambda played: peek.play_out(played, request.session))


@require_POST
def game_clock(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    """The page was hidden (`pause`) or shown again (`resume`): the fair timer's two signals.

    board.js sends the pause with navigator.sendBeacon, which cannot set headers, so the CSRF
    token comes as the form field `csrfmiddlewaretoken`.
    """
    try:
        running = clock_state(request)
    except engine.InvalidMoveError as error:
        return HttpResponse(_sentence(str(error)), status=400, content_type="text/plain")
    game = play.set_clock(play.session_games(game_id, request.session.session_key), running)
    return clock_response(game)


@require_http_methods(["GET", "POST"])
def new_game(request: HtmxHttpRequest) -> HttpResponse:
    """GET: the chooser, which also asks before leaving a game in progress. POST: deal it."""
    key = session_key(request)
    current = play.current_game(key)
    in_progress = current if current and current.status == Game.Status.PLAYING else None
    if request.method == "POST":
        form = NewGameForm(request.POST)
        if form.is_valid():
            rules: engine.Rules = form.cleaned_data["rules"]
            request.session["new_game"] = form.remembered()
            request.session["rules"] = rules.name
            number = form.cleaned_data["deal"] or play.random_deal_number()
            game = start_game(request, key, number, rules)
            return _after_change(request, game)
        status = 400
    else:
        form = NewGameForm(initial=request.session.get("new_game", {}))
        status = 200
    context = {"form": form, "current": in_progress}
    response = render(request, "game/new.html", context, status=status)
    patch_vary_headers(response, ["HX-Request"])
    return response


STATS_SINCE = "stats_since"


def _stats_since(request: HttpRequest) -> dt.datetime | None:
    """When this browser last reset its statistics (games begun before then no longer count)."""
    text = request.session.get(STATS_SINCE)
    if not isinstance(text, str):
        return None
    try:
        return dt.datetime.fromisoformat(text)
    except ValueError:
        return None


@require_GET
def stats_page(request: HtmxHttpRequest) -> HttpResponse:
    """Numbers and pictures for one rule set (`?rules=nomerci`; the default rules without it) or
    for all together (`?rules=all`)."""
    try:
        rules = stats.parse_rules_choice(request.GET.get("rules", ""))
    except engine.InvalidRulesError as error:
        return _bad_request(request, _sentence(str(error)))
    key = request.session.session_key
    since = _stats_since(request)
    figures = stats.for_session(key, rules, since)
    context = {
        "stats": figures,
        "rules": rules or "all",
        "tabs": stats.rule_set_tabs(key, rules, since),
        "since": since,
        "charts": charts.for_stats(figures),
    }
    template = "game/stats.html#stats" if request.htmx else "game/stats.html"
    response = render(request, template, context)
    patch_vary_headers(response, ["HX-Request"])
    return response


@require_http_methods(["GET", "POST"])
def stats_reset(request: HtmxHttpRequest) -> HttpResponse:
    """GET asks (the page the reset button leads to without JavaScript); POST resets: from now on
    only games begun after this moment count. The games stay (daily figures, replay links)."""
    if request.method == "POST":
        if request.session.session_key:
            request.session[STATS_SINCE] = timezone.now().isoformat()
        return HttpResponseRedirect(reverse("stats"), status=303)
    return render(request, "game/stats_reset.html")


@require_GET
def rules_page(request: HtmxHttpRequest) -> HttpResponse:
    return render(request, "game/rules.html", board.rules_example())
