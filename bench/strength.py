"""How strong and how quick are the hint and the solver? Deals 1-1000 under the default rules.

    .venv/bin/python bench/strength.py                     # everything (about an hour on 2 cores)
    .venv/bin/python bench/strength.py --deals 100 --jobs 2 --rule-deals 20 --parts hint,solver
    .venv/bin/python bench/strength.py --rules lucie-free-once --deals 300 --parts hint
    .venv/bin/python bench/strength.py --smoke                # every part on 1 or 2 deals, seconds

Fairness: each game played by a hint draws its redeals from a hidden shuffle seed,
`hidden_seed(n) = n + 10**12`, which is never passed to the hint. The hint only ever sees the
position, whose `shuffle_seed` it must not read (tests/engine/test_hint.py checks it does not).
A game played by a hint stops when the hint has nothing to offer, or after MAX_REDEALS redeals
(only reachable with unlimited redeals). Hints are asked exactly as the site asks them:
`engine.hint(position)` with its default deadline, and each one is timed.

The solver is given the real seed, as "Show a win" is, and the site's budget
(game/board/show_a_win.py:
2 s and 3,000,000 nodes); every win it reports is replayed move by move through `Play.play` and
must end with 52 cards home, and every loss it reports must be a proof (`Solution.proven`).

Parts (`--parts`, comma-separated; all by default):
- `hint`: the fair hint on deals 1..--deals under the default rules (wins on 1-300 and on all,
  timing), and the greedy hint on the same deals; with `--rules`, the fair hint again on the
  same deals under each of those rule sets, its wins printed beside the default's;
- `rules`: the fair hint on deals 1..--rule-deals under each rule set of RULE_SETS;
- `every`: hint timing on deals 1..--every-deals under each of the 444 rule sets;
- `solver`: the solver on deals 1..--deals (default rules) and 1..300 (SOLVER_RULES);
- `review`: the review of each game the fair hint loses on deals 1..--deals (default rules),
  as the site makes it (game/review/found.py): the binary search for where it slipped away, then
  one solve after the fair hint's move there, each solve with the site's budget and the shuffles
  the game was played with (its hidden seed), timed in CPU.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections.abc import Iterable, Sequence
from multiprocessing import Pool
from multiprocessing.pool import Pool as PoolType
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from game.engine import Play, Position, Rules, apply, budget, every_rule_set
from game.engine.hint import HINT_SECONDS, Hint, greedy_hint, hint
from game.engine.review import Slip
from game.engine.solver import Solution, solve

MAX_REDEALS = 10
SOLVER_NODES = 3_000_000  # game/board/show_a_win.py NODE_CAP
SOLVER_SECONDS = 2.0  # game/board/show_a_win.py TIME_LIMIT
RULE_SETS = ("nomerci", "trefoil", "sixteen", "lucie-r0-m2", "lucie-free-kings")
"""The rule sets besides the default whose win rates and hint times are reported."""
SOLVER_RULES = (("nomerci", "solver (nomerci)"), ("lucie-r0", "solver (lucie-r0)"))
PARTS = ("hint", "rules", "every", "solver", "review")
SMOKE_DEALS = (3, 4)
"""The smoke's deals: the fair hint wins deal 3 and loses deal 4, whose review takes about 0.1 s
of CPU (deal 1's, 0.9 s); under lucie-r0 the solver wins deal 3 and proves deal 4 lost."""


def hidden_seed(number: int) -> int:
    return number + 10**12


Played = tuple[bool, list[float], list[float]]
"""A game followed by a hint: won, then each hint's wall-clock and CPU seconds."""


Task = tuple[str, str, int, str, float | None]
"""A game to play: which hint, rule set, deal number, clock ("wall" or "cpu"), hint seconds."""


def play(args: Task) -> Played:
    """Follow a hint through deal `number`."""
    which, rules_name, number, clock, seconds = args
    budget.clock = time.thread_time if clock == "cpu" else time.perf_counter

    def advise(position: Position) -> Hint | None:
        return hint(position, time_limit=seconds) if which == "fair" else greedy_hint(position)

    game = Play(number, Rules.parse(rules_name), shuffle_seed=hidden_seed(number))
    times: list[float] = []
    cpu: list[float] = []
    redeals = 0
    while True:
        began, began_cpu = time.perf_counter(), time.process_time()
        advice = advise(game.position)
        times.append(time.perf_counter() - began)
        cpu.append(time.process_time() - began_cpu)
        if advice is None:
            break
        if advice.move.is_redeal:
            redeals += 1
            if redeals > MAX_REDEALS:
                break
        game.play(advice.move)
    return game.position.cards_home == 52, times, cpu


def solve_one(args: tuple[str, int, str]) -> tuple[str, float, bool, bool, float]:
    """Solve deal `number` from its start, with its time limit read on `clock`; returns (status,
    seconds, verified win, proven loss, CPU seconds)."""
    rules_name, number, clock = args
    budget.clock = time.thread_time if clock == "cpu" else time.perf_counter
    rules = Rules.parse(rules_name)
    began_cpu = time.process_time()
    solution = solve(Position.start(number, rules), SOLVER_NODES, SOLVER_SECONDS)
    cpu = time.process_time() - began_cpu
    verified = False
    if solution.won:
        game = Play(number, rules)
        for move in solution.moves:
            game.play(move)
        verified = game.position.cards_home == 52
    proven = solution.status == "lost" and solution.proven
    return solution.status, solution.seconds, verified, proven, cpu


Reviewed = tuple[bool, int, list[float], bool]
"""A game's review: lost (reviewed at all), solves, each solve's CPU seconds, undecided."""


def review_one(args: tuple[int, str, float | None]) -> Reviewed:
    """Follow the fair hint through deal `number` with its hidden seed; if it loses, review it."""
    number, clock, seconds = args
    budget.clock = time.thread_time if clock == "cpu" else time.perf_counter
    game = Play(number, Rules.parse("lucie"), shuffle_seed=hidden_seed(number))
    redeals = 0
    while (advice := hint(game.position, time_limit=seconds)) is not None:
        redeals += advice.move.is_redeal
        if redeals > MAX_REDEALS:
            break
        game.play(advice.move)
    if game.position.cards_home == 52:
        return False, 0, [], False
    cpu: list[float] = []

    def timed(position: Position) -> Solution:
        began = time.thread_time()
        found = solve(position, SOLVER_NODES, SOLVER_SECONDS)
        cpu.append(time.thread_time() - began)
        return found

    positions, moves = game.positions(), game.moves
    slip = Slip.begin(len(moves))
    while slip.state == "working":
        slip = slip.step(positions, moves, timed)
    at = slip.last_winnable
    if at is not None and at >= 0:  # fair or foresight: the hint's move there, solved
        advice = hint(positions[at], time_limit=seconds)
        if advice is not None and advice.move != moves[at]:
            timed(apply(positions[at], advice.move))
    return True, len(cpu), cpu, slip.state == "undecided"


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms"


def quantile(values: list[float], share: float) -> float:
    """The value below which `share` of `values` lie (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(share * len(ordered)) - 1))]


def time_lines(games: list[Played], which: str = "") -> str:
    """The wall-clock line, then the same figures in CPU time (what the search itself took,
    without the waits for a core on a busy machine)."""
    lines = []
    for what, times in (
        ("time", [t for _, ts, _ in games for t in ts]),
        ("CPU time", [t for _, _, ts in games for t in ts]),
    ):
        lines.append(
            f"fair hint {what}{which}: median {ms(statistics.median(times))}, "
            f"p99 {ms(quantile(times, 0.99))}, max {ms(max(times))} over {len(times)} hints"
        )
    return "\n".join(lines)


def load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"load average: {one:.2f}, {five:.2f}, {fifteen:.2f}"


class Hints:
    """Plays games in the pool with one clock and time limit for every hint."""

    def __init__(self, pool: PoolType, clock: str, seconds: float | None) -> None:
        self.pool, self.clock, self.seconds = pool, clock, seconds

    def __call__(self, which: str, rules_name: str, numbers: Iterable[int]) -> list[Played]:
        tasks = [(which, rules_name, n, self.clock, self.seconds) for n in numbers]
        return self.pool.map(play, tasks, chunksize=1)


def wins(games: list[Played]) -> int:
    return sum(won for won, _, _ in games)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=1000, help="deals 1..N (default 1000)")
    parser.add_argument("--rule-deals", type=int, default=200, help="deals per rule set (200)")
    parser.add_argument("--every-deals", type=int, default=2, help="deals per rule set, every (2)")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes (default 2)")
    parser.add_argument("--parts", default=",".join(PARTS), help="what to run: " + ",".join(PARTS))
    parser.add_argument(
        "--clock",
        choices=("wall", "cpu"),
        default="wall",
        help="what the hint's and the solver's time limits are read on: wall-clock time, as on "
        "the site (default), or the CPU time they get, for figures that do not depend on how "
        "busy the machine is",
    )
    parser.add_argument(
        "--hint-seconds",
        type=lambda text: None if text == "none" else float(text),
        default=HINT_SECONDS,
        help=f"the hint's time limit (default {HINT_SECONDS}, the site's; 'none': no limit)",
    )
    parser.add_argument(
        "--rules",
        default="",
        help="rule sets (comma-separated) whose fair hint the `hint` part plays on the same deals "
        "as the default's, for example lucie-free-once",
    )
    parser.add_argument(
        "--smoke",
        action="store_true",
        help="every part on a few deals with one process (seconds): that the script still runs",
    )
    args = parser.parse_args()
    if args.smoke:
        args.deals, args.rule_deals, args.every_deals, args.jobs = 2, 1, 1, 1
    others = [Rules.parse(name).name for name in args.rules.split(",") if name]
    parts = set(args.parts.split(","))
    if parts - set(PARTS):
        parser.error(f"unknown parts: {', '.join(sorted(parts - set(PARTS)))}")
    numbers: Sequence[int] = SMOKE_DEALS if args.smoke else range(1, args.deals + 1)
    total = len(numbers)
    print(load(), flush=True)
    if args.clock != "wall" or args.hint_seconds != HINT_SECONDS:
        print(f"time limits on the {args.clock} clock; hint time limit: {args.hint_seconds} s")
    with Pool(args.jobs) as pool:
        hints = Hints(pool, args.clock, args.hint_seconds)
        if "hint" in parts:
            fair = hints("fair", "lucie", numbers)
            if total > 300:
                print(f"fair hint wins: {wins(fair[:300])}/300")
            print(f"fair hint wins: {wins(fair)}/{total}")
            for name in others:
                games = hints("fair", name, numbers)
                print(
                    f"fair hint wins ({name}): {wins(games)}/{total}, "
                    f"beside {wins(fair)}/{total} under lucie",
                    flush=True,
                )
                print(time_lines(games, f" ({name})"), flush=True)
            greedy = hints("greedy", "lucie", numbers)
            print(f"greedy hint wins: {wins(greedy)}/{total}")
            print(time_lines(fair), flush=True)
        if "rules" in parts:
            for name in RULE_SETS:
                games = hints("fair", name, range(1, args.rule_deals + 1))
                print(f"fair hint wins ({name}): {wins(games)}/{len(games)}")
                print(time_lines(games, f" ({name})"), flush=True)
        if "every" in parts:
            # The smoke's sweep: three rule sets far apart (one of each family of layouts).
            sweep = every_rule_set()[::148] if args.smoke else every_rule_set()
            games = [
                game
                for rules in sweep
                for game in hints("fair", rules.name, range(1, args.every_deals + 1))
            ]
            which = "" if args.smoke else "all "
            label = f"{which}{len(sweep)} rule sets, deals 1-{args.every_deals}"
            print(time_lines(games, f" ({label})"), flush=True)
        if "solver" in parts:
            verified = proven = 0
            runs = [("lucie", "solver", numbers)]
            others = numbers if args.smoke else range(1, min(total, 300) + 1)
            runs += [(name, label, others) for name, label in SOLVER_RULES]
            for rules_name, label, deals in runs:
                tasks = [(rules_name, n, args.clock) for n in deals]
                results = pool.map(solve_one, tasks, chunksize=1)
                counts = {
                    status: sum(r[0] == status for r in results)
                    for status in ("won", "lost", "undecided")
                }
                seconds = [r[1] for r in results]
                verified += sum(r[2] for r in results)
                proven += sum(r[3] for r in results)
                print(
                    f"{label}: won {counts['won']}, lost {counts['lost']}, "
                    f"undecided {counts['undecided']} of {len(results)}; "
                    f"median {ms(statistics.median(seconds))}, p90 {ms(quantile(seconds, 0.9))}, "
                    f"max {ms(max(seconds))}",
                )
                undecided = [n for n, r in zip(deals, results, strict=True) if r[0] == "undecided"]
                if undecided:
                    print(f"{label} undecided deals: {' '.join(map(str, undecided))}")
                cpu = [r[4] for r in results]
                print(
                    f"{label} CPU time: median {ms(statistics.median(cpu))}, "
                    f"p90 {ms(quantile(cpu, 0.9))}, max {ms(max(cpu))}",
                    flush=True,
                )
            print(f"verified: {verified} wins replayed to 52 cards home, {proven} losses proven")
        if "review" in parts:
            began = time.perf_counter()
            tasks = [(n, args.clock, args.hint_seconds) for n in numbers]
            reviewed = [r for r in pool.map(review_one, tasks, chunksize=1) if r[0]]
            cpu = [t for r in reviewed for t in r[2]]
            solves = sum(r[1] for r in reviewed) / max(1, len(reviewed))
            p99 = quantile(cpu, 0.99) * 1000 if cpu else 0.0
            print(
                f"review: {len(reviewed)} lost games, {solves:.1f} solves per review on average, "
                f"p99 {p99:.0f} ms of CPU per solve, {sum(r[3] for r in reviewed)} undecided"
            )
            print(
                f"review: median {ms(statistics.median(cpu)) if cpu else '-'} of CPU per solve, "
                f"max {ms(max(cpu)) if cpu else '-'}; {time.perf_counter() - began:.0f} s in all",
                flush=True,
            )
    print(load())


if __name__ == "__main__":
    main()
