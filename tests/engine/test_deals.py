"""Deals are pinned: the layouts in tests/data/deals.json must never change silently."""

import json
from pathlib import Path

import pytest

from game.engine import DECK, Card, Layout, Position, Rules
from game.engine.deal import (
    MAX_DEAL,
    SHUFFLE_VERSION,
    InvalidDealError,
    SplitMix64,
    check_deal_number,
    first_layout,
    parse_deal_number,
    redeal,
    stream_seed,
)

VECTORS = json.loads((Path(__file__).parent.parent / "data" / "deals.json").read_text())


def codes(fans: tuple[tuple[Card, ...], ...]) -> list[str]:
    return [" ".join(card.code for card in fan) for fan in fans]


def test_vectors_are_for_this_shuffle_version() -> None:
    assert VECTORS["shuffle_version"] == SHUFFLE_VERSION


def test_generator_matches_published_splitmix64() -> None:
    assert SplitMix64(0).next() == 0xE220A8397B1DCDAF
    rng = SplitMix64(stream_seed(1, 0))
    assert [rng.next() for _ in range(4)] == VECTORS["splitmix64_seed_1_first_outputs"]


@pytest.mark.parametrize("vector", VECTORS["deals"], ids=lambda v: f"{v['number']}-{v['layout']}")
def test_first_layout_is_pinned(vector: dict) -> None:
    fans, foundations = first_layout(vector["number"], Layout(vector["layout"]))
    assert codes(fans) == vector["fans"]
    assert list(foundations) == vector["foundations"]


@pytest.mark.parametrize(
    "vector", VECTORS["redeals"], ids=lambda v: f"{v['number']}-r{v['redeal']}-{v['cards']}"
)
def test_redeal_is_pinned(vector: dict) -> None:
    chosen = {
        "all 52": DECK,
        "odd indexes": [c for c in DECK if c.index % 2],
        "first 50": DECK[:50],
    }
    fans = redeal(chosen[vector["cards"]], vector["number"], vector["redeal"])
    assert codes(fans) == vector["fans"]


def test_vectors_cover_the_required_deals() -> None:
    assert {v["number"] for v in VECTORS["deals"]} >= {1, 2, 20260726, MAX_DEAL}


def test_redeal_ignores_the_order_cards_lay_in() -> None:
    cards = list(DECK[5:40])
    assert redeal(cards, 7, 1) == redeal(list(reversed(cards)), 7, 1)


def test_each_redeal_index_shuffles_differently() -> None:
    assert redeal(DECK, 7, 1) != redeal(DECK, 7, 2)


def test_shuffle_seed_changes_redeals_but_not_the_first_deal() -> None:
    plain = Position.start(42, Rules())
    hidden = Position.start(42, Rules(), shuffle_seed=99)
    assert plain.fans == hidden.fans
    assert redeal(DECK, 42, 1) != redeal(DECK, 99, 1)


@pytest.mark.parametrize("number", [0, -1, MAX_DEAL + 1, 2**64, 1.0, "7", True, None])
def test_numbers_outside_the_range_are_refused(number: object) -> None:
    with pytest.raises(InvalidDealError):
        check_deal_number(number)


@pytest.mark.parametrize(
    "text", ["", " ", "12a", "-3", "0", "1e5", "9223372036854775808", "٣", "1 2"]
)
def test_typed_numbers_that_are_not_deals_are_refused(text: str) -> None:
    with pytest.raises(InvalidDealError):
        parse_deal_number(text)


@pytest.mark.parametrize(
    ("text", "number"),
    [("1", 1), (" #20260726 ", 20260726), ("0042", 42), (str(MAX_DEAL), MAX_DEAL)],
)
def test_typed_numbers_are_read(text: str, number: int) -> None:
    assert parse_deal_number(text) == number


def test_every_deal_holds_each_card_once() -> None:
    for number in (1, 2, 3, 20260726, MAX_DEAL):
        for layout in Layout:
            fans, foundations = first_layout(number, layout)
            cards = [card for fan in fans for card in fan]
            assert len(cards) == len(set(cards)) == 52 - sum(foundations)
