"""The game as a whole: a hypothesis state machine plays, undoes, redoes, redeals and takes mercis.

After every step the game must equal its own move list replayed from scratch, and undo/redo must
agree with a plain model of two stacks.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from game.engine import (
    DECK,
    MAX_DEAL,
    REDEAL,
    IllegalMoveError,
    Move,
    Play,
    Record,
    Rules,
    every_rule_set,
    legal_moves,
)


class GameMachine(RuleBasedStateMachine):
    game: Play
    played: list[Move]  # the model: the moves that lead here
    undone: list[Move]  # the model: what redo would play, next one last

    @initialize(
        deal=st.one_of(st.integers(1, 10_000), st.integers(1, MAX_DEAL)),
        rules=st.sampled_from(every_rule_set()),
    )
    def start(self, deal: int, rules: Rules) -> None:
        self.game = Play(deal, rules)
        self.played = []
        self.undone = []

    def _play(self, move: Move) -> None:
        self.game.play(move)
        self.played.append(move)
        if self.undone and self.undone[-1] == move:
            self.undone.pop()
        else:
            self.undone.clear()

    def _card_moves(self) -> list[Move]:
        return [m for m in legal_moves(self.game.position) if not m.is_redeal and not m.merci]

    def _mercis(self) -> list[Move]:
        return [m for m in legal_moves(self.game.position) if m.merci]

    @precondition(lambda self: bool(self._card_moves()))
    @rule(data=st.data())
    def play_a_card(self, data: st.DataObject) -> None:
        self._play(data.draw(st.sampled_from(self._card_moves())))

    @precondition(lambda self: self.game.position.can_redeal)
    @rule()
    def redeal(self) -> None:
        self._play(REDEAL)

    @precondition(lambda self: bool(self._mercis()))
    @rule(data=st.data())
    def merci(self, data: st.DataObject) -> None:
        self._play(data.draw(st.sampled_from(self._mercis())))

    @precondition(lambda self: bool(self.undone))
    @rule()
    def play_what_redo_would(self) -> None:
        self._play(self.undone[-1])

    @rule()
    def undo(self) -> None:
        if not self.played:
            with pytest.raises(IllegalMoveError):
                self.game.undo()
            return
        self.game.undo()
        self.undone.append(self.played.pop())

    @rule()
    def redo(self) -> None:
        if not self.undone:
            with pytest.raises(IllegalMoveError):
                self.game.redo()
            return
        self.game.redo()
        self.played.append(self.undone.pop())

    @rule(card=st.sampled_from(DECK), onto=st.sampled_from(DECK), merci=st.booleans())
    def try_an_illegal_move(self, card: object, onto: object, merci: bool) -> None:
        move = Move.build(card, onto, merci)  # type: ignore[arg-type]
        if move in legal_moves(self.game.position):
            return
        before = (self.game.position, self.game.moves, self.game.redo_moves)
        with pytest.raises(IllegalMoveError):
            self.game.play(move)
        assert (self.game.position, self.game.moves, self.game.redo_moves) == before

    @invariant()
    def the_game_is_its_moves_replayed(self) -> None:
        game = self.game
        assert game.moves == tuple(self.played)
        replayed = Play(game.deal_number, game.rules, game.moves)
        assert game.position == replayed.position
        assert game.positions() == replayed.positions()
        assert Record.parse(game.record.text) == game.record

    @invariant()
    def undo_and_redo_agree_with_the_model(self) -> None:
        game = self.game
        assert game.can_undo is bool(self.played)
        assert game.can_redo is bool(self.undone)
        assert game.redo_moves == tuple(reversed(self.undone))

    @invariant()
    def the_counters_match_the_moves(self) -> None:
        position = self.game.position
        assert position.redeals_used == self.played.count(REDEAL)
        assert position.mercis_used == sum(move.merci for move in self.played)
        assert sum(len(fan) for fan in position.fans) + position.cards_home == 52


GameMachine.TestCase.settings = settings(
    max_examples=40,
    stateful_step_count=50,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
test_game_machine = GameMachine.TestCase
