"""The site on the open internet: what an attacker tried (issue 11), each a test.

No input is a 500; the admin is off unless turned on, and its login is rate-limited; records are
not kept by shared caches; a game's log is capped, so replays and play-on stay cheap.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator

import pytest
from django.core.cache import cache
from django.test import Client, override_settings
from django.urls import clear_url_caches

from game import engine, limits, play
from game.models import Game
from tests.web import test_embed
from tests.web.test_play import a_card_move, post, snapshot, start

pytestmark = pytest.mark.django_db

DIGITS = "9" * 5000


@pytest.fixture
def rate_limits() -> Iterator[None]:
    """Rate limits on (the suite runs with them off), counting from zero."""
    cache.clear()
    with override_settings(RATELIMIT_ENABLE=True):
        yield
    cache.clear()


# ---------------------------------------------------------------- no 500 for huge numbers


@pytest.mark.parametrize(
    "data",
    [
        {"move": "KS>@" + DIGITS},
        {"move": "*KS>@" + DIGITS},
        {"move": "KS>F", "n": DIGITS},
    ],
)
def test_huge_digit_strings_in_a_site_move_are_a_400(client: Client, data: dict[str, str]) -> None:
    game = start(client)
    before = snapshot(game)

    response = post(client, game, "move", **data)

    assert response.status_code == 400
    assert snapshot(game) == before


@pytest.mark.parametrize(
    "data",
    [{"move": "KS>@" + DIGITS, "n": "0"}, {"move": "KS>F", "n": DIGITS}],
)
def test_huge_digit_strings_in_an_embed_move_are_a_400(data: dict[str, str]) -> None:
    client = Client()
    response = client.post("/embed/deal/5/move/", data)
    assert response.status_code == 400
    assert not Game.objects.exists()

    game = test_embed.start(client)
    before = snapshot(game)
    response = client.post(f"/embed/g/{game.token}/move/", {**data, "n": data["n"] and "1"})
    assert response.status_code == 400
    if data["n"] == DIGITS:
        response = client.post(f"/embed/g/{game.token}/move/", data)
        assert response.status_code == 400
    assert snapshot(game) == before


def test_huge_digit_strings_in_an_imported_record_are_a_400(client: Client) -> None:
    for text in ("lucie 5 KS>@" + DIGITS, "lucie " + DIGITS, "lucie 5 AS>F *KS>@" + DIGITS):
        response = client.post("/import/", {"record": text, "then": "replay"})
        assert response.status_code == 400, text
    assert not Game.objects.exists()


def test_the_engine_refuses_an_over_long_fan_number_as_malformed() -> None:
    with pytest.raises(engine.InvalidMoveError):
        engine.Move.parse("KS>@" + DIGITS)
    with pytest.raises(engine.InvalidRecordError):
        engine.Record.parse("lucie 5 KS>@" + DIGITS)


@pytest.mark.parametrize("url", ["/daily/0000/01/", "/daily/0000/01/01/", "/daily/0000/00/"])
def test_year_zero_on_the_daily_pages_is_a_404(client: Client, url: str) -> None:
    assert client.get(url).status_code == 404


# ---------------------------------------------------------------- the admin


def _reload_urls() -> None:
    import lucie.urls

    importlib.reload(lucie.urls)
    clear_url_caches()


@pytest.fixture
def admin_on() -> Iterator[None]:
    with override_settings(ADMIN_ENABLED=True):
        _reload_urls()
        yield
    _reload_urls()


def test_the_admin_is_not_served_by_default(client: Client) -> None:
    assert client.get("/admin/").status_code == 404
    assert client.get("/admin/login/").status_code == 404


@pytest.mark.usefixtures("admin_on", "rate_limits")
def test_the_admins_login_is_rate_limited_when_it_is_on(client: Client) -> None:
    assert client.get("/admin/login/").status_code == 200
    answers = [
        client.post("/admin/login/", {"username": "admin", "password": f"guess{n}"}).status_code
        for n in range(15)
    ]
    assert answers[:10] == [200] * 10  # the form again, saying the password is wrong
    assert set(answers[10:]) == {429}
    response = client.post("/admin/login/", {"username": "admin", "password": "x"})
    assert int(response["Retry-After"]) >= 1


# ---------------------------------------------------------------- record.txt


def test_a_record_download_is_private_and_varies_by_cookie(client: Client) -> None:
    game = start(client)
    post(client, game, "move", move=a_card_move(game).text)

    response = client.get(f"/game/{game.pk}/record.txt")

    assert response.status_code == 200
    assert response["Cache-Control"] == "private, no-store"
    assert "Cookie" in response["Vary"]


# ---------------------------------------------------------------- the move cap


def _redeals(count: int) -> str:
    return "lucie-ru 5 " + " ".join(["R"] * count)


def test_a_record_longer_than_the_cap_is_refused_at_import(client: Client) -> None:
    response = client.post("/import/", {"record": _redeals(5000), "then": "play"})

    assert response.status_code == 400
    assert f"at most {limits.MAX_GAME_MOVES} moves" in response.content.decode()
    assert not Game.objects.exists()


def test_a_game_at_the_cap_refuses_another_move_but_undoes(client: Client) -> None:
    response = client.post("/import/", {"record": _redeals(limits.MAX_GAME_MOVES), "then": "play"})
    assert response.status_code == 303
    game = Game.objects.get()
    assert game.move_count == limits.MAX_GAME_MOVES
    before = snapshot(game)

    refused = post(client, game, "redeal")

    assert refused.status_code == 400
    assert f"at most {limits.MAX_GAME_MOVES} moves" in refused.content.decode()
    assert snapshot(game) == before
    assert post(client, game, "undo").status_code == 303
    game.refresh_from_db()
    assert game.move_count == limits.MAX_GAME_MOVES - 1


def test_a_long_replay_lists_a_bounded_number_of_jumps(client: Client) -> None:
    response = client.post(
        "/import/", {"record": _redeals(limits.MAX_GAME_MOVES), "then": "replay"}
    )
    game = Game.objects.get()
    assert response["Location"] == f"/replay/{game.replay_token}/"

    page = client.get(response["Location"]).content.decode()

    assert page.count('data-step-link="deal"') == limits.MAX_REPLAY_JUMPS
    assert len(page) < 200_000


def test_play_keeps_the_cap_for_a_game_played_move_by_move(client: Client) -> None:
    game = start(client, rules="lucie-ru")
    played = game.replay()
    for _ in range(limits.MAX_GAME_MOVES):
        played.play(engine.REDEAL)
    play.save(game, played)

    assert post(client, game, "redeal").status_code == 400
    game.refresh_from_db()
    assert game.move_count == limits.MAX_GAME_MOVES
