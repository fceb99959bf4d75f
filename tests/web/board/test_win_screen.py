"""The win's screen: time and moves, "new best", the streak and win rate, and a text to share."""

from __future__ import annotations

import pytest
from django.test import Client

from game.models import Game
from tests.helpers.board import greedy_game, set_moves
from tests.helpers.play import post, start

pytestmark = pytest.mark.django_db


def win(client: Client) -> str:
    number, moves, _ = greedy_game("lucie")
    game = start(client, number)
    set_moves(game, moves[:-1])
    game.refresh_from_db()
    response = post(client, game, "move", htmx=True, move=str(moves[-1]))
    assert response.status_code == 200
    game.refresh_from_db()
    assert game.status == Game.Status.WON
    return response.content.decode()


def test_a_first_win_is_a_new_best_with_its_figures_and_a_text_to_share(client: Client) -> None:
    number, moves, _ = greedy_game("lucie")

    page = win(client)

    assert "You won!" in page
    assert "New best" in page
    assert "<dt>Streak</dt><dd>1</dd>" in page
    assert "<dt>Win rate</dt><dd>100% <small>(1 of 1)</small></dd>" in page
    assert f"La Belle Lucie, deal #{number}: won in " in page
    assert f"and {len(moves)} moves. Play it: http://testserver/deal/{number}/" in page


def test_a_slower_win_is_no_new_best(client: Client) -> None:
    win(client)
    Game.objects.filter(status=Game.Status.WON).update(elapsed_ms=1)  # the first one was quick

    page = win(client)

    assert "You won!" in page
    assert "New best" not in page
