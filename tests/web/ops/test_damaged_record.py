"""A game whose stored move log the engine cannot read (a row edited by hand, a bad restore):
every page of it answers a clear page, never a 500, the error is logged once, and no job is
asked for it."""

from __future__ import annotations

import logging

import pytest
from django.test import Client

from game.models import Game
from game.ops.jobs import Job
from tests.helpers.review import LOST_BEFORE_A_REDEAL, lost_game

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    "moves", ["ZZ>F", "AS>KH", "9C>TC R R R R"], ids=["malformed", "illegal", "too-many-redeals"]
)
def test_a_damaged_record_is_a_clear_page_logged_once_and_asks_no_job(
    client: Client, moves: str, caplog: pytest.LogCaptureFixture
) -> None:
    game = lost_game(client, LOST_BEFORE_A_REDEAL)
    Game.objects.filter(pk=game.pk).update(moves=moves, snapshot="", move_count=len(moves.split()))
    pages = [
        f"/game/{game.pk}/",
        f"/game/{game.pk}/review/",
        f"/game/{game.pk}/record.txt",
        f"/game/{game.pk}/record/",
    ]
    with caplog.at_level(logging.ERROR, logger="game.ops.refusal_pages"):
        answers = [client.get(path) for path in pages * 2]
        asked = client.post(f"/game/{game.pk}/review/ask/")
    for path, answer in zip(pages * 2, answers, strict=True):
        if "/record" in path:
            # The record's text as stored, which needs no replay: what an operator looks at.
            assert answer.status_code in (200, 409), path
            continue
        assert answer.status_code == 409, (path, answer.status_code)
        assert "stored record is damaged" in answer.content.decode(), path
    assert asked.status_code == 409
    assert not Job.objects.exists()
    logged = [r for r in caplog.records if "its stored record cannot be read" in r.getMessage()]
    assert len(logged) == 1  # once, however often it is visited
