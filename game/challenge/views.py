"""A challenge's page: `/challenge/<token>/` shows the deal's opening table, the rules and the
challenger's result, in the browser's language (a link opened without a language prefix
follows Accept-Language, lucie.languages.first_visit), and its one button takes the challenge
up as a game of this browser's own (post/redirect/get to the game's page, so it works with
JavaScript off). `make` is "Challenge a friend" asked by a POST for a game that has no link.
Opening the link stores nothing; only the form's POST does, counted against the rate limit on
new games (START), one game per session, at most challenges.MAX_ENTRIES per challenge.
"""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.http import urlencode
from django.views.decorators.http import require_http_methods, require_POST

from game import engine
from game.board import still
from game.challenge import challenges, panel
from game.models import Challenge, ChallengeEntry, Game
from game.ops import limits
from game.players import session_key


def _deal_url(challenge: Challenge) -> str:
    game = challenge.game
    return reverse("deal", args=[game.deal_number]) + "?" + urlencode({"rules": game.rules})


@require_http_methods(["GET", "HEAD", "POST"])
def challenge_page(request: HttpRequest, token: str) -> HttpResponse:
    challenge = challenges.find(token)
    if challenge is None:
        raise Http404("no such challenge")
    key = request.session.session_key or ""
    if request.method == "POST":
        limits.check(request, limits.START)
        try:
            game = challenges.take_up(challenge, session_key(request))
        except challenges.ChallengeFullError:
            return _page(request, challenge, full=True, status=409)
        return HttpResponseRedirect(reverse("game", args=[game.pk]), status=303)
    mine = challenges.taken_up(challenge, key) if key else None
    taken = ChallengeEntry.objects.filter(challenge=challenge).count()
    return _page(request, challenge, mine=mine, full=taken >= challenges.MAX_ENTRIES)


@require_POST
def make(request: HttpRequest, game_id: int) -> HttpResponse:
    """ "Challenge a friend" on a finished game of this session that has no challenge yet (one
    that ended before challenges were made with the game's end): made now, counted against
    the rate limit (CHALLENGE), then back to the game (post/redirect/get)."""
    game = (
        Game.objects.filter(pk=game_id, session_key=request.session.session_key or "-")
        .exclude(status=Game.Status.PLAYING)
        .first()
    )
    if game is None:
        raise Http404("no such finished game")
    if not Challenge.objects.filter(game=game).exists():
        limits.check(request, limits.CHALLENGE)
        challenges.make(game)
    return HttpResponseRedirect(reverse("game", args=[game.pk]), status=303)


def _page(request: HttpRequest, challenge: Challenge, **extra: Any) -> HttpResponse:
    status = extra.pop("status", 200)
    game = challenge.game
    rules = engine.Rules.parse(game.rules)
    context = {
        "challenge": challenge,
        "deal_number": game.deal_number,
        "rules": rules,
        # The deal's opening table, as a replay shows it: what the friend is about to play.
        **still.still_table(engine.Position.start(game.deal_number, rules)),
        "theirs": panel.shown("", challenges.result(game)),
        "own": extra.get("mine") is not None and extra["mine"].pk == game.pk,
        "deal_url": _deal_url(challenge),
        **extra,
    }
    return render(request, "challenge/page.html", context, status=status)
