"""Middleware of the site itself."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import resolve, reverse

from game import limits

HEALTH_PATH = "/healthz"

# The probe's answer is plain text that no page embeds or runs: the strictest policy fits it.
HEALTH_CSP = "default-src 'none'; frame-ancestors 'none'"


class HealthCheckMiddleware:
    """Answer the health probe before anything looks at the Host header.

    A load balancer probes each app server by its address (`Host: 10.0.0.5:8000`), which is not
    in ALLOWED_HOSTS, so CommonMiddleware would refuse it with a 400 and take the server out of
    rotation. This middleware sits above CommonMiddleware and hands `/healthz` straight to its
    view; the view reads nothing from the host, the session or the body. SecurityMiddleware still
    wraps it (its HTTPS redirect exempts `/healthz`), and the headers that the middleware below
    would have added are set here.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.path_info != HEALTH_PATH:
            return self.get_response(request)
        response: HttpResponse = resolve(HEALTH_PATH).func(request)
        response.headers.setdefault("X-Frame-Options", "DENY")
        response.headers.setdefault("Content-Security-Policy", HEALTH_CSP)
        return response


class LimitsMiddleware:
    """A request refused by a rate limit (429) or for want of a compute slot (503), wherever the
    view did not show it on a board itself: a short page that says when to try again."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not isinstance(exception, limits.Limited | limits.Busy):
            return None
        return refused_page(request, exception)


def refused_page(request: HttpRequest, refused: limits.Refused) -> HttpResponse:
    if request.path_info.startswith("/embed/"):
        context = {
            "title": "Not just now",
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
