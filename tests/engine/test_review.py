"""The review's search along a record (game.engine.review): a binary search that finds the last
winnable position in a few solves, checked against a solve of every position; and its docstring
examples."""

from __future__ import annotations

import doctest
import math

import pytest

from game.engine import Move, Play, Rules, difficulty, greedy_hint, review, solver
from game.engine.review import Slip


def greedy_game(number: int, rules: str = "lucie") -> Play:
    game = Play(number, Rules.parse(rules))
    while (found := greedy_hint(game.position)) is not None:
        game.play(found.move)
    return game


@pytest.mark.parametrize("module", [review, difficulty])
def test_the_docstring_examples_hold(module: object) -> None:
    assert doctest.testmod(module).failed == 0  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "case",
    [
        (1, "lucie"), (6, "lucie"), (13, "nomerci"), (1, "lucie-r0"), (1, "lucie-free-once"),
        (1, "lucie-r0-free-once-stuck"),
    ],
)  # fmt: skip
def test_the_search_finds_the_boundary_of_a_solve_of_every_position(case: tuple[int, str]) -> None:
    # Each case is a greedy loss (deal 3 under lucie-free-once is a greedy win: no slip to find).
    game = greedy_game(*case)
    positions = game.positions()
    verdicts = [solver.solve(p, max_nodes=None, time_limit=None).status for p in positions]
    assert "undecided" not in verdicts
    winnable = [k for k, status in enumerate(verdicts) if status == "won"]
    # Monotone along the record: winnable up to K, lost after.
    expected = max(winnable) if winnable else -1
    assert winnable == list(range(expected + 1))

    # Counted in nodes, not seconds: a loaded machine would cut a solve short at the default
    # two seconds and call it undecided (seen under a load average of 16).
    slip = review.find_slip(positions, game.moves, time_limit=None)

    assert slip.state == "done"
    assert slip.last_winnable == expected
    assert slip.solves <= 2 + math.ceil(math.log2(len(game.moves)))


def test_a_won_solve_along_the_record_skips_the_positions_it_passes() -> None:
    record = ["AS>F", "2S>F", "R", "KC>F"]
    learned = Slip.begin(len(record)).learn(0, "won", ["AS>F", "2S>F", "3S>F"], record)
    assert (learned.low, learned.line) == (2, ("3S>F",))


def test_an_undecided_solve_stops_the_search_and_says_where() -> None:
    slip = Slip.begin(40).learn(0, "won", ["R"], ["AS>F"] * 40).learn(20, "undecided", [], [])
    assert slip.state == "undecided"
    assert slip.stuck == 20
    assert slip.last_winnable is None
    assert slip.next_index() is None
    assert slip.retry().next_index() == 20


def test_disagreements_leave_out_banking_and_the_same_plan_in_another_order() -> None:
    build, other = Move.parse("6C>7C"), Move.parse("5H>6H")
    assert review.disagrees(build, other)
    assert not review.disagrees(build, other, [Move.parse("AS>F"), other])
    assert review.disagrees(build, other, [Move.parse("R"), other])  # too late: another deal
    assert not review.disagrees(Move.parse("AS>F"), other)
    assert not review.disagrees(build, Move.parse("R"))
