"""The browser as a player: its session (made on its first change, never for a page view),
the rule set it last chose, a game started for it, and the small readings of a request that
every page of the site shares."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django_htmx.middleware import HtmxDetails

from game import engine
from game.board import store
from game.models import Game
from game.ops import limits


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
    """store.start, counted against the rate limit on new games, in strict mode if the player's
    setting says so."""
    limits.check(request, limits.START)
    network = limits.network_tag(request) if daily else ""
    strict = strict_mode(request)
    return store.start(key, deal_number, rules, daily=daily, network=network, strict=strict)


PREFS_KEY = "prefs"
"""Where the session keeps the player's settings (game.play.prefs)."""


def strict_mode(request: HttpRequest) -> bool:
    """The player's strict-mode setting as it stands (game.play.prefs keeps it in the session):
    what a game begun now records (Game.strict)."""
    stored = request.session.get(PREFS_KEY) if hasattr(request, "session") else None
    return isinstance(stored, dict) and stored.get("strict") is True


def remembered_rules(request: HtmxHttpRequest) -> engine.Rules:
    try:
        return engine.Rules.parse(request.session.get("rules", engine.DEFAULT_RULES.name))
    except engine.InvalidRulesError:
        return engine.DEFAULT_RULES


def selected_card(request: HttpRequest) -> str:
    """The card picked up without JavaScript (`?sel=6C`)."""
    return request.GET.get("sel", "").strip().upper()[:3]


def bad_request(request: HtmxHttpRequest, message: str, status: int = 400) -> HttpResponse:
    return render(request, "game/error.html", {"message": message}, status=status)
