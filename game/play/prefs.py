"""Player settings: four-colour suits, a left-handed (mirrored) layout, reduced motion, moving
cards to the foundations automatically, a card with one place played on one tap, sounds, and
strict mode (kept in the session only: the server reads it when a game begins), all
off by default here (with JavaScript, prefs.js turns auto-move and one tap on for a browser that
has not turned them off: a new player gets both); and the Themes: the
table's colour (green, blue, red, grey), the card style (classic faces or large indices) and
light, dark or the system's scheme.

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
from django.utils.translation import gettext_lazy, pgettext_lazy
from django.views.decorators.http import require_http_methods, require_POST

from game.players import PREFS_KEY

SESSION_KEY = PREFS_KEY


# The Themes choices, each with its default first (the same lists as prefs.js and board.js).
CHOICES: dict[str, tuple[str, ...]] = {
    "felt": ("green", "blue", "red", "grey"),
    "cards": ("classic", "large"),
    "scheme": ("system", "light", "dark"),
}
CHOICE_LABELS = {
    "felt": {
        "green": pgettext_lazy("a table colour", "Green"),
        "blue": pgettext_lazy("a table colour", "Blue"),
        "red": pgettext_lazy("a table colour", "Red"),
        "grey": pgettext_lazy("a table colour", "Grey"),
    },
    "cards": {
        "classic": gettext_lazy("Classic faces"),
        "large": gettext_lazy("Large indices"),
    },
    "scheme": {
        "system": gettext_lazy("As the system"),
        "light": gettext_lazy("Light"),
        "dark": gettext_lazy("Dark"),
    },
}


@dataclass(frozen=True)
class Prefs:
    four_colour: bool = False
    left_handed: bool = False
    reduced_motion: bool = False
    auto_move: bool = False
    sounds: bool = False
    # With JavaScript only (static/js/board/selection.js), where prefs.js turns it on for a browser
    # that has not turned it off.
    one_tap: bool = False
    # Strict mode: games begun with it on offer no Undo, no Hint and no "Show a win" (Game.strict).
    # Kept in the session with JavaScript too (`strict_page`), since the server reads it when a
    # game is stored; a game under way keeps the mode it began with.
    strict: bool = False
    felt: str = "green"
    cards: str = "classic"
    scheme: str = "system"

    @property
    def classes(self) -> str:
        """The classes on <html> (the same names prefs.js and board.js use): an on/off setting
        by its name, a Themes choice as `<name>-<value>` unless it is the default.

        >>> Prefs(four_colour=True, felt="blue", scheme="dark").classes
        'four-colour felt-blue scheme-dark'
        """
        names = []
        for name, value in asdict(self).items():
            if value is True:
                names.append(name.replace("_", "-"))
            elif isinstance(value, str) and value != CHOICES[name][0]:
                names.append(f"{name}-{value}")
        return " ".join(names)


class PrefsForm(forms.Form):
    four_colour = forms.BooleanField(
        required=False, label=gettext_lazy("Four-colour suits (clubs green, diamonds blue)")
    )
    left_handed = forms.BooleanField(
        required=False, label=gettext_lazy("Left-handed: the layout mirrored, the menu on the left")
    )
    reduced_motion = forms.BooleanField(
        required=False, label=gettext_lazy("Reduced motion: no animations")
    )
    auto_move = forms.BooleanField(
        required=False,
        label=gettext_lazy("Move cards to the foundations automatically after each move"),
    )
    sounds = forms.BooleanField(required=False, label=gettext_lazy("Sounds"))
    one_tap = forms.BooleanField(
        required=False, label=gettext_lazy("Play a card that has one place on one tap")
    )
    strict = forms.BooleanField(
        required=False, label=gettext_lazy("Strict mode: no undo, no hint, no “Show a win”")
    )
    felt = forms.ChoiceField(choices=list(CHOICE_LABELS["felt"].items()), required=False)
    cards = forms.ChoiceField(choices=list(CHOICE_LABELS["cards"].items()), required=False)
    scheme = forms.ChoiceField(choices=list(CHOICE_LABELS["scheme"].items()), required=False)

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        for name, values in CHOICES.items():
            if not cleaned.get(name):
                cleaned[name] = values[0]  # left out: the default
        return cleaned


def from_session(request: HttpRequest) -> Prefs:
    stored = request.session.get(SESSION_KEY) if hasattr(request, "session") else None
    if not isinstance(stored, dict):
        return Prefs()
    values: dict[str, Any] = {}
    for name, default in asdict(Prefs()).items():
        if isinstance(default, bool):
            values[name] = stored.get(name) is True
        else:
            values[name] = stored.get(name) if stored.get(name) in CHOICES[name] else default
    return Prefs(**values)


def context(request: HttpRequest) -> dict[str, Any]:
    """`prefs` for base.html, read from the session only if a template asks (the embed's pages
    never do, so they never touch the session)."""
    return {
        "prefs": SimpleLazyObject(lambda: from_session(request)),
        "theme_felts": list(CHOICE_LABELS["felt"].items()),
        "theme_cards": list(CHOICE_LABELS["cards"].items()),
        "theme_schemes": list(CHOICE_LABELS["scheme"].items()),
    }


def _next(request: HttpRequest) -> str:
    target = request.POST.get("next") or request.GET.get("next") or ""
    if target and url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return target
    return reverse("settings")


@require_POST
def strict_page(request: HttpRequest) -> HttpResponse:
    """Strict mode on (`strict=1`) or off, kept in the session with the other settings, then
    back to the page the form was on. It applies to the games begun from now on: a game under
    way keeps the mode it began with (Game.strict)."""
    stored = request.session.get(SESSION_KEY)
    values = dict(stored) if isinstance(stored, dict) else {}
    values["strict"] = request.POST.get("strict") == "1"
    request.session[SESSION_KEY] = values
    return HttpResponseRedirect(_next(request), status=303)


@require_http_methods(["GET", "HEAD", "POST"])
def settings_page(request: HttpRequest) -> HttpResponse:
    """The settings without JavaScript: a form that posts and keeps them in the session."""
    if request.method == "POST":
        form = PrefsForm(request.POST)
        if form.is_valid():
            request.session[SESSION_KEY] = {
                name: value if name in CHOICES else bool(value)
                for name, value in form.cleaned_data.items()
            }
            target = _next(request)
            if target == reverse("settings"):
                target += "?saved=1"
            return HttpResponseRedirect(target, status=303)
    else:
        form = PrefsForm(initial=asdict(from_session(request)))
    context = {"form": form, "next": _next(request), "saved": "saved" in request.GET}
    return render(request, "game/settings.html", context, status=400 if form.errors else 200)
