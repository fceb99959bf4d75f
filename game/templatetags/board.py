"""`{% board_part "board/table.jinja" static=True %}`: one of the board's Jinja2 templates
(game/jinja2/board/, rendered by game/jinja.py's environment) inside a Django page, with the
page's context and the values given.

The board, its felt, its fans, its live region and the "Show a win" question each exist once, as
Jinja2 templates: a move's htmx answer renders them directly (game/board/answers.py,
game/embed/front.py), and the pages that show them (the game, the daily page, the embed, a
replay, a review, the rules' example fans, "Show a win" without JavaScript) take them through
this tag.
"""

from __future__ import annotations

from typing import Any

from django import template
from django.template import engines
from django.utils.safestring import SafeString, mark_safe

register = template.Library()


@register.simple_tag(takes_context=True)
def board_part(context: Any, name: str, **values: Any) -> SafeString:
    found = engines["jinja2"].get_template(name)
    html = found.render({**context.flatten(), **values}, request=context.get("request"))
    return mark_safe(html)  # the Jinja2 environment escapes every value (autoescape)
