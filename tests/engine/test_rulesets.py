"""Each rule set deals its own first layout and allows its own number of redeals and mercis."""

from __future__ import annotations

from collections import Counter

import pytest

from game.engine import (
    DECK,
    REDEAL,
    IllegalMoveError,
    Layout,
    Move,
    Position,
    Rules,
    apply,
    legal_moves,
)

DEALS = [1, 2, 20260726, 2**63 - 1]


def sizes(position: Position) -> list[int]:
    return [len(fan) for fan in position.fans]


def cards_out(position: Position) -> list[str]:
    return [card.code for fan in position.fans for card in fan]


@pytest.mark.parametrize("deal", DEALS)
@pytest.mark.parametrize(
    "name", ["lucie", "nomerci", "lucie-r0-kings", "lucie-ru", "lucie-m2-free"]
)
def test_the_default_layout_is_17_fans_of_three_and_one_single_card(name: str, deal: int) -> None:
    position = Position.start(deal, Rules.parse(name))
    assert sizes(position) == [3] * 17 + [1]
    assert sorted(cards_out(position)) == sorted(card.code for card in DECK)
    assert position.foundations == (0, 0, 0, 0)
    assert (position.redeals_used, position.mercis_used) == (0, 0)


@pytest.mark.parametrize("deal", DEALS)
@pytest.mark.parametrize("name", ["trefoil", "trefoil-ru-kings", "trefoil-r0-m2-free"])
def test_trefoil_starts_with_the_aces_home_and_16_fans_of_three(name: str, deal: int) -> None:
    position = Position.start(deal, Rules.parse(name))
    assert position.foundations == (1, 1, 1, 1)
    assert position.cards_home == 4
    assert sizes(position) == [3] * 16
    out = cards_out(position)
    assert not [code for code in out if code.startswith("A")]
    assert sorted(out) == sorted(card.code for card in DECK if card.rank != 1)


def test_trefoil_lets_a_two_go_straight_home() -> None:
    position = Position.start(1, Rules.parse("trefoil"))
    twos_on_top = [top for top in position.tops if top is not None and top.rank == 2]
    for two in twos_on_top:
        assert Move.home(two) in legal_moves(position)


@pytest.mark.parametrize("deal", DEALS)
@pytest.mark.parametrize("name", ["sixteen", "sixteen-r3-m0", "sixteen-kings"])
def test_sixteen_fans_is_16_fans_of_three_and_two_of_two(name: str, deal: int) -> None:
    position = Position.start(deal, Rules.parse(name))
    assert sizes(position) == [3] * 16 + [2, 2]
    assert sorted(cards_out(position)) == sorted(card.code for card in DECK)
    assert position.foundations == (0, 0, 0, 0)


@pytest.mark.parametrize(
    ("layout", "redeal_sizes"),
    [("lucie", [3] * 17 + [1]), ("sixteen", [3] * 17 + [1]), ("trefoil", [3] * 16)],
)
def test_every_layout_redeals_in_fans_of_three(layout: str, redeal_sizes: list[int]) -> None:
    position = apply(Position.start(9, Rules.parse(layout)), REDEAL)
    assert sizes(position) == redeal_sizes


def test_options_never_change_the_layout() -> None:
    for layout in Layout:
        base = Position.start(77, Rules(layout=layout))
        for name in ("r0", "r3", "ru", "m0", "m2", "free", "kings"):
            try:
                rules = Rules.parse(f"{layout.value}-{name}")
            except ValueError:
                continue
            assert Position.start(77, rules).fans == base.fans


def test_the_same_deal_number_shuffles_the_same_cards_the_same_way_in_lucie_and_sixteen() -> None:
    lucie = cards_out(Position.start(5, Rules.parse("lucie")))
    sixteen = cards_out(Position.start(5, Rules.parse("sixteen")))
    assert lucie == sixteen  # the same order, cut into different fans


def test_different_deal_numbers_deal_different_layouts() -> None:
    layouts = Counter(Position.start(n).fans for n in range(1, 51))
    assert len(layouts) == 50


@pytest.mark.parametrize(
    ("name", "redeals"),
    [
        ("lucie", 2),
        ("nomerci", 2),
        ("trefoil", 2),
        ("sixteen", 2),
        ("lucie-r0", 0),
        ("lucie-r1", 1),
        ("lucie-r3", 3),
        ("trefoil-r3-m2", 3),
    ],
)
def test_a_rule_set_allows_exactly_its_redeals(name: str, redeals: int) -> None:
    position = Position.start(11, Rules.parse(name))
    for _ in range(redeals):
        assert position.can_redeal
        position = apply(position, REDEAL)
    assert position.is_last_deal
    assert not position.can_redeal
    with pytest.raises(IllegalMoveError, match="no redeals are left"):
        apply(position, REDEAL)


@pytest.mark.parametrize(
    ("name", "mercis"),
    [
        ("lucie", 1),
        ("nomerci", 0),
        ("lucie-m2", 2),
        ("trefoil", 1),
        ("sixteen-m0", 0),
        ("lucie-r0-m2", 2),
    ],
)
def test_a_rule_set_allows_exactly_its_mercis_in_the_last_deal(name: str, mercis: int) -> None:
    position = Position.start(11, Rules.parse(name))
    while position.can_redeal:
        assert not position.merci_open
        position = apply(position, REDEAL)
    for _ in range(mercis):
        assert position.merci_open
        merci = next(move for move in legal_moves(position) if move.merci)
        position = apply(position, merci)
    assert position.mercis_used == mercis
    assert not position.merci_open
    assert not [move for move in legal_moves(position) if move.merci]


def test_the_start_position_uses_the_deal_number_as_its_shuffle_seed_unless_told_otherwise() -> (
    None
):
    assert Position.start(31).shuffle_seed == 31
    assert Position.start(31, shuffle_seed=5).shuffle_seed == 5
    assert Position.start(31, shuffle_seed=5).fans == Position.start(31).fans
    assert (
        apply(Position.start(31, shuffle_seed=5), REDEAL).fans
        != apply(Position.start(31), REDEAL).fans
    )
