"""The site in English, French and German (issue 23).

English is at `/`, French and German beside it under `/fr/` and `/de/` (lucie/urls.py's
`i18n_patterns`, with no prefix for English). The language of a page is the language of its URL
and nothing else, so that a URL shows the same page to everyone (a crawler, a shared link, the
embed, which has no cookies).

Two exceptions use what the browser says:
- `/` sends a first-time visitor whose browser asks for French or German (Accept-Language) to
  `/fr/` or `/de/`, once: the redirect stores the language cookie, and a browser that has one is
  never redirected again. A client that sends no Accept-Language (a crawler) never is.
- The language menu in the footer posts to `choose_language`, which stores the choice in the
  same cookie (so choosing English on `/fr/` is never undone by the redirect) and goes to the
  same page in the chosen language.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.urls import reverse_lazy, translate_url
from django.utils import translation
from django.utils.cache import patch_vary_headers
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation.trans_real import parse_accept_lang_header
from django.views.decorators.http import require_POST

View = Callable[..., HttpResponse]


def language_of(path: str) -> str:
    """The language a path is in: its prefix's, or English for none.

    >>> language_of("/fr/rules/"), language_of("/rules/")
    ('fr', 'en')
    """
    return translation.get_language_from_path(path) or settings.LANGUAGE_CODE


def unprefixed(path: str) -> str:
    """The path without its language prefix, as the English URL has it.

    >>> unprefixed("/de/embed/deal/5/"), unprefixed("/embed/"), unprefixed("/fr/")
    ('/embed/deal/5/', '/embed/', '/')
    """
    prefix = translation.get_language_from_path(path)
    return path[len(prefix) + 1 :] if prefix else path


def asked_language(accept_language: str) -> str | None:
    """The first language of the site that an Accept-Language header asks for, or None.

    >>> asked_language("de-CH,de;q=0.9,en;q=0.8"), asked_language("es,fr;q=0.5"), asked_language("")
    ('de', 'fr', None)
    """
    for code, _quality in parse_accept_lang_header(accept_language):
        if code == "*":
            continue
        try:
            return translation.get_supported_language_variant(code)
        except LookupError:
            continue
    return None


def in_language(path: str, code: str) -> str:
    """The same page's path in another language (the path itself if it names no page)."""
    with translation.override(language_of(path)):
        return translate_url(path, code)


def remember(response: HttpResponse, code: str) -> None:
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME,
        code,
        max_age=settings.LANGUAGE_COOKIE_AGE,
        path=settings.LANGUAGE_COOKIE_PATH,
        secure=settings.LANGUAGE_COOKIE_SECURE,
        httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
        samesite="Lax",
    )


def first_visit(view: View) -> View:
    """Wraps the home page: a first visit to `/` from a browser that asks for French or German
    goes to `/fr/` or `/de/` (and remembers it); every other request gets the page."""

    @wraps(view)
    def home(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        unprefixed_page = translation.get_language_from_path(request.path_info) is None
        if request.method == "GET" and unprefixed_page:
            decided = settings.LANGUAGE_COOKIE_NAME in request.COOKIES
            asked = asked_language(request.headers.get("Accept-Language", ""))
            if not decided and asked and asked != settings.LANGUAGE_CODE:
                target = in_language(request.path_info, asked)
                query = request.META.get("QUERY_STRING", "")
                response: HttpResponse = HttpResponseRedirect(
                    f"{target}?{query}" if query else target
                )
                remember(response, asked)
                patch_vary_headers(response, ("Accept-Language", "Cookie"))
                return response
        response = view(request, *args, **kwargs)
        if unprefixed_page:
            patch_vary_headers(response, ("Accept-Language", "Cookie"))
        return response

    return home


@require_POST
def choose_language(request: HttpRequest) -> HttpResponse:
    """The footer's language menu: remember the choice and show the same page in it.

    Django's own set_language cannot be used here: it resolves the page it came from in English
    (its own URL has no prefix), so `/fr/rules/` names no page to it and it would stay there."""
    code = request.POST.get("language", "")
    back = request.POST.get("next", "")
    if not url_has_allowed_host_and_scheme(
        back, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        back = "/"
    if code not in dict(settings.LANGUAGES):
        return HttpResponseRedirect(back)
    parts = urlsplit(back)
    target = in_language(parts.path or "/", code)
    response = HttpResponseRedirect(f"{target}?{parts.query}" if parts.query else target)
    remember(response, code)
    return response


def alternates(request: HttpRequest) -> list[dict[str, Any]]:
    """This page in each language: absolute URLs for the hreflang links, and the menu's entries.
    A page that names nothing (a 404) has none."""
    if getattr(request, "resolver_match", None) is None:
        return []
    current = translation.get_language()
    found = []
    for code, name in settings.LANGUAGES:
        path = in_language(request.path, code)
        found.append(
            {
                "code": code,
                "name": name,
                "url": request.build_absolute_uri(path),
                "current": code == current,
            }
        )
    return found


def context(request: HttpRequest) -> dict[str, Any]:
    """base.html's language links: hreflang alternates (x-default: the English page) and the
    footer's menu. Only a whole page shows them, so they are worked out when a template first
    reads them (a template calls a callable value): a board fragment, answering a move, never
    pays for them."""
    found: list[list[dict[str, Any]]] = []

    def pages() -> list[dict[str, Any]]:
        if not found:
            found.append(alternates(request))
        return found[0]

    def default() -> str:
        return next((page["url"] for page in pages() if page["code"] == settings.LANGUAGE_CODE), "")

    def menu() -> list[dict[str, Any]]:
        current = translation.get_language()
        return [
            {"code": code, "name": name, "current": code == current}
            for code, name in settings.LANGUAGES
        ]

    return {
        "alternates": pages,
        "alternate_default": default,
        "languages": menu,
        "choose_language_url": reverse_lazy("choose_language"),
    }
