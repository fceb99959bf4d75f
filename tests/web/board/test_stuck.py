"""A board that talks: with no card to move it says what is left at once, and a loss names what
blocked each suit (game/board/words/notices.py: stuck, blocked)."""

from __future__ import annotations

import pytest
from django.test import Client

from game import engine
from game.board import words
from game.models import Game
from tests.helpers.board import set_moves, stuck_game
from tests.helpers.play import start

pytestmark = pytest.mark.django_db


def test_a_stuck_board_says_redeal_and_marks_the_button(client: Client) -> None:
    number, moves = stuck_game("lucie")
    game = start(client, number)
    set_moves(game, moves)

    page = client.get(f"/game/{game.pk}/").content.decode()

    assert "No moves left: Redeal (2 left)." in page
    assert 'data-action="redeal" aria-keyshortcuts="Space" data-stuck' in page


def test_a_board_with_a_card_to_move_says_nothing_of_the_kind(client: Client) -> None:
    game = start(client, 1)

    page = client.get(f"/game/{game.pk}/").content.decode()

    assert "No moves left" not in page
    assert "data-stuck" not in page


def test_a_stuck_last_deal_points_at_the_merci() -> None:
    rules = engine.Rules.parse("lucie-r0")
    for number in range(1, 300):
        played = engine.Play(number, rules)
        while moves := [m for m in engine.card_moves(played.position) if not m.merci]:
            played.play(moves[0])
        legal = engine.legal_moves(played.position)
        if any(m.merci for m in legal):
            said = words.stuck(played.position, legal)
            assert said == "No moves left: take the merci. Pick a buried card to play."
            return
    raise AssertionError("no deal stuck with the merci left")


def test_a_loss_names_what_blocked_each_suit(client: Client) -> None:
    number, moves = stuck_game("nomerci-r0", lost=True)
    game = start(client, number, rules="nomerci-r0")
    set_moves(game, moves)
    game.refresh_from_db()
    assert game.status == Game.Status.LOST

    page = client.get(f"/game/{game.pk}/").content.decode()

    position = engine.Play(number, engine.Rules.parse("nomerci-r0"), list(moves)).position
    lines = words.blocked(position)
    assert lines
    assert "What blocked:" in page
    for line in lines:
        assert line in page
    # The panel comes after the felt: the final position is shown first.
    assert page.index('class="table"') < page.index('class="end lost"')
