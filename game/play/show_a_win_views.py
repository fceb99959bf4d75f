""" "Show a win" on a stored game: ask first, then mark the game assisted and show the solver's
verdict; Next and Play it out walk the winning line (game/board/show_a_win.py). A verdict the
request's search could not decide is searched on as a job (game/board/show_a_win_job.py), which
the board's panel follows (`show_a_win_wait`)."""

from __future__ import annotations

from django.http import HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.template import engines
from django.urls import reverse
from django.utils.cache import patch_vary_headers
from django.views.decorators.http import require_http_methods, require_POST, require_safe
from django_htmx.http import reswap, retarget

from game.board import answers, changes, find, show_a_win, show_a_win_job, words
from game.board.fronts import SITE, board_urls
from game.ops import limits, searches
from game.play.views import with_result_box
from game.players import HtmxHttpRequest

# ---------------------------------------------------------------- "Show a win"


@require_http_methods(["GET", "HEAD", "POST"])
def show_a_win_ask(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    """GET asks first (the game will count as played, not won); POST marks the game assisted,
    asks the solver (bounded, cached per position) and shows its verdict."""
    if request.method == "POST":
        return show_a_win_stored(request, game_id)
    game = find.get_game(game_id, request.session.session_key)
    response = render(
        request, "game/show_a_win_confirm.html", {"game": game, "urls": board_urls(SITE, game)}
    )
    patch_vary_headers(response, ["HX-Request"])
    return response


def show_a_win_stored(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    games = find.session_games(game_id, request.session.session_key)
    try:
        limits.check(request, limits.SOLVE)
        # The slot is taken before the game is marked: a busy site refuses Show a win and leaves
        # the game untouched.
        with searches.computing():
            posted = changes.read(request)
            done = changes.run(request, SITE, "show_a_win", games, posted)
            game = done.row
            # The search runs after the row is written and unlocked: it may take two seconds,
            # and a move made meanwhile only means the player has left the line
            # (show_a_win.shown).
            found = show_a_win.answer(game.record, done.played.position)
    except changes.REFUSALS as error:
        return changes.refused(request, games, error, SITE)
    found = show_a_win_job.search_on(game.record, found)
    show_a_win.remember(request.session, game, found)
    return changes.changed(request, SITE, done, posted.previous)


@require_safe
def show_a_win_wait(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    """Where Show a win's search on stands (the panel polls here while it goes on): the panel
    alone while the search goes on, then the whole board with its answer. The game's row and the
    cache are read, nothing is searched, and nothing counts against the solver's rate limit.
    Without JavaScript: the game's page, which says the same."""
    game = find.get_game(game_id, request.session.session_key)
    page = reverse("game", args=[game.pk])
    if not request.htmx:
        return HttpResponseRedirect(page, status=303)
    on_show = show_a_win_job.follow(request.session, game)
    if on_show is not None and on_show.waiting:
        # What the panel reads while it waits (board/show_a_win.jinja): its poll and the page.
        context = {
            "show_a_win": on_show,
            "urls": {"page": page},
            "show_a_win_urls": {"wait": request.path},
        }
        html = engines["jinja2"].get_template("board/show_a_win.jinja").render(context, request)
        response = HttpResponse(html)
    else:
        # The answer is in (or the game has moved on): the whole board, its next move marked.
        spoken = ""
        if on_show is not None:
            position = game.resume().position
            spoken = words.show_a_win_verdict(
                on_show.status, on_show.left, on_show.next_move, position, on_show.search_on
            )
        response = retarget(answers.answer(request, SITE, game, spoken=spoken), "#board")
        response = reswap(response, "outerHTML")
    response["Cache-Control"] = "private, no-store"
    patch_vary_headers(response, ["HX-Request"])
    return response


@require_POST
def show_a_win_next(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    """Play the winning line's next move (Previous is Undo)."""
    games = find.session_games(game_id, request.session.session_key)
    return with_result_box(request, changes.change(request, games, SITE, "show_a_win_next"))


@require_POST
def show_a_win_out(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    """Play the rest of the winning line in one change."""
    games = find.session_games(game_id, request.session.session_key)
    return with_result_box(request, changes.change(request, games, SITE, "show_a_win_out"))
