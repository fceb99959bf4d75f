"""Playing a top card: onto its successor in suit, to its foundation, or into an empty fan.

Each table row is one move tried on a drawn position: legal moves must be listed by `legal_moves`
and accepted by `apply` with the right result; refused moves must be in neither, and raise
IllegalMoveError with a reason a player can read.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from game.engine import IllegalMoveError, Move, Position, apply, card_moves, legal_moves

Board = Callable[..., Position]

# Tops: 6C, 7C, 8C, 7D, 8D and TC. The 9C is buried under the TC.
BUILDS = """
    home 5C AD KH KS
     0: KD 6C
     1: QD 7C
     2: JD 8C
     3: TD 7D
     4: 2D 3D 4D 5D 6D 9D 8D
     5: KC QC JC 9C TC
"""

# Spades are all out; hearts stop at the Queen. Tops: AS, 2S, KH, 4S, 6S, 8S.
ACES = """
    home KC KD QH
     0: 7S 5S AS
     1: KS 2S
     2: 9S 3S KH
     3: JS 4S
     4: TS 6S
     5: QS 8S
"""

# Fan 3 is empty; the King of Clubs covers a Queen, the King of Diamonds is alone and may go home.
EMPTY = """
    home 5C QD KH KS
     0: 7C 9C 8C
     1: 6C JC TC
     2: QC KC
     3: -
     4: KD
"""


def assert_legal(position: Position, text: str) -> Position:
    move = Move.parse(text)
    assert move in legal_moves(position), f"{text} should be listed as legal"
    return apply(position, move)


def assert_refused(position: Position, text: str, reason: str) -> None:
    move = Move.parse(text)
    assert move not in legal_moves(position), f"{text} should not be listed as legal"
    with pytest.raises(IllegalMoveError, match=reason):
        apply(position, move)


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("6C>8C", "cannot go onto the Eight of Clubs: a card builds only on the next higher"),
        ("6C>7D", "cannot go onto the Seven of Diamonds"),
        ("7C>8D", "cannot go onto the Eight of Diamonds"),
        ("7D>8C", "cannot go onto the Eight of Clubs"),
        ("8C>7C", "cannot go onto the Seven of Clubs"),
        ("6C>6C", "cannot go onto the Six of Clubs"),
        ("8C>9C", "the Nine of Clubs is not on top of a fan"),
        ("7D>8D", None),
        ("6C>7C", None),
        ("6C>5C", "the Five of Clubs is not on top of a fan"),
        ("9C>TC", "the Nine of Clubs is not on top of its fan: only top cards move"),
        ("JC>QC", "the Jack of Clubs is not on top of its fan"),
        ("5C>6C", "the Five of Clubs is already on its foundation"),
    ],
)
def test_a_top_card_builds_only_on_the_next_higher_card_of_its_suit(
    board: Board, text: str, reason: str | None
) -> None:
    position = board(BUILDS)
    if reason is None:
        after = assert_legal(position, text)
        move = Move.parse(text)
        assert move.onto is not None
        where = position.find(move.onto)
        assert where is not None
        assert after.fans[where[0]][-2:] == (move.onto, move.card)
        assert after.foundations == position.foundations
    else:
        assert_refused(position, text, reason)


def test_the_build_moves_of_the_drawn_position_are_exactly_these(board: Board) -> None:
    position = board(BUILDS)
    assert sorted(m.text for m in card_moves(position)) == ["6C>7C", "6C>F", "7C>8C", "7D>8D"]


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("AS>F", None),
        ("KH>F", None),
        ("2S>F", "the Two of Spades cannot go home yet: its foundation starts with the Ace"),
        ("4S>F", "cannot go home yet: its foundation starts with the Ace"),
        ("8S>F", "cannot go home yet"),
        ("QH>F", "the Queen of Hearts is already on its foundation"),
        ("5S>F", "the Five of Spades is not on top of its fan"),
    ],
)
def test_foundations_build_up_in_suit_from_the_ace(
    board: Board, text: str, reason: str | None
) -> None:
    position = board(ACES)
    if reason is None:
        after = assert_legal(position, text)
        card = Move.parse(text).card
        assert card is not None
        assert after.foundations[card.suit_index] == card.rank
        assert after.find(card) is None
        assert after.cards_home == position.cards_home + 1
    else:
        assert_refused(position, text, reason)


def test_a_foundation_out_of_order_names_the_card_it_has_reached(board: Board) -> None:
    position = apply(board(ACES), Move.parse("AS>F"))
    assert_refused(position, "4S>F", "its foundation has reached the Ace of Spades")
    two_home = assert_legal(position, "2S>F")
    assert two_home.foundations == (13, 13, 12, 2)


def test_a_fan_emptied_by_its_last_card_stays_empty(board: Board) -> None:
    lone = board(
        """
        home 5C KD KH KS
         0: 9C 8C
         1: 6C JC TC
         2: KC QC
         3: 7C
        """
    )
    after = assert_legal(lone, "7C>8C")
    assert after.fans[3] == ()
    assert len(after.fans) == 4
    assert not any(m.empty_fan is not None for m in legal_moves(after))


@pytest.mark.parametrize(
    ("rules", "text", "reason"),
    [
        ("lucie", "KC>@3", "an emptied fan stays empty under these rules"),
        ("lucie", "8C>@3", "an emptied fan stays empty"),
        ("lucie-kings", "KC>@3", None),
        ("lucie-kings", "8C>@3", "only a King may fill an empty fan, not the Eight of Clubs"),
        ("lucie-kings", "TC>@3", "only a King may fill an empty fan"),
        ("lucie-kings", "KD>@3", "the King of Diamonds is alone in its fan already"),
        ("lucie-kings", "KC>@0", "fan 0 is not an empty fan"),
        ("lucie-kings", "KC>@2", "fan 2 is not an empty fan"),
        ("lucie-kings", "KC>@5", "fan 5 is not an empty fan"),
        ("lucie-kings", "KC>@99", "fan 99 is not an empty fan"),
        ("nomerci-kings", "KC>@3", None),
        ("trefoil-ru-kings", "KC>@3", None),
    ],
)
def test_only_a_king_with_company_fills_an_empty_fan_and_only_with_kings_fill(
    board: Board, rules: str, text: str, reason: str | None
) -> None:
    position = board(EMPTY, rules)
    if reason is None:
        after = assert_legal(position, text)
        assert after.fans[3] == (Move.parse(text).card,)
        assert after.fans[2] == position.fans[2][:-1]
    else:
        assert_refused(position, text, reason)


def kings_moves(position: Position) -> list[str]:
    return sorted(m.text for m in legal_moves(position) if m.card is not None and m.card.rank == 13)


def test_a_king_can_leave_a_fan_only_for_its_foundation_without_kings_fill(board: Board) -> None:
    assert kings_moves(board(EMPTY)) == ["KD>F"]
    assert kings_moves(board(EMPTY, "lucie-kings")) == ["KC>@3", "KD>F"]


def test_a_king_goes_home_on_its_queen(board: Board) -> None:
    home = board(
        """
        rules lucie  redeals 2  mercis 1
        home QC KD KH KS
         0: KC
         1: -
        """
    )
    assert [m.text for m in legal_moves(home)] == ["KC>F"]
    outcome = apply(home, Move.parse("KC>F")).outcome()
    assert outcome is not None
    assert outcome.won


def test_each_king_fill_lists_every_empty_fan(board: Board) -> None:
    position = board(
        """
        rules lucie-kings
        home 5C KD KH KS
         0: -
         1: 6C JC TC
         2: QC KC
         3: -
         4: 7C 9C 8C
        """
    )
    assert sorted(m.text for m in card_moves(position)) == ["KC>@0", "KC>@3"]
