"""Player settings on the server: the settings form for browsers without JavaScript (kept in the
session, rendered as classes on <html>) and the auto-move field on move requests."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from game import engine
from game.models import Game
from tests.helpers.play import auto_case, post, start

pytestmark = pytest.mark.django_db

SETTINGS = {
    "four_colour": "four-colour",
    "left_handed": "left-handed",
    "reduced_motion": "reduced-motion",
    "auto_move": "auto-move",
    "sounds": "sounds",
}


def html_classes(client: Client, url: str = "/") -> set[str]:
    page = client.get(url).content.decode()
    found = re.search(r'<html lang="en"(?: class="([^"]*)")?>', page)
    assert found is not None
    return set((found[1] or "").split())


# ---------------------------------------------------------------- the settings form


def test_settings_are_off_by_default(client: Client) -> None:
    page = client.get("/settings/")

    assert page.status_code == 200
    assert page.content.count(b'type="checkbox"') == 7  # six settings and strict mode
    # Only the Themes' defaults are chosen: a green table, classic faces, the system's scheme.
    checked = re.findall(
        rb'<input type="(\w+)" name="(\w+)" (?:value="(\w+)" )?[^>]* checked>', page.content
    )
    assert sorted(checked) == [
        (b"radio", b"cards", b"classic"),
        (b"radio", b"felt", b"green"),
        (b"radio", b"scheme", b"system"),
    ]
    assert html_classes(client) == set()


@pytest.mark.parametrize(
    ("choices", "classes"),
    [
        ({"felt": "blue"}, {"felt-blue"}),
        ({"felt": "red", "cards": "large"}, {"felt-red", "cards-large"}),
        ({"scheme": "dark", "felt": "grey"}, {"scheme-dark", "felt-grey"}),
        ({"felt": "green", "cards": "classic", "scheme": "system"}, set()),
    ],
)
def test_themes_posted_without_javascript_are_kept_and_shown(
    client: Client, choices: dict[str, str], classes: set[str]
) -> None:
    client.get("/")
    response = client.post("/settings/", choices)

    assert response.status_code == 303
    assert html_classes(client) == classes


def test_a_theme_that_is_not_offered_is_refused(client: Client) -> None:
    response = client.post("/settings/", {"felt": "purple"})

    assert response.status_code == 400
    assert html_classes(client) == set()


@pytest.mark.parametrize(("field", "css_class"), SETTINGS.items())
def test_each_setting_posted_without_javascript_is_kept_and_shown(
    client: Client, field: str, css_class: str
) -> None:
    client.get("/")
    response = client.post("/settings/", {field: "on"})

    assert response.status_code == 303
    assert response["Location"] == "/settings/?saved=1"
    assert html_classes(client) == {css_class}
    assert html_classes(client, "/stats/") == {css_class}
    page = client.get("/settings/?saved=1").content.decode()
    assert "Settings saved" in page
    assert re.search(rf'name="{field}" data-setting="{css_class}" checked', page)


def test_unticking_every_box_turns_them_all_off(client: Client) -> None:
    client.post("/settings/", dict.fromkeys(SETTINGS, "on"))
    assert html_classes(client) == set(SETTINGS.values())

    client.post("/settings/", {})

    assert html_classes(client) == set()


def test_the_form_goes_back_to_the_game_it_came_from_and_nowhere_else(client: Client) -> None:
    game = start(client)

    back = client.post("/settings/", {"next": f"/game/{game.pk}/", "four_colour": "on"})
    away = client.post("/settings/", {"next": "https://evil.example/", "four_colour": "on"})

    assert back["Location"] == f"/game/{game.pk}/"
    assert away["Location"] == "/settings/?saved=1"


def test_the_embed_never_reads_the_sessions_settings(client: Client) -> None:
    client.post("/settings/", {"four_colour": "on"})

    page = client.get("/embed/").content.decode()

    assert 'class="four-colour"' not in page
    assert "data-settings-form" in page  # its own settings, kept in the frame's storage


# ---------------------------------------------------------------- auto-move


def test_a_move_with_auto_plays_every_foundation_move_it_frees(client: Client) -> None:
    number, move, home = auto_case()
    game = start(client, number)

    response = post(client, game, "move", htmx=True, move=move.text, auto="1")

    assert response.status_code == 200
    game.refresh_from_db()
    assert game.moves.split() == [move.text, *(m.text for m in home)]
    assert game.auto_flags == "0" + "1" * len(home)


def test_a_move_with_auto_off_plays_only_itself(client: Client) -> None:
    number, move, _ = auto_case()
    game = start(client, number)
    client.post("/settings/", {"auto_move": "on"})  # the browser's field wins over the session

    post(client, game, "move", htmx=True, move=move.text, auto="0")

    game.refresh_from_db()
    assert game.moves.split() == [move.text]


def test_without_the_field_the_sessions_setting_decides(client: Client) -> None:
    number, move, home = auto_case()
    game = start(client, number)
    client.post("/settings/", {"auto_move": "on"})

    post(client, game, "move", move=move.text)  # a plain form post, JavaScript off

    game.refresh_from_db()
    assert game.move_count == 1 + len(home)


def test_undo_takes_the_auto_moves_back_with_the_move_and_redo_plays_them_again(
    client: Client,
) -> None:
    number, move, home = auto_case()
    game = start(client, number)
    post(client, game, "move", move=move.text, auto="1")
    game.refresh_from_db()

    post(client, game, "undo", auto="1")
    game.refresh_from_db()
    assert (game.move_count, game.auto_flags) == (0, "")

    post(client, game, "redo", auto="1")
    game.refresh_from_db()
    assert game.moves.split() == [move.text, *(m.text for m in home)]
    assert game.redo == ""


def test_undo_steps_back_one_move_when_none_was_automatic(client: Client) -> None:
    number, move, home = auto_case()
    game = start(client, number)
    post(client, game, "move", move=move.text, auto="0")
    game.refresh_from_db()
    post(client, game, "move", move=home[0].text, auto="0")
    game.refresh_from_db()

    post(client, game, "undo")

    game.refresh_from_db()
    assert game.moves.split() == [move.text]


def test_a_redeal_with_auto_sends_home_what_the_new_fans_offer(client: Client) -> None:
    game = start(client, 5)
    mirror = engine.Play(5)
    mirror.play(engine.REDEAL)
    expected = engine.auto_finish(mirror.position)

    post(client, game, "redeal", auto="1")

    game.refresh_from_db()
    assert game.moves.split() == ["R", *(m.text for m in expected)]


def test_the_embed_takes_the_auto_field_in_its_token_post() -> None:
    client = Client()
    number, move, home = auto_case()

    response = client.post(f"/embed/deal/{number}/move/", {"n": 0, "move": move.text, "auto": "1"})

    assert response.status_code == 303
    game = Game.objects.get(session_key="")
    assert game.move_count == 1 + len(home)
    assert not client.cookies
    response = client.post(f"/embed/g/{game.token}/undo/", {"n": game.move_count, "auto": "1"})
    game.refresh_from_db()
    assert game.move_count == 0
