"""A write the database refuses is "could not be saved, try again" (a 503), never a 500, and it
changes nothing (issue 19: a full disk made every move Django's 500 page).

In process, the database's own error is raised where the database would raise it: at the
statement, through Django's execute_wrapper hook, with the message SQLite gives on a full disk.
tests/web/test_full_disk.py fills a real disk under a real gunicorn.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.sessions.models import Session
from django.db import OperationalError, connection
from django.test import Client

from game.models import Game
from game.ops import limits
from tests.helpers.disk import full_disk
from tests.helpers.embed import start as embed_start
from tests.helpers.play import a_card_move, a_first_move, board_of, post, snapshot, start

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}


# In autocommit, as a request runs: a move's write has no transaction of its own (a failed one is
# only that statement), which a test's wrapping transaction would turn into a broken one.
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("second", [False, True], ids=["first-move", "later-move"])
@pytest.mark.parametrize("htmx", [True, False], ids=["htmx", "page"])
def test_a_move_the_database_cannot_save_is_a_503_that_changes_nothing(
    client: Client, htmx: bool, second: bool
) -> None:
    game = start(client)
    if second:
        assert post(client, game, "move", move=a_card_move(game).text).status_code == 303
        game.refresh_from_db()
    before = snapshot(game)

    with full_disk() as refused:
        response = post(client, game, "move", htmx=htmx, move=a_card_move(game).text)

    assert refused, "the move tried to write"
    assert response.status_code == 503
    assert int(response["Retry-After"]) >= 1
    assert limits.UNSAVED_MESSAGE in response.content.decode()
    assert snapshot(game) == before
    if htmx:
        assert b'id="board"' in response.content  # shown on the board, where the player pressed
    # Once the disk has room again the same move goes through.
    assert post(client, game, "move", move=a_card_move(game).text).status_code == 303


def test_a_strangers_first_move_the_database_cannot_save_stores_nothing() -> None:
    client = Client()
    board = board_of(client.get("/deal/5/"))

    with full_disk():
        response = client.post(
            board["move-url"], {"n": "0", "move": a_first_move(board).text}, headers=HTMX
        )

    assert response.status_code == 503
    assert limits.UNSAVED_MESSAGE in response.content.decode()
    assert not Game.objects.exists()
    assert not Session.objects.exists()


@pytest.mark.parametrize("action", ["new game", "daily", "clock", "embed move", "embed start"])
def test_other_writes_the_database_refuses_are_503s_too(client: Client, action: str) -> None:
    game = start(client)
    post(client, game, "move", move=a_card_move(game).text)
    embed = embed_start(Client())
    requests = {
        "new game": lambda: client.post(
            "/new/", {"rule_set": "lucie", "redeals": "2", "mercis": "1"}
        ),
        "daily": lambda: client.post("/daily/"),
        "clock": lambda: client.post(f"/game/{game.pk}/clock/", {"state": "pause"}),
        "embed move": lambda: Client().post(
            f"/embed/g/{embed.token}/move/",
            {"n": embed.move_count, "move": a_card_move(embed).text},
            headers=HTMX,
        ),
        "embed start": lambda: Client().post("/embed/deal/9/redeal/", {"n": "0"}),
    }

    with full_disk() as refused:
        response = requests[action]()

    assert refused, "the request tried to write"
    assert response.status_code == 503, response.content[:300]
    assert limits.UNSAVED_MESSAGE in response.content.decode()


def test_a_page_the_database_cannot_read_is_a_503_that_says_so(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = start(client)

    def refuse_reads(
        execute: Callable[..., Any], sql: str, params: Any, many: bool, context: Any
    ) -> Any:
        raise OperationalError("could not connect to server")

    with connection.execute_wrapper(refuse_reads):
        response = client.get(f"/game/{game.pk}/")

    assert response.status_code == 503
    assert limits.UNREADABLE_MESSAGE in response.content.decode()
    assert int(response["Retry-After"]) >= 1


def test_a_session_the_database_cannot_save_after_the_view_is_a_503(client: Client) -> None:
    """The session is saved by its middleware, after the view: handler500 answers that too."""
    client.raise_request_exception = False
    start(client)

    with full_disk():
        response = client.post("/settings/", {"four_colour": "on"})

    assert response.status_code == 503
    assert limits.UNSAVED_MESSAGE in response.content.decode()
