"""An htmx answer's forms carry a CSRF token of their own (Django's, masked anew), with which a
plain form post passes, whether the request sent the page's token in its header or not; nothing
the request sent in that header is echoed."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from game.models import Game
from tests.helpers.play import a_card_move, start

pytestmark = pytest.mark.django_db

FIELD = re.compile(rb'name="csrfmiddlewaretoken" value="([^"]*)"')
PAGE_TOKEN = re.compile(rb'hx-headers=\'\{"X-CSRFToken": "([A-Za-z0-9]+)"\}\'')


def page_token(client: Client, game: Game) -> str:
    found = PAGE_TOKEN.search(client.get(f"/game/{game.pk}/").content)
    assert found is not None
    return found[1].decode()


def fields(content: bytes) -> set[str]:
    return {value.decode() for value in FIELD.findall(content)}


def htmx_move(client: Client, game: Game, token: str | None) -> tuple[int, set[str], bool]:
    game.refresh_from_db()
    headers = {"HX-Request": "true"}
    if token is not None:
        headers["X-CSRFToken"] = token
    data = {"n": game.move_count, "move": a_card_move(game).text, "auto": "0"}
    if token is None:
        data["csrfmiddlewaretoken"] = page_token(client, game)
    response = client.post(f"/game/{game.pk}/move/", data, headers=headers)
    return response.status_code, fields(response.content), "csrftoken" in response.cookies


def passes(client: Client, game: Game, token: str) -> bool:
    """Whether a plain form post with `token` (a browser without board.js) passes the CSRF check;
    the token must have a CSRF token's form, 64 letters and digits."""
    assert re.fullmatch(r"[A-Za-z0-9]{64}", token)
    game.refresh_from_db()
    plain = client.post(
        f"/game/{game.pk}/move/",
        {"n": game.move_count, "move": a_card_move(game).text, "csrfmiddlewaretoken": token},
    )
    return plain.status_code == 303


def test_an_answer_carries_a_token_of_its_own_that_passes() -> None:
    client = Client(enforce_csrf_checks=True)
    game = start(client)
    status, found, _cookie = htmx_move(client, game, page_token(client, game))
    assert status == 200
    (token,) = found
    assert passes(client, game, token)


def test_an_answer_without_the_header_gets_a_new_token_that_passes() -> None:
    client = Client(enforce_csrf_checks=True)
    game = start(client)
    status, found, _ = htmx_move(client, game, None)
    assert status == 200
    (token,) = found
    assert passes(client, game, token)


@pytest.mark.parametrize("header", ['"><script>x</script>', "a" * 63, "a" * 65, "é" * 64])
def test_a_header_that_is_no_token_is_never_echoed(header: str) -> None:
    client = Client()
    game = start(client)
    response = client.get(
        f"/game/{game.pk}/hint/", headers={"HX-Request": "true", "X-CSRFToken": header}
    )
    assert response.status_code == 200
    (token,) = fields(response.content)
    assert token != header
    assert re.fullmatch(r"[A-Za-z0-9]{64}", token)
