"""Player settings: four-colour suits, a left-handed (mirrored) layout, reduced motion, and moving
cards to the foundations automatically. All off by default.

Two homes, one for each kind of browser:
- With JavaScript, the settings dialog keeps them in this browser's localStorage and board.js
  applies them at once as classes on <html> (static/js/prefs.js sets those classes in <head>,
  before the page paints, so there is no flash). Move requests carry `auto=1` or `auto=0`.
  Inside the embed's frame the same happens in the frame's own storage, or for the visit only
  where a browser denies storage to cross-site frames: no cookie either way.
- With JavaScript off, /settings/ is a form that posts and keeps them in the session; base.html
  renders the classes on <html>, and a move request with no `auto` field uses the session's.
Where both exist (a player who set them without JavaScript, then turned it on), the browser's
stored choice wins once it has one.

The system's prefers-reduced-motion is honoured by the stylesheets whatever the setting says.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from django import forms
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.functional import SimpleLazyObject
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_http_methods

SESSION_KEY = "prefs"


@dataclass(frozen=True)
class Prefs:
    four_colour: bool = False
    left_handed: bool = False
    reduced_motion: bool = False
    auto_move: bool = False

    @property
    def classes(self) -> str:
        """The classes on <html> (the same names prefs.js and board.js use)."""
        return " ".join(name.replace("_", "-") for name, on in asdict(self).items() if on)


class PrefsForm(forms.Form):
    four_colour = forms.BooleanField(
        required=False, label="Four-colour suits (clubs green, diamonds blue)"
    )
    left_handed = forms.BooleanField(
        required=False, label="Left-handed: the layout mirrored, the menu on the left"
    )
    reduced_motion = forms.BooleanField(required=False, label="Reduced motion: no animations")
    auto_move = forms.BooleanField(
        required=False, label="Move cards to the foundations automatically after each move"
    )


def from_session(request: HttpRequest) -> Prefs:
    stored = request.session.get(SESSION_KEY) if hasattr(request, "session") else None
    if not isinstance(stored, dict):
        return Prefs()
    return Prefs(**{name: stored.get(name) is True for name in asdict(Prefs())})


def context(request: HttpRequest) -> dict[str, Any]:
    """`prefs` for base.html, read from the session only if a template asks (the embed's pages
    never do, so they never touch the session)."""
    return {"prefs": SimpleLazyObject(lambda: from_session(request))}


def _next(request: HttpRequest) -> str:
    target = request.POST.get("next") or request.GET.get("next") or ""
    if target and url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return target
    return reverse("settings")


@require_http_methods(["GET", "HEAD", "POST"])
def settings_page(request: HttpRequest) -> HttpResponse:
    """The settings without JavaScript: a form that posts and keeps them in the session."""
    if request.method == "POST":
        form = PrefsForm(request.POST)
        if form.is_valid():
            request.session[SESSION_KEY] = {
                name: bool(on) for name, on in form.cleaned_data.items()
            }
            target = _next(request)
            if target == reverse("settings"):
                target += "?saved=1"
            return HttpResponseRedirect(target, status=303)
    else:
        form = PrefsForm(initial=asdict(from_session(request)))
    context = {"form": form, "next": _next(request), "saved": "saved" in request.GET}
    return render(request, "game/settings.html", context, status=400 if form.errors else 200)
