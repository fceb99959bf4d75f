"""A change request's fields, read by game.board.forms.read with the rules the Django form that
it replaced on the hot path applied."""

from __future__ import annotations

import pytest
from django.http import QueryDict
from django.utils.http import urlencode

from game import engine
from game.board import forms


def read(query: str) -> forms.Posted:
    return forms.read(QueryDict(query))


@pytest.mark.parametrize(("query", "seen"), [("n=0", 0), ("n=17", 17), ("n=%2012%20", 12)])
def test_the_move_count_is_read(query: str, seen: int) -> None:
    assert read(query).seen == seen


@pytest.mark.parametrize(
    "query", ["", "n=", "n=one", "n=-1", "n=1.5", "n=1234567890", "n=%EF%BC%91", "n=1%002"]
)
def test_a_request_without_a_move_count_of_nine_digits_at_most_is_refused(query: str) -> None:
    with pytest.raises(engine.InvalidMoveError, match="which board"):
        read(query)


def test_the_last_value_of_a_repeated_field_counts() -> None:
    assert read("n=1&n=2").seen == 2


@pytest.mark.parametrize(("text", "auto"), [("0", False), ("1", True), ("", None), ("yes", None)])
def test_the_auto_move_setting_is_said_or_unsaid(text: str, auto: bool | None) -> None:
    assert read(f"n=0&auto={text}").auto is auto


def test_the_move_is_kept_as_sent_for_the_engine_to_judge() -> None:
    posted = read("n=3&move=%206C%3E7C")
    assert posted.move_text == " 6C>7C"
    with pytest.raises(engine.InvalidMoveError):
        read("n=3&move=nonsense").move()


@pytest.mark.parametrize(
    ("key", "previous"), [("0a1b2c3d", "0a1b2c3d"), ("0A1B2C3D", ""), ("0a1b2c3", ""), ("<b>", "")]
)
def test_a_key_that_is_not_a_plain_boards_is_none(key: str, previous: str) -> None:
    assert read(urlencode({"n": "0", "v": key})).previous == previous
