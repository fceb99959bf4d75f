"""A game is its rules, its deal number and its move list, with undo and redo without limit."""

from __future__ import annotations

import pytest

from game.engine import (
    REDEAL,
    IllegalMoveError,
    InvalidDealError,
    Move,
    Outcome,
    Play,
    Position,
    Record,
    Rules,
    Termination,
    apply,
    card_moves,
    legal_moves,
)


def play_out(game: Play, limit: int = 400) -> None:
    """Always play the first legal move, to the end: cards first, then mercis, then redeals."""
    for _ in range(limit):
        moves = legal_moves(game.position)
        if not moves:
            return
        cards = [m for m in moves if not m.is_redeal and not m.merci]
        mercis = [m for m in moves if m.merci]
        game.play((cards or mercis or moves)[0])
    raise AssertionError("the game did not end")


@pytest.fixture
def finished() -> Play:
    """Deal 1 under the default rules, played to the end by always taking the first legal move."""
    game = Play(1)
    play_out(game)
    return game


def test_a_new_game_starts_at_its_deal() -> None:
    game = Play(20260726, Rules.parse("trefoil"))
    assert game.position == game.start == Position.start(20260726, Rules.parse("trefoil"))
    assert game.moves == ()
    assert not game.can_undo
    assert not game.can_redo
    assert game.record == Record(Rules.parse("trefoil"), 20260726, ())
    assert game.positions() == (game.start,)


def test_the_played_game_uses_its_redeals_and_its_merci(finished: Play) -> None:
    assert finished.moves.count(REDEAL) == 2
    assert sum(move.merci for move in finished.moves) == 1
    assert finished.outcome() is not None


def test_undo_steps_back_through_every_move_to_the_start(finished: Play) -> None:
    positions = finished.positions()
    assert len(positions) == len(finished.moves) + 1
    for expected in reversed(positions[:-1]):
        assert finished.undo() == expected
        assert finished.position == expected
    assert not finished.can_undo
    assert finished.position == finished.start
    with pytest.raises(IllegalMoveError, match="no move to undo"):
        finished.undo()


def test_redo_plays_the_undone_moves_again_across_redeals_and_the_merci(finished: Play) -> None:
    moves, end = finished.moves, finished.position
    while finished.can_undo:
        finished.undo()
    assert finished.redo_moves == moves
    while finished.can_redo:
        finished.redo()
    assert finished.moves == moves
    assert finished.position == end
    with pytest.raises(IllegalMoveError, match="no move to redo"):
        finished.redo()


def test_undoing_a_redeal_and_taking_it_again_deals_the_same_fans() -> None:
    game = Play(42)
    game.play(card_moves(game.position)[0])
    dealt = game.play(REDEAL)
    before = game.undo()
    assert before.redeals_used == 0
    assert game.redo() == dealt
    game.undo()
    assert game.play(REDEAL) == dealt  # taken afresh rather than redone
    game.undo()
    game.play(card_moves(game.position)[-1])
    other = game.play(REDEAL)
    assert other.redeals_used == 1


def test_undoing_the_merci_gives_it_back() -> None:
    game = Play(3, Rules.parse("lucie-r0"))
    merci = next(move for move in legal_moves(game.position) if move.merci)
    game.play(merci)
    assert game.position.mercis_used == 1
    assert not game.position.merci_open
    game.undo()
    assert game.position.mercis_used == 0
    assert game.position.merci_open


def test_a_new_move_after_undo_clears_the_redo_list() -> None:
    game = Play(1)
    first, second = card_moves(game.position)[:2]
    game.play(first)
    game.undo()
    assert game.redo_moves == (first,)
    game.play(second)
    assert not game.can_redo
    assert not game.redo_moves


def test_playing_the_move_redo_would_play_keeps_the_rest_of_the_redo_list(finished: Play) -> None:
    moves = finished.moves
    for _ in range(3):
        finished.undo()
    finished.play(moves[-3])
    assert finished.redo_moves == moves[-2:]
    assert finished.can_redo


def test_an_illegal_move_changes_nothing_in_the_game() -> None:
    game = Play(1)
    game.play(card_moves(game.position)[0])
    game.undo()
    moves, redo, position = game.moves, game.redo_moves, game.position
    with pytest.raises(IllegalMoveError):
        game.play(Move.parse("*KS>F"))
    assert (game.moves, game.redo_moves, game.position) == (moves, redo, position)
    assert len(game.positions()) == 1


def test_a_game_is_its_moves_replayed(finished: Play) -> None:
    replayed = Play(finished.deal_number, finished.rules, finished.moves)
    assert replayed.position == finished.position
    assert replayed.positions() == finished.positions()
    assert Play.from_record(finished.record).position == finished.position
    assert Play.from_record(finished.record.text).position == finished.position


def test_a_game_can_be_rebuilt_with_its_redo_list(finished: Play) -> None:
    moves = finished.moves
    game = Play(1, moves=moves[:5], redo=moves[5:9])
    assert game.redo_moves == moves[5:9]
    assert game.redo() == Play(1, moves=moves[:6]).position


def test_replaying_an_illegal_move_names_the_move() -> None:
    with pytest.raises(
        IllegalMoveError, match=r"^move 2 \(KS>F\): the King of Spades cannot go home yet"
    ):
        Play(1, moves=[REDEAL, Move.parse("KS>F")])
    with pytest.raises(IllegalMoveError, match=r"^move 2 \(R\): no redeals are left"):
        Play.from_record("lucie-r1 1 R R")


@pytest.mark.parametrize("number", [0, -1, 2**63, True, "12", 1.0])
def test_a_game_needs_a_deal_number(number: object) -> None:
    with pytest.raises(InvalidDealError):
        Play(number)  # type: ignore[arg-type]


def test_a_shuffle_seed_changes_the_redeals_but_not_the_first_deal() -> None:
    game = Play(8, shuffle_seed=99)
    assert game.start == Position.start(8, shuffle_seed=99)
    assert game.play(REDEAL) == apply(Position.start(8, shuffle_seed=99), REDEAL)
    assert game.position.fans != apply(Position.start(8), REDEAL).fans


def test_a_won_game_says_so_and_undo_takes_it_back_into_play() -> None:
    game = Play(16)  # first-legal-move play happens to win this deal
    play_out(game)
    assert game.outcome() == Outcome(Termination.ALL_HOME)
    assert game.position.cards_home == 52
    assert legal_moves(game.position) == []
    game.undo()
    assert game.outcome() is None
    assert game.redo().outcome() is not None


def test_a_redo_the_rules_refuse_changes_nothing() -> None:
    king_home = Move.parse("KS>F")
    game = Play(1, redo=[king_home])
    with pytest.raises(IllegalMoveError, match="cannot go home yet"):
        game.redo()
    assert game.redo_moves == (king_home,)
    assert game.can_redo
