"""The fair timer: the visible time, kept on the server (game/board/clock.py), with time frozen by
time-machine. Pauses, resumes, reloads, two tabs, a long idle stretch, the end of a game."""

from __future__ import annotations

import datetime as dt

import pytest
import time_machine
from django.test import Client

from game import engine
from game.board import clock
from game.models import Game
from tests.helpers.play import a_card_move, greedy_record, post, start

pytestmark = pytest.mark.django_db

T0 = dt.datetime(2026, 12, 1, 12, 0, tzinfo=dt.UTC)
MINUTE = dt.timedelta(minutes=1)


def clock_post(client: Client, game: Game, state: str) -> dict[str, object]:
    response = client.post(f"/game/{game.pk}/clock/", {"state": state})
    assert response.status_code == 200, response.content
    assert response["Cache-Control"] == "no-store"
    reading: dict[str, object] = response.json()
    return reading


def reading(game: Game) -> int:
    game.refresh_from_db()
    return clock.reading(game, dt.datetime.now(dt.UTC))


def move(client: Client, game: Game) -> None:
    game.refresh_from_db()
    response = post(client, game, "move", move=a_card_move(game).text)
    assert response.status_code == 303, response.content


# ---------------------------------------------------------------- the arithmetic


@pytest.mark.parametrize(
    ("banked", "since", "now", "expected"),
    [
        (0, None, T0, 0),  # never started
        (42_000, None, T0, 42_000),  # paused: the bank alone
        (0, T0, T0 + 90 * dt.timedelta(seconds=1), 90_000),  # running 90 s
        (10_000, T0, T0 + 2 * MINUTE, 130_000),  # bank plus the stretch
        (10_000, T0, T0 + 4 * 60 * MINUTE, 10_000 + clock.STRETCH_CAP_MS),  # idle: capped
        (10_000, T0, T0 - MINUTE, 10_000),  # a server clock stepping back adds nothing
    ],
)
def test_the_reading_is_the_bank_plus_the_running_stretch_capped(
    banked: int, since: dt.datetime | None, now: dt.datetime, expected: int
) -> None:
    assert clock.elapsed_ms(banked, since, now) == expected


def test_the_cap_is_five_minutes() -> None:
    assert clock.STRETCH_CAP_MS == 5 * 60 * 1000


# ---------------------------------------------------------------- through the views


def test_the_clock_starts_at_the_first_move_not_at_page_load(client: Client) -> None:
    with time_machine.travel(T0, tick=False) as traveller:
        game = start(client)
        traveller.shift(10 * MINUTE)  # looking at the deal before moving costs nothing
        assert clock_post(client, game, "resume") == {"elapsed_ms": 0, "running": False}
        move(client, game)
        traveller.shift(30)

        assert reading(game) == 30_000
        game.refresh_from_db()
        assert game.clock_since is not None


def test_hidden_time_is_not_counted(client: Client) -> None:
    with time_machine.travel(T0, tick=False) as traveller:
        game = start(client)
        move(client, game)
        traveller.shift(40)
        assert clock_post(client, game, "pause") == {"elapsed_ms": 40_000, "running": False}
        traveller.shift(3 * 60 * 60)  # three hours in another tab
        assert reading(game) == 40_000
        assert clock_post(client, game, "resume") == {"elapsed_ms": 40_000, "running": True}
        traveller.shift(20)

        assert reading(game) == 60_000


def test_a_reload_neither_inflates_nor_resets_the_clock(client: Client) -> None:
    with time_machine.travel(T0, tick=False) as traveller:
        game = start(client)
        move(client, game)
        traveller.shift(50)
        clock_post(client, game, "pause")  # the page goes away
        traveller.shift(2)
        page = client.get(f"/game/{game.pk}/")  # the new page
        assert b'data-elapsed-ms="50000"' in page.content
        assert b'data-running="true"' in page.content
        assert clock_post(client, game, "resume")["elapsed_ms"] == 50_000
        traveller.shift(10)

        assert reading(game) == 60_000


def test_a_reload_whose_pause_never_arrived_counts_only_the_gap(client: Client) -> None:
    with time_machine.travel(T0, tick=False) as traveller:
        game = start(client)
        move(client, game)
        traveller.shift(50)
        client.get(f"/game/{game.pk}/")  # no pause: the beacon was lost
        traveller.shift(1)

        assert clock_post(client, game, "resume")["elapsed_ms"] == 51_000


def test_two_tabs_share_one_clock(client: Client) -> None:
    with time_machine.travel(T0, tick=False) as traveller:
        game = start(client)
        move(client, game)
        traveller.shift(30)
        clock_post(client, game, "resume")  # the first tab shows itself again
        clock_post(client, game, "resume")  # and the second tab, at the same moment
        traveller.shift(30)
        clock_post(client, game, "resume")
        # The one clock ran 60 s; the two tabs do not add up to 120 s.
        assert reading(game) == 60_000
        clock_post(client, game, "pause")  # one tab hides: the clock stops for both
        traveller.shift(60)
        assert reading(game) == 60_000
        # A move from the other tab: that tab was visible all along, so the minute since the pause
        # counts (pausing between moves cannot shrink a time), and the clock runs again.
        move(client, game)
        traveller.shift(15)

        assert reading(game) == 135_000


def test_a_tab_left_open_with_nobody_playing_counts_at_most_five_minutes(
    client: Client,
) -> None:
    with time_machine.travel(T0, tick=False) as traveller:
        game = start(client)
        move(client, game)
        traveller.shift(8 * 60 * 60)  # the night, page visible, no request

        assert reading(game) == clock.STRETCH_CAP_MS
        move(client, game)
        game.refresh_from_db()
        assert game.elapsed_ms == clock.STRETCH_CAP_MS


def test_a_pause_or_resume_before_the_first_move_or_after_the_end_changes_nothing(
    client: Client,
) -> None:
    with time_machine.travel(T0, tick=False) as traveller:
        game = start(client)
        clock_post(client, game, "resume")
        game.refresh_from_db()
        assert (game.elapsed_ms, game.clock_since, game.started_at) == (0, None, None)

        Game.objects.filter(pk=game.pk).update(
            status=Game.Status.WON, elapsed_ms=99_000, started_at=T0
        )
        traveller.shift(60)
        assert clock_post(client, game, "resume") == {"elapsed_ms": 99_000, "running": False}
        game.refresh_from_db()
        assert (game.elapsed_ms, game.clock_since) == (99_000, None)


def test_a_win_keeps_the_visible_time_as_its_time(client: Client) -> None:
    number, moves = greedy_record("won")
    with time_machine.travel(T0, tick=False) as traveller:
        game = start(client, number)
        for count, text in enumerate(moves, start=1):
            response = post(client, game, "move", move=text, n=count - 1)
            assert response.status_code == 303
            traveller.shift(2)
            if count == 10:
                clock_post(client, game, "pause")
                traveller.shift(60 * 60)  # an hour away, hidden
                clock_post(client, game, "resume")
        game.refresh_from_db()
        assert game.status == Game.Status.WON
        assert game.clock_since is None
        # Two seconds a move, counted from the first move; the hour hidden is not.
        assert game.elapsed_ms == 2_000 * (len(moves) - 1)
        traveller.shift(60)
        assert reading(game) == 2_000 * (len(moves) - 1)


def test_a_lost_game_revived_by_undo_goes_on_from_its_time(client: Client) -> None:
    number, moves = greedy_record("lost")
    with time_machine.travel(T0, tick=False) as traveller:
        game = start(client, number)
        Game.objects.filter(pk=game.pk).update(
            moves=" ".join(moves[:-1]), move_count=len(moves) - 1, started_at=T0,
            clock_since=T0, elapsed_ms=100_000,
        )  # fmt: skip
        game.refresh_from_db()
        traveller.shift(10)
        assert post(client, game, "move", move=moves[-1]).status_code == 303
        game.refresh_from_db()
        assert (game.status, game.elapsed_ms) == (Game.Status.LOST, 110_000)
        traveller.shift(60)
        assert post(client, game, "undo").status_code == 303
        traveller.shift(5)

        game.refresh_from_db()
        assert game.status == Game.Status.PLAYING
        assert reading(game) == 115_000


@pytest.mark.parametrize("state", ["", "stop", "PAUSE", "x" * 100])
def test_a_clock_request_must_say_pause_or_resume(client: Client, state: str) -> None:
    game = start(client)
    response = client.post(f"/game/{game.pk}/clock/", {"state": state})
    assert response.status_code == 400


def test_another_browsers_clock_is_a_404_and_unchanged(client: Client) -> None:
    game = start(client)
    move(client, game)
    game.refresh_from_db()
    before = (game.elapsed_ms, game.clock_since)
    stranger = Client()
    stranger.get("/")

    assert stranger.post(f"/game/{game.pk}/clock/", {"state": "pause"}).status_code == 404
    game.refresh_from_db()
    assert (game.elapsed_ms, game.clock_since) == before


def test_the_clock_needs_the_csrf_token_as_a_form_field() -> None:
    """sendBeacon cannot set headers: the token travels as csrfmiddlewaretoken."""
    client = Client(enforce_csrf_checks=True)
    game = start(client)
    token = client.cookies["csrftoken"].value
    url = f"/game/{game.pk}/clock/"

    assert client.post(url, {"state": "pause"}).status_code == 403
    assert client.post(url, {"state": "pause", "csrfmiddlewaretoken": token}).status_code == 200


def test_an_embed_game_has_its_clock_by_token() -> None:
    client = Client()
    with time_machine.travel(T0, tick=False) as traveller:
        first = engine.card_moves(engine.Play(5).position)[0]
        response = client.post("/embed/deal/5/move/", {"n": 0, "move": first.text})
        assert response.status_code == 303
        game = Game.objects.get(session_key="")
        traveller.shift(20)
        response = client.post(f"/embed/g/{game.token}/clock/", {"state": "pause"})
        assert response.status_code == 200
        assert response.json() == {"elapsed_ms": 20_000, "running": False}
        assert not response.cookies
        assert client.post("/embed/g/not-a-token/clock/", {"state": "pause"}).status_code == 404
