"""The main site's pages and a stored game's changes: home, a deal by number, a game's page, its
hint, its changes (each through game.board.changes and game.board.actions), the fair timer's
signals, the new-game chooser and the rules page. A deal's first board lives in game/play/first.py,
"Show a win" in game/play/show_a_win_views.py; the site's board is the front end `SITE`
(game/board/fronts.py: data, its URLs, its page, its defaults).

Nothing is stored until a player plays: a browser with no session is shown a deal's first board
(`/`, `/deal/<n>/`, the daily pages) as a game that is not stored (`fronts.first_board`), whose
controls post to `/deal/<n>/<change>/` (game/play/first.py). htmx requests get the board alone,
a plain form post a 303 redirect to the full page (post/redirect/get), so every control works
without JavaScript.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.cache import patch_vary_headers
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from game import engine
from game.board import answers, asides, changes, find, hint_answer, still, store, words
from game.board.forms import NewGameForm
from game.board.fronts import SITE, first_board
from game.daily import result_box
from game.models import Game
from game.play.winrates import win_rates
from game.players import (
    HtmxHttpRequest,
    bad_request,
    remembered_rules,
    selected_card,
    session_key,
    start_game,
)

# ---------------------------------------------------------------- pages


@require_safe
def home(request: HtmxHttpRequest) -> HttpResponse:
    """Resume this browser's game in progress, or show a random deal's first board, which is not
    stored: its first move stores it (game/play/first.py), so a GET writes nothing."""
    if request.session.session_key is not None:
        game = find.current_game(session_key(request))
        if game is not None and game.status == Game.Status.PLAYING:
            return answers.answer(request, SITE, game)
    pending = first_board(store.random_deal_number(), remembered_rules(request))
    return answers.answer(request, SITE, pending, selected=selected_card(request))


@require_safe
def deal_lookup(request: HtmxHttpRequest) -> HttpResponse:
    """The deal-number field: `/deal/?number=123` goes to `/deal/123/`."""
    text = request.GET.get("number", "")
    try:
        number = engine.parse_deal_number(text)
    except engine.InvalidDealError as error:
        return bad_request(request, words.refusal_message(error))
    return HttpResponseRedirect(reverse("deal", args=[number]))


@require_http_methods(["GET", "HEAD", "POST"])
def deal(request: HtmxHttpRequest, number: str) -> HttpResponse:
    """Play deal `number` (under `?rules=` or the remembered rule set).

    GET resumes it when it is this session's game under way, asks first when another game is
    begun, and otherwise shows the deal's first board, stored by its first move: a GET writes
    nothing. The POST from the question starts the deal, abandoning the other game.
    """
    try:
        deal_number = engine.parse_deal_number(number)
    except engine.InvalidDealError as error:
        return bad_request(request, words.refusal_message(error))
    rules_name = request.GET.get("rules") or request.POST.get("rules")
    try:
        rules = engine.Rules.parse(rules_name) if rules_name else remembered_rules(request)
    except engine.InvalidRulesError as error:
        return bad_request(request, words.refusal_message(error))
    if request.method == "POST":
        return started(request, start_game(request, session_key(request), deal_number, rules))
    current = find.current_game(request.session.session_key)
    if current is not None and current.status == Game.Status.PLAYING:
        if current.deal_number == deal_number and current.rules == rules.name:
            return answers.answer(request, SITE, current)
        if current.started_at is not None:
            context = {"current": current, "deal_number": deal_number, "rules": rules}
            return render(request, "game/deal_confirm.html", context)
    # Nothing begun in the way: the deal's first board, stored by its first move (which leaves
    # an unbegun game of another deal then, game/play/first.py).
    pending = first_board(deal_number, rules)
    return answers.answer(request, SITE, pending, selected=selected_card(request))


@require_safe
def game_page(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    """One game's full page; `?sel=6C` selects a card (how tapping works without JavaScript)."""
    game = find.get_game(game_id, request.session.session_key)
    selected = selected_card(request)
    said = answers.said_before(request, game)
    return answers.answer(request, SITE, game, said, selected=selected)


@require_http_methods(["GET", "HEAD", "POST"])
def hint(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    return hint_answer.hint(request, find.get_game(game_id, request.session.session_key), SITE)


@require_POST
def game_change(request: HtmxHttpRequest, game_id: int, action: str) -> HttpResponse:
    """A stored game's change named `action` (game/board/urls.py), through game.board.changes."""
    games = find.session_games(game_id, request.session.session_key)
    return with_result_box(request, changes.change(request, games, SITE, action))


def with_result_box(request: HttpRequest, response: HttpResponse) -> HttpResponse:
    """A board answer, with the daily page's result box after it when the page that asked
    shows one that the change no longer matches (game/daily/result_box.py). A request from any
    other page names no box: it costs this header lookup."""
    if request.headers.get(result_box.STATUS_HEADER):
        return result_box.appended(request, response)
    return response


def started(request: HtmxHttpRequest, game: Game) -> HttpResponse:
    """After a POST that dealt a game: its board (htmx) or a redirect to its page."""
    if request.htmx:
        return answers.answer(request, SITE, game)
    response = HttpResponseRedirect(reverse("game", args=[game.pk]), status=303)
    patch_vary_headers(response, ["HX-Request"])
    return response


@require_POST
def game_clock(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    """The page was hidden (`pause`) or shown again (`resume`): the fair timer's two signals.

    board.js sends the pause with navigator.sendBeacon, which cannot set headers, so the CSRF
    token comes as the form field `csrfmiddlewaretoken`.
    """
    try:
        running = answers.clock_state(request)
    except engine.InvalidMoveError as error:
        return HttpResponse(words.refusal_message(error), status=400, content_type="text/plain")
    game = asides.set_clock(find.session_games(game_id, request.session.session_key), running)
    return answers.clock_response(game)


@require_http_methods(["GET", "HEAD", "POST"])
def new_game(request: HtmxHttpRequest) -> HttpResponse:
    """GET: the chooser, which also asks before leaving a game in progress. POST: deal it."""
    current = find.current_game(request.session.session_key)
    in_progress = current if current and current.status == Game.Status.PLAYING else None
    if request.method == "POST":
        form = NewGameForm(request.POST)
        if form.is_valid():
            key = session_key(request)
            rules: engine.Rules = form.cleaned_data["rules"]
            request.session["new_game"] = form.remembered()
            request.session["rules"] = rules.name
            number = form.cleaned_data["deal"] or store.random_deal_number()
            game = start_game(request, key, number, rules)
            return started(request, game)
        status = 400
    else:
        form = NewGameForm(initial=request.session.get("new_game", {}))
        status = 200
    context = {"form": form, "current": in_progress}
    response = render(request, "game/new.html", context, status=status)
    patch_vary_headers(response, ["HX-Request"])
    return response


@require_safe
def rules_page(request: HtmxHttpRequest) -> HttpResponse:
    context = {**still.rules_example(), "win_rates": win_rates()}
    return render(request, "game/rules.html", context)
