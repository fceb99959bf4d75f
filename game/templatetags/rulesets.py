"""`{{ game.rules|rules_label }}`: a stored rule-set name as players read it, in the page's
language; `{{ rules|rules_describe }}`: the rule set and its options in a line;
`{{ move|move_words }}`: a move in words. The words are game.board.words's.
"""

from __future__ import annotations

from django import template

from game import engine
from game.board import words

register = template.Library()


@register.filter
def rules_label(name: str | engine.Rules) -> str:
    try:
        rules = name if isinstance(name, engine.Rules) else engine.Rules.parse(name)
    except engine.InvalidRulesError:
        return str(name)  # never stored, but a page should not fail over a name
    return words.rules_label(rules)


@register.filter
def rules_describe(rules: engine.Rules) -> str:
    return words.rules_described(rules)


@register.filter
def move_words(move: engine.Move) -> str:
    return words.describe(move)
