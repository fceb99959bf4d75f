"""The card tags of the Django pages that show cards (the rules page's example fans):
`{% card view static %}`, `{% fan_cards fan %}`, `{% face view %}`, over the card markup that
game/board/table.py builds for the board's Jinja2 templates; and the words board.js says
(`board_words_json`). The sprite's URL is looked up once per template render, not once per card.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django import template
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

from game.board import words
from game.board.table import CardView, FanView, card_markup, face, fan_markup, sprite

register = template.Library()


def _sprite_of(context: Any) -> str:
    """The sprite's URL, once per template render (the render context lives as long as one)."""
    found: str | None = context.render_context.get("cards_sprite")
    if found is None:
        found = context.render_context["cards_sprite"] = sprite()
    return found


@register.simple_tag(takes_context=True)
def card(context: Any, view: CardView, static: bool = False) -> SafeString:
    return card_markup(view, static, _sprite_of(context))


@register.simple_tag(takes_context=True)
def fan_cards(context: Any, fan: FanView, static: bool = False) -> SafeString:
    """A fan's cards, bottom first: one tag per fan rather than a loop of `{% card %}` tags (the
    template engine's cost is per node, and a board has 52 cards in some 18 fans)."""
    return fan_markup(fan, static, _sprite_of(context))


@register.simple_tag(name="face", takes_context=True)
def face_tag(context: Any, view: CardView) -> SafeString:
    return mark_safe(face(view, _sprite_of(context)))  # every value in it is escaped


def _one_and_many(say: Callable[[int], str]) -> list[str]:
    """A plural as the script takes it: the pair (one, many)."""
    return [say(1), say(2)]


def _card_name_words() -> dict[str, object]:
    """A card's name: its rank's pattern (Ace to King) with the suit put in."""
    return {
        "names": [str(said) for said in words.CARD_WORDS],
        "the": [str(said) for said in words.THE_CARD_WORDS],
        "under": [str(said) for said in words.UNDER_CARD_WORDS],
        "suits": {suit: str(said) for suit, said in words.SUIT_WORDS.items()},
    }


def _grammar_words() -> dict[str, object]:
    """Whether 0 takes the singular, and the words that end a list."""
    return {
        "zero_is_one": ngettext("%(count)s move", "%(count)s moves", 0)
        == ngettext("%(count)s move", "%(count)s moves", 1),
        "and": pgettext("the last of a list", "and"),
        "or": pgettext("the last of a list", "or"),
    }


def _picked_card_words() -> dict[str, object]:
    """A picked card: where it may go and how to lay it; and where a card looked up lies."""
    return {
        "home": _("to its foundation"),
        "empty_fan": _("into empty fan %(fan)s"),
        "onto_on": _("onto %(card)s on fan %(fan)s"),
        "onto": _("onto %(card)s"),
        "no_move": _("%(card)s has no move just now."),
        "tap": _("tap a lit place"),
        "keys": _("move to a lit place and press Enter"),
        "click": _("click a lit place"),
        "drop": _("drop it on a lit place"),
        "picked_short": _("%(card)s: %(how)s."),
        "picked_from": _("%(card)s from fan %(fan)s picked up: it may go %(places)s."),
        "picked": _("%(card)s picked up: it may go %(places)s."),
        "in_fan": _("%(card)s is in fan %(fan)s, under %(cards)s."),
        "on_foundation": _("%(card)s is on its foundation."),
        "not_on_table": _("%(card)s is not on the table."),
    }


def _counter_words() -> dict[str, object]:
    """The counters read aloud: the deal, the moves, the time, the redeals and mercis left."""
    return {
        "deal": pgettext("a numbered layout", "Deal %(number)s"),
        "moves": _one_and_many(lambda n: ngettext("%(count)s move", "%(count)s moves", n)),
        "time": _("time %(time)s"),
        "unlimited": _("unlimited redeals"),
        "redeals_left": _one_and_many(
            lambda n: ngettext("%(count)s redeal left", "%(count)s redeals left", n)
        ),
        "mercis_left": _one_and_many(
            lambda n: ngettext("%(count)s merci left", "%(count)s mercis left", n)
        ),
        "cards_home": _one_and_many(
            lambda n: ngettext("%(count)s of 52 cards home", "%(count)s of 52 cards home", n)
        ),
    }


def _failed_request_words() -> dict[str, object]:
    """What a request that did not go through left behind."""
    return {
        "unreachable": _("The server could not be reached. Please try again."),
        "busy": _(
            "The server is busy just now, so nothing was played. Please try again in a moment."
        ),
        "too_many": _("Too many requests at once, so nothing was played. Please wait a moment."),
        "failed": _("Something went wrong on the server. Please try again."),
        # Instant moves (static/js/board/instant.js): a laid move taken back.
        "taken_back": _(
            "No answer from the server, so your move was taken back. The board will be"
            " checked again as soon as the connection is back."
        ),
        "stale": _(
            "That board was out of date, so nothing was played. Here is the game as it stands."
        ),
    }


def _merci_words() -> dict[str, object]:
    """What the merci can take."""
    return {
        "merci_none": _("No buried card has a place to go just now."),
        "merci_count": _one_and_many(
            lambda n: ngettext("one buried card", "%(count)s buried cards", n)
        ),
        "merci_marked": _("The merci can take %(count)s: they are marked."),
        "merci_cards": _("The merci can take %(count)s: %(cards)s."),
    }


def _typing_keys() -> dict[str, object]:
    """The letters typed to name a card, rank letters Ace to King and suit letters Clubs,
    Diamonds, Hearts, Spades (the English ones work too where they are free)."""
    return {
        "rank_keys": str(words.RANK_LETTERS).split(),
        "suit_keys": str(words.SUIT_LETTERS).split(),
    }


def board_words() -> dict[str, object]:
    """The words board.js says for what happens in the browser alone (a picked card, a card
    looked up by typing its name, the counters read aloud, a failed request), in the page's
    language: the same msgids as game/board/announce.py where the sentence is the same. `%(name)s`
    placeholders are filled by the script; a plural is a pair (one, many) and `zero_is_one` says
    whether 0 takes the first (French)."""
    return {
        **_card_name_words(),
        **_grammar_words(),
        **_picked_card_words(),
        **_counter_words(),
        **_failed_request_words(),
        **_merci_words(),
        **_typing_keys(),
    }


@register.simple_tag
def board_words_json() -> str:
    """board_words() as JSON, for a data attribute (the template escapes it)."""
    import json

    return json.dumps(board_words(), ensure_ascii=False, separators=(",", ":"))
