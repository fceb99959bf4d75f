"""The solver: its wins replay, its losses are real, and its budget holds."""

from __future__ import annotations

import random

import pytest

from game.engine import DECK, Play, Position, Rules, apply, legal_moves
from game.engine.solver import solve


@pytest.mark.parametrize(
    ("rules_name", "number"),
    [("lucie", 1), ("lucie", 2), ("nomerci", 5), ("lucie-free-once", 1), ("lucie-stuck", 2)],
)
def test_a_win_replays_through_the_engine_to_52_cards_home(rules_name: str, number: int) -> None:
    rules = Rules.parse(rules_name)
    solution = solve(Position.start(number, rules))
    assert solution.status == "won"
    game = Play(number, rules)
    for move in solution.moves:
        game.play(move)
    assert game.position.cards_home == 52


def brute_force(position: Position, seen: dict[Position, bool]) -> bool:
    """Whether any sequence of legal moves wins: every move tried, foundation moves included."""
    if position.cards_home == 52:
        return True
    if position not in seen:
        seen[position] = False
        seen[position] = any(brute_force(apply(position, m), seen) for m in legal_moves(position))
    return seen[position]


def small_positions(rules: Rules, count: int, seed: int, redeals_left: int = 0) -> list[Position]:
    """Positions with 7 to 10 cards out, dealt in short fans, with `redeals_left` redeals."""
    rng = random.Random(seed)
    found: list[Position] = []
    while len(found) < count:
        foundations = [rng.randint(8, 13) for _ in range(4)]
        if not 7 <= 52 - sum(foundations) <= 10:
            continue
        out = [card for card in DECK if card.rank > foundations[card.suit_index]]
        rng.shuffle(out)
        fans = []
        while out:
            size = rng.choice((2, 3, 3))
            fans.append(tuple(out[:size]))
            out = out[size:]
        home = (foundations[0], foundations[1], foundations[2], foundations[3])
        redeals = (rules.redeals or 0) - redeals_left
        found.append(Position(rules, 1, tuple(fans), home, redeals, 0, rng.randrange(10**6)))
    return found


@pytest.mark.parametrize(
    "rules_name",
    [
        "lucie", "nomerci", "lucie-m2", "lucie-free", "lucie-kings", "lucie-free-once",
        "lucie-stuck", "lucie-m2-free-once-stuck", "lucie-once-kings", "lucie-free-once-kings",
    ],
)  # fmt: skip
def test_won_and_lost_agree_with_an_exhaustive_search(rules_name: str) -> None:
    rules = Rules.parse(rules_name)
    for position in small_positions(rules, 25, seed=len(rules_name)):
        solution = solve(position)
        assert solution.status == ("won" if brute_force(position, {}) else "lost"), position.text()
        if solution.won:
            end = position
            for move in solution.moves:
                end = apply(end, move)
            assert end.cards_home == 52


@pytest.mark.parametrize("rules_name", ["lucie", "nomerci", "nomerci-r1", "lucie-free-once"])
def test_lost_before_a_redeal_is_a_proof(rules_name: str) -> None:
    """With a redeal left, the exhaustive search may also keep a card out of its foundation to
    change the next deal; the solver must find every such win, and "lost" only when none.
    (Among these positions, four under no merci are won only by keeping a card out.)"""
    rules = Rules.parse(rules_name)
    for position in small_positions(rules, 80, seed=7 + len(rules_name), redeals_left=1):
        solution = solve(position)
        assert solution.status == ("won" if brute_force(position, {}) else "lost"), position.text()
        assert solution.proven
        if solution.won:
            end = position
            for move in solution.moves:
                end = apply(end, move)
            assert end.cards_home == 52


def test_a_tiny_budget_leaves_the_game_undecided() -> None:
    solution = solve(Position.start(7), max_nodes=5)
    assert solution.status == "undecided"
    assert solution.moves == ()
    assert solution.nodes <= 6


def test_a_time_limit_is_honoured() -> None:
    solution = solve(Position.start(98, Rules.parse("lucie-r0")), max_nodes=None, time_limit=0.05)
    assert solution.status in ("undecided", "lost", "won")
    assert solution.seconds < 0.5


def test_a_won_position_needs_no_moves() -> None:
    position = Position(Rules(), 1, ((),), (13, 13, 13, 13))
    assert solve(position).status == "won"


@pytest.mark.parametrize(
    ("rules_name", "number"), [("lucie-r0-m2", 10), ("lucie-r0-m2-free", 1), ("lucie-r0", 98)]
)
def test_a_search_of_many_seconds_stops_undecided_at_its_deadline(
    rules_name: str, number: int
) -> None:
    """Each of these takes the solver seconds; a deadline of a few milliseconds leaves it
    undecided, never with a wrong answer."""
    position = Position.start(number, Rules.parse(rules_name))
    solution = solve(position, max_nodes=None, time_limit=0.01)
    assert solution.status == "undecided"
    assert solution.moves == ()
