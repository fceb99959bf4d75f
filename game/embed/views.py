"""The embed: the game in an iframe on any site, with no cookies.

Browsers send no cookies into a frame on another site, and the embed promises none anyway, so an
embed game has no session (`Game.session_key` is blank) and is named by its unguessable token
(`Game.token`, 192 bits from `secrets`) in its URL: `/embed/g/<token>/`. Nothing here touches
`request.session`, the CSRF token or the messages framework, and the embed templates do not extend
the main `base.html` (whose `hx-headers` carry a CSRF token), so no response under `/embed/` sets
or reads a cookie.

`/embed/` (today's deal) and `/embed/deal/<number>/` show the deal's start without storing
anything: the first move (or redeal) posted from that board creates the game and answers with its
token URL (a 303 without JavaScript, `HX-Replace-Url` with htmx). A popular page that embeds the
game costs no database write per view, only per game actually begun.

With no cookie, the frame's language can only be its URL's: `/fr/embed/` and `/de/embed/` are the
same pages in French and German (lucie/languages.py), every URL they link to keeps the prefix, and
the snippet page offers the frame's address in each language.

Only these pages may be framed by other sites (`frame-ancestors *`, no `X-Frame-Options`); their
policy is otherwise as strict as the main site's, and they load nothing from any other host.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from csp.decorators import csp
from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.http.response import HttpResponseBase
from django.shortcuts import render
from django.urls import reverse
from django.utils import translation
from django.utils.http import urlencode
from django.utils.translation import gettext, gettext_noop
from django.views.decorators.clickjacking import xframe_options_exempt
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from game import deals, engine
from game.board import answers, asides, changes, find, hint_answer, store, words
from game.board.fronts import EMBED
from game.models import Game
from game.ops import limits

# The main site's policy, but any site may frame these pages. The whole policy is given (django-csp
# `@csp` replaces the configured one) so that nothing here depends on later edits to settings.
EMBED_POLICY: dict[str, Any] = {
    "default-src": ["'self'"],
    "script-src": ["'self'"],
    "style-src": ["'self'"],
    "img-src": ["'self'", "data:"],
    "connect-src": ["'self'"],
    "form-action": ["'self'"],
    "base-uri": ["'none'"],
    "object-src": ["'none'"],
    "frame-ancestors": ["*"],
}

# The frame's words, as msgids: each is translated where it is shown (gettext in the request, in
# the language of the frame's URL).
NOT_FOUND = gettext_noop("There is no such game here. It may have been mistyped.")

View = Callable[..., HttpResponseBase]


def embed_page(view: View) -> View:
    """An embed response: frameable by any site, with the embed's own 404 and 400 pages (so that
    an error shows inside the frame too, and sets no cookie)."""

    @functools.wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        try:
            return view(request, *args, **kwargs)
        except Http404:
            return _error(
                request,
                gettext("Not found"),
                gettext(NOT_FOUND),
                status=404,
            )
        except (engine.InvalidDealError, engine.InvalidRulesError) as error:
            return _error(
                request, gettext("That did not work"), words.refusal_message(error), status=400
            )
        except limits.REFUSED as refused:
            response = _error(
                request, gettext("Not just now"), refused.message, status=refused.status
            )
            response["Retry-After"] = str(refused.retry_after)
            return response

    framed: View = xframe_options_exempt(csp(EMBED_POLICY)(wrapper))
    # Exempt from the CSRF check, and safe so: CSRF protection stops a forged request from riding
    # an ambient credential (a cookie the browser attaches on its own). The embed has none: it sets
    # no cookie and reads none, and no session is ever consulted. A move request is only as
    # powerful as knowledge of the game's token, which only the frame's own URL holds (the
    # embedding page cannot read a cross-origin frame's URL), so a forger who knows no token can
    # change nothing. Starting a game from a deal's first board needs no credential by design.
    # Browsers would refuse the check anyway: a cross-site frame gets no CSRF cookie.
    return csrf_exempt(framed)


def _error(request: HttpRequest, title: str, message: str, *, status: int) -> HttpResponse:
    context = {
        "title": title,
        "message": message,
        "today": reverse("embed:today"),
        # embed.js forgets a remembered game that the server no longer knows.
        "missing": status == 404,
    }
    return render(request, "embed/error.html", context, status=status)


def _selected(request: HttpRequest) -> str:
    return request.GET.get("sel", "").strip().upper()[:3]


def requested_rules(request: HttpRequest) -> engine.Rules:
    """The `?rules=` rule set (default when absent); a bad name is a 400 (`embed_page`)."""
    name = request.GET.get("rules", "")
    return engine.Rules.parse(name) if name else engine.DEFAULT_RULES


def unstarted(deal_number: int, rules: engine.Rules) -> Game:
    """The deal's start as a game that is not stored (and has no token to show)."""
    return Game(deal_number=deal_number, rules=rules.name, token="")


# ---------------------------------------------------------------- a deal's start (nothing stored)


@embed_page
@require_safe
def today(request: HttpRequest) -> HttpResponse:
    """Today's deal (the UTC date as YYYYMMDD), from its start."""
    game = unstarted(deals.todays_deal_number(), requested_rules(request))
    return answers.answer(request, EMBED, game, selected=_selected(request))


@embed_page
@require_safe
def deal(request: HttpRequest, number: str) -> HttpResponse:
    game = unstarted(engine.parse_deal_number(number), requested_rules(request))
    return answers.answer(request, EMBED, game, selected=_selected(request))


@embed_page
@require_http_methods(["GET", "HEAD", "POST"])
def deal_hint(request: HttpRequest, number: str) -> HttpResponse:
    game = unstarted(engine.parse_deal_number(number), requested_rules(request))
    return hint_answer.hint(request, game, EMBED)


@embed_page
@require_safe
def another(request: HttpRequest) -> HttpResponse:
    """Another deal: a fresh random one under the same rules, from its start."""
    rules = requested_rules(request)
    url = reverse("embed:deal", args=[store.random_deal_number()])
    if rules != engine.DEFAULT_RULES:
        url += "?" + urlencode({"rules": rules.name})
    return HttpResponseRedirect(url)


@embed_page
@require_POST
def start_action(request: HttpRequest, number: str, action: str) -> HttpResponse:
    """The first move on a deal's start board: store the game, apply the move, name the game.

    The game is created in the same transaction as its first move, so a refused move (stale,
    illegal, malformed) leaves no row behind.
    """
    pending = unstarted(engine.parse_deal_number(number), requested_rules(request))
    try:
        posted = changes.read(request)
        done = changes.run(request, EMBED, action, changes.FirstRow(pending), posted)
    except changes.REFUSALS as error:
        return answers.refused_board(request, pending, error, EMBED)
    return changes.changed(request, EMBED, done, posted.previous)


# ---------------------------------------------------------------- a stored game, by its token


@embed_page
@require_safe
def game_page(request: HttpRequest, token: str) -> HttpResponse:
    """The game; `?sel=6C` selects a card (how tapping works without JavaScript)."""
    game = find.found(find.token_games(token))
    said = answers.said_before(request, game)
    return answers.answer(request, EMBED, game, said, selected=_selected(request))


@embed_page
@require_http_methods(["GET", "HEAD", "POST"])
def game_hint(request: HttpRequest, token: str) -> HttpResponse:
    return hint_answer.hint(request, find.found(find.token_games(token)), EMBED)


@embed_page
@require_POST
def game_action(request: HttpRequest, token: str, action: str) -> HttpResponse:
    """Load the game by its token, guard (unknown token? finished? stale?), apply, save, render.

    The engine's errors become a 400 and a stale board a 409, each with the game as it stands;
    an unknown token (or a main-site game's) is a 404, whatever else the request says.
    """
    return changes.change(request, find.token_games(token), EMBED, action)


@embed_page
@require_POST
def game_clock(request: HttpRequest, token: str) -> HttpResponse:
    """The fair timer's pause and resume for an embed game (see views.game_clock); the token is
    the whole authorization, as for its moves."""
    try:
        running = answers.clock_state(request)
    except engine.InvalidMoveError as error:
        return _error(
            request, gettext("That did not work"), words.refusal_message(error), status=400
        )
    return answers.clock_response(asides.set_clock(find.token_games(token), running))


@embed_page
def not_found(request: HttpRequest, rest: str) -> HttpResponse:
    """Anything else under /embed/: the embed's own 404, which sets no cookie (the site's 404
    page extends the main base template, which would hand out a CSRF cookie)."""
    raise Http404(rest)


# ---------------------------------------------------------------- the main site's snippet page


@require_safe
def snippet(request: HttpRequest) -> HttpResponse:
    """The iframe snippet to copy, and the embed live beneath it (a page of the main site)."""
    embed_path = reverse("embed:today")  # in the page's language: /de/embed/ on /de/embed-this/
    # The frame has no cookie to carry a language, so each language is an address of its own.
    embed_languages = []
    for code, name in settings.LANGUAGES:
        with translation.override(code):
            url = request.build_absolute_uri(reverse("embed:today"))
        embed_languages.append({"code": code, "name": name, "url": url})
    context = {
        "embed_url": request.build_absolute_uri(embed_path),
        "embed_path": embed_path,
        "embed_languages": embed_languages,
    }
    return render(request, "embed/snippet.html", context)
