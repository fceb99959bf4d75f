"""The Jinja2 environment of the board's templates (game/jinja2/board/): the one part of the
site that Jinja2 renders, because a move's answer is rendered on every move and Django's template
engine took about 2.2 times as long over it (docs/architecture.md, "The board's renderer").

Every other page is a Django template, and one that shows a board or a part of it (the felt of a
replay, the rules page's example fans) takes it through `{% board_part %}`
(game/templatetags/board.py), so each of the board's templates exists once. The words are
Django's gettext, so the board is in the page's language from the same catalogues; `makemessages`
reads the `.jinja` files too (game/management/commands/makemessages.py). Autoescaping is on, as
in Django's templates, and Django's safe strings (`SafeString`) stay safe here.
"""

from __future__ import annotations

import functools
from typing import Any

from django.utils import text, translation
from jinja2 import Environment, pass_context
from jinja2.runtime import Context
from markupsafe import Markup

from game.board.answer import LANGUAGE
from game.templatetags import cards, rulesets


# A board's template asks for some 40 of its words on every render. Each answer is looked up once
# per language and process (the keys are the templates' own literals, so the caches stay small).
@functools.lru_cache(maxsize=2048)
def _words(language: str, function: str, *args: Any) -> str:
    found: str = getattr(translation, function)(*args)
    return found


# What a template's `_()` and `pgettext()` give: Jinja2's i18n calls these with the render's
# context (they replace its own wrappers, which made a safe string of the translation and then
# formatted it, even with nothing to put in, on every call). The same result, remembered per
# language: the translation as a safe string (autoescaping is on), formatted with the
# template's variables when it passes some, and "%%" read as "%" when it does not.
@functools.lru_cache(maxsize=2048)
def _safe(language: str, function: str, *args: Any) -> Markup:
    return Markup(_words(language, function, *args))


@functools.lru_cache(maxsize=2048)
def _formatted(language: str, function: str, *args: Any) -> Markup:
    return _safe(language, function, *args) % {}


def _translated(
    context: Context, function: str, args: tuple[Any, ...], variables: dict[str, Any]
) -> str:
    # The render's language, when its caller named it (game.board.answer): asking Django for it
    # costs a look into the thread's state on each of the board's forty words.
    language = context.get(LANGUAGE) or translation.get_language()
    if not context.eval_ctx.autoescape:
        return str(_words(language, function, *args) % variables)
    if variables:
        return _safe(language, function, *args) % variables
    return _formatted(language, function, *args)


@pass_context
def template_gettext(__context: Context, __string: str, **variables: Any) -> str:
    return _translated(__context, "gettext", (__string,), variables)


@pass_context
def template_pgettext(
    __context: Context, __string_ctx: str, __string: str, **variables: Any
) -> str:
    return _translated(__context, "pgettext", (__string_ctx, __string), variables)


def ngettext(singular: str, plural: str, number: int) -> str:
    return translation.ngettext(singular, plural, number)


def npgettext(context: str, singular: str, plural: str, number: int) -> str:
    return translation.npgettext(context, singular, plural, number)


def environment(**options: Any) -> Environment:
    env = Environment(extensions=["jinja2.ext.i18n"], **options)
    # Jinja2's wrappers for the plurals; its `_()` and `pgettext()` are replaced just below.
    env.install_gettext_callables(  # type: ignore[attr-defined]
        translation.gettext, ngettext, newstyle=True, npgettext=npgettext
    )
    env.globals.update(
        gettext=template_gettext,
        pgettext=template_pgettext,
        face=cards.face_markup,
        fan_cards=cards.fan_markup,
        sprite=cards.sprite,
        board_words_json=cards.board_words_json,
    )
    env.filters.update(
        rules_describe=rulesets.rules_describe,
        move_words=rulesets.move_words,
        capfirst=text.capfirst,
    )
    return env
