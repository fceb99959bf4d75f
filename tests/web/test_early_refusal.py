"""A request already past a rate limit is answered before the session, the templates and the
database (game/ops/early_refusal.py), with the view's words in the URL's language."""

from __future__ import annotations

import time

import pytest
from django.conf import settings
from django.core.cache import cache
from django.db import connection
from django.test import Client, RequestFactory
from django.test.utils import CaptureQueriesContext
from django.utils import translation
from django_ratelimit.core import get_usage
from pytest_django.fixtures import Settings

from game.ops import early_refusal, limits
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


def refused_early(client: Client, path: str, **extra: str) -> bytes:
    """GET `path` and check it was refused without a query or a template."""
    with CaptureQueriesContext(connection) as queries:
        response = client.get(path, **extra)  # type: ignore[arg-type]
    assert response.status_code == 429, response.content[:300]
    assert not queries.captured_queries
    assert response.templates == []
    assert not hasattr(response.wsgi_request, "session")
    assert int(response["Retry-After"]) >= 1
    assert not response.cookies
    return response.content


def test_an_embed_hint_past_the_address_limit_is_answered_before_the_session() -> None:
    use_up(limits.HINT)
    body = refused_early(Client(), "/embed/deal/9/hint/")
    assert limits.LIMITED_MESSAGE in body.decode()
    assert b'<html lang="en">' in body


@pytest.mark.parametrize("code", ["fr", "de"])
def test_the_early_refusal_speaks_the_language_of_the_url(code: str) -> None:
    use_up(limits.HINT)
    body = refused_early(Client(), f"/{code}/embed/deal/9/hint/").decode()
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
    response = Client(REMOTE_ADDR="192.0.2.8").get("/embed/deal/9/hint/")
    assert response.status_code == 200


def test_a_session_past_its_limit_is_refused_by_its_cookie_from_any_address() -> None:
    client = Client()
    game = start(client)
    key = client.cookies[settings.SESSION_COOKIE_NAME].value
    use_up_session(limits.HINT, key)
    body = refused_early(client, f"/game/{game.pk}/hint/", REMOTE_ADDR="198.51.100.4")
    assert limits.LIMITED_MESSAGE in body.decode()
    # A stranger's cookie value counts nothing of that session's.
    other = Client()
    other.cookies[settings.SESSION_COOKIE_NAME] = "made-up-" + key[8:]
    assert other.get(f"/game/{game.pk}/hint/").status_code != 429


def test_a_boards_htmx_request_sees_its_first_refusals_on_the_board() -> None:
    client = Client()
    use_up(limits.START)
    htmx = {"headers": {"HX-Request": "true"}}
    first = client.post("/embed/deal/5/redeal/", {"n": "0"}, **htmx)  # type: ignore[arg-type]
    assert first.status_code == 429
    assert "HX-Retarget" not in first  # the view's board, with its message
    assert hasattr(first.wsgi_request, "session")  # the view ran
    for _ in range(early_refusal.HTMX_GRACE):
        client.post("/embed/deal/5/redeal/", {"n": "0"}, **htmx)  # type: ignore[arg-type]
    late = client.post("/embed/deal/5/redeal/", {"n": "0"}, **htmx)  # type: ignore[arg-type]
    assert late.status_code == 429
    assert late["HX-Retarget"] == "body"
    assert not hasattr(late.wsgi_request, "session")
    assert "frame-ancestors *" in late["Content-Security-Policy"]
    assert "X-Frame-Options" not in late


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
    assert Client().get("/embed/deal/9/hint/").status_code == 200


def test_a_bucket_past_its_limit_is_refused_from_memory_until_its_window_ends(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    use_up(limits.HINT)
    client = Client()
    refused_early(client, "/embed/deal/9/hint/")
    cache.clear()  # the counts gone: this process still knows the window is not over
    refused_early(client, "/embed/deal/9/hint/")

    refused = early_refusal.Refused()
    bucket = ("hint", "120/m", "192.0.2.1", 0)
    refused.remember(bucket, 5)
    assert refused.seconds_left(bucket) == 5
    later = time.monotonic() + 6
    monkeypatch.setattr(early_refusal, "monotonic", lambda: later)
    assert refused.seconds_left(bucket) is None
