"""The pages of a request refused outside a board: a rate limit (429), no compute slot (503), a
database that would not write (503), a game whose stored record cannot be read (409), and
handler500.

A board shows its own refusals with the game as it stands (game/board/answers.py); these are
for everything else. They live in the app rather than in the project package (lucie/) because
they read the app's limits and templates: lucie is the project's plumbing (settings, sessions,
metrics, the cache) that the app uses, and it imports nothing from game. settings.MIDDLEWARE and
the root URLconf's handler500 name them by dotted path, as Django wires an app in.
"""

from __future__ import annotations

import logging
import sys

from django.conf import settings
from django.core.cache import cache
from django.db import DatabaseError
from django.http import HttpRequest, HttpResponse, HttpResponseServerError
from django.shortcuts import render
from django.template import TemplateDoesNotExist, loader
from django.urls import reverse
from django.utils import translation
from django.utils.deprecation import MiddlewareMixin
from django.utils.translation import gettext
from django.views import defaults

from game import engine
from game.ops import limits
from lucie import languages

DAMAGED = (engine.InvalidRecordError, engine.InvalidMoveError, engine.IllegalMoveError,
           engine.InvalidRulesError, engine.InvalidDealError, engine.InvalidPositionError,
           engine.InvalidCardError)  # fmt: skip
"""What reading a stored game can raise when its row holds a log the engine cannot replay."""

logger = logging.getLogger(__name__)


class LimitsMiddleware(MiddlewareMixin):
    """A request refused by a rate limit (429), for want of a compute slot (503) or because the
    database refused a write (503, a full disk or a read-only database), wherever the view did
    not show it on a board itself: a short page that says when to try again."""

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if isinstance(exception, DatabaseError):
            logger.error("database error: %s: %s", type(exception).__name__, exception)
            return database_error_page(request)
        if isinstance(exception, DAMAGED):
            return damaged_game_page(request, exception)
        if not isinstance(exception, limits.REFUSED):
            return None
        return refused_page(request, exception)


def database_error_page(request: HttpRequest) -> HttpResponse:
    """The 503 for a request that met a database error: the site's short page, or plain text
    when even that page cannot be drawn (it reads the session, which lives in the database)."""
    refused = limits.Unsaved.answering(request.method)
    try:
        return refused_page(request, refused)
    except DatabaseError:
        response = HttpResponse(refused.message, status=503, content_type="text/plain")
        response["Retry-After"] = str(refused.retry_after)
        return response


def damaged_game_page(request: HttpRequest, error: Exception) -> HttpResponse:
    """A game whose stored record the engine cannot replay (a row edited by hand, a bad
    restore): a clear page, never a 500, and one log line per game a day, however often it is
    visited (game/models.py's readers raise; nothing is written or asked for it)."""
    match = request.resolver_match
    game = match.kwargs.get("game_id", "?") if match is not None else "?"
    if cache.add(f"damaged-game-logged:{game}", True, 86400):
        logger.error("game %s: its stored record cannot be read: %r (%s)", game, error,
                     request.path)  # fmt: skip
    response = render(
        request,
        "game/error.html",
        {
            "message": gettext(
                "This game's stored record is damaged and cannot be read, so it cannot be "
                "shown or reviewed. Start a new game: your other games are not affected."
            )
        },
        status=409,
    )
    response["Cache-Control"] = "private, no-store"
    return response


def refused_page(request: HttpRequest, refused: limits.Refused) -> HttpResponse:
    if languages.unprefixed(request.path_info).startswith("/embed/"):
        context = {
            "title": gettext("Not just now"),
            "message": refused.message,
            "today": reverse("embed:today"),
        }
        response = render(request, "embed/error.html", context, status=refused.status)
    else:
        response = render(
            request, "game/error.html", {"message": refused.message}, status=refused.status
        )
    response["Retry-After"] = str(refused.retry_after)
    return response


def server_error(request: HttpRequest) -> HttpResponse:
    """handler500: a database error that escaped every view and middleware (a session saved on a
    full disk, say) is the 503 "could not be saved, try again", not Django's 500 page."""
    error = sys.exc_info()[1]
    if isinstance(error, DatabaseError):
        return database_error_page(request)
    try:
        loader.get_template(defaults.ERROR_500_TEMPLATE_NAME)
    except TemplateDoesNotExist:
        # Django's own bare page, in the language of the request's URL.
        page = defaults.ERROR_PAGE_TEMPLATE % {
            "title": gettext("Server Error (500)"),
            "details": "",
        }
        language = translation.get_language() or settings.LANGUAGE_CODE
        page = page.replace('<html lang="en">', f'<html lang="{language}">', 1)
        return HttpResponseServerError(page)
    return defaults.server_error(request)
