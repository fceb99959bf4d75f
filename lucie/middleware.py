"""Middleware of the site itself."""

from __future__ import annotations

import datetime as dt
import logging
import re
from collections.abc import Callable
from time import perf_counter
from urllib.parse import quote

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.urls import resolve
from django.utils import timezone

from lucie import metrics

HEALTH_PATH = "/healthz"
# Paths answered before the Host check: what a load balancer and Prometheus ask each server for.
PROBE_PATHS = frozenset({HEALTH_PATH, "/metrics"})

request_log = logging.getLogger("lucie.requests")


class RequestLogMiddleware:
    """One log line per request, with its duration, and the request metrics (lucie.metrics).

    The line names the view that answered (`view=game:move`), so that slow requests can be told
    apart by what they did rather than by their URLs, which hold game numbers and tokens. It is
    the server's access log: gunicorn's own is off (gunicorn.conf.py), so each request is one line.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        started = perf_counter()
        response = self.get_response(request)
        logged(request, response.status_code, perf_counter() - started, view_label(request))
        return response


def logged(request: HttpRequest, status: int, seconds: float, view: str) -> None:
    """A request's log line and metrics: the middleware's, and the early refusal's, which answers
    in front of Django (game/ops/early_refusal.py)."""
    method = request.method if request.method in KNOWN_METHODS else "other"
    metrics.REQUESTS.labels(view=view, method=method, status=status).inc()
    metrics.REQUEST_SECONDS.labels(view=view).observe(seconds)
    request_log.info(
        "%s %s %s %.1fms view=%s",
        method,
        logged_path(request)[:300],
        status,
        seconds * 1000,
        view,
    )


KNOWN_METHODS = frozenset({"GET", "HEAD", "POST", "OPTIONS"})

# Query fields whose value is a secret: a statistics transfer code, which the site only ever
# takes posted, but which an old link or a hand-typed URL may still carry.
SECRET_QUERY = re.compile(r"(^|&)(code)=[^&]*")


# URL parts that are keys: a challenge's, an embed game's (the only key needed to move in it), a
# replay's. Whoever reads the log must not be able to use them.
SECRET_PARTS = frozenset({"token", "replay_token", "code"})


def logged_path(request: HttpRequest) -> str:
    """The path and query as the log writes them: percent-encoded (get_full_path(): no line
    breaks forged from a URL), with every token in the path written `<token>` and a secret
    query field's value left out."""
    path = request.get_full_path()
    match = getattr(request, "resolver_match", None)
    if match is not None:
        for name, value in match.kwargs.items():
            if name in SECRET_PARTS and str(value):
                path = path.replace(f"/{quote(str(value), safe='')}/", "/<token>/")
    if "?" not in path:
        return path
    base, query = path.split("?", 1)
    return base + "?" + SECRET_QUERY.sub(r"\1\2=-", query)


def view_label(request: HttpRequest) -> str:
    """A name from a small, fixed set: the URL pattern's name, never the path itself."""
    match = getattr(request, "resolver_match", None)
    if match is not None:
        # Never empty: Django falls back to the view's dotted path when the pattern has no name.
        return str(match.view_name)
    if request.path_info.startswith("/" + settings.STATIC_URL.lstrip("/")):
        return "static"
    return "unresolved"


# The probe's answer is plain text that no page embeds or runs: the strictest policy fits it.
HEALTH_CSP = "default-src 'none'; frame-ancestors 'none'"


class HealthCheckMiddleware:
    """Answer the health probe before anything looks at the Host header.

    A load balancer probes each app server by its address (`Host: 10.0.0.5:8000`), which is not
    in ALLOWED_HOSTS, so CommonMiddleware would refuse it with a 400 and take the server out of
    rotation. This middleware sits above CommonMiddleware and hands `/healthz` straight to its
    view; the view reads nothing from the host, the session or the body. Prometheus scrapes
    `/metrics` the same way, and its view checks the client's address itself. SecurityMiddleware
    still wraps them (its HTTPS redirect exempts both), and the headers that the middleware below
    would have added are set here.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.path_info not in PROBE_PATHS:
            return self.get_response(request)
        request.resolver_match = match = resolve(request.path_info)
        response: HttpResponse = match.func(request)
        response.headers.setdefault("X-Frame-Options", "DENY")
        response.headers.setdefault("Content-Security-Policy", HEALTH_CSP)
        return response


# The day a session's expiry was last pushed back, kept in the session itself.
RENEWED = "renewed"


class SessionRenewalMiddleware:
    """Push a live session's expiry back to the full SESSION_COOKIE_AGE (400 days) once a day at
    most: when the request read its session and the session was last renewed on another day
    (UTC), it notes today's date in it, and Django's SessionMiddleware, just outside this one,
    saves it with a new expiry and sends the cookie again. One write a day per player at most,
    never one per request; a request that never read its session renews nothing."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        session = getattr(request, "session", None)
        if (
            session is not None
            and session.accessed
            and response.status_code < 500
            and session.session_key is not None
        ):
            today = timezone.now().astimezone(dt.UTC).date().isoformat()
            if session.get(RENEWED) != today:
                session[RENEWED] = today
        return response
