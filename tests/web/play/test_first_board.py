"""Nothing is stored until a player plays: a browser with no session is shown a deal's first board
(`/`, `/deal/<n>/`, the daily pages) with no game row and no session row behind it, and the first
change (a move, a redeal, Show a win) stores the session and the game together. A refused first
change (stale, illegal, malformed, forged, rate-limited, busy) stores nothing at all.

These count rows, so run them on PostgreSQL too (DATABASE_URL).
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterator
from html import unescape

import pytest
import time_machine
from django.contrib.sessions.models import Session
from django.test import Client

from game import deals, engine
from game.models import Game
from game.ops import limits
from tests.helpers.play import a_first_move, board_of

pytestmark = pytest.mark.django_db


TODAY = dt.datetime(2026, 11, 29, 12, tzinfo=dt.UTC)
HTMX = {"HX-Request": "true"}


@pytest.fixture(autouse=True)
def _today() -> Iterator[None]:
    with time_machine.travel(TODAY, tick=False):
        yield


def stored() -> tuple[int, int]:
    """Game rows and session rows."""
    return Game.objects.count(), Session.objects.count()


# ---------------------------------------------------------------- views store nothing


@pytest.mark.parametrize(
    "url",
    [
        "/",
        "/deal/5/",
        "/deal/5/?rules=trefoil",
        "/daily/",
        "/daily/2026/11/20/",
        "/deal/5/?sel=KS",
        "/new/",
        "/deal/5/hint/?rules=lucie",
        "/deal/5/show-a-win/?rules=lucie",
    ],
)
def test_a_page_view_with_no_cookie_stores_nothing(url: str) -> None:
    client = Client()
    for _ in range(3):
        response = client.get(url)
        assert response.status_code == 200
    assert stored() == (0, 0)
    assert "sessionid" not in client.cookies


@pytest.mark.parametrize("url", ["/", "/deal/5/", "/deal/5/?rules=nomerci-r1", "/daily/"])
def test_a_first_board_shows_the_deal_and_names_no_game(url: str) -> None:
    board = board_of(Client().get(url))

    assert board["game"] == ""
    assert board["moves"] == "0"
    assert board["move-url"].startswith(f"/deal/{board['deal']}/move/?rules={board['rules']}")
    if url == "/daily/":
        assert board["deal"] == str(deals.todays_deal_number())
        assert board["move-url"].endswith("&daily=1")


# ---------------------------------------------------------------- the first move stores


@pytest.mark.parametrize("htmx", [True, False], ids=["htmx", "no-js"])
@pytest.mark.parametrize(
    ("url", "daily"),
    [("/", False), ("/deal/5/", False), ("/deal/5/?rules=trefoil", False), ("/daily/", True)],
)
def test_the_first_move_stores_the_session_and_the_game(url: str, daily: bool, htmx: bool) -> None:
    client = Client()
    board = board_of(client.get(url))
    move = a_first_move(board)

    response = client.post(
        board["move-url"], {"n": "0", "move": move.text}, headers=HTMX if htmx else {}
    )

    game = Game.objects.get()
    if htmx:
        assert response.status_code == 200
        assert board_of(response)["game"] == str(game.pk)
    else:
        assert response.status_code == 303
        assert response["Location"] == f"/game/{game.pk}/?did=move&from=0"
    assert (game.deal_number, game.rules, game.moves) == (
        int(board["deal"]),
        board["rules"],
        move.text,
    )
    assert game.started_at is not None
    assert game.daily_entry is daily
    assert game.session_key == client.cookies["sessionid"].value
    assert Session.objects.filter(session_key=game.session_key).exists()
    # The page now resumes the game.
    assert board_of(client.get(url))["game"] == str(game.pk)


def test_the_first_move_without_javascript_by_tapping_a_card_then_its_place() -> None:
    client = Client()
    board = board_of(client.get("/deal/5/"))
    move = a_first_move(board)
    assert move.card is not None

    picked = client.get(f"/deal/5/?rules=lucie&sel={move.card.code}").content.decode()
    assert stored() == (0, 0)
    target = re.search(
        rf'form="move-form" name="move" value="{re.escape(move.text)}"', unescape(picked)
    )
    action = re.search(r'<form id="move-form" method="post" action="([^"]+)"', picked)
    assert target is not None
    assert action is not None

    response = client.post(unescape(action[1]), {"n": "0", "move": move.text})

    assert response.status_code == 303
    assert Game.objects.get().moves == move.text


def test_a_redeal_as_the_first_change_stores_the_game(client: Client) -> None:
    response = client.post("/deal/5/redeal/?rules=lucie", {"n": "0"}, headers=HTMX)

    assert response.status_code == 200
    assert Game.objects.get().moves == "R"


# ---------------------------------------------------------------- refused: nothing stored


@pytest.mark.parametrize(
    ("path", "data", "status"),
    [
        ("/deal/5/move/?rules=lucie", {"n": "0", "move": "KS>QS"}, 400),  # against the rules
        ("/deal/5/move/?rules=lucie", {"n": "0", "move": "?"}, 400),  # malformed
        ("/deal/5/move/?rules=lucie", {"n": "0", "move": "KS>@" + "9" * 5000}, 400),
        ("/deal/5/move/?rules=lucie", {"move": "AS>F"}, 400),  # no board named
        ("/deal/5/move/?rules=lucie", {"n": "9" * 5000, "move": "AS>F"}, 400),
        ("/deal/5/move/?rules=lucie", {"n": "3", "move": "AS>F"}, 409),  # a stale board
        ("/deal/5/undo/?rules=lucie", {"n": "0"}, 400),  # nothing to undo
        ("/deal/5/redo/?rules=lucie", {"n": "0"}, 400),
        ("/deal/7/auto/?rules=lucie", {"n": "0"}, 400),  # nothing can go home yet
        ("/deal/5/move/?rules=no-such-rules", {"n": "0", "move": "AS>F"}, 400),
        ("/deal/0/move/", {"n": "0", "move": "AS>F"}, 400),
        ("/deal/" + "9" * 5000 + "/move/", {"n": "0", "move": "AS>F"}, 400),
        ("/deal/5/fly/?rules=lucie", {"n": "0"}, 404),
    ],
)
def test_a_refused_first_change_stores_nothing(
    client: Client, path: str, data: dict[str, str], status: int
) -> None:
    response = client.post(path, data, headers=HTMX)

    assert response.status_code == status
    assert stored() == (0, 0)
    assert "sessionid" not in client.cookies


def test_a_refused_first_move_answers_with_the_first_board(client: Client) -> None:
    response = client.post("/deal/5/move/?rules=lucie", {"n": "0", "move": "KS>QS"}, headers=HTMX)

    assert response.status_code == 400
    assert board_of(response)["game"] == ""
    assert board_of(response)["deal"] == "5"


def test_a_forged_first_move_without_the_csrf_token_stores_nothing() -> None:
    client = Client(enforce_csrf_checks=True)
    board = board_of(client.get("/deal/5/"))

    response = client.post(board["move-url"], {"n": "0", "move": a_first_move(board).text})

    assert response.status_code == 403
    assert stored() == (0, 0)


def test_a_double_submitted_first_move_is_stale_and_changes_nothing(client: Client) -> None:
    board = board_of(client.get("/deal/5/"))
    data = {"n": "0", "move": a_first_move(board).text}
    assert client.post(board["move-url"], data).status_code == 303
    game = Game.objects.get()

    again = client.post(board["move-url"], data, headers=HTMX)

    assert again.status_code == 409
    assert board_of(again)["game"] == str(game.pk)
    assert Game.objects.get() == game
    game.refresh_from_db()
    assert (game.move_count, game.status) == (1, Game.Status.PLAYING)


@pytest.mark.parametrize("htmx", [True, False], ids=["htmx", "no-js"])
def test_a_first_move_on_another_deal_never_leaves_a_begun_game(htmx: bool) -> None:
    """A second tab opened before the first move: its first board would abandon the game begun in
    the other tab (a loss), so it goes to the deal's page, which asks first."""
    client = Client()
    other_tab = board_of(client.get("/deal/7/"))
    board = board_of(client.get("/deal/5/"))
    client.post(board["move-url"], {"n": "0", "move": a_first_move(board).text})
    begun = Game.objects.get()

    response = client.post(
        other_tab["move-url"],
        {"n": "0", "move": a_first_move(other_tab).text},
        headers=HTMX if htmx else {},
    )

    if htmx:
        assert response["HX-Redirect"] == "/deal/7/"
    else:
        assert (response.status_code, response["Location"]) == (303, "/deal/7/")
    assert Game.objects.get() == begun
    begun.refresh_from_db()
    assert (begun.status, begun.move_count) == (Game.Status.PLAYING, 1)
    assert "Play deal #7?" in client.get("/deal/7/").content.decode()


@pytest.mark.parametrize(
    "path",
    [
        "/deal/5/move/?rules=lucie&daily=1",  # not a day's deal
        "/deal/20261129/move/?rules=nomerci&daily=1",  # not the daily rules
        "/deal/20261130/move/?rules=lucie&daily=1",  # a day still to come
        "/deal/20261029/move/?rules=lucie&daily=1",  # before the site's first month
        "/deal/20261129/move/?rules=lucie",  # not dealt by a daily page
    ],
)
def test_a_daily_flag_counts_only_on_a_daily_deal(client: Client, path: str) -> None:
    number = int(path.split("/")[2])
    rules = engine.Rules.parse(re.search(r"rules=([\w-]+)", path)[1])  # type: ignore[index]
    move = engine.card_moves(engine.Play(number, rules).position)[0]

    assert client.post(path, {"n": "0", "move": move.text}).status_code == 303

    assert Game.objects.get().daily_entry is False


def test_a_past_days_first_move_is_its_daily_entry(client: Client) -> None:
    board = board_of(client.get("/daily/2026/11/20/"))
    assert board["move-url"] == "/deal/20261120/move/?rules=lucie&daily=1"

    client.post(board["move-url"], {"n": "0", "move": a_first_move(board).text})

    game = Game.objects.get()
    assert (game.deal_number, game.daily_entry) == (20261120, True)


@pytest.mark.usefixtures("rate_limits")
def test_a_rate_limited_first_move_stores_nothing() -> None:
    allowed = int(limits.SESSION.per_address.split("/")[0])
    answers = []
    for _ in range(allowed + 3):
        client = Client()
        board = board_of(client.get("/deal/5/"))
        data = {"n": "0", "move": a_first_move(board).text}
        answers.append(client.post(board["move-url"], data, headers=HTMX).status_code)

    assert answers == [200] * allowed + [429] * 3
    assert stored() == (allowed, allowed)


# ---------------------------------------------------------------- hint and Show a win


def test_the_hint_on_a_first_board_stores_nothing(client: Client) -> None:
    response = client.get("/deal/5/hint/?rules=lucie", headers=HTMX)

    assert response.status_code == 200
    assert "Hint:" in response.content.decode()
    assert board_of(response)["move-url"] == "/deal/5/move/?rules=lucie"
    assert stored() == (0, 0)


def test_the_hint_on_the_daily_first_board_keeps_the_daily_flag(client: Client) -> None:
    number = deals.todays_deal_number()

    response = client.get(f"/deal/{number}/hint/?rules=lucie&daily=1", headers=HTMX)

    assert board_of(response)["move-url"] == f"/deal/{number}/move/?rules=lucie&daily=1"
    assert stored() == (0, 0)


@pytest.mark.parametrize("htmx", [True, False], ids=["htmx", "no-js"])
def test_show_a_win_on_a_first_board_stores_the_game_assisted(htmx: bool) -> None:
    client = Client()
    asked = client.get("/deal/5/show-a-win/?rules=lucie").content.decode()
    assert 'action="/deal/5/show-a-win/?rules=lucie"' in asked
    assert stored() == (0, 0)

    response = client.post(
        "/deal/5/show-a-win/?rules=lucie", {"n": "0"}, headers=HTMX if htmx else {}
    )

    game = Game.objects.get()
    assert response.status_code == (200 if htmx else 303)
    assert (game.deal_number, game.assisted, game.move_count) == (5, True, 0)
    assert Session.objects.filter(session_key=game.session_key).exists()
    shown = client.get(f"/game/{game.pk}/").content.decode()
    assert "This game can still be won from here" in shown or "No win" in shown


@pytest.mark.usefixtures("slots_taken")
def test_show_a_win_on_a_first_board_while_busy_stores_nothing(client: Client) -> None:
    response = client.post("/deal/5/show-a-win/?rules=lucie", {"n": "0"}, headers=HTMX)

    assert response.status_code == 503
    assert limits.BUSY_MESSAGE in response.content.decode()
    assert stored() == (0, 0)
    assert "sessionid" not in client.cookies
