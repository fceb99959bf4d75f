"""The text forms: moves (`6C>7C`, `*6C>F`, `KS>@4`, `R`), deal numbers and whole game records."""

from __future__ import annotations

import random

import pytest

from game.engine import (
    MAX_DEAL,
    REDEAL,
    Card,
    InvalidDealError,
    InvalidMoveError,
    InvalidRecordError,
    Move,
    Play,
    Record,
    Rules,
    check_deal_number,
    legal_moves,
    parse_deal_number,
)
from game.engine.notation import MAX_RECORD_MOVES

SIX_C, SEVEN_C, KING_S = Card.parse("6C"), Card.parse("7C"), Card.parse("KS")


@pytest.mark.parametrize(
    ("text", "move", "sentence"),
    [
        ("6C>F", Move.home(SIX_C), "Six of Clubs to its foundation"),
        ("6C>7C", Move.build(SIX_C, SEVEN_C), "Six of Clubs onto the Seven of Clubs"),
        ("KS>@4", Move.to_empty(KING_S, 4), "King of Spades into the empty fan"),
        ("KS>@0", Move.to_empty(KING_S, 0), "King of Spades into the empty fan"),
        ("*6C>F", Move.home(SIX_C, merci=True), "Merci: Six of Clubs to its foundation"),
        (
            "*6C>7C",
            Move.build(SIX_C, SEVEN_C, merci=True),
            "Merci: Six of Clubs onto the Seven of Clubs",
        ),
        (
            "*KS>@17",
            Move.to_empty(KING_S, 17, merci=True),
            "Merci: King of Spades into the empty fan",
        ),
        ("R", REDEAL, "Redeal"),
    ],
)
def test_each_kind_of_move_has_one_text_form(text: str, move: Move, sentence: str) -> None:
    assert Move.parse(text) == move
    assert move.text == str(move) == text
    assert move.describe() == sentence
    assert eval(repr(move), {"Move": Move}) == move


def test_the_kinds_of_move_are_told_apart() -> None:
    assert Move.parse("6C>F").to_foundation
    assert not Move.parse("6C>F").is_redeal
    assert not Move.parse("6C>7C").to_foundation
    assert not Move.parse("KS>@4").to_foundation
    assert Move.parse("R").is_redeal
    assert not Move.parse("R").to_foundation
    assert Move.redeal() is REDEAL
    assert Move.parse("*6C>F").merci
    assert not Move.parse("6C>F").merci


@pytest.mark.parametrize(
    ("loose", "canonical"),
    [
        ("6c>7c", "6C>7C"),
        (" 6C>F ", "6C>F"),
        ("r", "R"),
        ("*ks>@4", "*KS>@4"),
        ("ts>f", "TS>F"),
        ("KS>@04", "KS>@4"),
    ],
)
def test_parsing_is_lenient_and_writing_canonical(loose: str, canonical: str) -> None:
    assert Move.parse(loose).text == canonical


@pytest.mark.parametrize(
    "text",
    [
        "6C>",
        "ZZ>F",
        ">F",
        "6C",
        "",
        " ",
        "F",
        "6C>7",
        "6C>@",
        "6C>@-1",
        "6C>@x",
        "6C>@٣",
        "1C>F",
        "6C>7C>8C",
        "*R",
        "**6C>F",
        "6C->7C",
        "RR",
        "R>F",
        "6C<7C",
        None,
        6,
        b"6C>F",
    ],
)
def test_text_that_is_not_a_move_is_refused(text: object) -> None:
    with pytest.raises(InvalidMoveError, match="is not a move"):
        Move.parse(text)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"onto": SEVEN_C}, "a redeal moves no card"),
        ({"merci": True}, "a redeal moves no card"),
        ({"empty_fan": 2}, "a redeal moves no card"),
        ({"card": SIX_C, "onto": SEVEN_C, "empty_fan": 2}, "not both"),
        ({"card": KING_S, "empty_fan": -1}, "fan numbers start at 0"),
    ],
)
def test_a_move_that_cannot_exist_cannot_be_built(fields: dict[str, object], message: str) -> None:
    with pytest.raises(InvalidMoveError, match=message):
        Move(**fields)  # type: ignore[arg-type]


def random_games() -> list[Play]:
    """Seeded random play under several rule sets, to the end of each game."""
    games = []
    for number, name in enumerate(
        ["lucie", "lucie-free-kings", "trefoil-m2", "sixteen-r3-kings", "lucie-r0-m2-free"]
    ):
        game = Play(100 + number, Rules.parse(name))
        rng = random.Random(number)
        for _ in range(150):
            moves = legal_moves(game.position)
            if not moves:
                break
            game.play(rng.choice(moves))
        games.append(game)
    return games


GAMES = random_games()


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.rules.name)
def test_every_move_met_in_play_round_trips(game: Play) -> None:
    for move in game.moves:
        assert Move.parse(move.text) == move
        assert Move.parse(move.text.lower()) == move


def test_the_games_played_meet_every_kind_of_move() -> None:
    texts = [move.text for game in GAMES for move in game.moves]
    assert any(text == "R" for text in texts)
    assert any(text.startswith("*") for text in texts)
    assert any(text.endswith(">F") for text in texts)
    assert any(text[-2:] != ">F" and ">" in text and "@" not in text for text in texts)


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.rules.name)
def test_a_record_round_trips_and_replays_to_the_same_position(game: Play) -> None:
    record = game.record
    assert Record.parse(record.text) == record
    assert Record.parse(record.text.lower()) == record
    assert Record.parse("\n   ".join(record.text.split())) == record
    assert eval(repr(record), {"Record": Record}) == record
    assert Play.from_record(record.text).position == game.position


def test_a_record_reads_rule_set_deal_number_and_moves() -> None:
    record = Record.parse("lucie 20260726 AS>F 2S>F 6C>7C R *4H>F")
    assert record.rules == Rules()
    assert record.deal_number == 20260726
    assert [move.text for move in record.moves] == ["AS>F", "2S>F", "6C>7C", "R", "*4H>F"]
    assert record.text == str(record) == "lucie 20260726 AS>F 2S>F 6C>7C R *4H>F"
    assert Record.parse("NOMERCI-R1  #12").text == "nomerci-r1 12"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("lucie 1 AS>F 2S>F ZZ>F 6C>7C", r"^move 3: 'ZZ>F' is not a move"),
        ("lucie 1 6C>", r"^move 1: '6C>' is not a move"),
        ("lucie 1 R R R 1C>F", r"^move 4: '1C>F' is not a move"),
        ("bogus 1 AS>F", r"^rule set: unknown rule set 'bogus'"),
        ("lucie-ru-m1 1", r"^rule set: unlimited redeals allow no merci"),
        ("lucie 12a", r"^deal number: '12a' is not a deal number"),
        ("lucie 0", r"^deal number: deal numbers run from 1"),
        (f"lucie {2**63}", r"^deal number: deal numbers run from 1"),
        ("lucie -1 R", r"^deal number:"),
        ("lucie", "starts with a rule set and a deal number"),
        ("", "starts with a rule set and a deal number"),
        ("20260726 lucie", r"^rule set:"),
    ],
)
def test_a_bad_record_names_the_token_that_is_wrong(text: str, message: str) -> None:
    with pytest.raises(InvalidRecordError, match=message):
        Record.parse(text)


def test_a_record_that_is_not_text_is_refused() -> None:
    with pytest.raises(InvalidRecordError):
        Record.parse(None)  # type: ignore[arg-type]


def test_a_record_holds_at_most_its_limit_of_moves() -> None:
    assert len(Record.parse("lucie 1 " + "R " * MAX_RECORD_MOVES).moves) == MAX_RECORD_MOVES
    with pytest.raises(InvalidRecordError, match=f"at most {MAX_RECORD_MOVES} moves"):
        Record.parse("lucie 1 " + "R " * (MAX_RECORD_MOVES + 1))


@pytest.mark.parametrize(
    ("text", "number"),
    [("1", 1), (" 20260726 ", 20260726), ("#42", 42), (str(MAX_DEAL), MAX_DEAL), ("007", 7)],
)
def test_a_typed_deal_number_is_read(text: str, number: int) -> None:
    assert parse_deal_number(text) == number


@pytest.mark.parametrize(
    "text",
    [
        "0",
        "-1",
        str(2**63),
        "12a",
        "",
        " ",
        "1.0",
        "1e3",
        "+5",
        "٣",
        "\uff11\uff12",
        "1_000",
        "99999999999999999999",
        None,
        12,
    ],
)
def test_a_typed_deal_number_that_names_no_deal_is_refused(text: object) -> None:
    with pytest.raises(InvalidDealError):
        parse_deal_number(text)  # type: ignore[arg-type]


@pytest.mark.parametrize("number", [0, -1, 2**63, True, False, 1.0, "12", None])
def test_a_deal_number_outside_the_range_or_not_whole_is_refused(number: object) -> None:
    with pytest.raises(InvalidDealError):
        check_deal_number(number)


def test_every_malformed_input_error_is_a_value_error() -> None:
    for error in (InvalidMoveError, InvalidRecordError, InvalidDealError):
        assert issubclass(error, ValueError)
