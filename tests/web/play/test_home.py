from __future__ import annotations

import pytest
from django.test import Client


@pytest.mark.django_db
def test_home_page_names_the_game(client: Client) -> None:
    response = client.get("/")

    assert response.status_code == 200
    assert b"<title>La Belle Lucie</title>" in response.content


def directives(policy: str) -> dict[str, str]:
    """A CSP header as {directive: sources}; the header's order is not fixed."""
    parts = (part.strip().partition(" ") for part in policy.split(";"))
    return {name: sources for name, _, sources in parts if name}


@pytest.mark.django_db
def test_pages_refuse_framing_and_inline_code(client: Client) -> None:
    response = client.get("/")
    policy = directives(response["Content-Security-Policy"])

    assert response["X-Frame-Options"] == "DENY"
    assert policy["frame-ancestors"] == "'none'"
    assert policy["script-src"] == "'self'"
    assert policy["style-src"] == "'self'"
    assert policy["object-src"] == "'none'"


@pytest.mark.django_db
def test_htmx_requests_carry_the_csrf_token(client: Client) -> None:
    response = client.get("/")

    assert b'hx-headers=\'{"X-CSRFToken": "' in response.content
    assert b'"includeIndicatorStyles":false' in response.content
