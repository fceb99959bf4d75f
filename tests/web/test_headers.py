"""Security headers on every page: a CSP that allows no inline code, no sniffing, a referrer
policy, and framing refused (the embed, which other sites frame, has tests of its own)."""

from __future__ import annotations

import re

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db

PAGES = ["/", "/rules/", "/stats/", "/healthz", "/ping", "/deal/1/", "/new/", "/game/{game}/"]
# Pages that answer with an error still carry the headers.
ERRORS = ["/no-such-page/", "/deal/zero/", "/game/999999/"]
_SCRIPT = re.compile(r"<script\b([^>]*)>(.*?)</script>", re.S | re.I)
_HANDLER = re.compile(r"<[^>]+\s(on[a-z]+)\s*=", re.I)


def directives(policy: str) -> dict[str, list[str]]:
    parts = (part.split() for part in policy.split(";"))
    return {words[0]: words[1:] for words in parts if words}


@pytest.fixture
def urls(client: Client) -> list[str]:
    client.get("/")
    response = client.post("/deal/5/")  # a first view stores nothing: deal a game for real
    found = re.fullmatch(r"/game/(\d+)/", response["Location"])
    assert found is not None
    return [url.format(game=int(found[1])) for url in PAGES + ERRORS]


def test_every_page_carries_the_security_headers(client: Client, urls: list[str]) -> None:
    for url in urls:
        response = client.get(url)
        assert response["X-Content-Type-Options"] == "nosniff", url
        assert response["Referrer-Policy"] == "same-origin", url
        assert response["X-Frame-Options"] == "DENY", url
        policy = directives(response["Content-Security-Policy"])
        assert policy["frame-ancestors"] == ["'none'"], url
        scripts = policy.get("script-src", policy["default-src"])
        assert "'unsafe-inline'" not in scripts, url
        assert "'unsafe-eval'" not in scripts, url
        assert not any(s.startswith(("http:", "https:", "*")) for s in scripts), url


def test_no_page_holds_inline_script_or_event_handlers(client: Client, urls: list[str]) -> None:
    for url in urls:
        html = client.get(url).content.decode()
        for attributes, body in _SCRIPT.findall(html):
            assert "src=" in attributes, f"{url}: inline <script>{body[:80]}"
            assert not body.strip(), url
        assert not _HANDLER.search(html), f"{url}: {_HANDLER.search(html)}"
        assert "javascript:" not in html.lower(), url


def test_htmx_fragments_carry_the_headers_too(client: Client, urls: list[str]) -> None:
    game_page = next(url for url in urls if url.startswith("/game/") and "999999" not in url)

    response = client.get(game_page, headers={"HX-Request": "true"})

    assert response["X-Frame-Options"] == "DENY"
    assert "frame-ancestors 'none'" in response["Content-Security-Policy"]


def test_a_load_balancer_may_probe_healthz_by_address(client: Client) -> None:
    probe = client.get("/healthz", headers={"Host": "10.20.30.40:8000"})
    page = client.get("/ping", headers={"Host": "10.20.30.40:8000"})

    assert probe.status_code == 200
    assert probe.content.split(b"\n")[0] == b"ok"
    assert probe["X-Frame-Options"] == "DENY"
    # Everything else still refuses a host it does not serve.
    assert page.status_code == 400


def test_healthz_by_address_still_refuses_other_methods(client: Client) -> None:
    response = client.post("/healthz", headers={"Host": "10.20.30.40"})

    assert response.status_code == 405


def test_ping_is_a_few_bytes_with_no_cookie(client: Client) -> None:
    response = client.get("/ping")

    assert response.status_code == 200
    assert response.content == b"pong"
    assert response.cookies == {}
    assert client.post("/ping").status_code == 405


def test_pages_and_board_fragments_are_compressed_for_browsers_that_ask(client: Client) -> None:
    page = client.get("/", headers={"Accept-Encoding": "gzip"})
    plain = client.get("/")

    assert page["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in page["Vary"]
    assert len(page.content) < len(plain.content) / 3
    assert page["X-Frame-Options"] == "DENY"
    assert "Content-Encoding" not in plain
