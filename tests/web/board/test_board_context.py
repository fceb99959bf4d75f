"""The board's context is computed once: a kept fan is told from the board it replaces without
building that board's views a second time, the card words and the board's links are worked out
once per language, and every form of the board posts the one CSRF field."""

from __future__ import annotations

import random
import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from game import engine
from game.board import fronts, table, words
from game.models import Game
from tests.helpers.play import start

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_a_kept_fan_is_one_equal_to_the_plain_view_of_the_board_before(seed: int) -> None:
    rng = random.Random(seed)
    game = engine.Play(rng.randrange(1, 10_000), engine.DEFAULT_RULES)
    for _ in range(40):
        legal = engine.legal_moves(game.position)
        if not legal:
            break
        before = game.position
        game.play(rng.choice(legal))
        moves_then = table.moves_by_card(engine.legal_moves(before))
        then = table.fan_views(before, moves_then)
        moves_now = table.moves_by_card(engine.legal_moves(game.position))
        hint = engine.Hint(rng.choice(legal), "") if rng.random() < 0.3 else None
        now = table.fan_views(game.position, moves_now, hint=hint)
        marks = table.hint_keys(hint.move) if hint else set()
        for view, old, cards, was in zip(now, then, game.position.fans, before.fans, strict=False):
            marked = f"fan:{view.index}" in marks or any(f"card:{c.code}" in marks for c in cards)
            plainly = table.fan_is_plainly(cards, was, moves_now, moves_then)
            assert (plainly and not marked) == (view == old)


@pytest.mark.parametrize("language", ["en", "fr", "de"])
def test_the_card_words_and_links_are_the_page_language_s(language: str) -> None:
    with translation.override(language):
        card = engine.Card.parse("QH")
        assert table.card_view(card).name == words.card_name(card)
        assert table.card_view(card).rank == str(words.RANK_LETTERS).split()[11]
        urls = fronts.board_urls(fronts.SITE, Game(pk=42, deal_number=7))
        assert urls["page"] == reverse("game", args=[42])
        assert urls["move"] == reverse("move", args=[42])
        for name in fronts.SITE_LINKS:
            assert getattr(fronts.LINKS, name) == reverse(name)


def test_every_form_of_the_board_posts_the_one_csrf_field() -> None:
    client = Client(enforce_csrf_checks=True)
    game = start(client)
    page = client.get(f"/game/{game.pk}/").content.decode()
    forms = re.findall(r'<form method="post"[^>]*>(.*?)</form>', page, re.S)
    board_forms = [form for form in forms if 'name="n"' in form]
    assert len(board_forms) >= 5
    fields = {re.search(r'name="csrfmiddlewaretoken" value="(\w+)"', f)[1] for f in board_forms}  # type: ignore[index]
    assert len(fields) == 1
    token = fields.pop()
    # A plain form post (JavaScript off) with that field is accepted.
    move = next(m for m in engine.legal_moves(Game.objects.get(pk=game.pk).resume().position))
    answer = client.post(
        f"/game/{game.pk}/move/", {"csrfmiddlewaretoken": token, "move": move.text, "n": 0}
    )
    assert answer.status_code == 303
