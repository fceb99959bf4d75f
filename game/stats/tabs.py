"""The statistics page's tabs: one per rule set (the four presets, and any other this browser has
played), and all of them together, each with the games it counts; and the `?rules=` choice read
back (game/stats/player_stats.py counts the games).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.db.models import Count
from django.utils.translation import gettext

from game import engine
from game.stats.player_stats import counted_games
from game.templatetags.rulesets import rules_label


@dataclass(frozen=True)
class RuleSetTab:
    name: str  # the `?rules=` value: a rule set's name, or "all"
    label: str
    played: int
    current: bool


def rule_set_tabs(
    session_key: str | None, selected: str | None, since: dt.datetime | None = None
) -> list[RuleSetTab]:
    """The four rule sets, any other this browser has played, and all of them together."""
    counts = dict(
        counted_games(session_key, since=since)
        .values_list("rules")
        .annotate(n=Count("pk"))
        .values_list("rules", "n")
    )
    presets = list(engine.PRESETS)
    names = presets + sorted(set(counts) - set(presets))
    tabs = [
        RuleSetTab(name, rules_label(name), counts.get(name, 0), name == selected) for name in names
    ]
    tabs.append(RuleSetTab("all", gettext("All rule sets"), sum(counts.values()), selected is None))
    return tabs


def parse_rules_choice(text: str) -> str | None:
    """`?rules=`: a rule set's name (normalized), "all" (None), or empty for the default."""
    if text == "all":
        return None
    if not text:
        return engine.DEFAULT_RULES.name
    return engine.Rules.parse(text).name
