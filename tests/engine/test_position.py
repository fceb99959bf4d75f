"""The merci, the redeal, the end of the game, and `legal_moves` agreeing with `apply`."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator

import pytest

from game.engine import (
    DECK,
    REDEAL,
    Card,
    IllegalMoveError,
    Move,
    Outcome,
    Position,
    Rules,
    Termination,
    apply,
    card_moves,
    legal_moves,
)
from game.engine.deal import in_fans

Board = Callable[..., Position]

# The last deal of the default game, no merci taken yet, and no top card can move: the 8C, TC
# and QC each wait for a buried card. Buried: 7C (its Eight tops its own fan), 9C (its Ten tops
# fan 1), 6C (next home), JC (its Queen tops fan 2) and KC.
MERCI = """
    rules lucie  redeals 2  mercis 0
    home 5C KD KH KS
     0: 7C 9C 8C
     1: 6C JC TC
     2: KC QC
     3: -
"""

# Nothing moves; only a redeal or a merci could help.
STUCK = """
    home 5C KD KH KS
     0: 6C 9C 8C
     1: 7C JC TC
     2: KC QC
"""


def mercis(position: Position) -> list[str]:
    return sorted(move.text for move in legal_moves(position) if move.merci)


def test_the_drawn_merci_position_offers_exactly_the_mercis_that_build_or_go_home(
    board: Board,
) -> None:
    position = board(MERCI)
    assert card_moves(position) == []
    assert position.merci_open
    assert mercis(position) == ["*6C>F", "*7C>8C", "*9C>TC", "*JC>QC"]


@pytest.mark.parametrize(
    ("text", "fans", "home"),
    [
        ("*6C>F", ["7C 9C 8C", "JC TC", "KC QC", ""], (6, 13, 13, 13)),
        ("*7C>8C", ["9C 8C 7C", "6C JC TC", "KC QC", ""], (5, 13, 13, 13)),
        ("*9C>TC", ["7C 8C", "6C JC TC 9C", "KC QC", ""], (5, 13, 13, 13)),
        ("*JC>QC", ["7C 9C 8C", "6C TC", "KC QC JC", ""], (5, 13, 13, 13)),
    ],
    ids=["to its foundation", "onto the top of its own fan", "onto another fan", "from mid-fan"],
)
def test_the_merci_draws_a_buried_card_out_from_under_the_cards_that_cover_it(
    board: Board, text: str, fans: list[str], home: tuple[int, ...]
) -> None:
    after = apply(board(MERCI), Move.parse(text))
    assert [" ".join(map(str, fan)) for fan in after.fans] == fans
    assert after.foundations == home
    assert after.mercis_used == 1
    assert not after.merci_open
    assert not [move for move in legal_moves(after) if move.merci]


@pytest.mark.parametrize(
    ("rules", "redeals_used", "mercis_used", "text", "reason"),
    [
        ("lucie", 2, 0, "*6C>F", None),
        ("lucie", 1, 0, "*6C>F", "the merci may only be taken in the last deal"),
        ("lucie", 0, 0, "*7C>8C", "the merci may only be taken in the last deal"),
        ("lucie", 2, 1, "*6C>F", "the merci has been used"),
        ("lucie-m2", 2, 1, "*6C>F", None),
        ("lucie-m2", 2, 2, "*6C>F", "the merci has been used"),
        ("nomerci", 2, 0, "*6C>F", "these rules have no merci"),
        ("lucie-ru", 2, 0, "*6C>F", "these rules have no merci"),
        ("lucie-r0", 0, 0, "*6C>F", None),
        ("lucie-r1", 1, 0, "*6C>F", None),
        ("lucie-r1", 0, 0, "*6C>F", "only be taken in the last deal"),
        ("lucie-r3", 2, 0, "*6C>F", "only be taken in the last deal"),
        ("lucie-r3", 3, 0, "*6C>F", None),
        ("trefoil", 2, 0, "*9C>TC", None),
        ("sixteen", 1, 0, "*9C>TC", "only be taken in the last deal"),
        ("lucie", 2, 0, "*9C>8C", "the Nine of Clubs cannot go onto the Eight of Clubs"),
        ("lucie", 2, 0, "*KC>TC", "the King of Clubs cannot go onto the Ten of Clubs"),
        ("lucie", 2, 0, "*7C>F", "the Seven of Clubs cannot go home yet"),
        ("lucie", 2, 0, "*6C>7C", "the Seven of Clubs is not on top of a fan"),
        ("lucie", 2, 0, "*8C>F", "the Eight of Clubs is on top: the merci draws a buried card"),
        ("lucie", 2, 0, "*QC>KC", "on top: the merci draws a buried card"),
        ("lucie", 2, 0, "*5C>6C", "the Five of Clubs is already on its foundation"),
        ("lucie", 2, 0, "*KC>@3", "an emptied fan stays empty"),
        ("lucie-kings", 2, 0, "*KC>@3", None),
        ("lucie-kings", 2, 0, "*JC>@3", "only a King may fill an empty fan"),
        ("lucie-kings", 2, 0, "*KC>@2", "fan 2 is not an empty fan"),
        ("lucie-free", 2, 0, "*9C>8C", None),
        ("lucie-free", 2, 0, "*KC>TC", None),
        ("lucie-free", 2, 0, "*6C>QC", None),
        ("lucie-free", 2, 0, "*7C>8C", None),
        ("lucie-free", 2, 0, "*6C>7C", "the Seven of Clubs is not on top of a fan"),
        ("lucie-free", 2, 0, "*6C>@3", "an emptied fan stays empty"),
        ("lucie-free", 2, 0, "*7C>F", "cannot go home yet"),
        ("lucie-free", 1, 0, "*9C>8C", "only be taken in the last deal"),
        ("lucie-m2-free-kings", 2, 1, "*KC>@3", None),
    ],
)
def test_merci_rules(
    board: Board, rules: str, redeals_used: int, mercis_used: int, text: str, reason: str | None
) -> None:
    position = board(MERCI, rules, redeals_used=redeals_used, mercis_used=mercis_used)
    move = Move.parse(text)
    if reason is None:
        assert move in legal_moves(position)
        assert apply(position, move).mercis_used == mercis_used + 1
    else:
        assert move not in legal_moves(position)
        with pytest.raises(IllegalMoveError, match=reason):
            apply(position, move)


@pytest.mark.parametrize(
    ("rules", "count"),
    [
        ("lucie", 4),
        ("lucie-kings", 5),  # and *KC>@3
        ("lucie-free", 16),  # every buried card (5) onto every top (3), and *6C>F
        ("lucie-free-kings", 17),
    ],
)
def test_how_many_mercis_each_rule_set_offers(board: Board, rules: str, count: int) -> None:
    assert len(mercis(board(MERCI, rules))) == count


@pytest.mark.parametrize(("rules", "allowed"), [("lucie", 1), ("lucie-m2", 2)])
def test_the_merci_may_be_taken_as_often_as_the_rules_allow_and_no_more(
    board: Board, rules: str, allowed: int
) -> None:
    position = board(MERCI, rules)
    line = ["*7C>8C", "*6C>F", "*JC>QC"]
    for text in line[:allowed]:
        position = apply(position, Move.parse(text))
    assert position.mercis_used == allowed
    assert position.mercis_left == 0
    assert not position.merci_open
    with pytest.raises(IllegalMoveError, match="the merci has been used"):
        apply(position, Move.parse(line[allowed]))


def test_merci_open_says_whether_a_merci_may_be_taken_now(board: Board) -> None:
    assert board(MERCI).merci_open
    assert not board(MERCI, redeals_used=1).merci_open
    assert not board(MERCI, mercis_used=1).merci_open
    assert not board(MERCI, "nomerci").merci_open
    assert board(MERCI, "lucie-r0", redeals_used=0).merci_open
    nothing_buried = board(
        """
        rules lucie  redeals 2
        home 5C KD KH KS
         0: 7C
         1: 6C
         2: 8C
         3: 9C
         4: TC
         5: JC
         6: QC
         7: KC
        """
    )
    assert not nothing_buried.merci_open


def test_playing_a_top_card_in_the_last_deal_keeps_the_merci(drawn: Position) -> None:
    """
    rules lucie  redeals 2  mercis 0
    home 5C KD KH KS
     0: 7C 9C 8C
     1: JC TC 6C
     2: KC QC
    """
    after = apply(drawn, Move.parse("6C>F"))
    assert after.mercis_used == 0
    assert after.merci_open
    assert mercis(after) == ["*7C>8C", "*7C>F", "*9C>TC", "*JC>QC"]


# -------------------------------------------------------------------------------------- redeal


def out_of(home: int) -> list[Card]:
    """The cards left in the fans when the first `home` clubs are on their foundation."""
    return [card for card in DECK if not (card.suit == "C" and card.rank <= home)]


def scattered(cards: list[Card], rules: Rules, redeals_used: int = 0, seed: int = 1) -> Position:
    """A position holding `cards`, laid one card a fan in reverse order: any arrangement will do."""
    home = 52 - len(cards)
    fans = tuple((card,) for card in reversed(cards))
    return Position(rules, 1, fans, (home, 0, 0, 0), redeals_used, 0, seed)


@pytest.mark.parametrize(
    ("home", "sizes"),
    [
        (0, [3] * 17 + [1]),
        (1, [3] * 17),
        (2, [3] * 16 + [2]),
        (3, [3] * 16 + [1]),
        (4, [3] * 16),
        (10, [3] * 14),
        (11, [3] * 13 + [2]),
        (12, [3] * 13 + [1]),
    ],
    ids=lambda v: f"{52 - v} cards" if isinstance(v, int) else None,
)
def test_a_redeal_lays_fans_of_three_and_a_short_last_fan_of_the_one_or_two_left(
    home: int, sizes: list[int]
) -> None:
    position = scattered(out_of(home), Rules())
    after = apply(position, REDEAL)
    assert [len(fan) for fan in after.fans] == sizes
    assert sorted(card for fan in after.fans for card in fan) == out_of(home)
    assert after.foundations == position.foundations
    assert after.redeals_used == 1
    assert after.mercis_used == position.mercis_used


def test_a_redeal_depends_only_on_which_cards_are_out_not_where_they_lie() -> None:
    cards = out_of(3)
    one_a_fan = scattered(cards, Rules(), redeals_used=1, seed=42)
    in_threes = Position(Rules(), 1, in_fans(cards), (3, 0, 0, 0), 1, 0, 42)
    shuffled = cards[:]
    random.Random(7).shuffle(shuffled)
    in_a_heap = Position(Rules(), 1, (tuple(shuffled), (), ()), (3, 0, 0, 0), 1, 0, 42)
    dealt = {apply(p, REDEAL).fans for p in (one_a_fan, in_threes, in_a_heap)}
    assert len(dealt) == 1


def test_a_redeal_is_shuffled_afresh_for_each_redeal_and_each_seed() -> None:
    cards = out_of(3)
    first = apply(scattered(cards, Rules(), redeals_used=0, seed=42), REDEAL).fans
    second = apply(scattered(cards, Rules(), redeals_used=1, seed=42), REDEAL).fans
    other_seed = apply(scattered(cards, Rules(), redeals_used=0, seed=43), REDEAL).fans
    assert len({first, second, other_seed}) == 3
    assert first != in_fans(sorted(cards))


@pytest.mark.parametrize(
    ("rules", "redeals_used"),
    [
        ("lucie", 2),
        ("nomerci", 2),
        ("lucie-r0", 0),
        ("lucie-r1", 1),
        ("lucie-r3", 3),
        ("trefoil", 2),
    ],
)
def test_a_redeal_with_none_left_is_refused(board: Board, rules: str, redeals_used: int) -> None:
    position = board(STUCK, rules, redeals_used=redeals_used)
    assert not position.can_redeal
    assert position.redeals_left == 0
    assert REDEAL not in legal_moves(position)
    with pytest.raises(IllegalMoveError, match="no redeals are left"):
        apply(position, REDEAL)


@pytest.mark.parametrize(
    ("rules", "redeals_used", "left"),
    [
        ("lucie", 0, 2),
        ("lucie", 1, 1),
        ("lucie-r3", 2, 1),
        ("lucie-r1", 0, 1),
        ("sixteen-r3", 0, 3),
    ],
)
def test_a_redeal_may_be_taken_whenever_any_is_left(
    board: Board, rules: str, redeals_used: int, left: int
) -> None:
    position = board(STUCK, rules, redeals_used=redeals_used)
    assert position.redeals_left == left
    assert REDEAL in legal_moves(position)
    after = apply(position, REDEAL)
    assert after.redeals_left == left - 1


def test_a_redeal_may_be_taken_while_cards_can_still_move() -> None:
    position = Position.start(1)
    assert card_moves(position)
    assert REDEAL in legal_moves(position)
    assert apply(position, REDEAL).redeals_used == 1


def test_unlimited_redeals_never_run_out_and_never_allow_a_merci() -> None:
    rules = Rules.parse("lucie-ru")
    position = Position.start(20260726, rules)
    seen = set()
    for count in range(1, 31):
        position = apply(position, REDEAL)
        assert position.redeals_used == count
        assert position.redeals_left is None
        assert position.can_redeal
        assert not position.merci_open
        assert not position.is_last_deal
        assert REDEAL in legal_moves(position)
        seen.add(position.fans)
    assert len(seen) == 30


WON = """
    rules lucie  redeals 1  mercis 0
    home KC KD KH KS
     0: -
     1: -
"""


@pytest.mark.parametrize("rules", ["lucie", "lucie-ru", "trefoil-r3-m2"])
def test_a_redeal_after_all_cards_are_home_is_refused(board: Board, rules: str) -> None:
    position = board(WON, rules)
    assert not position.can_redeal
    assert legal_moves(position) == []
    with pytest.raises(IllegalMoveError, match="the game is won: there is nothing to redeal"):
        apply(position, REDEAL)


# ------------------------------------------------------------------------------------ outcome


def test_won_when_all_52_cards_are_home(board: Board) -> None:
    outcome = board(WON).outcome()
    assert outcome == Outcome(Termination.ALL_HOME)
    assert outcome is not None
    assert outcome.won
    assert outcome.reason == "all 52 cards are home"


@pytest.mark.parametrize(
    ("rules", "redeals_used", "mercis_used", "status"),
    [
        ("lucie", 2, 1, "lost"),
        ("lucie", 2, 0, "playing"),  # no card moves, but the merci is usable
        ("lucie", 1, 1, "playing"),  # a redeal is left
        ("lucie", 0, 0, "playing"),
        ("nomerci", 2, 0, "lost"),
        ("lucie-m2", 2, 1, "playing"),
        ("lucie-m2", 2, 2, "lost"),
        ("lucie-r0", 0, 1, "lost"),
        ("lucie-r0", 0, 0, "playing"),
        ("lucie-ru", 50, 0, "playing"),
        ("lucie-r3", 2, 1, "playing"),
        ("lucie-r3", 3, 1, "lost"),
    ],
)
def test_lost_only_when_no_move_redeal_or_merci_is_left(
    board: Board, rules: str, redeals_used: int, mercis_used: int, status: str
) -> None:
    """The stuck position, with different things left to use."""
    position = board(STUCK, rules, redeals_used=redeals_used, mercis_used=mercis_used)
    assert card_moves(position) == []
    outcome = position.outcome()
    assert (outcome is None) is (status == "playing")
    assert (legal_moves(position) == []) is (status == "lost")
    if outcome is not None:
        assert outcome.name == status
        assert outcome.reason == "no move, redeal or merci is left"


def test_playing_while_a_top_card_can_move_in_the_last_deal(drawn: Position) -> None:
    """
    rules lucie  redeals 2  mercis 1
    home 5C KD KH KS
     0: 7C 9C 8C
     1: JC TC 6C
     2: KC QC
    """
    assert drawn.outcome() is None
    assert [m.text for m in legal_moves(drawn)] == ["6C>F"]
    outcome = apply(drawn, Move.parse("6C>F")).outcome()
    assert outcome is not None
    assert outcome.name == "lost"


def test_counters_read_from_the_rules(board: Board) -> None:
    position = board(MERCI, "lucie-r3-m2", redeals_used=1, mercis_used=0)
    assert (position.redeals_left, position.mercis_left, position.is_last_deal) == (2, 2, False)
    assert position.cards_home == 5 + 13 * 3
    assert position.tops == (Card.parse("8C"), Card.parse("TC"), Card.parse("QC"), None)
    assert position.find(Card.parse("9C")) == (0, 1)
    assert position.find(Card.parse("5C")) is None


# -------------------------------------------------------------- legal_moves agrees with apply


def every_candidate(position: Position) -> Iterator[Move]:
    """Every move the notation can name in this position, legal or not."""
    yield REDEAL
    for card in DECK:
        for merci in (False, True):
            yield Move.home(card, merci)
            for onto in DECK:
                yield Move.build(card, onto, merci)
            for fan in range(len(position.fans) + 1):
                yield Move.to_empty(card, fan, merci)


def sample_positions() -> Iterator[tuple[str, Position]]:
    """Positions met in seeded random play: every 20 moves, when the merci opens, and at the end."""
    for name, deal in [
        ("lucie", 3),
        ("lucie-free-kings", 6),
        ("trefoil-r0-m2", 5),
        ("sixteen-kings", 6),
    ]:
        position = Position.start(deal, Rules.parse(name))
        rng = random.Random(deal)
        merci_seen = False
        for step in range(1, 100):
            moves = legal_moves(position)
            if not moves:
                break
            if position.merci_open and not merci_seen:
                merci_seen = True
                yield f"{name} #{deal} when the merci opens", position
            elif step % 20 == 0:
                yield f"{name} #{deal} after {step} moves", position
            # play cards rather than redeal while any card moves, so each deal sees some play
            cards = [m for m in moves if not m.is_redeal] or moves
            position = apply(position, rng.choice(cards))
        yield f"{name} #{deal} at the end", position


PICTURES = [
    ("merci", MERCI, "lucie-free-kings"),
    ("merci kings", MERCI, "lucie-kings"),
    ("stuck", STUCK, "lucie"),
]


@pytest.mark.parametrize(("name", "text", "rules"), PICTURES, ids=[p[0] for p in PICTURES])
def test_legal_moves_are_exactly_the_moves_apply_accepts_in_drawn_positions(
    board: Board, name: str, text: str, rules: str
) -> None:
    assert_agree(board(text, rules))


@pytest.mark.parametrize(
    "position", [pytest.param(position, id=name) for name, position in sample_positions()]
)
def test_legal_moves_are_exactly_the_moves_apply_accepts_in_played_positions(
    position: Position,
) -> None:
    assert_agree(position)


def assert_agree(position: Position) -> None:
    legal = legal_moves(position)
    assert len(set(legal)) == len(legal), "legal_moves lists a move twice"
    accepted = []
    for move in every_candidate(position):
        try:
            apply(position, move)
        except IllegalMoveError:
            continue
        accepted.append(move)
    assert sorted(m.text for m in accepted) == sorted(m.text for m in legal)


# --------------------------------------------------------------------- refusals change nothing


@pytest.mark.parametrize(
    "text",
    ["9C>8C", "*9C>8C", "6C>F", "8C>9C", "KC>@3", "*KC>@0", "AS>F", "R", "*6C>@7", "8C>@3"],
)
def test_an_illegal_move_raises_and_leaves_the_position_as_it_was(board: Board, text: str) -> None:
    position = board(MERCI, redeals_used=2, mercis_used=1)
    before = board(MERCI, redeals_used=2, mercis_used=1)
    with pytest.raises(IllegalMoveError) as error:
        apply(position, Move.parse(text))
    assert position == before
    assert str(error.value)
    assert str(error.value)[0].islower()  # a reason that reads as part of a sentence


def test_illegal_move_errors_are_value_errors() -> None:
    assert issubclass(IllegalMoveError, ValueError)


def test_a_picture_is_the_position_it_draws(
    board: Board, picture: Callable[[Position], str]
) -> None:
    position = board(MERCI, "trefoil-r3-m2-kings", redeals_used=3, mercis_used=1)
    assert board(picture(position)) == position
    assert picture(position).splitlines()[:2] == [
        "rules trefoil-r3-m2-kings  redeals 3  mercis 1",
        "home 5C KD KH KS",
    ]
    assert str(position).splitlines()[0] == "home C5 D13 H13 S13"
