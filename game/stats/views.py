"""The statistics page, its reset, and moving statistics to another device (game/stats/transfer.py):
show a code, enter a code."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone
from django.utils.cache import patch_vary_headers
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from game import deals, engine, rank, streaks
from game.board import find, words
from game.challenge import panel as challenge_panel
from game.ops import limits
from game.players import HtmxHttpRequest, bad_request, session_key
from game.result import of_game
from game.stats import charts, tabs, transfer
from game.stats import player_stats as stats

CODE_FIELD = "code"


def _page(request: HttpRequest, status: int = 200, **context: Any) -> HttpResponse:
    # A code is only ever posted: one in the query string (an old link) is not filled in.
    context.setdefault("typed", request.POST.get(CODE_FIELD, "")[:24])
    context.setdefault("minutes", transfer.TRANSFER_MINUTES)
    return render(request, "game/transfer.html", context, status=status)


@require_safe
def transfer_page(request: HttpRequest) -> HttpResponse:
    """Both sides of a transfer. A code is typed into this page and posted: it never travels in
    a URL, where the request log, the browser's history and a shared link would keep it. An
    old link's `?code=` is dropped by a redirect, so the page never repeats it (its language
    links carry the page's own URL)."""
    if request.GET:
        return HttpResponseRedirect(reverse("transfer"))
    return _page(request)


@require_POST
def transfer_code(request: HttpRequest) -> HttpResponse:
    """Show a new code for this browser's games (replacing any earlier one)."""
    key = request.session.session_key
    if not key:
        message = gettext("This browser has no games yet, so there is nothing to move.")
        return _page(request, message=message)
    limits.check(request, limits.TRANSFER_CODE)
    issued = transfer.issue(key)
    return _page(request, issued=issued, typed="")


@require_POST
def transfer_redeem(request: HttpRequest) -> HttpResponse:
    """Move the games of the browser that showed the code into this one."""
    limits.check(request, limits.TRANSFER_REDEEM)
    try:
        bare = transfer.normalize(request.POST.get(CODE_FIELD, ""))
    except transfer.TransferError as error:
        return _page(request, status=400, error=str(error))
    new_session = request.session.session_key is None
    try:
        # The session is made (for a browser with none) only once the code opens something, in
        # the redeem's transaction: a refused code stores nothing.
        merged = transfer.redeem(bare, lambda: session_key(request))
    except Exception as error:
        if new_session:
            # The session's row went with the transaction: forget it, so no cookie names it.
            request.session.flush()
        if not isinstance(error, transfer.TransferError):
            raise
        return _page(request, status=400, error=str(error))
    return _page(request, merged=merged, typed="")


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


def _todays_daily(key: str | None) -> dict[str, Any] | None:
    """Today's daily result and its place, as the daily page words them, if it has ended."""
    game = find.day_game(key, deals.todays_deal_number()) if key else None
    if game is None:
        return None
    placed = rank.of_game(game)
    result = placed.result if placed is not None else of_game(game)
    if not result.finished:
        return None
    return {"result": result, "rank": placed}


@require_safe
def stats_page(request: HtmxHttpRequest) -> HttpResponse:
    """Numbers and pictures for one rule set (`?rules=nomerci`; the default rules without it) or
    for all together (`?rules=all`)."""
    try:
        rules = tabs.parse_rules_choice(request.GET.get("rules", ""))
    except engine.InvalidRulesError as error:
        return bad_request(request, words.refusal_message(error))
    key = request.session.session_key
    since = _stats_since(request)
    figures = stats.for_session(key, rules, since)
    context = {
        "stats": figures,
        "rules": rules or "all",
        "tabs": tabs.rule_set_tabs(key, rules, since),
        "since": since,
        "charts": charts.for_stats(figures),
        "transfer_minutes": transfer.TRANSFER_MINUTES,
        # The full page only: the dialog (htmx) shows the figures alone.
        "challenges": [] if request.htmx else challenge_panel.made(key),
        # The daily streak and today's result: the same numbers and words as the daily pages.
        "daily_streaks": streaks.streaks(key),
        "daily_today": _todays_daily(key),
    }
    template = "game/stats.html#stats" if request.htmx else "game/stats.html"
    response = render(request, template, context)
    patch_vary_headers(response, ["HX-Request"])
    return response


@require_http_methods(["GET", "HEAD", "POST"])
def stats_reset(request: HtmxHttpRequest) -> HttpResponse:
    """GET asks (the page the reset button leads to without JavaScript); POST resets: from now on
    only games begun after this moment count. The games stay (daily figures, replay links)."""
    if request.method == "POST":
        if request.session.session_key:
            request.session[STATS_SINCE] = timezone.now().isoformat()
        return HttpResponseRedirect(reverse("stats"), status=303)
    return render(request, "game/stats_reset.html")
