"""Invariants over random deals, every rule set, and random legal play (hypothesis)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.engine import (
    DECK,
    MAX_DEAL,
    IllegalMoveError,
    Move,
    Play,
    Position,
    Record,
    apply,
    every_rule_set,
    legal_moves,
)

PROPERTY = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
MAX_MOVES = 200  # unlimited redeals never run out: stop there


rule_sets = st.sampled_from(every_rule_set())
deal_numbers = st.one_of(st.integers(1, 1000), st.integers(1, MAX_DEAL), st.just(MAX_DEAL))


@st.composite
def games(draw: st.DrawFn) -> Play:
    """A game of random legal play: each move drawn from `legal_moves`, to the end of the game."""
    game = Play(draw(deal_numbers), draw(rule_sets))
    for _ in range(MAX_MOVES):
        moves = legal_moves(game.position)
        if not moves:
            break
        game.play(draw(st.sampled_from(moves)))
    return game


def steps(game: Play) -> list[tuple[Position, Move, Position]]:
    positions = game.positions()
    return list(zip(positions[:-1], game.moves, positions[1:], strict=True))


def assert_every_card_in_one_place(position: Position) -> None:
    out = [card for fan in position.fans for card in fan]
    home = [card for card in DECK if card.rank <= position.foundations[card.suit_index]]
    assert len(out) + sum(position.foundations) == 52
    assert len(set(out)) == len(out), "a card lies in two places in the fans"
    assert not set(out) & set(home), "a card is both home and in a fan"
    assert sorted(out + home) == list(DECK)


@PROPERTY
@given(games())
def test_all_52_cards_are_accounted_for_at_every_step(game: Play) -> None:
    for position in game.positions():
        assert_every_card_in_one_place(position)
        assert all(0 <= rank <= 13 for rank in position.foundations)


@PROPERTY
@given(games())
def test_foundations_only_ever_grow_by_the_next_card_of_their_suit(game: Play) -> None:
    for before, move, after in steps(game):
        if move.to_foundation:
            assert move.card is not None
            suit = move.card.suit_index
            assert after.foundations[suit] == before.foundations[suit] + 1 == move.card.rank
            others = [i for i in range(4) if i != suit]
            assert [after.foundations[i] for i in others] == [before.foundations[i] for i in others]
        else:
            assert after.foundations == before.foundations


@PROPERTY
@given(games())
def test_counters_stay_within_the_rules(game: Play) -> None:
    rules = game.rules
    for before, move, after in steps(game):
        assert after.redeals_used == before.redeals_used + move.is_redeal
        assert after.mercis_used == before.mercis_used + move.merci
        if move.merci:
            assert before.is_last_deal
        if rules.redeals is not None:
            assert after.redeals_used <= rules.redeals
        assert after.mercis_used <= rules.mercis
        if move.is_redeal:
            assert [len(fan) for fan in after.fans[:-1]] == [3] * (len(after.fans) - 1)
            assert 1 <= len(after.fans[-1]) <= 3


@PROPERTY
@given(games())
def test_undo_after_apply_gives_back_the_same_position(game: Play) -> None:
    ends = game.positions()
    moves = game.moves
    for expected in reversed(ends[:-1]):
        assert game.undo() == expected
    assert game.position == Position.start(game.deal_number, game.rules)
    for move, expected in zip(moves, ends[1:], strict=True):
        assert game.redo() == expected
        game.undo()
        assert game.play(move) == expected  # played afresh, it lands in the same place


@PROPERTY
@given(games())
def test_replaying_the_record_gives_the_same_positions(game: Play) -> None:
    record = Record.parse(game.record.text)
    assert record == game.record
    replayed = Play.from_record(record)
    assert replayed.positions() == game.positions()
    assert replayed.outcome() == game.outcome()


@PROPERTY
@given(games())
def test_every_legal_move_met_round_trips_through_its_text(game: Play) -> None:
    for position in game.positions():
        moves = legal_moves(position)
        assert len(set(moves)) == len(moves)
        for move in moves:
            assert Move.parse(move.text) == move


@PROPERTY
@given(games())
def test_the_outcome_follows_from_what_is_left_to_play(game: Play) -> None:
    for position in game.positions():
        outcome = position.outcome()
        if position.cards_home == 52:
            assert outcome is not None
            assert outcome.won
        elif legal_moves(position):
            assert outcome is None
        else:
            assert outcome is not None
            assert outcome.name == "lost"
            assert not position.can_redeal


def candidate_moves(position: Position) -> st.SearchStrategy[Move]:
    """Any move the notation can name here, legal or not."""
    cards = st.sampled_from(DECK)
    merci = st.booleans()
    fans = st.integers(0, len(position.fans) + 2)
    return st.one_of(
        st.builds(Move.home, cards, merci),
        st.builds(Move.build, cards, cards, merci),
        st.builds(Move.to_empty, cards, fans, merci),
        st.just(Move.redeal()),
    )


@PROPERTY
@given(games(), st.data())
def test_an_illegal_move_is_refused_and_leaves_the_state_untouched(
    played: Play, data: st.DataObject
) -> None:
    cut = data.draw(st.integers(0, len(played.moves)), label="moves kept")
    moves, redo = played.moves[:cut], played.moves[cut:]
    game = Play(played.deal_number, played.rules, moves, redo=redo)
    position = game.position
    legal = legal_moves(position)
    move = data.draw(candidate_moves(position).filter(lambda m: m not in legal), label="move")
    with pytest.raises(IllegalMoveError, match=r"\w"):
        apply(position, move)
    with pytest.raises(IllegalMoveError, match=r"\w"):
        game.play(move)
    assert (game.position, game.moves, game.redo_moves) == (position, moves, redo)
    assert game.positions() == played.positions()[: cut + 1]
