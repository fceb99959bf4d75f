"""The board alone, as the answer to an htmx request (a change, a hint, a refusal): its Jinja2
template (game/jinja.py) rendered with the board's context (game.board.display) and the
request, with none of a page's context processors, and the CSRF field its forms carry.
"""

from __future__ import annotations

import re
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.middleware.csrf import get_token
from django.template import engines
from django.utils import translation
from django.utils.html import format_html
from django.utils.safestring import SafeString

from game.models import Game

# The board's template (Jinja2: game/jinja.py), for the site, the daily page and the embed.
BOARD_TEMPLATE = "board/board.jinja"
# The context's name for the language the board is rendered in (game/jinja.py reads it).
LANGUAGE = "board_language"


def fragment(request: HttpRequest, context: dict[str, Any], *, status: int = 200) -> HttpResponse:
    """The board alone, with its live region out of band: its template rendered with `context`
    and the request."""
    if not context.get("embed"):  # the embed's forms carry no token and it sets no cookie
        context["answer_csrf_input"] = answer_csrf_input(request)
    context[LANGUAGE] = translation.get_language()
    html = engines["jinja2"].get_template(BOARD_TEMPLATE).render(context, request)
    response = HttpResponse(html, status=status)
    # The row this board was drawn from, for a wrapper of the view (game.daily.result_box).
    response.board_game = context["game"]  # type: ignore[attr-defined]
    return response


def drawn_game(response: HttpResponse) -> Game | None:
    """The game whose board `response` is (`fragment`), if it is one."""
    game = getattr(response, "board_game", None)
    return game if isinstance(game, Game) else None


# A masked CSRF token as Django writes it (64 letters and digits).
MASKED_TOKEN = re.compile(r"[A-Za-z0-9]{64}")


def answer_csrf_input(request: HttpRequest) -> SafeString:
    """The CSRF field of an htmx answer's forms (for the one a key press or a browser without
    ES modules may submit as a plain form): the token htmx sent in its header, which the page's
    own `<body hx-headers>` holds, when the request has a CSRF cookie; else a new one.

    Masking a new token (Django's get_token: 32 reads of the system's random source) and sending
    its cookie again cost about 0.2 ms of each move's CPU. The token sent back is the one the
    page already holds and only a same-origin script can send as a header (a cross-site request
    cannot set one without a CORS preflight, which this site never allows), so an answer holds
    nothing a cross-site request could make it show; one without the header gets a new token."""
    token = request.headers.get("X-CSRFToken", "")
    if not (request.META.get("CSRF_COOKIE") and MASKED_TOKEN.fullmatch(token)):
        token = get_token(request)
    return format_html('<input type="hidden" name="csrfmiddlewaretoken" value="{}">', token)
