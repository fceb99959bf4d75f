"""The daily page's result box, sent out of band with a board answer that changes it.

The daily page's board posts its changes to the site's own views (game/play/), like any game's.
When a change ends the day's game (or an undo brings it back from a dead end), the box under the
board must say so: the answer then carries the box as well, marked `hx-swap-oob`, and htmx puts
it in place of the old one. daily.js names the box the page shows in two headers of each request
(`X-Daily-Day`, `X-Daily-Status`), so that a move whose game stays as the box says sends nothing
more, and a request from any other page costs a header lookup.

The site's change views call `appended` themselves, only when a request names a box
(`STATUS_HEADER`), so that the board's answer knows nothing of the daily page and a move from
any other page never comes here.
"""

from __future__ import annotations

import datetime as dt

from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string

from game import deals
from game.board import find
from game.daily.views import day_context

DAY_HEADER = "X-Daily-Day"
STATUS_HEADER = "X-Daily-Status"
# The answers htmx swaps onto the board (templates/_htmx_config.html): a change, and the
# refusals that show the game as it stands.
BOARD_ANSWERS = frozenset({200, 400, 409, 429, 503})


def appended(request: HttpRequest, response: HttpResponse) -> HttpResponse:
    """`response`, a board answer, with the daily result box after it when it changed."""
    box = changed_box(request, response)
    if box:
        response.content = response.content + box.encode()
    return response


def changed_box(request: HttpRequest, response: HttpResponse) -> str:
    """The result box, out of band, when the page that asked shows a box that the day's game no
    longer matches; else nothing."""
    held = request.headers.get(STATUS_HEADER)
    day = shown_day(request.headers.get(DAY_HEADER, ""))
    if not held or day is None or not getattr(request, "htmx", False):
        return ""
    if response.status_code not in BOARD_ANSWERS or response.streaming:
        return ""
    if not response.get("Content-Type", "").startswith("text/html"):
        return ""
    game = find.day_game(request.session.session_key, deals.deal_number_for(day))
    if (game.status if game is not None else "none") == held:
        return ""
    context = {**day_context(request, day, game), "oob": True}
    return render_to_string("daily/_result.html", context, request)


def shown_day(text: str) -> dt.date | None:
    """The day a page's result box is about (`YYYY-MM-DD`), if it is one the daily pages offer."""
    try:
        day = dt.date.fromisoformat(text)
    except ValueError:
        return None
    return day if deals.is_offered(deals.deal_number_for(day)) else None
