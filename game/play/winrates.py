"""How often each rule set can be won, as the rules page shows it: read from the figures that
`bench/winrates.py` measured and wrote to `game/data/winrates.json` (docs/benchmarks.md)."""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from django.utils.formats import number_format
from django.utils.translation import pgettext

from game import engine
from game.board.words import rules_label

DATA = Path(__file__).resolve().parent.parent / "data" / "winrates.json"


@dataclass(frozen=True)
class WinRate:
    """One rule set's figures: shares of `deals` won, each with its 95% interval's ends."""

    rules: str
    deals: int
    hint: float
    hint_low: float
    hint_high: float
    winnable: float
    winnable_low: float
    winnable_high: float
    undecided: int

    @property
    def label(self) -> str:
        return rules_label(engine.Rules.parse(self.rules))

    @property
    def hint_text(self) -> str:
        return _share(self.hint, self.hint_low, self.hint_high)

    @property
    def winnable_text(self) -> str:
        return _share(self.winnable, self.winnable_low, self.winnable_high)


def _percent(share: float) -> str:
    return pgettext("a percentage", "%(value)s%%") % {"value": number_format(100 * share, 1)}


def _share(share: float, low: float, high: float) -> str:
    return f"{_percent(share)} ({_percent(low)}\u2013{_percent(high)})"  # an en dash


@functools.cache
def _read(path: Path) -> dict[str, Any]:
    try:
        loaded = json.loads(path.read_text())
    except FileNotFoundError:
        return {}
    return loaded if isinstance(loaded, dict) else {}


def win_rates(path: Path = DATA) -> list[WinRate]:
    """The presets' figures, in the order the new-game form offers them (those measured)."""
    measured = _read(path).get("rule_sets", {})
    rates = []
    for name in engine.PRESETS:
        row = measured.get(name)
        if not row or not row["deals"]:
            continue
        deals, hint, solver = row["deals"], row["hint"], row["solver"]
        rates.append(
            WinRate(
                rules=name,
                deals=deals,
                hint=hint["wins"] / deals,
                hint_low=hint["low"],
                hint_high=hint["high"],
                winnable=solver["won"] / deals,
                winnable_low=solver["low"],
                winnable_high=solver["high"],
                undecided=solver["undecided"],
            )
        )
    return rates
