"""How often can each rule set be won? The fair hint's and the solver's rates, with 95% intervals.

    .venv/bin/python bench/winrates.py                  # deals 1-1000 under each preset
    .venv/bin/python bench/winrates.py --smoke          # deal 1, a few seconds, no file written
    .venv/bin/python bench/winrates.py --report         # the figures of what is done, no play

For each preset (the default, no merci, Trefoil, Sixteen fans, and the app's game) and each of
the first N deals it plays two games:

- the fair hint follows its own advice from the deal's first layout, as `bench/strength.py` plays
  it: the redeals are shuffled from a seed the hint is never given (deal number + 10^12), and each
  hint has the site's 60 ms, read on the CPU clock so that a busy machine does not weaken it;
- the solver searches the deal with its real shuffles (what "Show a win" sees), with no node cap
  and `--solve-seconds` of CPU time; a deal it cannot decide in that time is counted undecided.

Each preset then prints one line:

    win rate RULES: fair hint P% ± E, winnable W% ± E2 (95% CI, N deals, U undecided)

P and W are the shares of the N deals won; ± is half the width of the 95% Wilson score interval
(which, unlike the normal approximation, stays inside 0-100% and is right near the ends). An
undecided deal might be either: the winnable interval runs from the Wilson low end counting it
lost to the high end counting it won, so U widens it honestly. The figures, each interval's ends
and the solver's median and p99 time go to `game/data/winrates.json`, which the rules page reads.

Every finished game is appended to a progress file (`--progress`), so a run that is stopped can
go on where it was (`--report` only reads it). Deals are played in order, every preset at each
deal before the next deal, so a stopped run has nearly the same N for all; the figures use, per
preset, the first deals with nothing missing before them.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from game.engine import PRESETS, Play, Position, Rules, budget
from game.engine.hint import HINT_SECONDS, hint
from game.engine.solver import solve

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "game" / "data" / "winrates.json"
# Outside test-artifacts/, which every pytest run empties.
PROGRESS = Path(tempfile.gettempdir()) / "lucie-winrates-progress.jsonl"
MAX_REDEALS = 10  # a game followed by the hint stops here (only unlimited redeals reach it)
Z = 1.959964  # the normal quantile of a two-sided 95% interval


def hidden_seed(number: int) -> int:
    return number + 10**12


def wilson(wins: int, n: int) -> tuple[float, float]:
    """The 95% Wilson score interval of `wins` in `n`, as shares.

    >>> [round(end, 4) for end in wilson(50, 100)]
    [0.4038, 0.5962]
    >>> wilson(0, 10)[0], round(wilson(0, 10)[1], 4)
    (0.0, 0.2775)
    """
    if n == 0:
        return 0.0, 1.0
    share = wins / n
    centre = share + Z * Z / (2 * n)
    spread = Z * math.sqrt(share * (1 - share) / n + Z * Z / (4 * n * n))
    scale = 1 + Z * Z / n
    return max(0.0, (centre - spread) / scale), min(1.0, (centre + spread) / scale)


def play_fair(rules: Rules, number: int, seconds: float) -> bool:
    """Follow the fair hint through deal `number`, its redeals hidden from it."""
    game = Play(number, rules, shuffle_seed=hidden_seed(number))
    redeals = 0
    while (advice := hint(game.position, time_limit=seconds)) is not None:
        redeals += advice.move.is_redeal
        if redeals > MAX_REDEALS:
            break
        game.play(advice.move)
    return game.position.cards_home == 52


def solve_deal(rules: Rules, number: int, seconds: float) -> tuple[str, float]:
    """The solver's verdict on deal `number` and its CPU seconds; a win is replayed to be sure."""
    began = time.thread_time()
    solution = solve(Position.start(number, rules), max_nodes=None, time_limit=seconds)
    cpu = time.thread_time() - began
    if solution.won:
        game = Play(number, rules)
        for move in solution.moves:
            game.play(move)
        if game.position.cards_home != 52:
            raise AssertionError(f"the solver's win on deal {number} ({rules}) does not replay")
    return solution.status, cpu


Task = tuple[str, int, float, float]


def run(task: Task) -> dict[str, object]:
    name, number, hint_seconds, solve_seconds = task
    budget.clock = time.thread_time
    rules = Rules.parse(name)
    began = time.thread_time()
    won = play_fair(rules, number, hint_seconds)
    hint_cpu = time.thread_time() - began
    status, cpu = solve_deal(rules, number, solve_seconds)
    return {
        "rules": name,
        "deal": number,
        "hint": won,
        "hint_cpu": round(hint_cpu, 3),
        "solver": status,
        "cpu": round(cpu, 4),
    }


def read_progress(path: Path) -> dict[tuple[str, int], dict[str, object]]:
    done: dict[tuple[str, int], dict[str, object]] = {}
    if path.exists():
        for line in path.read_text().splitlines():
            if line.strip():
                row = json.loads(line)
                done[(str(row["rules"]), int(row["deal"]))] = row
    return done


def first_run(done: dict[tuple[str, int], dict[str, object]], name: str, limit: int) -> list[dict]:
    """The rows of deals 1, 2, ... under `name` up to the first missing one (or `limit`)."""
    rows = []
    for number in range(1, limit + 1):
        row = done.get((name, number))
        if row is None:
            break
        rows.append(row)
    return rows


def quantile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(share * len(ordered)) - 1))]


def figures(name: str, rows: list[dict]) -> dict[str, object]:
    n = len(rows)
    hint_wins = sum(bool(row["hint"]) for row in rows)
    won = sum(row["solver"] == "won" for row in rows)
    undecided = sum(row["solver"] == "undecided" for row in rows)
    hint_low, hint_high = wilson(hint_wins, n)
    low, _ = wilson(won, n)
    _, high = wilson(won + undecided, n)
    times = [float(row["cpu"]) for row in rows] or [0.0]
    undecided_deals = [int(row["deal"]) for row in rows if row["solver"] == "undecided"]
    return {
        "rules": name,
        "deals": n,
        "hint": {"wins": hint_wins, "low": round(hint_low, 5), "high": round(hint_high, 5)},
        "solver": {
            "won": won,
            "lost": n - won - undecided,
            "undecided": undecided,
            "undecided_deals": undecided_deals,
            "low": round(low, 5),
            "high": round(high, 5),
            "median_seconds": round(statistics.median(times), 4),
            "p99_seconds": round(quantile(times, 0.99), 4),
            "max_seconds": round(max(times), 4),
        },
    }


def pct(share: float) -> str:
    return f"{100 * share:.1f}%"


def line(row: dict) -> str:
    n = row["deals"]
    hint_part, solver = row["hint"], row["solver"]
    p = hint_part["wins"] / n if n else 0.0
    w = solver["won"] / n if n else 0.0
    e = (hint_part["high"] - hint_part["low"]) / 2
    e2 = (solver["high"] - solver["low"]) / 2
    return (
        f"win rate {row['rules']}: fair hint {pct(p)} ± {pct(e)}, winnable {pct(w)} ± {pct(e2)} "
        f"(95% CI, {n} deals, {solver['undecided']} undecided)"
    )


def tasks(
    names: list[str], deals: int, hint_s: float, solve_s: float, done: dict
) -> Iterator[Task]:
    for number in range(1, deals + 1):
        for name in names:
            if (name, number) not in done:
                yield name, number, hint_s, solve_s


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=1000, help="deals 1..N (default 1000)")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes (default 2)")
    parser.add_argument("--rules", default=",".join(PRESETS), help="rule sets, comma-separated")
    parser.add_argument("--hint-seconds", type=float, default=HINT_SECONDS, help="per hint (CPU)")
    parser.add_argument("--solve-seconds", type=float, default=20.0, help="per deal (CPU, 20)")
    parser.add_argument("--progress", type=Path, default=PROGRESS, help="the progress file")
    parser.add_argument("--out", type=Path, default=DATA, help="the data file the page reads")
    parser.add_argument("--report", action="store_true", help="only read the progress file")
    parser.add_argument(
        "--smoke", action="store_true", help="deal 1, the solver 0.5 s, no file written"
    )
    args = parser.parse_args()
    names = [Rules.parse(name).name for name in args.rules.split(",")]
    os.nice(max(0, 10 - os.nice(0)))  # niced to 10 in all, however it was started
    if args.smoke:
        args.deals, args.solve_seconds, args.jobs = 1, 0.5, 1
        done: dict[tuple[str, int], dict[str, object]] = {}
        for task in tasks(names, args.deals, args.hint_seconds, args.solve_seconds, done):
            row = run(task)
            done[(str(row["rules"]), int(row["deal"]))] = row
    else:
        done = read_progress(args.progress)
        if not args.report:
            args.progress.parent.mkdir(parents=True, exist_ok=True)
            todo = list(tasks(names, args.deals, args.hint_seconds, args.solve_seconds, done))
            print(f"{len(todo)} games to play, {len(done)} already done", flush=True)
            with Pool(args.jobs) as pool, args.progress.open("a") as progress:
                for row in pool.imap_unordered(run, todo, chunksize=1):
                    progress.write(json.dumps(row) + "\n")
                    progress.flush()
                    done[(str(row["rules"]), int(row["deal"]))] = row
    rows = [figures(name, first_run(done, name, args.deals)) for name in names]
    for row in rows:
        print(line(row))
        solver = row["solver"]
        print(
            f"  solver {row['rules']}: won {solver['won']}, lost {solver['lost']}, undecided "
            f"{solver['undecided']}; CPU median {1000 * solver['median_seconds']:.0f} ms, "
            f"p99 {1000 * solver['p99_seconds']:.0f} ms, max {1000 * solver['max_seconds']:.0f} ms"
            + (f"; undecided deals {solver['undecided_deals']}" if solver["undecided"] else "")
        )
    if not args.smoke:
        data = {
            "made_by": "bench/winrates.py",
            "hint_seconds": args.hint_seconds,
            "solve_seconds": args.solve_seconds,
            "rule_sets": {row["rules"]: row for row in rows},
        }
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(data, indent=1) + "\n")
        print(f"wrote {args.out.relative_to(ROOT) if args.out.is_relative_to(ROOT) else args.out}")


if __name__ == "__main__":
    main()
