"""A request already past a rate limit is answered in front of Django, before its middleware, the
session, the templates and the database (game/ops/early_refusal.py), with the view's words in the
URL's language."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

import pytest
from django.conf import settings
from django.core.cache import cache
from django.core.handlers.wsgi import WSGIHandler
from django.db import connection
from django.test import Client, RequestFactory
from django.test.utils import CaptureQueriesContext
from django.utils import translation
from django_ratelimit.core import get_usage
from pytest_django.fixtures import Settings

from game.ops import early_refusal, limits
from lucie import wsgi
from tests.helpers.play import start

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("rate_limits")]


def use_up(rate: limits.Rate, *, address: str = "127.0.0.1") -> None:
    """Count requests against `rate` from `address` until the next one is refused."""
    for _ in range(1000):
        try:
            # A request is counted once per rate: a new one each time.
            limits.check(RequestFactory().get("/", REMOTE_ADDR=address), rate, session=False)
        except limits.Limited:
            return
    raise AssertionError("the limit was never met")


def use_up_session(rate: limits.Rate, session_key: str) -> None:
    """Count requests against `rate`'s per-session limit for `session_key`, as a view counts
    them, up to the limit."""
    assert rate.per_session is not None
    for _ in range(int(rate.per_session.split("/")[0])):
        get_usage(RequestFactory().get("/"), group=rate.group, key=lambda _g, _r: session_key,
                  rate=rate.per_session, increment=True)  # fmt: skip


@dataclass
class Front:
    """The site's WSGI front (game/ops/early_refusal.py's EarlyRefusal, as lucie/wsgi.py wraps
    Django with it) around a stand-in for Django that notes each request it is handed."""

    passed_on: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.front = early_refusal.EarlyRefusal(self.django)

    def django(self, environ: dict[str, Any], start_response: Any) -> list[bytes]:
        self.passed_on.append(environ["PATH_INFO"])
        start_response("200 OK", [])
        return [b"Django's answer"]

    def ask(
        self, path: str, *, method: str = "get", cookie: str = "", **extra: Any
    ) -> tuple[int, dict[str, str], bytes]:
        """`path` through the front: the status, headers and body it answers."""
        request = getattr(RequestFactory(), method)(path, **extra)
        if cookie:
            request.environ["HTTP_COOKIE"] = f"{settings.SESSION_COOKIE_NAME}={cookie}"
        answered: list[Any] = []

        def start_response(status: str, headers: list[tuple[str, str]], *_: Any) -> Any:
            answered.extend((status, headers))

        body = b"".join(self.front(request.environ, start_response))
        return int(answered[0].split()[0]), dict(answered[1]), body

    def refused(self, path: str, **extra: Any) -> tuple[dict[str, str], bytes]:
        """Ask `path` and check it was refused in front of Django, with no query."""
        before = len(self.passed_on)
        with CaptureQueriesContext(connection) as queries:
            status, headers, body = self.ask(path, **extra)
        assert status == 429, body[:300]
        assert len(self.passed_on) == before, "handed on to Django"
        assert not queries.captured_queries
        assert int(headers["Retry-After"]) >= 1
        assert "Set-Cookie" not in headers
        assert int(headers["Content-Length"]) == len(body)
        # The headers every answer of the site has (Django's SecurityMiddleware sets them).
        assert headers["X-Content-Type-Options"] == "nosniff"
        assert headers["Referrer-Policy"] == settings.SECURE_REFERRER_POLICY
        return headers, body

    def passes_on(self, path: str, **extra: Any) -> bool:
        before = len(self.passed_on)
        status, _headers, body = self.ask(path, **extra)
        return len(self.passed_on) == before + 1 and (status, body) == (200, b"Django's answer")


def test_the_site_is_served_through_the_front() -> None:
    assert isinstance(wsgi.application, early_refusal.EarlyRefusal)
    assert isinstance(wsgi.application.application, WSGIHandler)
    assert settings.WSGI_APPLICATION == "lucie.wsgi.application"


def test_an_embed_hint_past_the_address_limit_is_answered_before_django() -> None:
    front = Front()
    assert front.passes_on("/embed/deal/9/hint/")
    use_up(limits.HINT)
    headers, body = front.refused("/embed/deal/9/hint/")
    assert limits.LIMITED_MESSAGE in body.decode()
    assert b'<html lang="en">' in body
    assert headers["Content-Language"] == "en"
    # Any other request goes on, whatever its address's counts.
    assert front.passes_on("/rules/")
    assert front.passes_on("/embed/deal/9/hint/", method="head")


@pytest.mark.parametrize("code", ["fr", "de"])
def test_the_early_refusal_speaks_the_language_of_the_url(code: str) -> None:
    use_up(limits.HINT)
    _headers, raw = Front().refused(f"/{code}/embed/deal/9/hint/")
    body = raw.decode()
    with translation.override(code):
        said = translation.gettext(limits.LIMITED_MESSAGE)
        title = translation.gettext("Not just now")
    assert said != limits.LIMITED_MESSAGE
    assert said.replace("'", "&#x27;") in body
    assert title in body
    assert f'<html lang="{code}">' in body
    assert f'href="/{code}/embed/"' in body


def test_another_address_is_not_refused() -> None:
    use_up(limits.HINT, address="192.0.2.7")
    assert Front().passes_on("/embed/deal/9/hint/", REMOTE_ADDR="192.0.2.8")
    response = Client(REMOTE_ADDR="192.0.2.8").get("/embed/deal/9/hint/")
    assert response.status_code == 200


def test_a_session_past_its_limit_is_refused_by_its_cookie_from_any_address() -> None:
    client = Client()
    game = start(client)
    key = client.cookies[settings.SESSION_COOKIE_NAME].value
    use_up_session(limits.HINT, key)
    front = Front()
    _headers, body = front.refused(f"/game/{game.pk}/hint/", cookie=key, REMOTE_ADDR="198.51.100.4")
    assert limits.LIMITED_MESSAGE in body.decode()
    # A stranger's cookie value counts nothing of that session's.
    assert front.passes_on(f"/game/{game.pk}/hint/", cookie="made-up-" + key[8:])
    other = Client()
    other.cookies[settings.SESSION_COOKIE_NAME] = "made-up-" + key[8:]
    assert other.get(f"/game/{game.pk}/hint/").status_code != 429


def test_a_boards_htmx_request_sees_its_first_refusals_on_the_board() -> None:
    client = Client()
    front = Front()
    use_up(limits.START)
    htmx = {"headers": {"HX-Request": "true"}}
    first = client.post("/embed/deal/5/redeal/", {"n": "0"}, **htmx)  # type: ignore[arg-type]
    assert first.status_code == 429
    assert "HX-Retarget" not in first  # the view's board, with its message
    # Past the limit, but within the grace: on to the view, which refuses it on the board.
    assert front.passes_on("/embed/deal/5/redeal/", method="post", data={"n": "0"}, **htmx)
    for _ in range(early_refusal.HTMX_GRACE):
        client.post("/embed/deal/5/redeal/", {"n": "0"}, **htmx)  # type: ignore[arg-type]
    late, _body = front.refused("/embed/deal/5/redeal/", method="post", data={"n": "0"}, **htmx)
    assert late["HX-Retarget"] == "body"
    assert "frame-ancestors *" in late["Content-Security-Policy"]
    assert "X-Frame-Options" not in late
    # The same request without htmx (a script) had no grace.
    refused, _body = front.refused("/embed/deal/5/redeal/", method="post", data={"n": "0"})
    assert "HX-Retarget" not in refused


def test_the_page_is_written_once_per_language(monkeypatch: pytest.MonkeyPatch) -> None:
    written: list[tuple[str, bool]] = []
    real = early_refusal.write_page

    def counting(language: str, embed: bool) -> bytes:
        written.append((language, embed))
        return real(language, embed)

    monkeypatch.setattr(early_refusal, "write_page", counting)
    body = early_refusal.Body()
    pages = [
        body(code, embed) for code in ("en", "fr", "en", "fr", "de") for embed in (False, True)
    ]
    assert len(written) == 6
    assert pages[0] is pages[4]


def test_with_the_limits_off_nothing_is_refused_early(settings: Settings) -> None:
    use_up(limits.HINT)
    settings.RATELIMIT_ENABLE = False
    assert Front().passes_on("/embed/deal/9/hint/")
    assert Client().get("/embed/deal/9/hint/").status_code == 200


def test_over_plain_http_with_the_https_redirect_on_django_answers_first(
    settings: Settings,
) -> None:
    use_up(limits.HINT)
    settings.SECURE_SSL_REDIRECT = True
    assert Front().passes_on("/embed/deal/9/hint/")


def test_a_check_that_fails_hands_the_request_on_to_django(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    use_up(limits.HINT)

    def broken(*_: object) -> None:
        raise ValueError("a client address that is no address")

    monkeypatch.setattr(early_refusal, "over_limit", broken)
    assert Front().passes_on("/embed/deal/9/hint/")
    assert "the early refusal's check failed (ValueError)" in caplog.text


def test_a_bucket_past_its_limit_is_refused_from_memory_until_its_window_ends(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    use_up(limits.HINT)
    front = Front()
    front.refused("/embed/deal/9/hint/")
    cache.clear()  # the counts gone: this process still knows the window is not over
    front.refused("/embed/deal/9/hint/")
    assert Front().passes_on("/embed/deal/9/hint/")  # a process that never saw it asks the cache

    refused = early_refusal.Refused()
    bucket = ("hint", "120/m", "192.0.2.1", 0)
    refused.remember(bucket, 5)
    assert refused.seconds_left(bucket) == 5
    later = time.monotonic() + 6
    monkeypatch.setattr(early_refusal, "monotonic", lambda: later)
    assert refused.seconds_left(bucket) is None
