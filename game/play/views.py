"""The main site's views: its board's front end for the pipeline (game.board.pipeline), the pages
that
start and show games, "Show a win", statistics and the rules page.

Each screen is one template; htmx requests get its partial (`play.html#board`), a plain form post
gets a 303 redirect to the full page (post/redirect/get), so every control works without
JavaScript. Every change to a game goes through game.board.pipeline, which maps refusals to 400 /
409.
"""

from __future__ import annotations

import datetime as dt
import logging
from typing import Any

from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone
from django.utils.cache import patch_vary_headers
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.middleware import HtmxDetails

from game import engine, limits
from game.board import display, pipeline, store, winning_line
from game.board.played_game import Played
from game.daily import deals
from game.models import Game
from game.play.forms import NewGameForm
from game.stats import charts
from game.stats import figures as stats
from lucie.sessions import claimed_key

logger = logging.getLogger(__name__)


class HtmxHttpRequest(HttpRequest):
    """A request as django-htmx's middleware leaves it (for type checkers)."""

    htmx: HtmxDetails


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
    """store.start, counted against the rate limit on new games."""
    limits.check(request, limits.START)
    return store.start(key, deal_number, rules, daily=daily)


def _remembered_rules(request: HtmxHttpRequest) -> engine.Rules:
    try:
        return engine.Rules.parse(request.session.get("rules", engine.DEFAULT_RULES.name))
    except engine.InvalidRulesError:
        return engine.DEFAULT_RULES


def _page_context(request: HttpRequest) -> dict[str, Any]:
    """What every full game page carries besides the board: the menu's dialogs."""
    return {
        "new_form": NewGameForm(initial=request.session.get("new_game", {})),
        "today": deals.todays_deal_number(),
    }


class SiteBoard:
    """The main site's board, as the pipeline's front end (the daily page shows the same)."""

    # Rate limits count per session as well as per address.
    sessions = True

    def board(
        self,
        request: HttpRequest,
        game: Game,
        played: Played | None = None,
        *,
        status: int = 200,
        message: str = "",
        selected: str = "",
        hint: engine.Hint | None = None,
        previous: str = "",
    ) -> HttpResponse:
        """The board alone for htmx, the whole page otherwise."""
        context = self.context(
            request,
            game,
            played or game.resume(),
            selected=selected,
            hint=hint,
            message=message,
            previous=previous,
        )
        if getattr(request, "htmx", False):
            response = render(request, "game/play.html#board", context, status=status)
        else:
            context.update(_page_context(request))
            response = render(request, "game/play.html", context, status=status)
        patch_vary_headers(response, ["HX-Request"])
        return response

    def context(
        self,
        request: HttpRequest,
        game: Game,
        played: Played,
        *,
        message: str = "",
        selected: str = "",
        hint: engine.Hint | None = None,
        previous: str = "",
    ) -> dict[str, Any]:
        """What _board.html needs for this game on the site: the board, its URLs and the line
        of "Show a win" on show."""
        context = display.board_context(
            game,
            played,
            selected=selected,
            hint=hint,
            message=message,
            line=winning_line.shown(request.session, game),
            previous=previous,
        )
        context["urls"] = {
            "new": reverse("new"),
            "page": reverse("game", args=[game.pk]),
            "hint": reverse("hint", args=[game.pk]),
            "solve": reverse("solve", args=[game.pk]),
            "clock": reverse("game_clock", args=[game.pk]),
            **{name: reverse(name, args=[game.pk]) for name in pipeline.ACTIONS},
        }
        context["embed"] = False
        return context

    def after_change(
        self, request: HttpRequest, played: Played, *, created: bool = False
    ) -> HttpResponse:
        """The board (htmx) or a redirect to the game's page (post/redirect/get)."""
        game = played.row
        assert game is not None
        if getattr(request, "htmx", False):
            return self.board(request, game, played, previous=request.POST.get("v", ""))
        url = reverse("game", args=[game.pk]) + pipeline.said_query(played)
        response = HttpResponseRedirect(url, status=303)
        patch_vary_headers(response, ["HX-Request"])
        return response


SITE = SiteBoard()


def _started(request: HtmxHttpRequest, game: Game) -> HttpResponse:
    """After a POST that dealt a game: its board (htmx) or a redirect to its page."""
    if request.htmx:
        return SITE.board(request, game)
    response = HttpResponseRedirect(reverse("game", args=[game.pk]), status=303)
    patch_vary_headers(response, ["HX-Request"])
    return response


def _bad_request(request: HtmxHttpRequest, message: str, status: int = 400) -> HttpResponse:
    return render(request, "game/error.html", {"message": message}, status=status)


# ---------------------------------------------------------------- pages


@require_GET
def home(request: HtmxHttpRequest) -> HttpResponse:
    """Resume this browser's game in progress, or deal a new random one."""
    key = session_key(request)
    game = store.current_game(key)
    if game is None or game.status != Game.Status.PLAYING:
        game = start_game(request, key, store.random_deal_number(), _remembered_rules(request))
    return SITE.board(request, game)


@require_GET
def deal_lookup(request: HtmxHttpRequest) -> HttpResponse:
    """The deal-number field: `/deal/?number=123` goes to `/deal/123/`."""
    text = request.GET.get("number", "")
    try:
        number = engine.parse_deal_number(text)
    except engine.InvalidDealError as error:
        return _bad_request(request, pipeline.sentence(str(error)))
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
        return _bad_request(request, pipeline.sentence(str(error)))
    rules_name = request.GET.get("rules") or request.POST.get("rules")
    try:
        rules = engine.Rules.parse(rules_name) if rules_name else _remembered_rules(request)
    except engine.InvalidRulesError as error:
        return _bad_request(request, pipeline.sentence(str(error)))
    key = session_key(request)
    current = store.current_game(key)
    if request.method == "GET" and current is not None and current.status == Game.Status.PLAYING:
        if current.deal_number == deal_number and current.rules == rules.name:
            return SITE.board(request, current)
        if current.started_at is not None:
            context = {"current": current, "deal_number": deal_number, "rules": rules}
            return render(request, "game/deal_confirm.html", context)
    game = start_game(request, key, deal_number, rules)
    if request.method == "POST":
        return _started(request, game)
    return SITE.board(request, game)


@require_GET
def game_page(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    """One game's full page; `?sel=6C` selects a card (how tapping works without JavaScript)."""
    game = store.get_game(game_id, request.session.session_key)
    selected = request.GET.get("sel", "").strip().upper()[:3]
    played = game.resume()
    pipeline.said_before(request, played)
    return SITE.board(request, game, played, selected=selected)


@require_GET
def hint(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    return pipeline.hint(request, store.get_game(game_id, request.session.session_key), SITE)


def _change(request: HtmxHttpRequest, game_id: int, name: str) -> HttpResponse:
    games = store.session_games(game_id, claimed_key(request.session))
    return pipeline.change(request, games, name, SITE)


@require_POST
def move(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    return _change(request, game_id, "move")


@require_POST
def undo(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    return _change(request, game_id, "undo")


@require_POST
def redo(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    return _change(request, game_id, "redo")


@require_POST
def redeal(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    return _change(request, game_id, "redeal")


@require_POST
def auto_finish(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    return _change(request, game_id, "auto")


# ---------------------------------------------------------------- "Show a win"


@require_http_methods(["GET", "POST"])
def solve(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    """GET asks first (it is a peek: the game will count as played, not won); POST marks the game
    assisted, asks the solver (bounded, cached per position) and shows its verdict."""
    if request.method == "POST":
        return _solve(request, game_id)
    game = store.get_game(game_id, request.session.session_key)
    response = render(request, "game/solve_confirm.html", {"game": game})
    patch_vary_headers(response, ["HX-Request"])
    return response


def _solve(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    games = store.session_games(game_id, request.session.session_key)
    try:
        limits.check(request, limits.SOLVE)
        # The slot is taken before the game is marked: a busy site refuses the peek untouched.
        with limits.computing():
            played = pipeline.apply(request, games, "solve", _mark_assisted, session_auto=False)
            game = played.row
            assert game is not None
            # The search runs after the row is written and unlocked: it may take two seconds,
            # and a move made meanwhile only means the player has left the line
            # (winning_line.shown).
            found = winning_line.answer(game.record, played.position)
    except pipeline.REFUSALS as error:
        return pipeline.refused(request, games, error, SITE)
    winning_line.remember(request.session, game, found)
    return SITE.after_change(request, played)


def _mark_assisted(played: Played, request: HttpRequest) -> None:
    winning_line.mark_assisted(played)


def _next_on_line(played: Played, request: HttpRequest) -> None:
    winning_line.play_next(played, request.session)


def _rest_of_line(played: Played, request: HttpRequest) -> None:
    winning_line.play_out(played, request.session)


@require_POST
def solve_next(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    """Play the winning line's next move (Previous is Undo)."""
    games = store.session_games(game_id, claimed_key(request.session))
    return pipeline.change(request, games, "line", SITE, action=_next_on_line)


@require_POST
def solve_out(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    """Play the rest of the winning line in one change."""
    games = store.session_games(game_id, claimed_key(request.session))
    return pipeline.change(request, games, "line", SITE, action=_rest_of_line)


@require_POST
def game_clock(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    """The page was hidden (`pause`) or shown again (`resume`): the fair timer's two signals.

    board.js sends the pause with navigator.sendBeacon, which cannot set headers, so the CSRF
    token comes as the form field `csrfmiddlewaretoken`.
    """
    try:
        running = pipeline.clock_state(request)
    except engine.InvalidMoveError as error:
        return HttpResponse(pipeline.sentence(str(error)), status=400, content_type="text/plain")
    game = store.set_clock(store.session_games(game_id, claimed_key(request.session)), running)
    return pipeline.clock_response(game)


@require_http_methods(["GET", "POST"])
def new_game(request: HtmxHttpRequest) -> HttpResponse:
    """GET: the chooser, which also asks before leaving a game in progress. POST: deal it."""
    key = session_key(request)
    current = store.current_game(key)
    in_progress = current if current and current.status == Game.Status.PLAYING else None
    if request.method == "POST":
        form = NewGameForm(request.POST)
        if form.is_valid():
            rules: engine.Rules = form.cleaned_data["rules"]
            request.session["new_game"] = form.remembered()
            request.session["rules"] = rules.name
            number = form.cleaned_data["deal"] or store.random_deal_number()
            game = start_game(request, key, number, rules)
            return _started(request, game)
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
        return _bad_request(request, pipeline.sentence(str(error)))
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
    return render(request, "game/rules.html", display.rules_example())
