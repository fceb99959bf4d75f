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

from django.conf import settings
from django.utils import text, translation
from django.utils.translation import trans_real
from jinja2 import Environment

from game.board import words
from game.templatetags import cards


# A board's templates ask for some 100 words a render. Each is looked up once per catalogue: the
# key is the language's catalogue itself, which Django makes anew when the translation settings
# change, so nothing needs clearing (docs/benchmarks.md, "One plain transaction").
@functools.lru_cache(maxsize=4096)
def _word(catalogue: object, function: str, *args: str) -> str:
    found: str = getattr(translation, function)(*args)
    return found


def _catalogue() -> object:
    return trans_real.translation(translation.get_language() or settings.LANGUAGE_CODE)


def gettext(message: str) -> str:
    return _word(_catalogue(), "gettext", message)


def pgettext(context: str, message: str) -> str:
    return _word(_catalogue(), "pgettext", context, message)


def environment(**options: Any) -> Environment:
    env = Environment(extensions=["jinja2.ext.i18n"], **options)
    env.install_gettext_callables(  # type: ignore[attr-defined]
        gettext,
        translation.ngettext,
        newstyle=True,
        pgettext=pgettext,
        npgettext=translation.npgettext,
    )
    env.globals.update(
        face=cards.face_markup,
        fan_cards=cards.fan_markup,
        sprite=cards.sprite,
        board_words_json=cards.board_words_json,
    )
    env.filters.update(
        rules_describe=words.rules_described,
        move_words=words.describe,
        capfirst=text.capfirst,
    )
    return env
