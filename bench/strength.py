"""How strong are the hints, and how quick is the solver? Deals 1-300 under the default rules.

    .venv/bin/python bench/strength.py            # all 300 deals (several minutes on two cores)
    .venv/bin/python bench/strength.py --deals 30 # a quick look

Fairness: each game played by a hint draws its redeals from a hidden shuffle seed,
`hidden_seed(n) = n + 10**12`, which is never passed to the hint. The hint only ever sees the
position, whose `shuffle_seed` it must not read (tests/engine/test_hint.py checks it does not).
A game played by a hint stops when the hint has nothing to offer, or after MAX_REDEALS redeals
(only reachable with unlimited redeals).

The solver is given the real seed, as "Show a win" is; every win it reports is replayed move by
move through `Game.play` and must end with 52 cards home.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from game.engine import Game, Position, Rules
from game.engine.hint import Hint, greedy_hint, hint
from game.engine.solver import solve

MAX_REDEALS = 10
SOLVER_NODES = 3_000_000
SOLVER_SECONDS = 20.0
WORKERS = 2


def hidden_seed(number: int) -> int:
    return number + 10**12


def play(args: tuple[str, str, int]) -> tuple[bool, list[float]]:
    """Follow a hint through deal `number`; returns (won, seconds per hint)."""
    which, rules_name, number = args
    advise: Callable[[Position], Hint | None] = hint if which == "fair" else greedy_hint
    game = Game(number, Rules.parse(rules_name), shuffle_seed=hidden_seed(number))
    times: list[float] = []
    redeals = 0
    while True:
        began = time.perf_counter()
        advice = advise(game.position)
        times.append(time.perf_counter() - began)
        if advice is None:
            break
        if advice.move.is_redeal:
            redeals += 1
            if redeals > MAX_REDEALS:
                break
        game.play(advice.move)
    return game.position.cards_home == 52, times


def solve_one(args: tuple[str, int]) -> tuple[str, float, bool]:
    """Solve deal `number` from its start; returns (status, seconds, verified win)."""
    rules_name, number = args
    rules = Rules.parse(rules_name)
    solution = solve(Position.start(number, rules), SOLVER_NODES, SOLVER_SECONDS)
    verified = False
    if solution.won:
        game = Game(number, rules)
        for move in solution.moves:
            game.play(move)
        verified = game.position.cards_home == 52
    return solution.status, solution.seconds, verified


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms"


def p90(values: list[float]) -> float:
    return statistics.quantiles(values, n=10)[-1] if len(values) > 1 else values[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=300, help="deals 1..N (default 300)")
    parser.add_argument("--rules", default="lucie", help="rule set for the hints (default lucie)")
    args = parser.parse_args()
    numbers = range(1, args.deals + 1)
    total = len(numbers)
    with Pool(WORKERS) as pool:
        fair = pool.map(play, [("fair", args.rules, n) for n in numbers], chunksize=1)
        greedy = pool.map(play, [("greedy", args.rules, n) for n in numbers], chunksize=1)
        print(f"fair hint wins: {sum(won for won, _ in fair)}/{total}")
        print(f"greedy hint wins: {sum(won for won, _ in greedy)}/{total}")
        times = [t for _, game_times in fair for t in game_times]
        print(
            f"fair hint time: median {ms(statistics.median(times))}, p90 {ms(p90(times))}, "
            f"max {ms(max(times))} over {len(times)} hints"
        )
        verified = 0
        for rules_name, label in (("lucie", "solver"), ("nomerci", "solver (nomerci)"),
                                  ("lucie-r0", "solver (lucie-r0)")):  # fmt: skip
            results = pool.map(solve_one, [(rules_name, n) for n in numbers], chunksize=1)
            counts = {
                status: sum(r[0] == status for r in results)
                for status in ("won", "lost", "undecided")
            }
            seconds = [r[1] for r in results]
            verified += sum(r[2] for r in results)
            print(
                f"{label}: won {counts['won']}, lost {counts['lost']}, "
                f"undecided {counts['undecided']} of {total}; "
                f"median {ms(statistics.median(seconds))}, p90 {ms(p90(seconds))}, "
                f"max {ms(max(seconds))}"
            )
        print(f"verified: {verified} wins replayed to 52 cards home")


if __name__ == "__main__":
    main()
