"""Garbage in: random methods, fields, values and lengths sent to every endpoint.

Hypothesis builds the requests; the endpoints come from the URL patterns themselves, so a view
added later is fuzzed too. Path parameters get this session's real game, another session's game
and junk. Nothing may answer 500, and the other session's game must never change. Below, the
authorization checks that tests/web/play/test_play.py does not already make.
"""

from __future__ import annotations

import re
import string
from urllib.parse import quote

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.models import Game, new_token
from tests.helpers.play import start as start_deal

pytestmark = pytest.mark.django_db

METHODS = ["GET", "POST", "HEAD", "PUT", "PATCH", "DELETE", "OPTIONS"]
# The field names the views read, and a few they do not.
FIELDS = [
    "move", "n", "rules", "number", "sel", "deal", "rule_set", "redeals", "mercis",
    "free_merci", "kings", "confirm", "csrfmiddlewaretoken", "token", "record", "then", "state",
    "daily", "step",
]  # fmt: skip
# What a browser could put in a cookie value (a NUL never gets through the HTTP server).
COOKIE_CHARS = string.ascii_letters + string.digits + string.punctuation.replace(";", "") + " "
_PARAMETER = re.compile(r"<(?:(\w+):)?(\w+)>")


def endpoints() -> list[str]:
    """Every route outside the admin, e.g. `game/<int:game_id>/move/`."""
    routes = []

    def walk(patterns: list[URLPattern | URLResolver], prefix: str) -> None:
        for pattern in patterns:
            route = prefix + str(pattern.pattern)
            if route.startswith("admin/"):
                continue
            if isinstance(pattern, URLResolver):
                walk(pattern.url_patterns, route)
            else:
                routes.append(route)

    walk(get_resolver().url_patterns, "")
    return routes


ENDPOINTS = endpoints()

# Text that tends to break parsers: digits, signs, move notation, markup, control and wide chars.
nasty_text = st.one_of(
    st.text(max_size=40),
    st.text(alphabet=string.digits + "-+.# ", max_size=25),
    st.sampled_from(["AS>F", "6C>7C", "*KD>F", "R", "lucie-ru", "0", "-1", "99999999999999999999"]),
    st.text(alphabet="AKQJT98765432CDHS>F*R ", max_size=12),
    st.just("x" * 5000),
    # Numbers longer than int() reads: a move count, a fan, a deal, a year.
    st.just("9" * 5000),
    st.just("KS>@" + "9" * 5000),
    st.just("lucie 5 KS>@" + "9" * 5000),
    st.sampled_from(["0000", "00", "0"]),
    st.just("\x00"),
    st.just("<script>alert(1)</script>"),
)


def fill(route: str, draw: st.DrawFn, own: int, victim: int) -> str:
    def value(match: re.Match[str]) -> str:
        if match[1] == "int":
            number = draw(st.one_of(st.sampled_from([own, victim]), st.integers(0, 2**70)))
            return str(number)
        return quote(draw(nasty_text), safe="")

    return "/" + _PARAMETER.sub(value, route)


@st.composite
def requests(draw: st.DrawFn, own: int, victim: int) -> tuple[str, str, dict[str, str], bool]:
    path = fill(draw(st.sampled_from(ENDPOINTS)), draw, own, victim)
    method = draw(st.sampled_from(METHODS))
    names = st.one_of(st.sampled_from(FIELDS), st.text(min_size=1, max_size=10))
    data = draw(st.dictionaries(names, nasty_text, max_size=6))
    return method, path, data, draw(st.booleans())


def snapshot(game: Game) -> tuple[object, ...]:
    game.refresh_from_db()
    return (game.moves, game.redo, game.move_count, game.status, game.rules, game.session_key)


def start(client: Client) -> Game:
    return start_deal(client, 5)


def test_the_url_patterns_name_the_game_endpoints() -> None:
    assert "game/<int:game_id>/move/" in ENDPOINTS
    assert "ping" in ENDPOINTS


@pytest.fixture
def other_game() -> tuple[Game, tuple[object, ...]]:
    """Another session's game with a redeal made, and how it stood. Made once for all of the
    test's examples (a function-scoped fixture is, under Hypothesis): each example must leave it
    as it stood, so the garbage of every example before it is checked too, and 200 examples do
    not deal and redeal 200 games that nothing else reads."""
    victim_client = Client()
    game = start(victim_client)
    victim_client.post(f"/game/{game.pk}/redeal/", {"n": 0})
    return game, snapshot(game)


@settings(
    max_examples=200,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
@pytest.mark.slow
def test_garbage_never_breaks_a_view_or_touches_another_game(
    other_game: tuple[Game, tuple[object, ...]], data: st.DataObject
) -> None:
    victim, before = other_game
    fuzzer = Client(raise_request_exception=False)
    own = start(fuzzer)

    for _ in range(3):
        method, path, form, htmx = data.draw(requests(own.pk, victim.pk))
        cookie = data.draw(st.none() | st.text(alphabet=COOKIE_CHARS, max_size=60))
        if cookie is not None:
            fuzzer.cookies[data.draw(st.sampled_from(["sessionid", "csrftoken"]))] = cookie
        headers = {"HX-Request": "true"} if htmx else {}
        if method in ("GET", "HEAD", "OPTIONS", "DELETE"):
            response = fuzzer.generic(method, path + "?" + urlencode_loose(form), headers=headers)
        else:
            response = fuzzer.generic(
                method,
                path,
                urlencode_loose(form),
                content_type="application/x-www-form-urlencoded",
                headers=headers,
            )
        assert response.status_code < 500, (method, path, form, response.content[:500])

    assert snapshot(victim) == before


def urlencode_loose(form: dict[str, str]) -> str:
    return "&".join(f"{quote(k, safe='')}={quote(v, safe='')}" for k, v in form.items())


# ---------------------------------------------------------------- another session's game


def test_starting_a_deal_or_a_new_game_leaves_other_sessions_games_alone(client: Client) -> None:
    victim_client = Client()
    victim = start(victim_client)
    victim_client.post(f"/game/{victim.pk}/redeal/", {"n": 0})
    before = snapshot(victim)

    client.post("/deal/9/", {"rules": "lucie"})
    client.post("/new/", {"rule_set": "lucie"})
    client.get("/")

    assert snapshot(victim) == before
    assert victim.status == Game.Status.PLAYING


def test_a_made_up_session_cookie_gets_a_fresh_session_not_someone_elses_game() -> None:
    owner = Client()
    game = start(owner)
    before = snapshot(game)
    guesser = Client()
    guesser.cookies["sessionid"] = "x" * 32

    assert guesser.get(f"/game/{game.pk}/").status_code == 404
    assert guesser.post(f"/game/{game.pk}/redeal/", {"n": 0}).status_code == 404
    assert guesser.cookies["sessionid"].value != owner.cookies["sessionid"].value
    assert snapshot(game) == before


def test_game_tokens_are_long_random_and_distinct() -> None:
    tokens = {new_token() for _ in range(1000)}

    assert len(tokens) == 1000
    # 24 random bytes: 192 bits, URL-safe, never a guessable sequence.
    assert all(re.fullmatch(r"[A-Za-z0-9_-]{32}", token) for token in tokens)
    owner = Client()
    game = start(owner)
    other = start(Client())
    assert game.token != other.token


def test_a_finished_game_of_another_session_stays_finished() -> None:
    owner = Client()
    game = start(owner)
    Game.objects.filter(pk=game.pk).update(status=Game.Status.LOST)
    before = snapshot(game)
    stranger = Client()
    stranger.get("/")

    assert stranger.post(f"/game/{game.pk}/undo/", {"n": 0}).status_code == 404
    assert snapshot(game) == before


def test_a_token_with_a_nul_byte_is_a_404_not_a_database_error(client: Client) -> None:
    # PostgreSQL refuses a NUL in text with DataError (a 500): the embed URLs must stop it first.
    for path in ("/embed/g/abc%00def/", "/embed/g/%00/hint/"):
        assert client.get(path).status_code == 404
