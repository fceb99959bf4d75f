"""`{{ game.rules|rules_label }}`: a stored rule-set name as players read it.

The words come from the engine's `Rules.label`, the one source of rule-set names; statistics tabs,
replays and records all show them through this filter.
"""

from __future__ import annotations

from django import template

from game import engine

register = template.Library()


@register.filter
def rules_label(name: str) -> str:
    try:
        return engine.Rules.parse(name).label
    except engine.InvalidRulesError:
        return name  # never stored, but a page should not fail over a name
