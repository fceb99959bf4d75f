"""`{% card card static %}`: one card's markup, built in Python.

A board has up to 52 cards and is rendered on every move; as an `{% include %}` per card the
template engine spent most of a move request on them (bench/load.py). The markup is the same one
game/_card.html used to hold; every value is escaped.
"""

from __future__ import annotations

from django import template
from django.templatetags.static import static
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from game.board.display import CardView

register = template.Library()


def face(view: CardView) -> str:
    """The face: the corner index (rank over suit) in text, so a strip reads whatever the card
    style; the art (pips, an Ace's pip, a court figure) from the cached sprite static/cards.svg
    (scripts/card_art.py), with the second index turned in the opposite corner; and the large
    pip that the large-index card style shows instead of the art."""
    symbol = escape(view.symbol)
    ten = " ten" if view.rank == "10" else ""  # two digits: drawn narrower to fit a strip
    rank = escape(view.rank)
    return (
        '<span class="face" aria-hidden="true"><span class="index">'
        f'<span class="rank{ten}">{rank}</span><span class="suit">{symbol}</span></span>'
        f'<svg class="art" viewBox="0 0 100 140">'
        f'<use href="{sprite()}#c-{escape(view.code)}"/></svg>'
        f'<span class="index foot"><span class="foot-rank{ten}">{rank}</span>'
        f'<span class="foot-suit">{symbol}</span></span>'
        f'<span class="pip">{symbol}</span></span>'
    )


def sprite() -> str:
    return static("cards.svg")


@register.simple_tag
def card(view: CardView, static: bool = False) -> SafeString:
    colour = "red" if view.red else "black"
    place = "is-top" if view.top else "buried"
    common = f'data-card="{escape(view.code)}" aria-label="{escape(view.name)}"'
    hint = f' data-hint="{escape(view.hint)}"' if view.hint else ""
    if view.target_move and not static:
        html = (
            '<button type="submit" form="move-form" name="move" '
            f'value="{escape(view.target_move)}" class="card {colour} is-top is-target" '
            f"{common}{hint}>{face(view)}</button>"
        )
    elif view.interactive and not static:
        selected = " is-selected" if view.selected else ""
        pressed = "true" if view.selected else "false"
        value = "" if view.selected else escape(view.code)
        html = (
            f'<button type="submit" form="select-form" name="sel" value="{value}" '
            f'class="card {colour} {place}{selected}" data-card="{escape(view.code)}" '
            f'data-moves="{escape(view.moves_text)}" aria-label="{escape(view.name)}" '
            f'aria-pressed="{pressed}"{hint}>{face(view)}</button>'
        )
    else:
        html = f'<span class="card {colour} {place}" role="img" {common}{hint}>{face(view)}</span>'
    return mark_safe(html + "\n")  # every value above is escaped


@register.simple_tag(name="face")
def face_tag(view: CardView) -> SafeString:
    return mark_safe(face(view))  # every value in it is escaped
