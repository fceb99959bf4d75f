"""Views of the site itself rather than of the game."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.views.decorators.http import require_GET


@require_GET
def ping(request: HttpRequest) -> HttpResponse:
    """A few bytes through the whole middleware stack, touching neither database nor session.

    bench/load.py measures a move request against this: whatever a move costs beyond it is the
    game's own work (lock, replay, save, render).
    """
    return HttpResponse(b"pong", content_type="text/plain")
