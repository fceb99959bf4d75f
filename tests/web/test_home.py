from __future__ import annotations

import pytest
from django.test import Client


@pytest.mark.django_db
def test_home_page_names_the_game(client: Client) -> None:
    response = client.get("/")

    assert response.status_code == 200
    assert b"<title>La Belle Lucie</title>" in response.content


@pytest.mark.django_db
def test_pages_refuse_framing_and_inline_code(client: Client) -> None:
    response = client.get("/")
    policy = response["Content-Security-Policy"]

    assert response["X-Frame-Options"] == "DENY"
    assert "frame-ancestors 'none'" in policy
    assert "script-src 'self';" in policy
    assert "style-src 'self';" in policy
    assert "unsafe-inline" not in policy


@pytest.mark.django_db
def test_htmx_requests_carry_the_csrf_token(client: Client) -> None:
    response = client.get("/")

    assert b'hx-headers=\'{"X-CSRFToken": "' in response.content
    assert b'"includeIndicatorStyles":false' in response.content
