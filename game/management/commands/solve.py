"""`manage.py solve FIRST LAST [--rules NAME]`: run the solver over a range of deals.

Prints a progress bar on stderr, then how many deals were won, lost and left undecided, and the
time per deal (median, 90th percentile, max). Each deal is searched from its start with its real
redeals, as "Show a win" does, within a node budget and a time limit per deal.
"""

from __future__ import annotations

import statistics
import time
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from game.engine import InvalidDealError, InvalidRulesError, Position, Rules, check_deal_number
from game.engine.solver import solve

BAR_WIDTH = 30


class Command(BaseCommand):
    help = "Solve deals FIRST..LAST (redeals foreseen) and report won / lost / undecided and times."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("first", type=int, help="first deal number")
        parser.add_argument("last", type=int, help="last deal number (included)")
        parser.add_argument(
            "--rules", default="lucie", help="rule set, e.g. lucie, nomerci, lucie-r0"
        )
        parser.add_argument("--nodes", type=int, default=3_000_000, help="node budget per deal")
        parser.add_argument("--seconds", type=float, default=20.0, help="time limit per deal")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            rules = Rules.parse(options["rules"])
            first = check_deal_number(options["first"])
            last = check_deal_number(options["last"])
        except (InvalidRulesError, InvalidDealError) as error:
            raise CommandError(str(error)) from None
        if last < first:
            raise CommandError(f"LAST ({last}) comes before FIRST ({first})")
        count = last - first + 1
        tally = {"won": 0, "lost": 0, "undecided": 0}
        seconds: list[float] = []
        began = time.perf_counter()
        for done, number in enumerate(range(first, last + 1), start=1):
            solution = solve(Position.start(number, rules), options["nodes"], options["seconds"])
            tally[solution.status] += 1
            seconds.append(solution.seconds)
            self._progress(done, count, number, tally)
        self.stderr.write("")
        wall = time.perf_counter() - began
        self.stdout.write(
            f"{rules.name} deals {first}-{last}: won {tally['won']}, lost {tally['lost']}, "
            f"undecided {tally['undecided']} of {count} in {wall:.1f} s"
        )
        self.stdout.write(
            f"time per deal: median {_ms(statistics.median(seconds))}, "
            f"p90 {_ms(_p90(seconds))}, max {_ms(max(seconds))}"
        )

    def _progress(self, done: int, count: int, number: int, tally: dict[str, int]) -> None:
        filled = BAR_WIDTH * done // count
        bar = "#" * filled + "." * (BAR_WIDTH - filled)
        self.stderr.write(
            f"\r[{bar}] {done}/{count} deal {number}: "
            f"won {tally['won']} lost {tally['lost']} undecided {tally['undecided']}",
            ending="",
        )
        self.stderr.flush()


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms"


def _p90(values: list[float]) -> float:
    return statistics.quantiles(values, n=10)[-1] if len(values) > 1 else values[0]
