"""Strict mode: a setting kept in the session, recorded on a game when it begins and never
changed after; no Undo, Hint or "Show a win" on its board, refused by the server too; its result
counted apart in the statistics and in the daily figures ("strict wins")."""

from __future__ import annotations

import datetime as dt

import pytest
import time_machine
from django.core.cache import cache
from django.test import Client

from game import deals, tally
from game.models import DailyTally, Game
from game.stats import player_stats as stats
from tests.helpers.daily import NOON, cell, open_daily
from tests.helpers.daily_http import winning_line
from tests.helpers.play import a_card_move, greedy_record, play_through, post, start

pytestmark = pytest.mark.django_db

REFUSED = "This game is in strict mode: no undo, no hint and no “Show a win”."


def strict_on(client: Client, on: bool = True, next_url: str = "/settings/") -> None:
    response = client.post("/settings/strict/", {"strict": "1" if on else "0", "next": next_url})
    assert response.status_code == 303
    assert response["Location"] == next_url


def begun(client: Client, number: int = 5) -> Game:
    game = start(client, number)
    post(client, game, "move", move=a_card_move(game).text)
    game.refresh_from_db()
    assert game.started_at is not None
    return game


def test_a_game_begun_in_strict_mode_offers_no_undo_hint_or_show_a_win(client: Client) -> None:
    strict_on(client)
    game = begun(client)

    page = client.get(f"/game/{game.pk}/").content.decode()

    assert game.strict
    assert 'data-action="undo"' not in page
    assert 'data-action="hint"' not in page
    assert 'data-action="show-a-win"' not in page
    assert 'id="show-a-win-dialog"' not in page
    assert 'class="strict" data-strict' in page
    assert 'data-action="redeal"' in page  # the rest of the bar is there


def test_a_game_begun_without_it_offers_them_all(client: Client) -> None:
    game = begun(client)

    page = client.get(f"/game/{game.pk}/").content.decode()

    assert not game.strict
    assert 'data-action="undo"' in page
    assert 'data-action="hint"' in page
    assert 'class="strict" data-strict' not in page


@pytest.mark.parametrize("htmx", [False, True])
def test_the_server_refuses_undo_hint_and_show_a_win_in_strict_mode(
    client: Client, htmx: bool
) -> None:
    strict_on(client)
    game = begun(client)
    before = (game.moves, game.undos, game.hints, game.hint_places, game.assisted)
    headers = {"HX-Request": "true"} if htmx else {}

    undo = post(client, game, "undo", htmx=htmx)
    hint = client.get(f"/game/{game.pk}/hint/", headers=headers)
    peek = client.get(f"/game/{game.pk}/hint/?peek=1", headers=headers)
    # Either stage of the hint, pressed as its form would post it.
    card = post(client, game, "hint", htmx=htmx, shown=0)
    place = post(client, game, "hint", htmx=htmx, shown=1)
    show = post(client, game, "show-a-win", htmx=htmx)

    for response in (undo, hint, peek, card, place, show):
        assert response.status_code == 400, response.content[:300]
        assert REFUSED in response.content.decode()
    game.refresh_from_db()
    assert (game.moves, game.undos, game.hints, game.hint_places, game.assisted) == before


def test_strict_mode_cannot_be_turned_off_in_the_middle_of_a_game(client: Client) -> None:
    strict_on(client)
    game = begun(client)

    strict_on(client, on=False)
    response = post(client, game, "undo")

    game.refresh_from_db()
    assert game.strict
    assert response.status_code == 400
    page = client.get(f"/game/{game.pk}/").content.decode()
    assert 'data-action="undo"' not in page
    assert "This game began in strict mode and stays in it." in page


def test_turning_it_on_in_the_middle_of_a_game_waits_for_the_next(client: Client) -> None:
    game = begun(client)

    strict_on(client)
    post(client, game, "undo")

    game.refresh_from_db()
    assert not game.strict
    assert game.undos == 1
    page = client.get(f"/game/{game.pk}/").content.decode()
    assert "This game began without it: the change applies to your next game." in page


def test_the_settings_page_keeps_strict_mode_without_javascript(client: Client) -> None:
    response = client.post("/settings/", {"strict": "on", "next": "/settings/"})
    assert response.status_code == 303

    page = client.get("/settings/").content.decode()
    assert '<input type="checkbox" name="strict" checked>' in page
    assert begun(client).strict


def test_the_switch_is_a_post_and_goes_back_only_to_this_site(client: Client) -> None:
    assert client.get("/settings/strict/").status_code == 405
    response = client.post("/settings/strict/", {"strict": "1", "next": "https://evil.example/"})
    assert response["Location"] == "/settings/"


def test_a_strict_result_is_counted_apart_in_the_statistics(client: Client) -> None:
    number, moves = greedy_record("won")
    strict_on(client)
    strict = start(client, number)
    play_through(client, strict, moves)
    strict_on(client, on=False)
    other = start(client, number)  # the same deal again, not strict: the won game is over
    play_through(client, other, moves)

    result = stats.for_session(client.session.session_key)

    assert (result.played, result.won) == (2, 2)
    assert (result.strict_played, result.strict_won, result.strict_streak) == (1, 1, 1)
    page = client.get("/stats/").content.decode()
    assert 'data-stat="strict-played">1<' in page
    assert 'data-stat="strict-won">1<' in page
    assert 'data-stat="strict-win-rate">100%<' in page
    assert page.count('class="strict-mark" data-strict') == 1  # the strip marks the strict game
    board = client.get(f"/game/{strict.pk}/").content.decode()
    assert "A win in strict mode: counted apart in your statistics." in board


def won_at_a_persons_pace(
    client: Client, game: Game, moves: tuple[str, ...], clock: time_machine.Traveller
) -> None:
    """Win with `moves`, each a request as the page makes it, two seconds apart on the
    server's clock: a win faster or steadier than a person plays is no one's figure
    (game.status.too_fast)."""
    for count, text in enumerate(moves):
        action, data = ("redeal", {}) if text == "R" else ("move", {"move": text})
        response = client.post(
            f"/game/{game.pk}/{action}/",
            {"n": count, "auto": "0", **data},
            headers={"HX-Request": "true"},
        )
        assert response.status_code == 200, (count, text)
        clock.shift(dt.timedelta(seconds=2))


def test_a_strict_win_on_the_daily_counts_among_its_strict_wins() -> None:
    cache.clear()
    number = deals.deal_number_for(NOON.date())
    moves = winning_line(number)
    with time_machine.travel(NOON, tick=False) as clock:
        strict = Client(REMOTE_ADDR="10.0.0.1")
        strict_on(strict, next_url="/daily/")
        page = strict.get("/daily/").content.decode()
        assert "Strict mode is on." in page
        assert 'action="/settings/strict/"' in page
        won = open_daily(strict)
        won_at_a_persons_pace(strict, won, moves, clock)
        other = Client(REMOTE_ADDR="10.0.0.2")  # another network: an entry of its own
        won_at_a_persons_pace(other, open_daily(other), moves, clock)
        month = strict.get(f"/daily/{NOON:%Y/%m}/").content.decode()
        live = DailyTally.objects.get(deal_number=number)
        tally.rebuild(number, number)  # the same figures when counted afresh
        rebuilt = DailyTally.objects.get(deal_number=number)

    won.refresh_from_db()
    assert won.strict
    assert won.daily_entry
    assert won.status == Game.Status.WON
    assert (live.players, live.winners, live.strict_winners) == (2, 2, 1)
    assert (rebuilt.players, rebuilt.winners, rebuilt.strict_winners) == (2, 2, 1)
    assert '<td data-figure="strict-winners">1</td>' in month
    assert '<td data-figure="winners">2</td>' in month
    assert "data-strict" in cell(month, f"{NOON:%Y-%m-%d}")
