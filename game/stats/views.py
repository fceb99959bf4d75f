"""Moving statistics to another device (game/stats/transfer.py): show a code, enter a code."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_POST, require_safe

from game import limits
from game.play.views import session_key
from game.stats import transfer

CODE_FIELD = "code"


def _page(request: HttpRequest, status: int = 200, **context: Any) -> HttpResponse:
    typed = request.GET.get(CODE_FIELD, "") or request.POST.get(CODE_FIELD, "")
    context.setdefault("typed", typed[:24])
    context.setdefault("minutes", transfer.TRANSFER_MINUTES)
    return render(request, "game/transfer.html", context, status=status)


@require_safe
def transfer_page(request: HttpRequest) -> HttpResponse:
    """Both sides of a transfer; `?code=` (the link a code comes with) fills in the code, which
    still takes a press to use: opening a link never moves anything by itself."""
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
    link = request.build_absolute_uri(reverse("transfer") + "?" + f"{CODE_FIELD}={issued.code}")
    return _page(request, issued=issued, link=link, typed="")


@require_POST
def transfer_redeem(request: HttpRequest) -> HttpResponse:
    """Move the games of the browser that showed the code into this one."""
    limits.check(request, limits.TRANSFER_REDEEM)
    try:
        bare = transfer.normalize(request.POST.get(CODE_FIELD, ""))
    except transfer.TransferError as error:
        return _page(request, status=400, error=str(error))
    key = session_key(request)
    try:
        merged = transfer.redeem(bare, key)
    except transfer.TransferError as error:
        return _page(request, status=400, error=str(error))
    return _page(request, merged=merged, typed="")
