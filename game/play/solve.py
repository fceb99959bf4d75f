""" "Show a win" on a stored game: ask first, then mark the game assisted and show the solver's
verdict; Next and Play it out walk the winning line (game/board/winning_line.py). A verdict the
request's search could not decide goes on as a job (game/board/jobs.py), which the board's
panel follows (`solve_wait`)."""

from __future__ import annotations

from django.db import transaction
from django.http import HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.template import engines
from django.urls import reverse
from django.utils.cache import patch_vary_headers
from django.views.decorators.http import require_http_methods, require_POST, require_safe
from django_htmx.http import reswap, retarget

from game.board import find, jobs, pipeline, store, winning_line, words
from game.board.pipeline import SITE, board_urls
from game.ops import limits
from game.play.views import with_result_box
from game.players import HtmxHttpRequest

# ---------------------------------------------------------------- "Show a win"


@require_http_methods(["GET", "HEAD", "POST"])
def solve(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    """GET asks first (it is a peek: the game will count as played, not won); POST marks the game
    assisted, asks the solver (bounded, cached per position) and shows its verdict."""
    if request.method == "POST":
        return solve_stored(request, game_id)
    game = find.get_game(game_id, request.session.session_key)
    response = render(
        request, "game/solve_confirm.html", {"game": game, "urls": board_urls(SITE, game)}
    )
    patch_vary_headers(response, ["HX-Request"])
    return response


def solve_stored(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    games = find.session_games(game_id, request.session.session_key)
    try:
        limits.check(request, limits.SOLVE)
        # The slot is taken before the game is marked: a busy site refuses the peek untouched.
        with limits.computing():
            posted = pipeline.read(request)
            with store.saving(), transaction.atomic():
                done = pipeline.perform(request, SITE, "solve", store.locked(games), posted)
            game = done.row
            # The search runs after the row is written and unlocked: it may take two seconds,
            # and a move made meanwhile only means the player has left the line
            # (winning_line.shown).
            found = winning_line.answer(game.record, done.played.position)
    except pipeline.REFUSALS as error:
        return pipeline.refused(request, games, error, SITE)
    found = jobs.further(game.record, found)
    winning_line.remember(request.session, game, found)
    return pipeline.changed(request, SITE, done, posted.previous)


@require_safe
def solve_wait(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    """Where a longer look for a win stands (the panel polls here while it goes on): the panel
    alone while the look goes on, then the whole board with its answer. The game's row and the
    cache are read, nothing is searched, and nothing counts against the solver's rate limit.
    Without JavaScript: the game's page, which says the same."""
    game = find.get_game(game_id, request.session.session_key)
    page = reverse("game", args=[game.pk])
    if not request.htmx:
        return HttpResponseRedirect(page, status=303)
    line = jobs.follow(request.session, game)
    if line is not None and line.waiting:
        # What the panel reads while it waits (board/line.jinja): its poll and the page.
        context = {"line": line, "urls": {"page": page}, "line_urls": {"wait": request.path}}
        html = engines["jinja2"].get_template("board/line.jinja").render(context, request)
        response = HttpResponse(html)
    else:
        # The answer is in (or the game has moved on): the whole board, its next move marked.
        spoken = ""
        if line is not None:
            position = game.resume().position
            spoken = words.verdict(line.status, line.left, line.next_move, position, line.further)
        response = retarget(pipeline.answer(request, SITE, game, spoken=spoken), "#board")
        response = reswap(response, "outerHTML")
    response["Cache-Control"] = "private, no-store"
    patch_vary_headers(response, ["HX-Request"])
    return response


@require_POST
def solve_next(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    """Play the winning line's next move (Previous is Undo)."""
    games = find.session_games(game_id, request.session.session_key)
    return with_result_box(request, pipeline.change(request, games, SITE, "line"))


@require_POST
def solve_out(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    """Play the rest of the winning line in one change."""
    games = find.session_games(game_id, request.session.session_key)
    return with_result_box(request, pipeline.change(request, games, SITE, "line_all"))
