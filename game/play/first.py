"""A deal's first board, which is not stored: its hint, "Show a win", and its first change, which
stores the session and the game with it in one transaction (`_store_first`). A
refused one (stale, illegal, malformed, rate-limited) stores nothing, so page views by strangers
and crawlers cost no row.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.utils.cache import patch_vary_headers
from django.utils.http import urlencode
from django.views.decorators.http import require_http_methods, require_POST
from django_htmx.http import HttpResponseClientRedirect

from game import engine
from game.board import answers, changes, find, hint_answer, show_a_win, show_a_win_job, words
from game.board.actions import Change
from game.board.forms import Posted
from game.board.fronts import DAILY_FIELD, SITE, board_urls, first_board
from game.models import Game
from game.ops import limits, searches
from game.play.show_a_win_views import show_a_win_stored
from game.play.views import with_result_box
from game.players import (
    HtmxHttpRequest,
    bad_request,
    remembered_rules,
    strict_mode,
)


def _first_board_of(request: HtmxHttpRequest, number: str) -> Game:
    """The first board a request under `/deal/<n>/` names: its deal, `?rules=` (or the
    remembered rule set) and `?daily=1`. Raises InvalidDealError or InvalidRulesError."""
    deal_number = engine.parse_deal_number(number)
    name = request.GET.get("rules", "")
    rules = engine.Rules.parse(name) if name else remembered_rules(request)
    pending = first_board(deal_number, rules, daily=request.GET.get(DAILY_FIELD) == "1")
    # Strict mode as the player's setting stands: the first change keeps it for the whole game.
    pending.strict = strict_mode(request)
    return pending


def _game_under_way(request: HttpRequest, pending: Game) -> Game | HttpResponse | None:
    """What a first board's change meets in this session: its own game of that deal and rules
    under way (a double submit, or a second tab: the change goes to that game, where the move
    count tells a stale board), or a begun game of another deal, which is never left without
    asking (the answer goes to the deal's page, which asks). None: nothing in the way. A daily
    deal's board meets only the session's game of that day: it lives beside the other game."""
    key = request.session.session_key
    if pending.dealt_by_daily:
        day_game = find.day_game(key, pending.deal_number)
        if day_game is not None and day_game.status == Game.Status.PLAYING:
            return day_game
        return None
    current = find.current_game(key)
    if current is None or current.status != Game.Status.PLAYING:
        return None
    if (current.deal_number, current.rules) == (pending.deal_number, pending.rules):
        return current
    if current.started_at is None:
        return None
    url = board_urls(SITE, pending)["page"]
    if pending.rules != engine.DEFAULT_RULES.name and not pending.dealt_by_daily:
        url += "?" + urlencode({"rules": pending.rules})
    if getattr(request, "htmx", False):
        return HttpResponseClientRedirect(url)
    return HttpResponseRedirect(url, status=303)


def _store_first(request: HttpRequest, pending: Game, action: str, posted: Posted) -> Change:
    """Store the session (if new) and `pending` as this session's game, and make its first
    change (`action`, see changes.perform) to it, in one transaction: a refusal stores nothing,
    not even the session. A hint shown on the first board counts in the stored game, each of
    its stages."""
    new_session = request.session.session_key is None
    name = hint_answer.first_hint_name(pending)
    hinted = request.session.get(hint_answer.FIRST_HINT) == name
    placed = hinted and request.session.get(hint_answer.FIRST_HINT_PLACE) == name
    first = changes.FirstRow(pending, int(hinted), int(placed))
    try:
        done = changes.run(request, SITE, action, first, posted)
    except changes.REFUSALS:
        if new_session:
            # The session's row went with the transaction: forget it, so that no cookie names it.
            request.session.flush()
        raise
    for key in (hint_answer.FIRST_HINT, hint_answer.FIRST_HINT_PLACE):
        if request.session.get(key) == name:
            del request.session[key]
    return done


@require_http_methods(["GET", "HEAD", "POST"])
def deal_hint(request: HtmxHttpRequest, number: str) -> HttpResponse:
    """The hint on a deal's first board, with nothing stored."""
    try:
        pending = _first_board_of(request, number)
    except (engine.InvalidDealError, engine.InvalidRulesError) as error:
        return bad_request(request, words.refusal_message(error))
    return hint_answer.hint(request, pending, SITE)


@require_POST
def deal_start(request: HtmxHttpRequest, number: str, action: str) -> HttpResponse:
    """The first change on a deal's first board (a move, a redeal...): store the session and the
    game with it, then answer as any change does (the board, or a 303 to the game's page).
    `action` is one of fronts.CHANGES: game/board/urls.py routes no other."""
    try:
        pending = _first_board_of(request, number)
    except (engine.InvalidDealError, engine.InvalidRulesError) as error:
        return bad_request(request, words.refusal_message(error))
    under_way = _game_under_way(request, pending)
    if isinstance(under_way, HttpResponse):
        return under_way
    if under_way is not None:
        games = find.session_games(under_way.pk, request.session.session_key)
        return with_result_box(request, changes.change(request, games, SITE, action))
    try:
        posted = changes.read(request)
        done = _store_first(request, pending, action, posted)
    except changes.REFUSALS as error:
        return with_result_box(request, answers.refused_board(request, pending, error, SITE))
    return with_result_box(request, changes.changed(request, SITE, done, posted.previous))


@require_http_methods(["GET", "HEAD", "POST"])
def deal_show_a_win(request: HtmxHttpRequest, number: str) -> HttpResponse:
    """Show a win on a deal's first board. GET asks first (without JavaScript); POST stores the
    session and the game, marked assisted, in one transaction once a compute slot is held (a busy
    site stores nothing), then shows the solver's verdict."""
    try:
        pending = _first_board_of(request, number)
    except (engine.InvalidDealError, engine.InvalidRulesError) as error:
        return bad_request(request, words.refusal_message(error))
    if request.method != "POST":
        context = {"game": pending, "urls": board_urls(SITE, pending)}
        response = render(request, "game/show_a_win_confirm.html", context)
        patch_vary_headers(response, ["HX-Request"])
        return response
    under_way = _game_under_way(request, pending)
    if isinstance(under_way, HttpResponse):
        return under_way
    if under_way is not None:
        return show_a_win_stored(request, under_way.pk)
    try:
        posted = changes.read(request)
        limits.check(request, limits.SOLVE)
        with searches.computing():
            done = _store_first(request, pending, "show_a_win", posted)
            found = show_a_win.answer(done.played.record, done.played.position)
    except changes.REFUSALS as error:
        return answers.refused_board(request, pending, error, SITE)
    found = show_a_win_job.search_on(done.played.record, found)
    show_a_win.remember(request.session, done.row, found)
    return changes.changed(request, SITE, done, posted.previous)
