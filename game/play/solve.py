""" "Show a win" on a stored game: ask first, then mark the game assisted and show the solver's
verdict; Next and Play it out walk the winning line (game/board/winning_line.py)."""

from __future__ import annotations

from django.db import transaction
from django.http import HttpResponse
from django.shortcuts import render
from django.utils.cache import patch_vary_headers
from django.views.decorators.http import require_http_methods, require_POST

from game import limits
from game.board import find, pipeline, store, winning_line
from game.play.site import SITE, site_urls
from game.players import HtmxHttpRequest

# ---------------------------------------------------------------- "Show a win"


@require_http_methods(["GET", "HEAD", "POST"])
def solve(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    """GET asks first (it is a peek: the game will count as played, not won); POST marks the game
    assisted, asks the solver (bounded, cached per position) and shows its verdict."""
    if request.method == "POST":
        return solve_stored(request, game_id)
    game = find.get_game(game_id, request.session.session_key)
    response = render(request, "game/solve_confirm.html", {"game": game, "urls": site_urls(game)})
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
    winning_line.remember(request.session, game, found)
    return SITE.after_change(request, done)


@require_POST
def solve_next(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    """Play the winning line's next move (Previous is Undo)."""
    games = find.session_games(game_id, request.session.session_key)
    return pipeline.change(request, games, SITE, "line")


@require_POST
def solve_out(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    """Play the rest of the winning line in one change."""
    games = find.session_games(game_id, request.session.session_key)
    return pipeline.change(request, games, SITE, "line_all")
