"""Cards: 52 value objects with a two-letter code, a canonical order and a spoken name."""

from __future__ import annotations

import pytest

from game.engine import DECK, Card, InvalidCardError


def test_the_deck_holds_52_different_cards_in_canonical_order() -> None:
    assert len(DECK) == 52
    assert len(set(DECK)) == 52
    assert list(DECK) == sorted(DECK)
    assert [card.index for card in DECK] == list(range(52))
    assert "".join(card.code for card in DECK[:13]) == "AC2C3C4C5C6C7C8C9CTCJCQCKC"
    assert [DECK[i * 13].suit for i in range(4)] == ["C", "D", "H", "S"]


@pytest.mark.parametrize(
    ("code", "rank", "suit", "index", "name"),
    [
        ("AC", 1, "C", 0, "Ace of Clubs"),
        ("KC", 13, "C", 12, "King of Clubs"),
        ("AD", 1, "D", 13, "Ace of Diamonds"),
        ("6C", 6, "C", 5, "Six of Clubs"),
        ("TS", 10, "S", 48, "Ten of Spades"),
        ("JH", 11, "H", 36, "Jack of Hearts"),
        ("QD", 12, "D", 24, "Queen of Diamonds"),
        ("KS", 13, "S", 51, "King of Spades"),
    ],
)
def test_a_code_names_one_card(code: str, rank: int, suit: str, index: int, name: str) -> None:
    card = Card.parse(code)
    assert (card.rank, card.suit, card.index, card.code, card.name) == (
        rank,
        suit,
        index,
        code,
        name,
    )
    assert card == Card(rank, suit)
    assert DECK[index] is card
    assert str(card) == code


@pytest.mark.parametrize("card", DECK, ids=str)
def test_every_code_round_trips(card: Card) -> None:
    assert Card.parse(card.code) == card
    assert Card.parse(card.code.lower()) == card
    assert eval(repr(card), {"Card": Card}) == card


def test_parse_ignores_case_and_surrounding_space() -> None:
    assert Card.parse(" ts ") == Card(10, "S")


def test_red_suits_are_diamonds_and_hearts() -> None:
    assert {card.suit for card in DECK if card.is_red} == {"D", "H"}


@pytest.mark.parametrize(
    "code",
    ["1C", "10C", "0C", "6X", "C6", "6", "6CC", "", " ", "AS>F", "\uff16C", None, 6, ("6", "C")],
)
def test_a_code_that_names_no_card_is_refused(code: object) -> None:
    with pytest.raises(InvalidCardError, match="not a card code"):
        Card.parse(code)  # type: ignore[arg-type]


@pytest.mark.parametrize(("rank", "suit"), [(0, "C"), (14, "C"), (-1, "S"), (1, "X"), (1, "c")])
def test_a_card_outside_the_deck_cannot_be_built(rank: int, suit: str) -> None:
    with pytest.raises(InvalidCardError, match="no card"):
        Card(rank, suit)


def test_card_errors_are_value_errors() -> None:
    assert issubclass(InvalidCardError, ValueError)
