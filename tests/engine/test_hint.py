"""The fair hint: always legal, perfect in the last deal, blind to the redeal shuffle."""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.engine import Play, Position, Rules, apply, budget, fair, legal_moves
from game.engine import deal as deals
from game.engine.hint import Hint, fair_hint, greedy_hint, hint, reason

RULE_SETS = [
    "lucie", "nomerci", "trefoil", "sixteen", "lucie-r0", "lucie-r1", "lucie-r3", "lucie-ru",
    "lucie-m2", "lucie-free", "lucie-kings", "lucie-free-once", "lucie-stuck",
    "lucie-r0-free-once-kings", "lucie-r0-stuck",
]  # fmt: skip


def follow(
    position: Position, advise: Callable[[Position], Hint | None] = hint, limit: int = 300
) -> Position:
    """Play the advice until it runs out (or `limit` moves, for unlimited redeals)."""
    for _ in range(limit):
        advice = advise(position)
        if advice is None:
            break
        position = apply(position, advice.move)
    return position


@st.composite
def positions(draw: st.DrawFn, rules_name: str) -> Position:
    """A position reached from a random deal by random legal play, redeals and mercis included."""
    number = draw(st.integers(1, 10_000))
    game = Play(number, Rules.parse(rules_name))
    for choice in draw(st.lists(st.integers(0, 10_000), max_size=60)):
        moves = legal_moves(game.position)
        if not moves:
            break
        game.play(moves[choice % len(moves)])
    return game.position


@pytest.mark.parametrize("rules_name", RULE_SETS)
def test_the_hint_only_ever_suggests_a_legal_move(rules_name: str) -> None:
    @settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(positions(rules_name))
    def check(position: Position) -> None:
        for time_limit in (None, 0.0):  # searched to the end, and cut short at once
            advice = hint(position, time_limit=time_limit)
            if advice is None:
                assert position.outcome() is not None
            else:
                assert advice.move in legal_moves(position)

    check()


def test_a_hint_that_would_take_seconds_stops_at_its_deadline_with_a_legal_move() -> None:
    """Deal 10 with no redeal and two mercis: searching it to the end takes many seconds."""
    position = Position.start(10, Rules.parse("lucie-r0-m2"))

    found = fair_hint(position, time_limit=0.02)

    assert found is not None
    assert found.cut
    assert found.move in legal_moves(position)


def test_a_hint_cut_short_reads_like_any_other() -> None:
    """What the page shows (the move and its reason) follows from the move alone."""
    slow = Position.start(10, Rules.parse("lucie-r0-m2"))
    quick = Position.start(10)
    for position, cut in ((slow, True), (quick, False)):
        found = fair_hint(position, time_limit=0.02 if cut else None)
        assert found is not None
        assert found.cut is cut
        assert hint(position, time_limit=0.02 if cut else None) == Hint(
            found.move, reason(position, found.move)
        )


@pytest.mark.parametrize("rules_name", ["lucie-r0-m2", "lucie-r0-m2-free", "lucie-m2-free"])
def test_a_hint_given_no_time_at_all_still_offers_a_legal_move(rules_name: str) -> None:
    game = Play(10, Rules.parse(rules_name))
    for _ in range(40):
        found = fair_hint(game.position, time_limit=0.0)
        if found is None:
            assert game.position.outcome() is not None
            break
        assert found.move in legal_moves(game.position)
        game.play(found.move)


def test_the_hint_takes_the_merci_that_wins(drawn: Position) -> None:
    """The last deal; the merci must draw the Queen of Diamonds, not the Jack of Hearts that
    could go home at once (the greedy hint's choice, which loses).

    rules lucie  redeals 2  mercis 0
    home JC JD TH KS
     0: JH KC QH
     1: KH QD KD
     2: QC
    """
    end = follow(drawn)
    assert end.cards_home == 52
    assert follow(drawn, greedy_hint).cards_home < 52
    line = []
    position = drawn
    while (advice := hint(position)) is not None:
        line.append(advice.move.text)
        position = apply(position, advice.move)
    assert [move for move in line if move.startswith("*")] == ["*QD>F"]


def test_the_hint_finds_a_merci_onto_a_fan(drawn: Position) -> None:
    """The last deal; the winning merci draws the Queen of Hearts onto the King of Hearts.

    rules lucie  redeals 2  mercis 0
    home 9C KD 9H QS
     0: KC TC
     1: QC QH KH
     2: KS TH JH
     3: JC
    """
    advice = hint(drawn)
    assert advice is not None
    assert advice.move.to_foundation
    assert follow(drawn).cards_home == 52
    assert follow(drawn, greedy_hint).cards_home < 52


def test_the_hint_redeals_when_nothing_better_is_in_reach(drawn: Position) -> None:
    """No card can move and a redeal is left: redeal (the merci waits for the last deal).

    rules lucie  redeals 1  mercis 0
    home 9C 9D 9H 9S
     0: TC JC QC KC
     1: TD JD QD KD
     2: TH JH QH KH
     3: TS JS QS KS
    """
    advice = hint(drawn)
    assert advice is not None
    assert advice.move.is_redeal


def test_the_hint_cannot_see_the_redeal_shuffle() -> None:
    """Before the last deal the hint is the same whatever the hidden shuffle seed."""
    for number in range(1, 7):
        game = Play(number, shuffle_seed=number)
        for _ in range(4):
            position = game.position
            if position.is_last_deal or (advice := hint(position, time_limit=None)) is None:
                break
            for seed in (0, 2**40 + number):
                fair.clear_caches()  # so that no answer is reused from the call with another seed
                other = dataclasses.replace(position, shuffle_seed=seed)
                assert hint(other, time_limit=None) == advice
            game.play(advice.move)


def test_the_hint_never_computes_a_redeal(monkeypatch: pytest.MonkeyPatch) -> None:
    """Any look at the real redeal would go through the deal module's shuffle: forbid it."""
    seen = []
    for number in (3, 4):
        game = Play(number)
        while not game.position.is_last_deal and game.position.cards_home < 52:
            advice = hint(game.position)
            assert advice is not None
            seen.append(game.position)
            game.play(advice.move)

    def forbidden(*args: object) -> None:
        raise AssertionError("the hint computed a real shuffle")

    monkeypatch.setattr(deals, "shuffle", forbidden)
    monkeypatch.setattr(deals, "redeal", forbidden)
    fair.clear_caches()
    for position in seen:
        assert hint(position) is not None


def test_a_hint_cut_short_leaves_what_it_proved_for_the_next(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """In a last deal too big to search in one hint, each hint goes on from the positions the
    ones before it showed lost, instead of starting over. (Deadlines on CPU time, so that a busy
    machine cannot leave a hint without any time to search.)"""
    monkeypatch.setattr(budget, "clock", time.thread_time)
    position = Position.start(10, Rules.parse("lucie-r0-m2"))
    fair.clear_caches()
    sizes = []
    for _ in range(3):
        found = fair_hint(position, time_limit=0.05)
        assert found is not None
        assert found.cut
        sizes.append(fair.positions_known())
    assert 0 < sizes[0] < sizes[1] < sizes[2]
