"""A request that a rate limit already refuses, answered in front of Django: before its request
handling and middleware, the session, the templates and the database.

A client over a limit (game/ops/limits.py) would otherwise cost what a page costs on every
refusal: the session loaded, the view run up to its `limits.check`, a board or a short page
rendered. A script that keeps asking past its limit then slows the pages of everyone else.
`EarlyRefusal` wraps the site's WSGI application (lucie/wsgi.py): for the few URLs whose view
always counts a rate (a searched hint, the embed's first move, Show a win), it reads the counts
django-ratelimit keeps (by client network, and by the session cookie's value as it stands,
without loading the session) and, when one is already past its limit, answers with a short page
written once per language and kept in memory. Django's handler and middleware alone cost a
request about twice what gunicorn itself does (/ping against a bare WSGI answer:
docs/benchmarks.md), so the refusal is answered before them, not from a middleware.

It only reads the counts; the views still count and refuse as before, so a request it lets
through is refused by its view, on the board where the player pressed. A board's own htmx request
is let through for `HTMX_GRACE` more refusals of a window, so that a person who somehow meets a
limit sees it on the board; past that (a script looping), it is answered here too.

A bucket keyed by a cookie's value holds counts only when a view counted it as a live session's
key, so a made-up cookie finds nothing here and its request goes on to the view.
"""

from __future__ import annotations

import html
import logging
import re
from collections.abc import Iterable
from dataclasses import dataclass
from time import monotonic, perf_counter
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.core.handlers.wsgi import WSGIRequest
from django.http import HttpRequest, HttpResponse
from django.middleware.security import SecurityMiddleware
from django.templatetags.static import static
from django.utils import translation
from django.utils.translation import gettext
from django_ratelimit.core import get_usage

from game.ops import limits
from lucie import middleware

if TYPE_CHECKING:
    from _typeshed.wsgi import StartResponse, WSGIApplication

logger = logging.getLogger(__name__)

HOLD_KEY = "lucie.hold_connection"
"""Set in the environ of a request refused here: gunicorn's worker then waits before it reads the
connection's next request (lucie/gunicorn_worker.py, through gunicorn.conf.py's post_request)."""

HTMX_GRACE = 10
"""Refusals of a window that a board's htmx request still gets from its view (on the board)."""


@dataclass(frozen=True)
class Guarded:
    """URLs (the path without its language prefix) whose view counts `rate` on `methods`;
    `session`: whether it counts the session too (the embed never reads one)."""

    path: re.Pattern[str]
    rate: limits.Rate
    methods: frozenset[str]
    session: bool = True

    @property
    def embed(self) -> bool:
        return self.path.pattern.startswith("^/embed/")


CHANGES = "(?:move|undo|redo|redeal|auto)"
GUARDED = (
    # A hint, wherever a board asks for one: the press's POST, and the GET that shows it (counted
    # when it is searched, not when cached: a client already past the limit is refused either way).
    Guarded(
        re.compile(r"^/(?:deal/[^/]+|game/\d+)/hint/$"), limits.HINT, frozenset({"GET", "POST"})
    ),
    Guarded(
        re.compile(r"^/embed/(?:deal/[^/]+|g/[^/]+)/hint/$"),
        limits.HINT,
        frozenset({"GET", "POST"}),
        session=False,
    ),
    # The embed's first change of a deal stores a game: counted against new games.
    Guarded(
        re.compile(rf"^/embed/deal/[^/]+/{CHANGES}/$"),
        limits.START,
        frozenset({"POST"}),
        session=False,
    ),
    # Show a win, asked for (a search).
    Guarded(
        re.compile(r"^/(?:deal/[^/]+|game/\d+)/show-a-win/$"), limits.SOLVE, frozenset({"POST"})
    ),
)

# Every guarded path in one pattern, so that any other request (a move, a page) costs one match.
ANY_GUARDED = re.compile(
    "|".join(f"(?P<g{index}>{guarded.path.pattern})" for index, guarded in enumerate(GUARDED))
)

PREFIXES = tuple(f"/{code}/" for code, _name in settings.LANGUAGES if code != "en")


def language_and_path(path: str) -> tuple[str, str]:
    """The language of a URL (its prefix, else English) and the path without the prefix.

    >>> language_and_path("/fr/embed/deal/5/hint/"), language_and_path("/game/3/hint/")
    (('fr', '/embed/deal/5/hint/'), ('en', '/game/3/hint/'))
    """
    for prefix in PREFIXES:
        if path.startswith(prefix):
            return prefix[1:-1], path[len(prefix) - 1 :]
    return "en", path


class Refused:
    """The buckets this process has seen past their limit, each until its window ends.

    Within a window a count only grows, so a bucket past its limit stays past it until the
    window closes: remembering that in the process's memory spares the cache a round trip on
    each refusal of a flood. Only durations are kept (monotonic time), and at most `SIZE`
    buckets (past that, the expired ones go, or all)."""

    SIZE = 10_000

    def __init__(self) -> None:
        self._until: dict[tuple[str, str, str, int], float] = {}

    def seconds_left(self, bucket: tuple[str, str, str, int]) -> int | None:
        until = self._until.get(bucket)
        if until is None:
            return None
        left = until - monotonic()
        if left <= 0:
            del self._until[bucket]
            return None
        return max(1, round(left))

    def remember(self, bucket: tuple[str, str, str, int], seconds_left: int) -> None:
        if len(self._until) >= self.SIZE:
            now = monotonic()
            self._until = {key: until for key, until in self._until.items() if until > now}
            if len(self._until) >= self.SIZE:
                self._until.clear()
        self._until[bucket] = monotonic() + seconds_left


def over_limit(request: HttpRequest, guarded: Guarded, refused: Refused) -> int | None:
    """Seconds until the window ends, when a count of `guarded`'s rate for this request is
    already at its limit (or, for a board's htmx request, `HTMX_GRACE` past it); else None."""
    keys = [(limits.client_network(request), guarded.rate.per_address)]
    cookie = request.COOKIES.get(settings.SESSION_COOKIE_NAME, "")
    if guarded.session and guarded.rate.per_session and cookie:
        keys.append((cookie, guarded.rate.per_session))
    grace = HTMX_GRACE if request.headers.get("HX-Request") == "true" else 0
    for value, rate in keys:
        if rate is None:
            continue
        bucket = (guarded.rate.group, rate, value, grace)
        left = refused.seconds_left(bucket)
        if left is not None:
            return left
        usage = get_usage(
            request, group=guarded.rate.group, key=lambda _group, _request: value, rate=rate
        )
        # A failed cache read gives a limit of 0: let the view decide.
        if usage is not None and usage["limit"] and usage["count"] >= usage["limit"] + grace:
            left = max(1, int(usage["time_left"]))
            refused.remember(bucket, left)
            return left
    return None


class Body:
    """The refusal's page in each language, written on first use and kept."""

    def __init__(self) -> None:
        self._pages: dict[tuple[str, bool], bytes] = {}

    def __call__(self, language: str, embed: bool) -> bytes:
        page = self._pages.get((language, embed))
        if page is None:
            with translation.override(language):
                page = self._pages[(language, embed)] = write_page(language, embed)
        return page


def write_page(language: str, embed: bool) -> bytes:
    """The short page, in the active language: the same words as the view's refusal."""
    prefix = "" if language == "en" else f"/{language}"
    back = (
        (f"{prefix}/embed/", gettext("Play today's deal"))
        if embed
        else (f"{prefix}/", gettext("Back to the game"))
    )
    title = gettext("Not just now")
    try:
        stylesheet = f'<link rel="stylesheet" href="{html.escape(static("css/site.css"))}">\n'
    except ValueError:  # static files not collected: the page goes without its stylesheet
        stylesheet = ""
    text = (
        f'<!doctype html>\n<html lang="{language}">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        '<meta name="color-scheme" content="light dark">\n'
        f"<title>{html.escape(title)} · La Belle Lucie</title>\n"
        f"{stylesheet}"
        "</head>\n<body>\n"
        f'<main class="page"><h1>{html.escape(title)}</h1>\n'
        f'<p class="form-error">{html.escape(gettext(limits.LIMITED_MESSAGE))}</p>\n'
        f'<p><a href="{back[0]}">{html.escape(back[1])}</a></p></main>\n</body>\n</html>\n'
    )
    return text.encode()


SITE_POLICY = "default-src 'self'; style-src 'self'; frame-ancestors 'none'; base-uri 'none'"
EMBED_POLICY = "default-src 'self'; style-src 'self'; frame-ancestors *; base-uri 'none'"


class EarlyRefusal:
    """The site's WSGI application (lucie/wsgi.py) with a request already past a rate limit
    answered in front of it, with the kept page: before Django's request handling and its
    middleware, the session, the templates and the database. Any other request costs one match
    of a regular expression on its path, and goes on to `application`."""

    def __init__(self, application: WSGIApplication) -> None:
        self.application = application
        self.body = Body()
        self.refused = Refused()
        # Its headers, as on every other answer (nosniff, the referrer and opener policies, HSTS
        # over HTTPS); it reads settings only, never the answer below it.
        self.security = SecurityMiddleware(lambda _request: HttpResponse())

    def __call__(self, environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        started = perf_counter()
        try:
            answered = self.answer(environ)
        except Exception as error:
            # Outside Django, an error here would be gunicorn's bare 500: the request goes on
            # to Django instead, whose view counts and refuses it as it would have anyway.
            logger.warning("the early refusal's check failed (%s): handed on to Django",
                           type(error).__name__)  # fmt: skip
            answered = None
        if answered is None:
            return self.application(environ, start_response)
        request, response = answered
        if held(request):
            environ[HOLD_KEY] = True
        start_response(f"{response.status_code} {response.reason_phrase}", [*response.items()])
        # One log line and the metrics, as RequestLogMiddleware writes for every request;
        # not Django's "Too Many Requests" warning, which a flood would write as fast as it asks.
        middleware.logged(request, response.status_code, perf_counter() - started, VIEW)
        return [response.content]

    def answer(self, environ: dict[str, Any]) -> tuple[HttpRequest, HttpResponse] | None:
        """The request and its refusal, when a count is past its limit; else None."""
        if not settings.RATELIMIT_ENABLE:
            return None
        language, path = language_and_path(environ.get("PATH_INFO", ""))
        found = ANY_GUARDED.match(path)
        if found is None or found.lastgroup is None:
            return None
        guarded = GUARDED[int(found.lastgroup[1:])]
        if environ.get("REQUEST_METHOD") not in guarded.methods:
            return None
        # Reads the headers and cookies only when asked: the body is left for Django.
        request = WSGIRequest(environ)
        if settings.SECURE_SSL_REDIRECT and not request.is_secure():
            return None  # Django's SecurityMiddleware sends it to HTTPS first
        retry_after = over_limit(request, guarded, self.refused)
        if retry_after is None:
            return None
        response = refusal(self.body(language, guarded.embed), request, language,
                           guarded.embed, retry_after)  # fmt: skip
        return request, self.security.process_response(request, response)


def held(request: HttpRequest) -> bool:
    """Whether the connection of a request refused here waits before its next request is read
    (under gunicorn: lucie/gunicorn_worker.py), so that a script looping past a limit asks once a
    second. Only a client's own connection that no person is behind: not a proxy's, which
    carries other people's requests next, and not a board's own htmx request, which is a
    player's browser (on an address shared past its limit, a school's say, that player's next
    move may go on the same connection)."""
    return (
        limits.forwarded_address(request) is None and request.headers.get("HX-Request") != "true"
    )


VIEW = "early-refusal"
"""The `view` of a refusal answered here, in the request log and the metrics."""


def refusal(
    body: bytes, request: HttpRequest, language: str, embed: bool, retry_after: int
) -> HttpResponse:
    """The kept page as a 429, with the headers the view's refusal would have."""
    response = HttpResponse(body, status=429)
    response["Retry-After"] = str(retry_after)
    response["Content-Language"] = language
    response["Cache-Control"] = "private, no-store"
    response["Content-Security-Policy"] = EMBED_POLICY if embed else SITE_POLICY
    if not embed:
        response["X-Frame-Options"] = "DENY"
    if request.headers.get("HX-Request") == "true":
        # A board's request past its grace: the short page replaces the page's body (htmx
        # would otherwise swap a whole page into the board).
        response["HX-Retarget"] = "body"
        response["HX-Reswap"] = "innerHTML"
    response["Vary"] = "HX-Request, Cookie"
    # Said, so that gunicorn sends the page whole rather than in chunks.
    response["Content-Length"] = str(len(body))
    return response
