"""`{% csrf_input as csrf_input %}`: the CSRF field of a board's forms, rendered once.

A board has up to nine forms that post (undo, redeal, redo, auto-finish, the two move forms, the
lost panel's undo, the winning line's three buttons, Show a win), and each keeps its own token
field so that a form a key press submits before htmx has taken it over still posts as a plain
form. `{% csrf_token %}` in each of them rendered the same field up to nine times per move; the
board renders it once and reuses the text. Its markup is Django's `{% csrf_token %}`'s. The embed
posts with no token (its game's token in the URL is the whole authorization), so for a context
with `embed` it is empty.
"""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe

register = template.Library()


@register.simple_tag(takes_context=True)
def csrf_input(context: Any) -> SafeString:
    if context.get("embed"):
        return mark_safe("")
    token = context.get("csrf_token")
    if not token or token == "NOTPROVIDED":
        return mark_safe("")
    return format_html('<input type="hidden" name="csrfmiddlewaretoken" value="{}">', token)
